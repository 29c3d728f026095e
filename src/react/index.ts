/**
 * weft's React binding: the provider, the headless hooks and the selector hooks.
 */
export { AgentProvider, useAgentStore, type AgentProviderProps } from './provider'
export { useSendRefusal } from './store-context'
export { useActingClient, type StoreClient } from './client-slots'
export { useProtocols } from './protocols-context'
export { useAgentStream, type UseAgentStreamOptions, type AgentStreamHandle } from './use-agent-stream'
export { useResumableStream, type UseResumableStreamOptions, type ResumableStreamHandle } from './use-resumable-stream'
export {
  useAgentSelector, useAgentSelectorShallow, useTurnIds, useTurns, useTurn, useMessage, useBlocks, useThread,
  useTrace, useGates, useStatus, useStreamError, useTraceNode, useTraceRootIds, useHeadline, useTraceSummary,
  useCitations, useSources, useGate, useQueuedMessages,
} from './selectors'
export { useBranch, type BranchHandle } from './use-branch'
export { useAgentState } from './use-agent-state'
export { useAgentContext } from './use-agent-context'
export {
  ConversationsProvider, useConversations, useConversationStore, useConversationId,
  type ConversationsProviderProps, type ConversationsHandle,
} from './conversations'
export { useHistory, useOlderOnScroll, type UseHistoryOptions, type HistoryHandle } from './use-history'

// The core's types the hooks' options and handles reach, so a host can name them from here.
export type {
  AgentClient, AgentStore, AgentStoreState, Scheduler, AgentClientOptions, StreamTransport, TransportStream, TransportHooks, StreamEndReason, ResumeOptions, SendInput, SendOptions, WhileRunning, StreamSource, StreamSourceContext, StreamSourceCancelContext, SourceBuildOptions,
  RequestBody, HttpRequest, StreamRequest, SSEFrame, AttachmentLimits, ClientTool, UiTool, RespondResult, AgentStateUpdate, AddContextResult, JsonValue,
  ActionResult, AnswerResult, ApprovalResponse, GateResponse, InterruptDecision,
  AgentState, Turn, Block, Thread, Message, TraceNode, Gate, Source, QueuedMessage, TokenUsage, TurnTiming, RunTiming,
  StreamStatus, TurnStatus, MessageStatus, TraceStatus, GateStatus, ProtocolName, SpanStatus, StreamCursor, TraceActor, TraceSummary, ErrorType, WeftError,
  MessageTable, MessageBucket, TraceTable, Op, HydratedTurn, TurnFields, MessagePlace, DeltaAction,
  ProtocolDefinition, ProtocolInput, Decoder, DecoderFactory, DecodeContext, DetectInput, FrameMeta, DataPart, HistoryReader, HistoryReadContext, HistoryBatch, ProtocolViews,
  RequestBuilder, RequestContext, RequestTrigger, GateAnswerEntry, ToolDeclaration, ContextEntry,
  ResumeStrategy, ResumeStrategyName, ResumeHandle, ResumeStorage, ResumeState, ResumeRequest, ResumeRequestContext,
  ReplayItem, ReplayFilter, EventIdentity, DedupeContext, LedgerView, HistoryContext, HistoryLoader, HistoryResult, BackoffOptions,
  Conversations, ConversationsOptions, ConversationsState, ConversationStatus, ConversationStorage, ConversationChange, StoredConversation,
  ConversationSummary, ConversationRecord, ConversationSummaryRecord, StoredState, TitleSource,
  ClientInspector, TapRequest, TapFrame, TapRunEnd, TapRequestKind, RunPhase,
} from '../core/index'
export type { HistorySource, HistoryPageResult } from '../core/history/index'
