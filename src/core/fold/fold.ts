/**
 * The fold: one pure function from (state, ops) to the next state, run inside
 * one immer `produce` per batch. No I/O, no timers, no React.
 */
// The default export is the one shape that works both in Node's ESM loader (CJS main) and in bundlers.
import { Immer, type Draft } from 'immer'
import { weftError } from '../model/errors'
import type { AgentState, Message } from '../model/model'
import type { Op, OpOf } from '../model/ops'
import { mergeAppends, type MergedAppend, type PiecePlaces } from './coalesce'
import { applyDelta, DeltaError } from './deltas'
import { getAt, parsePath, PathError } from '../util/paths'
import { isSafeKey } from '../util/record'
import { applyOp } from './apply-op'
import { ensureMessage } from './messages'
import { recordProblem, safe } from './turns'
import { carryWaitingRoots } from './waiting-roots'

/**
 * Apply ops to a state and return the next one (the input is untouched).
 *
 * @example
 * const next = fold(emptyState(), [{ op: 'turn.open', turnId: 't1', role: 'assistant' }])
 */
export function fold(state: AgentState, ops: readonly Op[]): AgentState {
  if (ops.length === 0) return state
  return foldIsolated(state, ops, (draft, some) => applyOps(draft, some))
}

/**
 * Fold a batch in one `produce`; if that throws (immer copying a structure deep
 * enough to overflow the stack, say), nothing of the batch is lost: it is split
 * until the op that throws stands alone, that op becomes a problem, and the rest
 * are applied in order. The happy path costs one try.
 *
 * @example
 * const next = foldIsolated(state, ops, (draft, some) => applyOps(draft, some))
 */
export function foldIsolated<S extends AgentState>(state: S, ops: readonly Op[], apply: (draft: S, ops: readonly Op[]) => void): S {
  try {
    return produceWith(state, (draft) => apply(draft, ops))
  } catch (thrown) {
    if (ops.length > 1) {
      const half = ops.length >> 1
      return foldIsolated(foldIsolated(state, ops.slice(0, half), apply), ops.slice(half), apply)
    }
    const op = ops[0] as Op
    const error = weftError('protocol', `could not apply ${op.op}: ${thrown instanceof Error ? thrown.message : String(thrown)}`, { code: 'fold_failed' })
    return produceWith(state, (draft) => recordProblem(draft, turnOf(draft, op), error))
  }
}

/**
 * The kit's own immer instance. Auto-freeze is off: freezing walks every new
 * subtree on every batch, which on a long answer costs more than the fold
 * itself, and the kit's own instance leaves the host's immer settings alone.
 * The store is read-only by contract; hooks hand out its objects as they are.
 */
const immer = new Immer({ autoFreeze: false })

/**
 * Run a recipe over a draft of `state` with the kit's immer settings.
 *
 * @example
 * const next = produceWith(state, (draft) => applyOps(draft, ops))
 */
export function produceWith<S extends object>(state: S, recipe: (draft: S) => void): S {
  let drafted: object | undefined
  const next = immer.produce(state, (draft: Draft<S>) => {
    drafted = draft as object
    recipe(draft as S)
  }) as S
  // What the fold kept about the draft (the roots waiting for a parent) goes on with the state it became.
  if (drafted) carryWaitingRoots(state, drafted, next)
  return next
}

/**
 * Apply ops to a mutable state (an immer draft, or a fresh object you own).
 * An op that cannot be applied becomes a problem on its turn; it never throws.
 *
 * @example
 * produce(state, (draft) => applyOps(draft, ops))
 */
export function applyOps(state: AgentState, ops: readonly Op[]): void {
  const recent: RecentMessage = { id: undefined, message: undefined }
  const { ops: list, places } = mergeAppends(ops)
  /** Pieces of merged appends that could not be joined, each waiting for the place it arrived at. */
  let waiting: WaitingPiece[] | undefined
  for (let i = 0; i < list.length; i++) {
    const op = list[i] as Op
    if (waiting) waiting = applyWaiting(state, waiting, i)
    // Only a run of deltas may reuse the message the previous op found.
    if (op.op !== 'message.delta') recent.id = recent.message = undefined
    try {
      refuseUnsafeIds(op)
      if (op.op !== 'message.delta') applyOp(state, op)
      else if (!applyMessageDelta(state, op, recent)) waiting = spread(state, op, i, places?.get(i), waiting)
    } catch (thrown) {
      recent.id = recent.message = undefined
      // A merged append that fails fails once per piece, each where it arrived.
      if (op.op === 'message.delta' && (op as MergedAppend).parts) waiting = spread(state, op, i, places?.get(i), waiting)
      else recordFailure(state, op, thrown)
    }
  }
  if (waiting) applyWaiting(state, waiting, list.length)
}

/** The problem an op that could not be applied leaves on its turn. */
function recordFailure(state: AgentState, op: Op, thrown: unknown): void {
  const message = thrown instanceof PathError || thrown instanceof DeltaError
    ? thrown.message
    : `could not apply ${op.op}: ${thrown instanceof Error ? thrown.message : String(thrown)}`
  recordProblem(state, turnOf(state, op), weftError('protocol', message, { code: op.op }))
}

