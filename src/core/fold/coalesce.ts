/**
 * Merging a batch's string appends before they reach the draft. A streamed
 * answer is mostly "append this token to that message"; applying a frame's
 * tokens to a message once, instead of once per token, keeps the proxy work
 * per batch proportional to the messages touched, not to the tokens.
 */
import type { Op, OpOf } from '../model/ops'

/**
 * A string append that stands for several in a row: `value` is the pieces joined,
 * `parts` the pieces. A decoder that gathers tokens itself gives its appends the
 * same `parts` (`createHeldAppends`), so the fold treats them as separate ops.
 */
export type MergedAppend = OpOf<'message.delta'> & { parts?: string[] }

/**
 * Where each piece of a merged append arrived: `at[k]` is the index in the merged
 * batch of the op the piece came before (the append's own index for the pieces it
 * came with), `order[k]` the piece's index in the batch given. The fold needs them
 * only for pieces it cannot join (see its `spread`).
 */
export interface PiecePlaces {
  at: number[]
  order: number[]
}

/** A merged batch, and where the pieces of each merged append arrived, by the append's index. */
export interface MergedBatch {
  ops: Op[]
  places: ReadonlyMap<number, PiecePlaces> | undefined
}

/** Ops that change no message's content and may sit between appends being merged. */
const NEUTRAL: ReadonlySet<Op['op']> = new Set<Op['op']>([
  'cursor', 'trace.node', 'trace.fail', 'source.add', 'problem', 'stream.status', 'gate.open', 'gate.resolve',
  'agentState.set', 'queue.put', 'queue.remove', 'turn.open', 'turn.update', 'block.open', 'block.close', 'thread.open', 'thread.close',
])

/**
 * The same batch with string appends to one message path merged into the first
 * of them, as long as nothing in between touches that message. Consecutive
 * `cursor` ops collapse into one. Applying the result gives the same state.
 *
 * @example
 * coalesce([
 *   { op: 'message.delta', turnId: 't', messageId: 'm', action: 'append', path: 'content', value: 'He' },
 *   { op: 'message.delta', turnId: 't', messageId: 'm', action: 'append', path: 'content', value: 'llo' },
 * ]) // one append of 'Hello'
 */
export function coalesce(ops: readonly Op[]): Op[] {
  return mergeAppends(ops).ops
}

/**
 * `coalesce`, also saying where each merged piece arrived.
 *
 * @example
 * const { ops: merged, places } = mergeAppends(ops)
 */
export function mergeAppends(ops: readonly Op[]): MergedBatch {
  if (ops.length < 2) return { ops: ops as Op[], places: undefined }
  const out: Op[] = []
  // Open groups per message, one per top-level prop: where the group's first append
  // sits in `out`, and the path it writes. Appends under different top-level props
  // never touch the same value, so a tool's `inputText` keeps merging while edits
  // to its `input` go by.
  const open = new Map<string, Map<string, Group>>()
  const parts = new Map<number, Pieces>()
  let lastCursor: OpOf<'cursor'> | undefined

  for (let index = 0; index < ops.length; index++) {
    const op = ops[index] as Op
    if (op.op === 'cursor') {
      if (lastCursor) {
        Object.assign(lastCursor.cursor, op.cursor)
        continue
      }
      lastCursor = { op: 'cursor', cursor: { ...op.cursor } }
      out.push(lastCursor)
      continue
    }
    if (op.op === 'message.delta' && !op.retype) {
      const top = topKey(op.path)
      let groups = open.get(op.messageId)
      if (op.action === 'append' && typeof op.value === 'string' && top !== '') {
        const group = groups?.get(top)
        if (group && group.path === op.path && samePlace(group.first, op)) {
          let pieces = parts.get(group.at)
          if (!pieces) parts.set(group.at, (pieces = piecesOf(group)))
          // An append a decoder merged already (held tokens) brings each of its pieces.
          const more = (op as MergedAppend).parts
          if (more) for (const piece of more) pieces.add(piece, out.length, index)
          else pieces.add(op.value, out.length, index)
          continue
        }
        if (!groups) open.set(op.messageId, (groups = new Map()))
        groups.set(top, { at: out.length, index, path: op.path, first: op })
        out.push(op)
        continue
      }
      // Any other delta ends the groups it may touch: all of them when it writes the root.
      if (groups) {
        if (top === '') open.delete(op.messageId)
        else groups.delete(top)
      }
      out.push(op)
      continue
    }
    if ('messageId' in op && typeof op.messageId === 'string') open.delete(op.messageId)
    else if (!NEUTRAL.has(op.op)) open.clear()
    out.push(op)
  }
  // The caller's ops are left as they were: merged appends are new objects.
  if (parts.size === 0) return { ops: out, places: undefined }
  const places = new Map<number, PiecePlaces>()
  for (const [at, pieces] of parts) {
    out[at] = { ...(out[at] as MergedAppend), value: pieces.parts.join(''), parts: pieces.parts } as MergedAppend
    places.set(at, pieces.places)
  }
  return { ops: out, places }
}

/** A group's pieces and where each arrived. */
class Pieces {
  readonly parts: string[] = []
  readonly places: PiecePlaces = { at: [], order: [] }
  add(piece: string, at: number, order: number): void {
    this.parts.push(piece)
    this.places.at.push(at)
    this.places.order.push(order)
  }
}

/** The pieces of a group's first append, which arrived with it. */
function piecesOf(group: Group): Pieces {
  const pieces = new Pieces()
  const first = group.first as MergedAppend
  if (first.parts) for (const piece of first.parts) pieces.add(piece, group.at, group.index)
  else pieces.add(first.value as string, group.at, group.index)
  return pieces
}

interface Group {
  at: number
  /** The first append's index in the batch given. */
  index: number
  path: string
  first: OpOf<'message.delta'>
}

/**
 * Appends merge only when they would place the message alike: a later delta that
 * names another block or lane must still be applied as its own op, or the state
 * would depend on where a batch happened to end.
 */
function samePlace(a: OpOf<'message.delta'>, b: OpOf<'message.delta'>): boolean {
  return a.turnId === b.turnId && a.blockId === b.blockId && a.threadId === b.threadId && a.role === b.role && a.type === b.type
}

/** The top-level prop a path writes under (`input` for `input.items[0]`); '' for the root. */
function topKey(path: string): string {
  for (let i = 0; i < path.length; i++) {
    const c = path.charCodeAt(i)
    if (c === 46 /* . */ || c === 91 /* [ */) return path.slice(0, i)
  }
  return path
}
