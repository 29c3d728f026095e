/**
 * The transport layer: HTTP and server-sent event framing, protocol-agnostic.
 */
export { parseSSEText, createFrameParser, isDoneFrame, type SSEFrame, type FrameSink, type FrameParser } from './frames'
export { httpError, parseRetryAfter } from './http-errors'
export {
  openStream,
  DEFAULT_IDLE_TIMEOUT_MS,
  type StreamRequest,
  type StreamHooks,
  type OpenedStream,
  type StreamEndReason,
} from './open-stream'
export { fetchJSON, type JSONResponse } from './fetch-json'
export type { HttpRequest } from './request'
export { httpSseTransport, type StreamTransport, type TransportStream, type TransportHooks } from './transport'
export {
  webSocketTransport,
  type WebSocketTransportOptions,
  type WebSocketLike,
  type WebSocketConstructor,
  type WebSocketRequestMessage,
} from './websocket'
export { inProcessTransport, AGENT_FAILED, type InProcessAgent, type InProcessRequest } from './in-process'
