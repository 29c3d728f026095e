/**
 * Fold a recorded stream into a state snapshot without React: for servers,
 * history, fixtures and tests.
 */
import { fold } from './fold/fold'
import { emptyState, type AgentState } from './model'
import type { Op } from './ops'
import { FrameDecoder } from './pipeline'
import type { DataPart, ProtocolDefinition, ProtocolInput } from './protocol/types'
import { isDoneFrame, parseSSEText } from './transport/frames'

/** Options for `foldStream`. */
export interface FoldStreamOptions {
  /** Skip detection: a registered protocol's name, or a definition. */
  protocol?: ProtocolInput
  /** What detection chooses among (default: the registered protocols). */
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
  return fold(options.state ?? emptyState(), streamToOps(input, options))
}

/**
 * The ops a recorded stream decodes to (what `foldStream` folds).
 *
 * @example
 * streamToOps([{ type: 'response_delta', delta: 'Hi' }], { protocol: 'vocion' })
 */
export function streamToOps(input: string | readonly unknown[], options: FoldStreamOptions = {}): Op[] {
  const turnId = options.turnId ?? 'turn-1'
  const reader = new FrameDecoder({ turnId, protocol: options.protocol, protocols: options.protocols, onData: options.onData })
  const ops: Op[] = [{ op: 'turn.open', turnId, role: 'assistant' }]
  let reason: 'done' | 'eof' = 'eof'
  if (typeof input === 'string') {
    for (const frame of parseSSEText(input)) {
      // What follows `[DONE]` is reported, not folded, exactly as the live client does.
      if (isDoneFrame(frame)) {
        reason = 'done'
        reader.done()
        continue
      }
      pushAll(ops, reader.frame(frame))
    }
  } else {
    for (const event of input) pushAll(ops, reader.event(event))
  }
  pushAll(ops, reader.end(reason))
  const cursor = reader.cursor()
  if (Object.keys(cursor).length > 0) ops.push({ op: 'cursor', cursor })
  if (reader.protocol) ops.splice(1, 0, { op: 'turn.update', turnId, protocol: reader.protocol })
  return ops
}

// Avoids spreading large arrays into push (argument-count limits on long streams).
function pushAll(into: Op[], more: readonly Op[]): void {
  for (const op of more) into.push(op)
}
