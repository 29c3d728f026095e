/**
 * Vocion as a plug-in: its decoder, detection, request builder, history reader and resume strategy.
 */
import type { ProtocolDefinition } from '../../core/index'
import { readVocionHistory } from './history'
import { createVocionDecoder, sniffVocion } from './decoder'
import { vocionResume } from './resume'
import { vocionRequest } from './request'

/**
 * Vocion's event stream (`stream_meta`, `response_delta`, ...), resumed by stream id and event count.
 *
 * @example
 * foldStream(sseText, { protocol: vocionProtocol })
 */
export const vocionProtocol: ProtocolDefinition = {
  name: 'vocion',
  create: createVocionDecoder,
  sniff: sniffVocion,
  request: vocionRequest,
  history: readVocionHistory,
  resume: () => vocionResume(),
  // The rail has no request that carries an answer: the host's endpoint resumes the run.
  gateAnswers: 'host',
}
