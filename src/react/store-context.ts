/**
 * The context that carries an agent store. Apart from `AgentProvider` so that
 * reading the store (selectors, components) does not bring in the code that
 * makes one (the fold, immer, JSON Patch).
 */
import { createContext, useContext } from 'react'
import type { AgentStore } from '../core/store'

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
