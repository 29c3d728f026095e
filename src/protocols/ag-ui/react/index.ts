/**
 * AG-UI's React side: its views, the definition with them attached, and the
 * history hook. `weft/protocols/ag-ui` is the protocol without React (decoding,
 * requests, resume, history); this entry adds what draws it. The `weft` entry's
 * built-in list has `agUiProtocolWithViews`, so AG-UI tool calls draw with
 * `AgUiToolView` there; with the split entries, give it to the provider yourself.
 *
 * @example
 * import { AgentProvider } from 'weft/react'
 * import { agUiProtocolWithViews } from 'weft/protocols/ag-ui/react'
 * <AgentProvider protocols={[agUiProtocolWithViews]}><Chat /></AgentProvider>
 */
import type { ProtocolDefinition, ProtocolViews } from '../../../core/index'
import { agUiProtocol } from '../protocol'
import { AgUiToolView } from './tool-view'

export { AgUiToolView, NavigationActions, type NavigationActionsProps } from './tool-view'
export { useAgUiHistory, type UseAgUiHistoryOptions, type AgUiHistoryHandle } from './use-ag-ui-history'
export type { AgUiHistoryOptions, AgUiHistoryStatus } from '../history'
export type { MessageRendererProps, MessagePartProps } from '../../../components/index'
export type * from '../../../core/protocol/entry-types'
export type { HistoryStatus } from '../../../protocol-kit/index'

/**
 * AG-UI's views by message type: a tool call draws with `AgUiToolView` (the
 * kit's tool view, then the navigation actions its result offers).
 *
 * @example
 * <RendererProvider protocols={[{ ...agUiProtocol, views: agUiViews }]}>…</RendererProvider>
 */
export const agUiViews: ProtocolViews = Object.freeze({ tool: AgUiToolView })

/**
 * `agUiProtocol` with `agUiViews` attached: the definition in the `weft`
 * entry's built-in list. Give it in place of `agUiProtocol` (the same name, so
 * it decodes the same) to an `AgentProvider`'s or a `RendererProvider`'s `protocols`.
 *
 * @example
 * <AgentProvider protocols={[uiMessageProtocol, agUiProtocolWithViews]}><Chat /></AgentProvider>
 * // decoded as with agUiProtocol; tool calls draw with AgUiToolView
 */
export const agUiProtocolWithViews: ProtocolDefinition = Object.freeze({ ...agUiProtocol, views: agUiViews })
