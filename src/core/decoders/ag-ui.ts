/**
 * AG-UI, as registered with the kit. The decoder lives in `./ag-ui/`.
 */
import type { ProtocolDefinition } from './types'
import { createAgUiDecoder } from './ag-ui/decoder'
import { sniffAgUi } from './ag-ui/event-types'

export { createAgUiDecoder, agUiInputMessageId } from './ag-ui/decoder'
export { AG_UI_EVENT_TYPES, sniffAgUi } from './ag-ui/event-types'
export { readAgUiMessage, toolCallProps, type MessagePart, type ReadMessage } from './ag-ui/messages'
export { readToolResult, type ToolResultReading } from './ag-ui/tool-result'

/**
 * The AG-UI event stream (runs / events / history back ends), as registered with the kit.
 *
 * @example
 * foldStream(sseText, { protocol: 'ag-ui' })
 */
export const agUiProtocol: ProtocolDefinition = { name: 'ag-ui', create: createAgUiDecoder, sniff: sniffAgUi }
