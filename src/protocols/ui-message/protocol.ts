/**
 * The AI SDK UI message stream as a plug-in: its decoder, detection, request builder, history reader and resume strategy.
 */
import type { ProtocolDefinition } from '../../core/index'
import { readUIMessageHistory } from './history'
import { createUIMessageDecoder, sniffUIMessage } from './decoder'
import { aiSdkResume } from './resume'
import { uiMessageRequest } from './request'

/**
 * The AI SDK UI message stream (`useChat`'s wire), resumed by the AI SDK's replay route.
 *
 * @example
 * foldStream(sseText, { protocol: uiMessageProtocol })
 */
export const uiMessageProtocol: ProtocolDefinition = {
  name: 'ui-message',
  create: createUIMessageDecoder,
  sniff: sniffUIMessage,
  request: uiMessageRequest,
  history: readUIMessageHistory,
  resume: () => aiSdkResume(),
}
