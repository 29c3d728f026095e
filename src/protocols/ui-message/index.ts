/**
 * The AI SDK UI message stream: the protocol definition, its decoder and the
 * AI SDK's resume strategy.
 *
 * @example
 * import { uiMessageProtocol } from 'weft/protocols/ui-message'
 */
export { uiMessageProtocol } from './protocol'
export { aiSdkResume, type AiSdkHandle, type AiSdkResumeOptions } from './resume'
export { uiMessageHistory, readUIMessageHistory, type UIMessageLike } from './history'
export type * from '../../core/protocol/entry-types'