/** One piece of a merged append, to be applied just before the op at `at`; `order` sorts pieces due at the same place. */
interface WaitingPiece {
  at: number
  order: number
  op: MergedAppend
  value: string
}

/**
 * A merged append whose pieces cannot be joined (the value there is not text, or
 * the append fails): each piece is applied as the op it came from, at the place
 * it arrived, so what it does (an array takes each piece, an object refuses each
 * one with a problem of its own) lands in the same order as in batches of one op.
 * The pieces that arrived with the append's first op are applied now; the others wait.
 */
function spread(
  state: AgentState, op: OpOf<'message.delta'>, index: number, places: PiecePlaces | undefined, waiting: WaitingPiece[] | undefined,
): WaitingPiece[] | undefined {
  const merged = op as MergedAppend
  const parts = merged.parts as string[]
  for (let k = 0; k < parts.length; k++) {
    // Without places (a decoder's held tokens, merged with nothing) every piece came with the append.
    const at = places?.at[k] ?? index
    if (at === index) applyPiece(state, merged, parts[k] as string)
    else (waiting ??= []).push({ at, order: places?.order[k] ?? 0, op: merged, value: parts[k] as string })
  }
  return waiting
}

/** Apply the waiting pieces due before the op at `index`, in the order they arrived; what still waits. */
function applyWaiting(state: AgentState, waiting: WaitingPiece[], index: number): WaitingPiece[] | undefined {
  const due = waiting.filter((piece) => piece.at <= index)
  if (due.length === 0) return waiting
  due.sort((a, b) => a.order - b.order)
  for (const piece of due) applyPiece(state, piece.op, piece.value)
  const rest = waiting.filter((piece) => piece.at > index)
  return rest.length > 0 ? rest : undefined
}

/** One piece of a merged append, applied as an op of its own. */
function applyPiece(state: AgentState, merged: MergedAppend, value: string): void {
  // A copy without the pieces (a held append's are not enumerable, so no spread would bring them).
  const { parts: _parts, ...op } = merged
  const piece: OpOf<'message.delta'> = { ...op, value }
  try {
    refuseUnsafeIds(piece)
    applyMessageDelta(state, piece, { id: undefined, message: undefined })
  } catch (thrown) {
    recordFailure(state, piece, thrown)
  }
}

/** The turn a problem with `op` belongs to. */
function turnOf(state: AgentState, op: Op): string | undefined {
  const named = 'turnId' in op && typeof op.turnId === 'string' && isSafeKey(op.turnId) ? op.turnId : undefined
  return named ?? state.activeTurnId
}

/** The message the previous delta of a batch wrote to: the next delta to it skips the lookup. */
interface RecentMessage {
  id: string | undefined
  message: Message | undefined
}

/** Apply one delta; false, having applied nothing, for a merged append whose pieces cannot be joined (see `spread`). */
function applyMessageDelta(state: AgentState, op: OpOf<'message.delta'>, recent: RecentMessage): boolean {
  let message = recent.message
  if (recent.id !== op.messageId || !message || (op.blockId && !message.blockId) || (op.threadId && !message.threadId)) {
    message = ensureMessage(state, op)
    recent.id = op.messageId
    recent.message = message
  }
  if ((op as MergedAppend).parts) {
    // Only strings may be joined first: text, or nothing yet, takes the pieces as one.
    const current = getAt(message.props, parsePath(op.path))
    if (current !== undefined && typeof current !== 'string') return false
  }
  if (op.retype && op.type) message.type = op.type
  if (message.status !== 'streaming') message.status = 'streaming'
  applyDelta(message.props, op.action, op.path, typeof op.value === 'object' ? safe(state, op.turnId, op.value, true) : op.value)
  return true
}

/** The id fields an op may carry, each a key of one of the model's records. */
const ID_FIELDS = ['turnId', 'messageId', 'blockId', 'threadId', 'gateId', 'nodeId'] as const

/**
 * Ids come from servers and become record keys: `__proto__` as a key would
 * rewrite a record's prototype, so such an op is refused as a whole.
 */
function refuseUnsafeIds(op: Op): void {
  const fields = op as unknown as Record<string, unknown>
  for (const field of ID_FIELDS) refuseId(fields[field])
  if (op.op === 'trace.node') {
    refuseId(op.node.id)
    refuseId(op.node.parentId)
  }
  if (op.op === 'gate.open') {
    refuseId(op.gate.id)
    refuseId(op.gate.turnId)
  }
  if (op.op === 'hydrate') {
    for (const { turn, messages } of op.turns) {
      refuseId(turn.id)
      for (const m of messages) {
        refuseId(m.id)
        refuseId(m.blockId)
        refuseId(m.threadId)
      }
    }
  }
}

function refuseId(id: unknown): void {
  if (typeof id === 'string' && !isSafeKey(id)) throw new PathError(`refused the id "${id}" sent by the server`)
}

