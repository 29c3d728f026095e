/**
 * AG-UI, as registered with the kit. The decoder lives in `./ag-ui/`.
 */
import type { ProtocolDefinition } from '../../core/protocol/types'
import { createAgUiDecoder } from './decoder'
import { sniffAgUi } from './event-types'
import { agUiRequest } from './request'

export { createAgUiDecoder, agUiInputMessageId } from './decoder'
export { AG_UI_EVENT_TYPES, sniffAgUi } from './event-types'
export { readAgUiMessage, toolCallProps, type MessagePart, type ReadMessage } from './messages'
export { readToolResult, type ToolResultReading } from './tool-result'

/**
 * The AG-UI event stream (runs / events / history back ends), as registered with the kit.
 *
 * @example
 * foldStream(sseText, { protocol: 'ag-ui' })
 */
export const agUiProtocol: ProtocolDefinition = { name: 'ag-ui', create: createAgUiDecoder, sniff: sniffAgUi, request: agUiRequest }
