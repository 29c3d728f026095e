/**
 * The context that carries an agent store. Apart from `AgentProvider` so that
 * reading the store (selectors, components) does not bring in the code that
 * makes one (the fold, immer, JSON Patch).
 */
import { createContext, useContext } from 'react'
import type { WeftError } from '../core/model/errors'
import type { AgentStore } from '../core/store/store'

/**
 * The store of the enclosing `AgentProvider`, or null.
 *
 * @example
 * <StoreContext.Provider value={store}>…</StoreContext.Provider>
 */
export const StoreContext = createContext<AgentStore | null>(null)

/**
 * The store of the nearest `AgentProvider`.
 *
 * @example
 * const store = useAgentStore()
 * store.getState().turnIds
 */
export function useAgentStore(): AgentStore {
  const store = useContext(StoreContext)
  if (!store) throw new Error('weft: this component needs an <AgentProvider> above it')
  return store
}

/** Why the store below takes no send (set by `ConversationsProvider` while it shows no conversation's own store). */
export const SendRefusalContext = createContext<WeftError | undefined>(undefined)

/**
 * Why a send to the store shown would be refused, or `undefined` when it would
 * go. Under a `ConversationsProvider` that is while the selected conversation is
 * still loading, cannot be read, or none is selected: what is shown then is an
 * empty store that is never saved, so the hooks refuse to send into it (a
 * `validation` error, code `conversation_unavailable`) and `Composer` is disabled.
 *
 * @example
 * function MySend({ send }: { send: () => void }) {
 *   const refusal = useSendRefusal()
 *   return <button disabled={refusal !== undefined} title={refusal?.message} onClick={send}>Send</button>
 * }
 */
export function useSendRefusal(): WeftError | undefined {
  return useContext(SendRefusalContext)
}
