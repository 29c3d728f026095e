/**
 * The protocols a provider's hooks and components speak: given once to
 * `AgentProvider` and read by every client its hooks make, by `useHistory`, and
 * by the renderers (a protocol's own views). Kept apart from the provider so
 * that reading it brings in nothing else.
 */
import { createContext, useContext } from 'react'
import type { ProtocolDefinition } from '../core/protocol/types'

/**
 * The nearest provider's protocols, or `undefined` when none was given.
 *
 * @example
 * <ProtocolsContext.Provider value={[yaoProtocol]}>…</ProtocolsContext.Provider>
 */
export const ProtocolsContext = createContext<readonly ProtocolDefinition[] | undefined>(undefined)

/**
 * The protocols of the nearest `AgentProvider` that was given some (`[]` when none was).
 *
 * @example
 * const names = useProtocols().map((p) => p.name)
 */
export function useProtocols(): readonly ProtocolDefinition[] {
  return useContext(ProtocolsContext) ?? NONE
}

const NONE: readonly ProtocolDefinition[] = []
