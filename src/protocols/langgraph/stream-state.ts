/**
 * What the parts of the LangGraph decoder share for one stream: the turn, the
 * lanes (the graph itself and each subgraph task), the timeline rows of the
 * nodes that run, the messages and tool calls seen, and where a new message goes.
 */
import type { DataPart, DecodeContext, MessagePlace, Op, TokenUsage } from '../../core/index'
import { createIdScope, protocolProblem, StreamedInput } from '../../protocol-kit/index'

/**
 * One lane: the graph itself (`key` '') or one subgraph task, named by its
 * namespace (`research:<taskId>`, deeper ones joined with `|`).
 *
 * @example
 * const lane: Lane = { key: 'research:b6', name: 'research', threadId: 't1/lane:research:b6', rowId: 't1/task:b6', open: true }
 */
export interface Lane {
  key: string
  /** The node that runs the subgraph. */
  name: string
  /** The weft thread its messages go into; absent for the graph itself. */
  threadId?: string
  /** Its timeline row (the subgraph's task row in the lane above). */
  rowId?: string
  open: boolean
}

/**
 * A node's timeline row: one task of one node in one lane.
 *
 * @example
 * const row: NodeRow = { id: 't1/task:7f', name: 'agent', lane: '', open: true }
 */
export interface NodeRow {
  id: string
  name: string
  lane: string
  open: boolean
}

/**
 * One tool call of an AI message while its arguments stream.
 *
 * @example
 * const call: ToolCall = { id: 'call_1', messageId: 'run-1/call_1', name: 'search', lane: '', input: new StreamedInput(63), unsent: '', resulted: false, complete: false }
 */
export interface ToolCall {
  id: string
  messageId: string
  name: string
  lane: string
  rowId?: string
  input: StreamedInput
  /** Argument text not yet written to `inputText`. */
  unsent: string
  /** A result arrived: nothing moves the call back to an earlier state. */
  resulted: boolean
  /** The server sent the whole call (its parsed `args`): the streamed text is done. */
  complete: boolean
}

/**
 * What one AI message has opened: its text and reasoning parts and its calls by chunk index.
 *
 * @example
 * stream.ai.get('run-1')?.calls.get(0)?.id // 'call_1'
 */
export interface AiMessage {
  id: string
  lane: string
  rowId?: string
  text: boolean
  reasoning: boolean
  calls: Map<string, ToolCall>
}

/**
 * Shared per-stream state and helpers.
 *
 * @example
 * const stream = createLangGraphStream({ turnId: 't1', scope: 't1' })
 */
export interface LangGraphStream {
  readonly turnId: string
  readonly context: DecodeContext
  readonly onData: ((part: DataPart) => void) | undefined
  readonly lanes: Map<string, Lane>
  readonly rows: Map<string, NodeRow>
  readonly ai: Map<string, AiMessage>
  /** Tool calls by the model's call id; the latest call wins a reused id. */
  readonly calls: Map<string, ToolCall>
  /** Tool result messages already folded, by their message id. */
  readonly results: Set<string>
  /** Interrupts already shown as gates. */
  readonly gates: Set<string>
  /** Calls whose arguments grew since the last flush. */
  readonly pending: Set<ToolCall>
  /** Token usage per AI message, as its chunks reported it. */
  readonly usage: Map<string, TokenUsage>
  /** An id scoped to this stream, for what the wire names per run (tasks, namespaces). */
  scoped(wireId: string): string
  fresh(kind: string): string
  problem(message: string, raw?: unknown, code?: string): Op
  place(messageId: string, type: string, lane: string): MessagePlace
}

/**
 * Make the shared state for one stream.
 *
 * @example
 * const stream = createLangGraphStream({ turnId: 't1', scope: 't1' })
 */
export function createLangGraphStream(context: DecodeContext): LangGraphStream {
  const { turnId, scope } = context
  const ids = createIdScope(scope)
  const lanes = new Map<string, Lane>()
  return {
    turnId,
    context,
    onData: context.onData,
    lanes,
    rows: new Map(),
    ai: new Map(),
    calls: new Map(),
    results: new Set(),
    gates: new Set(),
    pending: new Set(),
    usage: new Map(),
    scoped: ids.id,
    fresh: ids.fresh,
    problem: (message, raw, code) => protocolProblem(turnId, message, raw, code),
    place: (messageId, type, lane) => ({ turnId, messageId, type, role: 'assistant', threadId: lanes.get(lane)?.threadId }),
  }
}
