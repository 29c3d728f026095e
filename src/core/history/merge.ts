/**
 * History from any protocol arrives as a `HistoryBatch`: turns with their
 * messages, and for event-based protocols the events' ops per turn. Merging a
 * batch into a store drops what the store already shows, so an overlapping page
 * (or history after a live stream) never shows a turn or a message twice.
 */
import { weftError, type WeftError } from '../model/errors'
import type { AgentState } from '../model/model'
import type { HydratedTurn, Op } from '../model/ops'
import { own } from '../util/record'
import { messageIn } from '../model/message-table'

/**
 * What a protocol's history loader makes of what the server returned.
 *
 * @example
 * const batch: HistoryBatch = { turns: [{ turn: { id: 'u1', role: 'user' }, messages: [{ id: 'm1', type: 'text', props: { content: 'Hi' } }] }], problems: [] }
 */
export interface HistoryBatch {
  /** Oldest first. */
  turns: HydratedTurn[]
  /** Ops that rebuild a turn from its recorded events (Vocion, Yao), by turn id; applied after the turn is placed. */
  replay?: Record<string, Op[]>
  /** What could not be read; each becomes a `problem` on the turn it belongs to (or the first). */
  problems: Array<{ turnId?: string; message: string }>
}

/**
 * The ops that put a batch into a store: one `hydrate` (before what the store
 * holds, or after it with `at: 'end'`), the replayed ops of new turns, then problems.
 * Turns and messages the store already has are left as they are.
 *
 * @example
 * store.getState().dispatch(historyOps(uiMessageHistory(messages), store.getState()))
 */
export function historyOps(batch: HistoryBatch, state: AgentState, at: 'start' | 'end' = 'start'): Op[] {
  const turns: HydratedTurn[] = []
  const replays: Op[] = []
  const seenTurns = new Set<string>()
  const seenMessages = new Set<string>()
  for (const { turn, messages } of batch.turns) {
    if (seenTurns.has(turn.id)) continue
    seenTurns.add(turn.id)
    const known = own(state.turns, turn.id) !== undefined
    const replay = batch.replay ? own(batch.replay, turn.id) : undefined
    // A replayed turn is all or nothing: its events would apply twice to a turn the store holds.
    if (known && replay) continue
    const fresh = messages.filter((m) => {
      if (seenMessages.has(m.id) || messageIn(state.messages, m.id) !== undefined) return false
      seenMessages.add(m.id)
      return true
    })
    if (known) {
      if (fresh.length > 0) turns.push({ turn: { id: turn.id, role: turn.role }, messages: fresh })
      continue
    }
    // Every message already shown under another turn: the page overlaps what the store has.
    if (messages.length > 0 && fresh.length === 0) continue
    turns.push({ turn, messages: fresh })
    if (replay) for (const op of replay) replays.push(op)
  }
  const ops: Op[] = turns.length > 0 ? [{ op: 'hydrate', turns, at }] : []
  for (const op of replays) ops.push(op)
  const fallback = turns[0]?.turn.id ?? state.turnIds[0]
  for (const { turnId, message } of batch.problems) {
    ops.push({ op: 'problem', turnId: turnId && seenTurns.has(turnId) ? turnId : fallback, error: historyError(message) })
  }
  return ops
}

/**
 * The problem a history loader reports for input it cannot read.
 *
 * @example
 * historyError('message 3 has no role') // { type: 'protocol', code: 'history', ... }
 */
export function historyError(message: string): WeftError {
  return weftError('protocol', `history: ${message}`, { code: 'history', retryable: false })
}

/**
 * A recorded turn's ops as history replays them: the turn is already placed,
 * so opening it again, the stream's status and its cursor are left out; a
 * recording that stops without its end still ends the turn (nothing streams in history).
 *
 * @example
 * const replay = replayOps(streamToOps(events, { protocol: 'vocion', turnId }), turnId)
 */
export function replayOps(ops: readonly Op[], turnId: string): Op[] {
  const out: Op[] = []
  let finished = false
  for (const op of ops) {
    if (op.op === 'stream.status' || op.op === 'cursor') continue
    if (op.op === 'turn.open') {
      const { op: _op, turnId: opened, role: _role, parentId: _parent, ...fields } = op
      if (Object.keys(fields).length > 0) out.push({ op: 'turn.update', turnId: opened, ...fields })
      continue
    }
    if (op.op === 'turn.finish' && op.turnId === turnId) finished = true
    out.push(op)
  }
  if (!finished) out.push({ op: 'turn.finish', turnId, status: 'done' })
  return out
}
