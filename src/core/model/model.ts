/**
 * The model the store holds. These names are the public contract: tests, docs
 * and host code read them.
 */
import type { WeftError } from './errors'
import type { MessageTable } from './message-table'
import type { TraceTable } from './trace-table'
import type { TokenUsage, TurnTiming } from './usage'

/** Where the stream as a whole is. */
export type StreamStatus = 'idle' | 'connecting' | 'streaming' | 'reconnecting' | 'done' | 'error' | 'aborted'

/** Where one turn (a request and its answer) is. */
export type TurnStatus = 'streaming' | 'done' | 'error' | 'aborted'

/** Where one message is. */
export type MessageStatus = 'streaming' | 'done' | 'error'

/** Open or finished, for blocks and threads. */
export type SpanStatus = 'open' | 'done' | 'error'

/**
 * A protocol's name: a built-in (`yao`, `ui-message`, `ag-ui`, `vocion`) or one a
 * host registered.
 */
export type ProtocolName = string

/** A source the answer cites: a URL, a document, a search hit. */
export interface Source {
  id: string
  url?: string
  title?: string
  mediaType?: string
  filename?: string
  snippet?: string
  /** The `[n]` marker in the answer text that points here. */
  citationIndex?: number
  kind: 'url' | 'document'
  /** The model provider's own data about the source, as the server sent it. */
  providerMetadata?: unknown
  /** Fields of the source the protocol sent that weft does not read, kept as they came. */
  extra?: Record<string, unknown>
  /**
   * Where the answer put it among its parts, when that is known (history): after
   * the message `after` (absent: before the first), inside the step block
   * `blockId`. A request sends a source without it after the answer's parts.
   */
  place?: { after?: string; blockId?: string }
}

/**
 * One request and its answer (a run). The conversation is the ordered list of turns.
 *
 * @example
 * const turn = useTurn(id); turn?.status === 'streaming'
 */
export interface Turn {
  id: string
  role: 'user' | 'assistant' | 'system'
  status: TurnStatus
  protocol?: ProtocolName
  /** The turn this one follows; absent for the first turn. Siblings share a parent. */
  parentId?: string
  runId?: string
  threadId?: string
  /** Blocks in order of appearance. */
  blockIds: string[]
  /** Every message of the turn, in order of first appearance. */
  messageIds: string[]
  /** Top-level trace nodes in order of appearance. */
  traceRootIds: string[]
  gateIds: string[]
  sources: Source[]
  /**
   * What the protocol said about the turn (ids, timing, a server's metadata), merged
   * key by key. `metadata.extra` holds the fields of the turn's own events that weft
   * does not read (a run's start and end, say); it merges, objects key by key.
   */
  metadata: Record<string, unknown>
  /** Tokens the answer used, as the protocol reported them (`TokenUsage`). */
  usage?: TokenUsage
  /** When the live client sent each request of the turn, saw its first token and its end. */
  timing?: TurnTiming
  finishReason?: string
  /** Follow-up questions the agent suggests. */
  suggestions?: string[]
  /** The error that ended the turn. */
  error?: WeftError
  /** Problems met while folding that did not end the turn (a malformed frame, an unknown event). */
  problems: WeftError[]
}

/**
 * One UI section of a turn: an LLM call, a tool or MCP call, a step.
 *
 * @example
 * const blocks = useBlocks(turnId); blocks.map(b => b.label)
 */
export interface Block {
  id: string
  turnId: string
  kind: string
  label?: string
  status: SpanStatus
  messageIds: string[]
  threadIds: string[]
}

/**
 * A concurrent lane inside a block (a Yao `thread_id`, an AG-UI sub-agent run).
 *
 * @example
 * const thread = useThread('T1'); thread?.messageIds.length
 */
export interface Thread {
  id: string
  turnId: string
  blockId?: string
  label?: string
  status: SpanStatus
  messageIds: string[]
  /** Fields the protocol sent for the lane that weft does not read, kept as they came (later ones merge in). */
  extra?: Record<string, unknown>
}

/** Where a tool call is in its life. */
export type ToolState =
  | 'input-streaming'
  | 'input-available'
  | 'approval-requested'
  | 'approval-responded'
  | 'output-available'
  | 'output-error'
  | 'output-denied'

/**
 * One logical message: the target of delta merging. `type` is open; text lives
 * in `props.content`, a tool call in `props.toolCallId`, `props.name`,
 * `props.input`, `props.inputText`, `props.output`, `props.errorText`, `props.state`
 * (`PartProps` lists the props of every type the kit draws).
 *
 * The store holds `Message`s with any type and loose props. `Message<Type, Props>`
 * names one kind, for a host's own parts; `MessagePart` is the union of the
 * built-in ones.
 *
 * @example
 * const m = useMessage(id); m?.type === 'text' && m.props.content
 * type Chart = Message<'data-chart', { data: { points: number[] } }>
 */
