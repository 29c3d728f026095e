/**
 * The fold: one pure function from (state, ops) to the next state, run inside
 * one immer `produce` per batch. No I/O, no timers, no React.
 */
// The default export is the one shape that works both in Node's ESM loader (CJS main) and in bundlers.
import { Immer, type Draft } from 'immer'
import { weftError, type WeftError } from '../model/errors'
import type { AgentState, Block, Message, Thread, Turn } from '../model/model'
import type { MessagePlace, Op, OpOf } from '../model/ops'
import { mergeAppends, type MergedAppend, type PiecePlaces } from './coalesce'
import { applyDelta, DeltaError } from './deltas'
import { getAt, parsePath, PathError } from '../util/paths'
import { cleanCopy, isRecord, isSafeKey, mergedRecord, own } from '../util/record'
import { patchJsonData } from '../util/json-data'
import { attachTurn, prependChain, selectTurnBranch } from './branches'
import { allNodeIds } from '../store/trace-tree'
import { failToolNode, finalizeTrace, upsertTraceNode } from './trace'
import { deleteMessage, messageIn, putMessage } from '../model/message-table'

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
  return immer.produce(state, (draft: Draft<S>) => {
    recipe(draft as S)
  }) as S
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

/** Every op but a delta, which `applyOps` hands to `applyMessageDelta` itself. */
function applyOp(state: AgentState, op: Exclude<Op, OpOf<'message.delta'>>): void {
  switch (op.op) {
    case 'turn.open': {
      const turn = ensureTurn(state, op.turnId, op.role, op.parentId)
      turn.role = op.role
      // Opening a finished turn again (a second run on one stream) makes it stream again.
      if (turn.status !== 'streaming') {
        turn.status = 'streaming'
        delete turn.error
      }
      updateTurn(turn, op)
      state.activeTurnId = op.turnId
      return
    }
    case 'turn.update':
      updateTurn(ensureTurn(state, op.turnId), op)
      return
    case 'turn.finish':
      finishTurn(state, op)
      return
    case 'branch.select':
      // An unknown turn must not be created by the problem report either.
      if (own(state.turns, op.turnId)) selectTurnBranch(state, op.turnId)
      else recordProblem(state, undefined, weftError('validation', `no turn "${op.turnId}" to select`, { code: op.op }))
      return
    case 'block.open': {
      const block = ensureBlock(state, op.turnId, op.blockId)
      block.kind = op.kind
      if (op.label !== undefined) block.label = op.label
      return
    }
    case 'block.close': {
      const block = own(state.blocks, op.blockId)
      if (block) block.status = op.status ?? 'done'
      return
    }
    case 'block.reset':
      resetBlock(state, op.blockId)
      return
    case 'thread.open': {
      const thread = ensureThread(state, op.turnId, op.threadId, op.blockId)
      if (op.label !== undefined) thread.label = op.label
      if (isRecord(op.extra)) thread.extra = mergedRecord(thread.extra, safe(state, op.turnId, op.extra))
      return
    }
    case 'thread.close': {
      const thread = own(state.threads, op.threadId)
      if (!thread) return
      thread.status = op.status ?? 'done'
      if (isRecord(op.extra)) thread.extra = mergedRecord(thread.extra, safe(state, thread.turnId, op.extra))
      return
    }
    case 'message.put': {
      // Copied first: props that cannot be copied must not leave an empty message behind.
      const props = safe(state, op.turnId, op.props)
      const message = ensureMessage(state, op)
      message.type = op.type
      message.props = props
      if (op.status) message.status = op.status
      return
    }
    case 'message.finish': {
      const message = messageIn(state.messages, op.messageId)
      if (message) message.status = op.status
      return
    }
    case 'message.remove':
      removeMessage(state, op.messageId)
      return
    case 'trace.node': {
      const turn = ensureTurn(state, op.turnId)
      upsertTraceNode(state, turn, { ...op, node: safe(state, op.turnId, op.node, true) })
      return
    }
    case 'trace.fail':
      failToolNode(state, ensureTurn(state, op.turnId), op)
      return
    case 'gate.open': {
      const gate = safe(state, op.gate.turnId, op.gate)
      const turn = ensureTurn(state, gate.turnId)
      const existing = own(state.gates, gate.id)
      state.gates[gate.id] = { ...existing, ...gate, status: gate.status ?? existing?.status ?? 'pending' }
      if (!turn.gateIds.includes(gate.id)) turn.gateIds.push(gate.id)
      return
    }
    case 'gate.resolve': {
      const gate = own(state.gates, op.gateId)
      if (!gate) throw new Error(`no gate "${op.gateId}"`)
      gate.status = op.status
      if (op.response !== undefined) gate.response = safe(state, gate.turnId, op.response)
      return
    }
    case 'source.add': {
      const turn = ensureTurn(state, op.turnId)
      const source = safe(state, op.turnId, op.source)
      const at = turn.sources.findIndex((s) => s.id === source.id)
      if (at >= 0) turn.sources[at] = { ...turn.sources[at], ...source }
      else turn.sources.push(source)
      return
    }
    case 'problem':
      recordProblem(state, op.turnId ?? state.activeTurnId, op.error)
      return
    case 'stream.status':
      state.status = op.status
      if (op.error) state.error = op.error
      else if (op.status === 'connecting' || op.status === 'streaming') delete state.error
      return
    case 'cursor':
      Object.assign(state.cursor, op.cursor)
      return
    case 'agentState.set':
      state.agentState = safe(state, state.activeTurnId, op.value)
      return
    case 'agentState.patch':
      patchAgentState(state, op)
      return
    case 'hydrate':
      hydrate(state, op)
      return
    default: {
      // A new op added to the union without a case here fails to compile; one that
      // arrives at runtime anyway (a host's own decoder) becomes a problem.
      const unhandled: never = op
      throw new Error(`unknown op ${String((unhandled as { op?: unknown }).op)}`)
    }
  }
}

