/**
 * weft: React hooks and components for agent chat UIs.
 *
 * Everything the split entries export, with one convenience and no import-time
 * effects: where a list of protocols can be given and is not (`AgentProvider`,
 * `ConversationsProvider`, `foldStream`, `streamToOps`, `readHistory`), the
 * built-in protocols are used. A client made by hand is given them:
 * `new AgentClient(store, { url, protocols: builtInProtocols })`.
 *
 * @example
 * import { AgentProvider, useAgentStream, Transcript } from 'weft'
 */
export * from './core/index'
export * from './react/index'
export * from './components/index'
export * from './protocols/index'
export * from './protocols/ag-ui/react/index'

// Named here, so they win over the split entries' names of the same name.
export { builtInProtocols } from './umbrella/built-ins'
export { AgentProvider, ConversationsProvider } from './umbrella/providers'
export { foldStream, streamToOps, readHistory } from './umbrella/defaults'
