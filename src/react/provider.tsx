/**
 * A store per provider (zustand's scoped-store pattern): several agents on one
 * page never share state unless the host hands them the same store. The
 * provider also carries what its hooks and components share: the protocols they
 * speak, client defaults, and which client acts for each store.
 */
import { createContext, useContext, useLayoutEffect, useEffect, useMemo, useState, type ReactNode } from 'react'
import type { AgentClientOptions } from '../core/client'
import type { ProtocolDefinition } from '../core/protocol/types'
import { createAgentStore, type AgentStore } from '../core/store/store'
import { ClientSlots, ClientSlotsContext, type StoreClient } from './client-slots'
import { ProtocolsContext } from './protocols-context'
import { StoreContext } from './store-context'

export { useAgentStore } from './store-context'

const DefaultsContext = createContext<Partial<AgentClientOptions> | undefined>(undefined)

/** Props of `AgentProvider`. */
export interface AgentProviderProps {
  /** Use the host's own store (made with `createAgentStore`) instead of a new one. */
  store?: AgentStore
  /**
   * The protocols the hooks below speak, detect among and name (`protocol: 'yao'`),
   * and whose views the components draw with. A nested provider without them
   * uses the outer one's. The `weft` entry's provider defaults to the built-ins.
   */
  protocols?: readonly ProtocolDefinition[]
  /**
   * A client made outside the hooks (`new AgentClient(store, …)`) that acts for
   * the store: gate cards answer, branch pickers switch and Retry asks through it.
   */
  client?: StoreClient
  /**
   * Client options every `useAgentStream` below starts from (its own options win):
   * how a test harness hands hooks a mock `fetch` and a synchronous scheduler.
   * They go over an outer provider's, so a harness around the app (an inspector,
   * say) still reaches hooks under a provider of the app's own.
   */
  clientDefaults?: Partial<AgentClientOptions>
  children?: ReactNode
}

/**
 * Gives its subtree one agent store, and the protocols its hooks speak.
 *
 * @example
 * <AgentProvider protocols={[uiMessageProtocol]}>
 *   <Chat />
 * </AgentProvider>
 */
export function AgentProvider({ store, protocols, client, clientDefaults, children }: AgentProviderProps) {
  const [own] = useState(() => store ?? createAgentStore())
  const current = store ?? own
  const outerSlots = useContext(ClientSlotsContext)
  const [slots] = useState(() => outerSlots ?? new ClientSlots())
  useIsomorphicLayoutEffect(() => (client ? slots.bind(current, client) : undefined), [slots, current, client])
  let inner = (
    <ClientSlotsContext.Provider value={slots}>
      <StoreContext.Provider value={current}>{children}</StoreContext.Provider>
    </ClientSlotsContext.Provider>
  )
  if (protocols) inner = <ProtocolsContext.Provider value={protocols}>{inner}</ProtocolsContext.Provider>
  const outerDefaults = useContext(DefaultsContext)
  const defaults = useMemo(() => (outerDefaults && clientDefaults ? { ...outerDefaults, ...clientDefaults } : clientDefaults), [outerDefaults, clientDefaults])
  return defaults ? <DefaultsContext.Provider value={defaults}>{inner}</DefaultsContext.Provider> : inner
}

/**
 * `options` over the nearest provider's `clientDefaults`, with the provider's
 * protocols when the options name none.
 *
 * @example
 * const merged = useWithClientDefaults({ url: '/api/agent' })
 */
export function useWithClientDefaults<T extends AgentClientOptions>(options: T): T {
  const defaults = useContext(DefaultsContext)
  const protocols = useContext(ProtocolsContext)
  const merged = defaults ? { ...defaults, ...options } : options
  return merged.protocols === undefined && protocols ? { ...merged, protocols } : merged
}

// useLayoutEffect warns when rendered on a server, where no effect runs anyway.
const useIsomorphicLayoutEffect = typeof window === 'undefined' ? useEffect : useLayoutEffect
