/**
 * weft/testing: test and browse a host's agent UI without a server. Streams as
 * the protocols' SSE, an injectable `fetch`, a Testing Library render helper,
 * recorded fixtures for every protocol, and a recorder that turns a live stream
 * into one. A separate entry: nothing here is in weft's main bundles.
 */
export { streamResponse, toFixture, type Pace, type Chunking, type StreamResponseOptions, type StreamSource } from './stream-response'
export { mockFetch, type MockFetch, type MockRoute, type RecordedRequest, type RouteAnswer, type RouteContext } from './mock-fetch'
export { renderWithAgent, type RenderWithAgentOptions, type AgentRenderResult } from './render-with-agent'
export { waitForTurnEnd, markTurnEndsSeen, type TurnEndOptions } from './turn-end'
export { fixtures, situations, allFixtures, type Situation } from './fixtures'
export type { FixtureSet } from './fixtures/index'
export { getFixture } from './get-fixture'
export { resumeReply, vocionResumeReply, yaoResumeReply, lastEventIdReply, langGraphResumeReply, aiSdkReplay, RESUME_STRATEGY, type ReplyOptions } from './resume-replies'
export { recordStream, type RecordStreamOptions, type StreamRecorder } from './recorder'
export { encodeFrame, sliceBytes, seededRandom, type AgentFixture, type BuiltInProtocol, type FixtureFrame, type FixtureProtocol, type LineEnding } from './frames'
export { BUILT_IN_PROTOCOLS, isBuiltInProtocol, UnsupportedProtocolError, type BuiltInOnlyFeature } from './protocols'

// The core's types the helpers' options and results reach, so a test can name them from here.
// The client's `StreamSource` is `ClientStreamSource` here: `StreamSource` is a fixture's source.
export type {
  AgentClient, AgentClientOptions, StreamTransport, TransportStream, TransportHooks, StreamEndReason, ResumeOptions, Scheduler, SendInput, StreamSourceContext, SourceBuildOptions,
  RequestBody, HttpRequest, StreamRequest, SSEFrame, AttachmentLimits, ClientTool,
  AgentState, Turn, Block, Thread, Message, TraceNode, Gate, Source,
  StreamStatus, TurnStatus, MessageStatus, TraceStatus, GateStatus, ProtocolName, SpanStatus, StreamCursor, TraceActor, ErrorType, WeftError,
  MessageTable, MessageBucket, TraceTable, Op, HydratedTurn, TurnFields, MessagePlace, DeltaAction,
  ProtocolDefinition, ProtocolInput, Decoder, DecoderFactory, DecodeContext, DetectInput, FrameMeta, DataPart, HistoryReader, HistoryReadContext, ProtocolViews,
  RequestBuilder, RequestContext, RequestTrigger, GateAnswerEntry, ToolDeclaration,
  ResumeStrategy, ResumeStrategyName, ResumeHandle, ResumeStorage, ResumeState, ResumeRequest, ResumeRequestContext,
  ReplayItem, ReplayFilter, EventIdentity, DedupeContext, LedgerView, HistoryContext, HistoryLoader, HistoryResult, BackoffOptions,
  AgentStore, AgentStoreState, ActionResult, AnswerResult, ApprovalResponse, GateResponse, InterruptDecision, JsonValue,
  AddContextResult, AgentStateUpdate, ContextEntry, QueuedMessage, RespondResult, RunTiming, SendOptions, TokenUsage, TurnTiming, UiTool, WhileRunning,
  StreamSourceCancelContext, StreamSource as ClientStreamSource,
  ClientInspector, TapRequest, TapFrame, TapRunEnd, TapRequestKind, RunPhase,
} from '../core/index'
