/**
 * The core's types a protocol entry's signatures reach (a protocol definition,
 * its decoder, history and resume strategy, and the model they produce), so a
 * host can name them from the protocol's entry as well as from `weft/core`.
 * Type-only: nothing here is in a bundle.
 */
export type {
  AgentState, Turn, Block, Thread, Message, TraceNode, Gate, Source,
  StreamStatus, TurnStatus, MessageStatus, TraceStatus, GateStatus, ProtocolName, SpanStatus, StreamCursor, TraceActor, ErrorType, WeftError,
  TokenUsage, TurnTiming, RunTiming, QueuedMessage, JsonValue, ContextEntry,
  MessageTable, MessageBucket, TraceTable, Op, HydratedTurn, TurnFields, MessagePlace, DeltaAction,
  ProtocolDefinition, Decoder, DecoderFactory, DecodeContext, DetectInput, FrameMeta, DataPart, SSEFrame, HistoryReader, HistoryReadContext, HistoryBatch, ProtocolView, ProtocolViews,
  RequestBuilder, RequestBody, RequestContext, RequestTrigger, GateAnswerEntry, ToolDeclaration, SendInput,
  ResumeStrategy, ResumeHandle, ResumeState, ResumeRequest, ResumeRequestContext, ReplayItem, ReplayFilter, EventIdentity, DedupeContext, LedgerView,
} from '../index'
