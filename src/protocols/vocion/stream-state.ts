/**
 * What the parts of the Vocion decoder share for one stream: the turn, id
 * scoping, the tool calls in flight and the timeline rows the server drew.
 */
import type { DecodeContext, Op } from '../../core/index'
import { protocolProblem } from '../../protocol-kit/index'

/** One Vocion event, already known to be an object. */
export type VocionEvent = Record<string, unknown>

/**
 * One tool call between its `tool_start` and its end.
 *
 * @example
 * const call: ToolCall = { messageId: 't1/tool-1', toolCallId: 't1/tool-1', nodeId: 't1/tool-1', rowFromServer: false }
 */
export interface ToolCall {
  messageId: string
  toolCallId: string
  nodeId: string
  /** True once the server's own `trace_node` row draws this call: that row is then the record. */
  rowFromServer: boolean
}

/**
 * What the decoder knows about one `trace_node` row the server sent.
 *
 * @example
 * const row: ServerRow = { nodeId: 't1/trace/n1', open: true, claimed: false }
 */
export interface ServerRow {
  /** The store id the row folds into (its scoped id, or the row a tool event opened). */
  nodeId: string
  tool?: string
  /** The row's latest label: a `tool_error` also finds its row by the tool named in it. */
  label?: string
  open: boolean
  /** Claimed by a `tool_start`, so no second call takes it. */
  claimed: boolean
  /** Both tenses of the label, when the server sent them. */
  labels?: { running: string; done: string }
}

/**
 * Shared per-stream state and helpers.
 *
 * @example
 * const stream = createVocionStream({ turnId: 't1', scope: 't1' })
 * stream.fresh('tool') // 't1/tool-1'
 */
export interface VocionStream {
  readonly turnId: string
  /** Tool calls in flight, by tool name, latest last. Wire strings are only ever Map keys here, never object keys. */
  readonly openTools: Map<string, ToolCall[]>
  /** The server's timeline rows, by their wire id. */
  readonly rows: Map<string, ServerRow>
  /** A stream-scoped id for a wire id. */
  scoped(id: string): string
  /** The next number of this stream's counter. */
  count(): number
  /** A fresh stream-scoped id for something the wire gives no id. */
  fresh(kind: string): string
  problem(message: string, raw?: unknown, code?: string): Op
}

/**
 * Make the shared state for one stream.
 *
 * @example
 * const stream = createVocionStream({ turnId: 't1', scope: 't1' })
 */
export function createVocionStream(context: DecodeContext): VocionStream {
  const { turnId, scope } = context
  let counter = 0
  const stream: VocionStream = {
    turnId,
    openTools: new Map(),
    rows: new Map(),
    scoped: (id) => `${scope}/${id}`,
    count: () => ++counter,
    fresh: (kind) => stream.scoped(`${kind}-${stream.count()}`),
    problem: (message, raw, code) => protocolProblem(turnId, message, raw, code),
  }
  return stream
}

/**
 * The list under `key`, made when missing.
 *
 * @example
 * stackFor(stream.openTools, 'search').push(call)
 */
export function stackFor<T>(map: Map<string, T[]>, key: string): T[] {
  let stack = map.get(key)
  if (!stack) {
    stack = []
    map.set(key, stack)
  }
  return stack
}
