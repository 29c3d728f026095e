/**
 * weft's framework-free core: transport, decoders, ops, fold, store and client.
 * Nothing here imports React.
 */
export * from './errors'
export * from './model'
export type * from './ops'
export { fold, applyOps } from './fold/fold'
export { applyDelta } from './fold/deltas'
export { parsePath, isSafeKey, clean } from './fold/paths'
export { createAgentStore, snapshot, type AgentStore, type AgentStoreState, type AgentStoreOptions } from './store'
export { createBatcher, syncScheduler, frameScheduler, defaultScheduler, type Batcher, type Scheduler } from './batcher'
export { foldStream, streamToOps, type FoldStreamOptions } from './fold-stream'
export { FrameDecoder, type FrameDecoderOptions } from './pipeline'
export {
  AgentClient, textOf, RESUME_EXHAUSTED, RESUME_EXPIRED,
  type AgentClientOptions, type SendInput, type RequestBody, type StreamSource, type StreamSourceContext, type ResumeOptions,
} from './client'
export * from './resume/index'
export { protocols, getProtocol } from './decoders/registry'
export { detectProtocol } from './decoders/detect'
export { createYaoDecoder, yaoProtocol } from './decoders/yao'
export { createVocionDecoder, vocionProtocol, classifyVocionError } from './decoders/vocion'
export * from './selectors'
export { createUIMessageDecoder, uiMessageProtocol, UI_MESSAGE_CHUNK_TYPES } from './decoders/ui-message'
export * from './partial-json'
export { AG_UI_EVENT_TYPES } from './decoders/ag-ui'
export * from './ag-ui/index'
export type * from './decoders/types'
export * from './transport/index'
export { newId } from './ids'
