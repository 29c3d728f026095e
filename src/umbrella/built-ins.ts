/**
 * The built-in protocols as the `weft` entry uses them: the four of
 * `weft/protocols`, AG-UI with its views (so its tool calls draw with
 * `AgUiToolView`), and LangGraph.
 */
import type { ProtocolDefinition } from '../core/protocol/types'
import { agUiProtocolWithViews } from '../protocols/ag-ui/react/index'
import { langGraphProtocol } from '../protocols/langgraph/index'
import { uiMessageProtocol } from '../protocols/ui-message/index'
import { vocionProtocol } from '../protocols/vocion/index'
import { yaoProtocol } from '../protocols/yao/index'

/**
 * The built-in protocols, in the order detection tries them, with their views
 * (`weft/protocols` lists the first four without views, and loads no React;
 * LangGraph is `weft/protocols/langgraph`).
 * The `weft` entry's providers, client, `foldStream` and `readHistory` use them
 * when no `protocols` are given.
 *
 * @example
 * builtInProtocols.map((p) => p.name) // ['yao', 'ui-message', 'vocion', 'ag-ui', 'langgraph']
 * <AgentProvider protocols={[...builtInProtocols, myProtocol]}>…</AgentProvider>
 */
export const builtInProtocols: readonly ProtocolDefinition[] = [yaoProtocol, uiMessageProtocol, vocionProtocol, agUiProtocolWithViews, langGraphProtocol]
