/**
 * weft/inspector: what a developer keeps open beside the chat. A client's
 * `inspector` option that keeps, per turn, the request, the raw frames as they
 * arrived and the ops each became, problems and timings; a panel that shows
 * them; and recordings `weft/testing` replays. An entry of its own: a host that
 * never inspects ships none of it.
 */
export { createInspector, type AgentInspector, type InspectorOptions } from './inspector'
export type { RecordingOptions } from './recording'
export { EMPTY_SNAPSHOT, type InspectedEnd, type InspectedFrame, type InspectedRequest, type InspectedTurn, type InspectorSnapshot } from './snapshot'
// The core's types the inspector's snapshot and the client option reach, so a host can name them from here.
export type {
  ClientInspector, TapFrame, TapRequest, TapRequestKind, TapRunEnd, RunPhase, AgentStore, AgentStoreState, AgentState, SSEFrame, Op, OpName, OpOf,
  HydratedTurn, TurnFields, MessagePlace, DeltaAction, WeftError, ErrorType, ProtocolName, TurnStatus, RequestTrigger, TokenUsage, TurnTiming, RunTiming,
  Block, Gate, GateStatus, Message, MessageBucket, MessageStatus, MessageTable, QueuedMessage, Source, SpanStatus, StreamCursor, StreamStatus,
  Thread, TraceActor, TraceNode, TraceStatus, TraceTable, Turn,
} from '../core/index'
export type { AgentFixture, FixtureFrame, FixtureProtocol, BuiltInProtocol } from '../testing/frames'
export { Inspector, useInspectorSnapshot, type InspectorProps } from './panel'
export { InspectorFrames, InspectorProblems, InspectorRequest, InspectorTimings, formatMs, type InspectorSectionProps } from './sections'
export { runCount, toRecording } from './recording'
