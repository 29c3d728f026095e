/**
 * Fold a recorded stream into a state snapshot without React: for servers,
 * history, fixtures and tests.
 */
import { fold } from '../fold/fold'
import { emptyState, type AgentState } from '../model/model'
import type { Op } from '../model/ops'
import { FrameDecoder } from './frame-decoder'
import type { DataPart, ProtocolDefinition, ProtocolInput } from './types'
import { isDoneFrame, parseSSEText } from '../transport/frames'

/** Options for `foldStream`. */
export interface FoldStreamOptions {
  /** Skip detection: the name of one of `protocols`, or a definition. */
  protocol?: ProtocolInput
  /** What detection chooses among and names are looked up in (the `weft` entry's `foldStream` defaults to the built-ins). */
  protocols?: readonly ProtocolDefinition[]
  /** The assistant turn's id (default `turn-1`). */
  turnId?: string
  /** Fold onto this state instead of an empty one. */
  state?: AgentState
  /** Receives transient data parts. */
  onData?: (part: DataPart) => void
}

/**
 * Fold raw SSE text, or an array of decoded events, into a state snapshot.
 * The protocol is detected when not given.
 *
 * @example
 * const state = foldStream('data: {"chunk_id":"C1","type":"text","props":{"content":"Hi"}}\n\n')
 * state.messages[state.turns['turn-1'].messageIds[0]].props.content // 'Hi'
 */
export function foldStream(input: string | readonly unknown[], options: FoldStreamOptions = {}): AgentState {
  // Folded a slice at a time, as the live client folds a batch per read: a long
  // stream never holds all of its ops at once (the fold gives the same state for
  // any cut into batches).
  let state = options.state ?? emptyState()
  let batch: Op[] = []
  let folded = 0
  decodeStream(input, options, (ops) => {
    pushAll(batch, ops)
    if (!sliceDue(batch.length, folded)) return
    state = fold(state, batch)
    folded += batch.length
    batch = []
  }, () => state.agentState)
  return fold(state, batch)
}

/** How many ops `foldStream` folds at once, at least. */
const FOLD_SLICE = 4096

/**
 * Whether `foldStream` folds the `pending` ops now, `folded` having been folded
 * before. Each fold copies the records and lists that grew (the timeline's rows,
 * a turn's messages): work in proportion to the stream so far. A slice is
 * therefore at least a quarter of what came before it, so the slices grow
 * geometrically and their copies add up to a few times the stream, never its
 * square; and a long stream still never holds more than a fifth of its ops.
 *
 * @example
 * sliceDue(4096, 0) // true
 * sliceDue(4096, 100_000) // false: 25,000 are due
 */
export function sliceDue(pending: number, folded: number): boolean {
  return pending >= FOLD_SLICE && pending * 4 >= folded
}

/**
 * The ops a recorded stream decodes to (what `foldStream` folds).
 *
 * @example
 * streamToOps([{ type: 'response_delta', delta: 'Hi' }], { protocol: 'vocion' })
 */
export function streamToOps(input: string | readonly unknown[], options: FoldStreamOptions = {}): Op[] {
  const ops: Op[] = []
  decodeStream(input, options, (some) => pushAll(ops, some))
  return ops
}

/** Decode the stream, handing its ops to `take` a frame's worth at a time. */
function decodeStream(
  input: string | readonly unknown[], options: FoldStreamOptions, take: (ops: readonly Op[]) => void,
  agentState: () => Record<string, unknown> = () => options.state?.agentState ?? {},
): void {
  const turnId = options.turnId ?? 'turn-1'
  const reader = new FrameDecoder({ turnId, protocol: options.protocol, protocols: options.protocols, onData: options.onData, agentState })
  take([{ op: 'turn.open', turnId, role: 'assistant' }])
  let announced = false
  const decoded = (ops: readonly Op[]) => {
    take(ops)
    // As the live client does: the turn names its protocol once the stream tells it.
    if (announced || !reader.protocol) return
    announced = true
    take([{ op: 'turn.update', turnId, protocol: reader.protocol }])
  }
  let reason: 'done' | 'eof' = 'eof'
  if (typeof input === 'string') {
    for (const frame of parseSSEText(input)) {
      // What follows `[DONE]` is reported, not folded, exactly as the live client does.
      if (isDoneFrame(frame)) {
        reason = 'done'
        reader.done()
        continue
      }
      decoded(reader.frame(frame))
    }
  } else {
    for (const event of input) decoded(reader.event(event))
  }
  decoded(reader.end(reason))
  const cursor = reader.cursor()
  if (Object.keys(cursor).length > 0) take([{ op: 'cursor', cursor }])
}

// Avoids spreading large arrays into push (argument-count limits on long streams).
function pushAll(into: Op[], more: readonly Op[]): void {
  for (const op of more) into.push(op)
}
