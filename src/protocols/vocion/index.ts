/**
 * Vocion: the protocol definition, its decoder, its error classes and its resume strategy.
 *
 * @example
 * import { vocionProtocol } from 'weft/protocols/vocion'
 */
export { vocionProtocol } from './protocol'
export { vocionResume, type VocionHandle, type VocionResumeOptions } from './resume'
export { vocionHistory, readVocionHistory, type VocionTranscriptTurn } from './history'
export type * from '../../core/protocol/entry-types'
