/**
 * Turns in the fold: created on first mention, updated, finished (closing what
 * they hold), and the problems recorded on them, wire data copied without its
 * forbidden keys included.
 */
import { weftError, type WeftError } from '../model/errors'
import type { AgentState, Turn } from '../model/model'
import type { OpOf } from '../model/ops'
import { cleanCopy, isRecord, mergedRecord, own } from '../util/record'
import { messageIn } from '../model/message-table'
import { attachTurn } from './branches'
import { finalizeTrace } from './trace'

/**
 * The turn with this id, created (and placed on the branch tree, unless `place` is false) when it is new.
 *
 * @example
 * ensureTurn(draft, 't1').problems // [] for a new turn
 */
export function ensureTurn(state: AgentState, turnId: string, role: Turn['role'] = 'assistant', parentId?: string | null, place = true): Turn {
  let turn = own(state.turns, turnId)
  if (!turn) {
    turn = {
      id: turnId, role, status: 'streaming', blockIds: [], messageIds: [], traceRootIds: [], gateIds: [],
      sources: [], metadata: {}, problems: [],
    }
    state.turns[turnId] = turn
    if (place) attachTurn(state, turn, parentId)
  }
  return turn
}

/**
 * Copy a turn's fields from `turn.open` or `turn.update` onto it; metadata merges.
 *
 * @example
 * updateTurn(turn, { op: 'turn.update', turnId: 't1', finishReason: 'stop' })
 */
export function updateTurn(turn: Turn, op: OpOf<'turn.update'> | OpOf<'turn.open'>): void {
  if (op.runId !== undefined) turn.runId = op.runId
  if (op.threadId !== undefined) turn.threadId = op.threadId
  if (op.protocol !== undefined) turn.protocol = op.protocol
  if (op.usage !== undefined) turn.usage = cleanCopy(op.usage)
  if (op.timing !== undefined) turn.timing = cleanCopy(op.timing)
  if (op.finishReason !== undefined) turn.finishReason = op.finishReason
  if (op.suggestions !== undefined) turn.suggestions = op.suggestions.filter((s) => typeof s === 'string')
  if (isRecord(op.metadata)) {
    const { extra, ...fields } = cleanCopy(op.metadata)
    Object.assign(turn.metadata, fields)
    // What a protocol sent for the turn beyond weft's fields merges, as a row's does; the rest is replaced key by key.
    if (isRecord(extra)) turn.metadata.extra = mergedRecord(turn.metadata.extra, extra)
    else if (extra !== undefined) turn.metadata.extra = extra
  }
}

/**
 * Finish a turn: what it holds that still streams or is open is done, its trace rows close, and it stops being active.
 *
 * @example
 * finishTurn(draft, { op: 'turn.finish', turnId: 't1', status: 'done' })
 */
export function finishTurn(state: AgentState, op: OpOf<'turn.finish'>): void {
  const turn = ensureTurn(state, op.turnId)
  turn.status = op.status
  if (op.error) turn.error = op.error
  if (op.finishReason !== undefined) turn.finishReason = op.finishReason
  for (const id of turn.messageIds) {
    const message = messageIn(state.messages, id)
    if (message && message.status === 'streaming') message.status = 'done'
  }
  for (const id of turn.blockIds) {
    const block = own(state.blocks, id)
    if (block?.status === 'open') block.status = 'done'
  }
  // Every lane of the turn, in a block or not (sub-agent lanes), closes with it.
  for (const thread of Object.values(state.threads)) {
    if (thread.turnId === turn.id && thread.status === 'open') thread.status = 'done'
  }
  finalizeTrace(state, turn)
  if (state.activeTurnId === turn.id) delete state.activeTurnId
}

/**
 * Record a problem on a turn, or on the stream when there is no turn (the stream keeps its first).
 *
 * @example
 * recordProblem(draft, 't1', weftError('protocol', 'bad chunk'))
 */
export function recordProblem(state: AgentState, turnId: string | undefined, error: WeftError): void {
  if (turnId) ensureTurn(state, turnId).problems.push(error)
  else if (!state.error) state.error = error
}

/**
 * A copy of wire data with forbidden keys removed; a removal is itself recorded.
 * `frozenInside` for values only the delta writers change later (see `cleanCopy`).
 *
 * @example
 * const props = safe(draft, 't1', op.props)
 */
export function safe<T>(state: AgentState, turnId: string | undefined, value: T, frozenInside = false): T {
  return cleanCopy(value, (key) =>
    recordProblem(state, turnId, weftError('protocol', `refused the key "${key}" sent by the server`)), frozenInside)
}
