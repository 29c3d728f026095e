/**
 * AG-UI as a plug-in: the event decoder, detection by event type, resume by
 * `Last-Event-ID`, `RunAgentInput` requests and the history reader. Its views
 * (the tool view with navigation actions) are in `weft/protocols/ag-ui/react`,
 * so this definition loads no React.
 */
import { lastEventIdResume, type ProtocolDefinition } from '../../core/index'
import { createAgUiDecoder } from './decoder'
import { sniffAgUi } from './event-types'
import { readAgUiHistory } from './history'
import { agUiRequest } from './request'

/**
 * The AG-UI event stream (runs / events / history back ends).
 *
 * @example
 * foldStream(sseText, { protocol: agUiProtocol })
 */
export const agUiProtocol: ProtocolDefinition = {
  name: 'ag-ui',
  create: createAgUiDecoder,
  sniff: sniffAgUi,
  request: agUiRequest,
  resume: lastEventIdResume,
  history: readAgUiHistory,
}
