/**
 * weft: React hooks and components for agent chat UIs.
 *
 * @example
 * import { AgentProvider, useAgentStream, Transcript } from 'weft'
 */
import { registerProtocol, type ProtocolDefinition } from './core/index'
import { agUiProtocolWithViews } from './protocols/ag-ui/react/index'
import { uiMessageProtocol, vocionProtocol, yaoProtocol } from './protocols/index'

export * from './core/index'
export * from './react/index'
export * from './components/index'
export * from './protocols/index'
export * from './protocols/ag-ui/react/index'

/**
 * The built-in protocols, in the order detection tries them, with their views:
 * here AG-UI is `agUiProtocolWithViews`, so its tool calls draw with
 * `AgUiToolView`. (`weft/protocols` lists the same protocols without views,
 * and loads no React.) This entry registers them on import.
 *
 * @example
 * builtInProtocols.map((p) => p.name) // ['yao', 'ui-message', 'vocion', 'ag-ui']
 * builtInProtocols[3]!.views?.tool    // AgUiToolView
 */
export const builtInProtocols: readonly ProtocolDefinition[] = [yaoProtocol, uiMessageProtocol, vocionProtocol, agUiProtocolWithViews]

// After `weft/protocols` registered the four without views: AG-UI's definition with views replaces its own, in its place.
registerProtocol(...builtInProtocols)
