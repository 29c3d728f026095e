/**
 * AG-UI's React side: its views, the definition with them attached, and the
 * history hook. `weft/protocols/ag-ui` is the protocol without React (decoding,
 * requests, resume, history); this entry adds what draws it. The `weft` entry
 * registers `agUiProtocolWithViews`, so AG-UI tool calls draw with `AgUiToolView`
 * there; with the split entries, register it (or pass `agUiViews`) yourself.
 *
 * @example
 * import { registerProtocol } from 'weft/core'
 * import { agUiProtocolWithViews } from 'weft/protocols/ag-ui/react'
 * registerProtocol(agUiProtocolWithViews)
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
 * `agUiProtocol` with `agUiViews` attached: the definition the `weft` entry
 * registers. Register it in place of `agUiProtocol` (the same name, so it
 * replaces it and keeps its place in detection), or hand it to a
 * `RendererProvider`'s `protocols`.
 *
 * @example
 * registerProtocol(agUiProtocolWithViews)
 * foldStream(sseText, { protocol: 'ag-ui' }) // decoded as before; tool calls now draw with AgUiToolView
 */
export const agUiProtocolWithViews: ProtocolDefinition = Object.freeze({ ...agUiProtocol, views: agUiViews })
