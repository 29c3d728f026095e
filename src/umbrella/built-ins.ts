/**
 * The four built-in protocols as the `weft` entry uses them: AG-UI with its
 * views, so its tool calls draw with `AgUiToolView`.
 */
import type { ProtocolDefinition } from '../core/protocol/types'
import { agUiProtocolWithViews } from '../protocols/ag-ui/react/index'
import { uiMessageProtocol } from '../protocols/ui-message/index'
import { vocionProtocol } from '../protocols/vocion/index'
import { yaoProtocol } from '../protocols/yao/index'

/**
 * The built-in protocols, in the order detection tries them, with their views
 * (`weft/protocols` lists the same four without views, and loads no React).
 * The `weft` entry's providers, client, `foldStream` and `readHistory` use them
 * when no `protocols` are given.
 *
 * @example
 * builtInProtocols.map((p) => p.name) // ['yao', 'ui-message', 'vocion', 'ag-ui']
 * <AgentProvider protocols={[...builtInProtocols, myProtocol]}>…</AgentProvider>
 */
export const builtInProtocols: readonly ProtocolDefinition[] = [yaoProtocol, uiMessageProtocol, vocionProtocol, agUiProtocolWithViews]
