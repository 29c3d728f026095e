/**
 * weft's framework-free core: transport, decoders, ops, fold, store and client.
 * Nothing here imports React.
 */
export * from './errors'
export * from './model'
export type * from './ops'
export { fold, applyOps } from './fold/fold'
export { applyDelta } from './fold/deltas'
export { parsePath } from './fold/paths'
export { isSafeKey, clean } from './util/record'
export { createAgentStore, snapshot, type AgentStore, type AgentStoreState, type AgentStoreOptions } from './store'
export { createBatcher, syncScheduler, microtaskScheduler, frameScheduler, defaultScheduler, type Batcher, type Scheduler } from './batcher'
export { foldStream, streamToOps, type FoldStreamOptions } from './fold-stream'
export { FrameDecoder, type FrameDecoderOptions } from './pipeline'
export {
  AgentClient, textOf, RESUME_EXHAUSTED, RESUME_EXPIRED,
  type AgentClientOptions, type SendInput, type RequestBody, type StreamSource, type StreamSourceContext, type ResumeOptions,
} from './client'
export * from './resume/index'
export { registerProtocol, registeredProtocols, getProtocol, resolveProtocol, protocolName } from './protocol/registry'
export { detectProtocol } from './protocol/detect'
export { historyReaderOf, readHistory } from './protocol/history'
export * from './selectors'
export { selectBranch, siblingAt, ROOT_BRANCH, type BranchInfo } from './branches'
export * from './util/partial-json'
export type * from './protocol/types'
export * from './transport/index'
export { newId } from './ids'
export * from './conversations/index'
export * from './history/index'
