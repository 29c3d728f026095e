/**
 * A store per provider (zustand's scoped-store pattern): several agents on one
 * page never share state unless the host hands them the same store.
 */
import { createContext, useContext, useState, type ReactNode } from 'react'
import type { AgentClientOptions } from '../core/client'
import { createAgentStore, type AgentStore } from '../core/store'
import { StoreContext } from './store-context'

export { useAgentStore } from './store-context'

const DefaultsContext = createContext<Partial<AgentClientOptions> | undefined>(undefined)

/** Props of `AgentProvider`. */
export interface AgentProviderProps {
  /** Use the host's own store (made with `createAgentStore`) instead of a new one. */
  store?: AgentStore
  /**
   * Client options every `useAgentStream` below starts from (its own options win):
   * how a test harness hands hooks a mock `fetch` and a synchronous scheduler.
   */
  clientDefaults?: Partial<AgentClientOptions>
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
export function AgentProvider({ store, clientDefaults, children }: AgentProviderProps) {
  const [own] = useState(() => store ?? createAgentStore())
  const inner = <StoreContext.Provider value={store ?? own}>{children}</StoreContext.Provider>
  return clientDefaults ? <DefaultsContext.Provider value={clientDefaults}>{inner}</DefaultsContext.Provider> : inner
}

/**
 * `options` over the nearest provider's `clientDefaults`.
 *
 * @example
 * const merged = useWithClientDefaults({ url: '/api/agent' })
 */
export function useWithClientDefaults<T extends AgentClientOptions>(options: T): T {
  const defaults = useContext(DefaultsContext)
  return defaults ? { ...defaults, ...options } : options
}
