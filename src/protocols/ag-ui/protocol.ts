/**
 * AG-UI as a plug-in: the event decoder, detection by event type, resume by
 * `Last-Event-ID`, `RunAgentInput` requests, the history reader and the tool view with navigation actions.
 */
import type { ProtocolDefinition } from '../../core/protocol/types'
import { lastEventIdResume } from '../../core/resume/strategies/last-event-id'
import { createAgUiDecoder } from './decoder'
import { sniffAgUi } from './event-types'
import { readAgUiHistory } from './history'
import { AgUiToolView } from './navigation-actions'
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
  views: { tool: AgUiToolView },
}