export interface Message<Type extends string = string, Props extends object = Record<string, unknown>> {
  id: string
  turnId: string
  blockId?: string
  threadId?: string
  role: 'user' | 'assistant' | 'system' | 'tool'
  type: Type
  props: Props
  status: MessageStatus
}

/** Who did a piece of work. */
export interface TraceActor {
  id: string
  kind?: string
  name?: string
}

/** Status of one timeline row. */
export type TraceStatus = 'start' | 'progress' | 'done' | 'error'

/**
 * One row of the work timeline. `text` grows by `delta`; every other field is
 * latest-wins, and an absent field keeps its value.
 *
 * @example
 * const nodes = useTrace(turnId); nodes.filter(n => n.status === 'error')
 */
export interface TraceNode {
  id: string
  turnId: string
  parentId?: string
  actor?: TraceActor
  kind: string
  status: TraceStatus
  label: string
  text: string
  detail?: unknown
  tool?: string
  args?: unknown
  result?: unknown
  resultDetail?: unknown
  confidence?: number
  citations: unknown[]
  childIds: string[]
  /**
   * Fields the protocol sent for the row that weft does not read, kept as they
   * came. Unlike the other fields it is merged, not replaced: a later event's
   * fields merge in (objects key by key, anything else replaced), so a `done`
   * that carries one field keeps what the `start` carried.
   */
  extra?: Record<string, unknown>
}

/** Where a human-in-the-loop request is. */
export type GateStatus = 'pending' | 'approved' | 'rejected' | 'answered'

/**
 * A human-in-the-loop request. `client.answer` resolves it in the store at once,
 * then continues the run only through the endpoint (or the `continueGate`
 * function) the host configured.
 *
 * @example
 * const gates = useGates(turnId); gates.filter(g => g.status === 'pending')
 */
export interface Gate {
  id: string
  turnId: string
  kind: string
  question: string
  payload: unknown
  status: GateStatus
  /** The tool call this gate holds back, if any. */
  toolCallId?: string
  /** Where the server said the answer can be sent (Vocion's `resumeUrl`); the host decides whether to. */
  url?: string
  response?: unknown
  /** Fields of the request the protocol sent that weft does not read, kept as they came. */
  extra?: Record<string, unknown>
}

/**
 * What resume needs to pick a stream up again.
 *
 * @example
 * store.getState().cursor.lastEventId
 */
export interface StreamCursor {
  protocol?: ProtocolName
  streamId?: string
  /** Events folded since the stream began (Vocion counts these, `stream_meta` excluded). */
  eventCount: number
  lastEventId?: string
  /** Yao task sequence. */
  sequence?: number
  turnId?: string
}

/**
 * A message the person sent while the agent was still running, waiting in the
 * store to be sent (see `AgentClient.send`'s `whileRunning`). Plain data, so it
 * is saved with the conversation; the files it carries stay with the client that
 * queued it and are not saved.
 *
 * @example
 * const queued: QueuedMessage = { id: 'queued-1', text: 'And in Lyon?' }
 */
export interface QueuedMessage {
  id: string
  text: string
  /** How many files go with it (the files themselves are held by the client, not the store). */
  files?: number
}

/**
 * Everything one store holds.
 *
 * @example
 * const { turnIds, turns } = store.getState()
 */
export interface AgentState {
  /** The active path: the turns the transcript shows and a request sends, in order. */
  turnIds: string[]
  /** Children of each turn in the order they were made (the roots under `''`). */
  branches: Record<string, string[]>
  /** The child each turn last had on the active path (the root's under `''`). */
  selected: Record<string, string>
  turns: Record<string, Turn>
  blocks: Record<string, Block>
  threads: Record<string, Thread>
  /** Messages by id, in buckets: read with `messageIn(state.messages, id)` or `selectMessage`. */
  messages: MessageTable
  /** Timeline rows by id, in buckets: read with `traceNodeIn(state.trace, id)`, list with `traceList`. */
  trace: TraceTable
  gates: Record<string, Gate>
  status: StreamStatus
  /** The error that stopped the stream, if any. */
  error?: WeftError
  cursor: StreamCursor
  /** Shared agent state (AG-UI `STATE_SNAPSHOT` / `STATE_DELTA`). */
  agentState: Record<string, unknown>
  activeTurnId?: string
  /**
   * Messages sent while the agent ran, in the order they go; absent when none
   * waits. The client sends them once the running turn ends normally.
   */
  queue?: QueuedMessage[]
}

/**
 * A new, empty state.
 *
 * @example
 * const s = emptyState(); s.turnIds.length === 0
 */
export function emptyState(): AgentState {
  return {
    turnIds: [],
    branches: {},
    selected: {},
    turns: {},
    blocks: {},
    threads: {},
    messages: {},
    trace: {},
    gates: {},
    status: 'idle',
    cursor: { eventCount: 0 },
    agentState: {},
  }
}