function ensureTurn(state: AgentState, turnId: string, role: Turn['role'] = 'assistant', parentId?: string | null, place = true): Turn {
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

function updateTurn(turn: Turn, op: OpOf<'turn.update'> | OpOf<'turn.open'>): void {
  if (op.runId !== undefined) turn.runId = op.runId
  if (op.threadId !== undefined) turn.threadId = op.threadId
  if (op.protocol !== undefined) turn.protocol = op.protocol
  if (op.usage !== undefined) turn.usage = cleanCopy(op.usage)
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

function finishTurn(state: AgentState, op: OpOf<'turn.finish'>): void {
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

function ensureBlock(state: AgentState, turnId: string, blockId: string): Block {
  let block = own(state.blocks, blockId)
  if (!block) {
    block = { id: blockId, turnId, kind: 'block', status: 'open', messageIds: [], threadIds: [] }
    state.blocks[blockId] = block
    ensureTurn(state, turnId).blockIds.push(blockId)
  }
  return block
}

function ensureThread(state: AgentState, turnId: string, threadId: string, blockId?: string): Thread {
  let thread = own(state.threads, threadId)
  if (!thread) {
    thread = { id: threadId, turnId, status: 'open', messageIds: [] }
    state.threads[threadId] = thread
    ensureTurn(state, turnId)
  }
  if (blockId && !thread.blockId) {
    thread.blockId = blockId
    const block = ensureBlock(state, turnId, blockId)
    if (!block.threadIds.includes(threadId)) block.threadIds.push(threadId)
  }
  return thread
}

function ensureMessage(state: AgentState, place: MessagePlace): Message {
  let message = messageIn(state.messages, place.messageId)
  if (!message) {
    message = {
      id: place.messageId, turnId: place.turnId, role: place.role ?? 'assistant', type: place.type ?? 'text',
      props: {}, status: 'streaming',
    }
    putMessage(state.messages, message)
    ensureTurn(state, place.turnId).messageIds.push(place.messageId)
  }
  // A chunk may name its block or thread before (or without) announcing them.
  if (place.blockId && !message.blockId) {
    message.blockId = place.blockId
    ensureBlock(state, message.turnId, place.blockId).messageIds.push(message.id)
  }
  if (place.threadId && !message.threadId) {
    message.threadId = place.threadId
    ensureThread(state, message.turnId, place.threadId, place.blockId).messageIds.push(message.id)
  }
  return message
}

function removeMessage(state: AgentState, messageId: string): void {
  const message = messageIn(state.messages, messageId)
  if (!message) return
  const without = (ids: string[]) => {
    const at = ids.indexOf(messageId)
    if (at >= 0) ids.splice(at, 1)
  }
  const turn = own(state.turns, message.turnId)
  if (turn) without(turn.messageIds)
  if (message.blockId && own(state.blocks, message.blockId)) without(own(state.blocks, message.blockId)!.messageIds)
  if (message.threadId && own(state.threads, message.threadId)) without(own(state.threads, message.threadId)!.messageIds)
  deleteMessage(state.messages, messageId)
}

function resetBlock(state: AgentState, blockId: string): void {
  const block = own(state.blocks, blockId)
  if (!block) return
  for (const id of [...block.messageIds]) removeMessage(state, id)
  block.status = 'open'
  // The block's own timeline row shares its id: the rows nested under it were added by the block too.
  const row = own(state.trace, blockId)
  if (row) {
    for (const id of allNodeIds(state, { traceRootIds: row.childIds })) delete state.trace[id]
    row.childIds = []
  }
}

function patchAgentState(state: AgentState, op: OpOf<'agentState.patch'>): void {
  // All or nothing, on a JSON copy: a patch that names anything but the state's own data
  // (an inherited `/constructor`, an array's `length`) or brings a value that is not JSON is refused.
  const patched = patchJsonData(state.agentState, op.patch)
  state.agentState = safe(state, op.turnId, isRecord(patched) ? patched : { value: patched })
}

function hydrate(state: AgentState, op: OpOf<'hydrate'>): void {
  const fresh: string[] = []
  for (const { turn: incoming, messages } of op.turns) {
    const known = Boolean(own(state.turns, incoming.id))
    // History at the end joins the active path as it comes; at the start it is placed below, as one chain.
    const parent = typeof incoming.parentId === 'string' && own(state.turns, incoming.parentId) ? incoming.parentId : undefined
    const turn = ensureTurn(state, incoming.id, incoming.role, parent, op.at === 'end')
    if (!known) {
      fresh.push(turn.id)
      turn.status = incoming.status ?? 'done'
    }
    const { id: _id, messageIds: _m, blockIds: _b, traceRootIds: _t, gateIds: _g, parentId: _p, ...fields } = safe(state, incoming.id, incoming)
    // A field sent as undefined is a field not sent: it must not wipe what the turn has (its status, its problems).
    for (const [key, value] of Object.entries(fields)) {
      if (value !== undefined) (turn as unknown as Record<string, unknown>)[key] = value
    }
    for (const m of messages) {
      const message = ensureMessage(state, { turnId: turn.id, messageId: m.id, role: m.role, type: m.type, blockId: m.blockId, threadId: m.threadId })
      message.type = m.type
      if (m.props) message.props = safe(state, turn.id, m.props)
      message.status = m.status ?? 'done'
    }
  }
  if (op.at === 'start') prependChain(state, fresh)
}

function recordProblem(state: AgentState, turnId: string | undefined, error: WeftError): void {
  if (turnId) ensureTurn(state, turnId).problems.push(error)
  else if (!state.error) state.error = error
}

/**
 * A copy of wire data with forbidden keys removed; a removal is itself recorded.
 * `frozenInside` for values only the delta writers change later (see `cleanCopy`).
 */
function safe<T>(state: AgentState, turnId: string | undefined, value: T, frozenInside = false): T {
  return cleanCopy(value, (key) =>
    recordProblem(state, turnId, weftError('protocol', `refused the key "${key}" sent by the server`)), frozenInside)
}
