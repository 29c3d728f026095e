/**
 * weft's framework-free core: the store, the client, `foldStream`, the model and
 * the ops, protocol plug-ins, resume, conversations and errors. Nothing here
 * imports React. This is the deliberate surface; everything else in `src/core`
 * is internal and may change without notice (`api/weft-core.api.md` is the record).
 *
 * @example
 * import { AgentClient, createAgentStore } from 'weft/core'
 * import { uiMessageProtocol } from 'weft/protocols/ui-message'
 * const client = new AgentClient(createAgentStore(), { url: '/api/agent', protocols: [uiMessageProtocol] })
 */

// The store and when it commits.
export { createAgentStore, snapshot, type AgentStore, type AgentStoreState, type AgentStoreOptions } from './store/store'
export { syncScheduler, type Scheduler } from './store/batcher'

// The client: one conversation against one endpoint.
export { AgentClient, type AgentClientOptions, type SendInput, type SendOptions, type WhileRunning, type StreamSource } from './client'
export type { RequestBody, SourceBuildOptions, StreamSourceContext, StreamSourceCancelContext } from './client/options'
export type { ClientInspector, TapRequest, TapFrame, TapRunEnd, TapRequestKind } from './client/inspector-tap'
export type { RunPhase } from './client/run-state'
export type {
  ActionResult, AnswerResult, ApprovalResponse, AttachmentLimits, ClientTool, GateResponse, InterruptDecision, JsonValue,
  RespondResult, UiTool, AgentStateUpdate, AddContextResult,
} from './client/index'
export type { HttpRequest } from './transport/request'
export type { StreamRequest } from './transport/open-stream'
export type { SSEFrame } from './transport/frames'
export { httpSseTransport, type StreamTransport, type TransportStream, type TransportHooks } from './transport/transport'
export type { StreamEndReason } from './transport/open-stream'
export {
  webSocketTransport, type WebSocketTransportOptions, type WebSocketLike, type WebSocketConstructor,
  type WebSocketRequestMessage,
} from './transport/websocket'
export { inProcessTransport, AGENT_FAILED, type InProcessAgent, type InProcessRequest } from './transport/in-process'

// Folding without a client: a recorded stream, or ops from anywhere.
export { foldStream, type FoldStreamOptions } from './protocol/fold-stream'
export { applyOps } from './fold/fold'

// The model.
export {
  emptyState,
  type AgentState, type Turn, type Block, type Thread, type Message, type TraceNode, type Gate, type Source,
  type StreamStatus, type TurnStatus, type MessageStatus, type TraceStatus, type GateStatus, type ToolState, type ProtocolName,
  type SpanStatus, type StreamCursor, type TraceActor, type QueuedMessage,
} from './model/model'
export type { TokenUsage, TurnTiming, RunTiming } from './model/usage'
export {
  partProps, type MessagePart, type PartProps, type TypeOfKey,
  type TextProps, type ReasoningProps, type ToolProps, type FileProps, type DataProps, type ErrorProps,
  type NoticeProps, type LoadingProps, type OpenProps, type RecommendedActionProps,
} from './model/parts'
export { messageList, messageRecord, type MessageTable, type MessageBucket } from './model/message-table'
export { traceNodeIn, traceList, traceRecord, toTraceTable, type TraceTable } from './model/trace-table'

// The ops a decoder emits and the fold applies.
export type { Op, OpName, OpOf, HydratedTurn, TurnFields, MessagePlace, DeltaAction } from './model/ops'

// Protocols as plug-ins.
export type {
  ProtocolDefinition, ProtocolInput, Decoder, DetectInput, HistoryReader,
  DecoderFactory, DecodeContext, FrameMeta, DataPart, HistoryReadContext, ProtocolView, ProtocolViews,
} from './protocol/types'
export type { RequestBuilder, RequestContext, RequestTrigger, GateAnswerEntry, ToolDeclaration, ContextEntry } from './protocol/request'

// Resume.
export { RESUME_EXHAUSTED, RESUME_EXPIRED, type ResumeOptions } from './client'
export { alignReplay, lastEventIdResume, memoryStorage, type ResumeStrategy, type ResumeHandle, type ResumeStorage } from './resume/index'
export type {
  ResumeState, ResumeRequest, ResumeRequestContext, ReplayItem, ReplayFilter, EventIdentity, DedupeContext,
  HistoryContext, HistoryLoader, HistoryResult, BackoffOptions,
  AlignOptions, LedgerView, LastEventIdHandle, ResumeStrategyName,
} from './resume/index'

// Many conversations, persisted; history pages merged into a store.
export {
  createConversations, indexedDbConversations, memoryConversations,
  type Conversations, type ConversationStorage, type ConversationSummary,
  type ConversationsOptions, type ConversationsState, type ConversationStatus, type ConversationChange, type StoredConversation,
  type IndexedDbConversationsOptions, type IndexedDbConversationStorage,
  type ConversationRecord, type ConversationSummaryRecord, type StoredState, type TitleSource,
} from './conversations/index'
export { conversationRecord } from './conversations/record'
export { ConversationConflictError } from './conversations/storage'
export { historyOps, type HistoryBatch } from './history/index'
export { readHistory } from './protocol/history'

// Reading the state without React.
export {
  selectTurn, selectMessage, selectThread, selectTurnMessages, selectBlocks, selectGates,
  selectTraceTree, selectTraceList, selectHeadline, selectTraceSummary, selectCitation,
  type TraceTreeItem, type TraceSummary,
} from './store/selectors'

// Errors.
export { STREAM_TRUNCATED, WeftStreamError, weftError, type WeftError, type ErrorType } from './model/errors'
