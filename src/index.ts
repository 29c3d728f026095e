/**
 * weft: React hooks and components for agent chat UIs.
 *
 * @example
 * import { AgentProvider, useAgentStream, Transcript } from 'weft'
 */
export * from './core/index'
export * from './react/index'
export * from './components/index'
export * from './protocols/index'
