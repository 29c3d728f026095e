/**
 * A store per provider (zustand's scoped-store pattern): several agents on one
 * page never share state unless the host hands them the same store.
 */
import { createContext, useContext, useState, type ReactNode } from 'react'
import { createAgentStore, type AgentStore } from '../core/store'

const StoreContext = createContext<AgentStore | null>(null)

/** Props of `AgentProvider`. */
export interface AgentProviderProps {
  /** Use the host's own store (made with `createAgentStore`) instead of a new one. */
  store?: AgentStore
  children?: ReactNode
}

/**
 * Gives its subtree one agent store.
 *
 * @example
 * <AgentProvider>
 *   <Chat />
 * </AgentProvider>
 */
export function AgentProvider({ store, children }: AgentProviderProps) {
  const [own] = useState(() => store ?? createAgentStore())
  return <StoreContext.Provider value={store ?? own}>{children}</StoreContext.Provider>
}

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
