/**
 * Merging a batch's string appends before they reach the draft. A streamed
 * answer is mostly "append this token to that message"; applying a frame's
 * tokens to a message once, instead of once per token, keeps the proxy work
 * per batch proportional to the messages touched, not to the tokens.
 */
import type { Op, OpOf } from '../ops'

/** A string append that stands for several in a row. */
export type MergedAppend = OpOf<'message.delta'> & { parts?: string[] }

/** Ops that change no message's content and may sit between appends being merged. */
const NEUTRAL = new Set<Op['op']>([
  'cursor', 'trace.node', 'trace.fail', 'source.add', 'problem', 'stream.status', 'gate.open', 'gate.resolve',
  'agentState.set', 'agentState.patch', 'turn.open', 'turn.update', 'block.open', 'block.close', 'thread.open', 'thread.close',
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
  if (ops.length < 2) return ops as Op[]
  const out: Op[] = []
  const open = new Map<string, number>() // "messageId\u0000path" → index in `out` of the first append
  const parts = new Map<number, string[]>()
  const openByMessage = new Map<string, string[]>()
  let lastCursor: OpOf<'cursor'> | undefined

  const close = (messageId: string) => {
    for (const key of openByMessage.get(messageId) ?? []) open.delete(key)
    openByMessage.delete(messageId)
  }
  const closeAll = () => {
    open.clear()
    openByMessage.clear()
  }

  for (const op of ops) {
    if (op.op === 'cursor') {
      if (lastCursor) {
        Object.assign(lastCursor.cursor, op.cursor)
        continue
      }
      lastCursor = { op: 'cursor', cursor: { ...op.cursor } }
      out.push(lastCursor)
      continue
    }
    if (op.op === 'message.delta' && op.action === 'append' && typeof op.value === 'string' && !op.retype) {
      const key = `${op.messageId}\u0000${op.path}`
      const at = open.get(key)
      if (at !== undefined && (out[at] as MergedAppend).turnId === op.turnId) {
        const pieces = parts.get(at)
        if (pieces) pieces.push(op.value)
        else parts.set(at, [(out[at] as MergedAppend).value as string, op.value])
        continue
      }
      // Anything else aimed at this message (another path) ends the groups before it.
      if (openByMessage.has(op.messageId)) close(op.messageId)
      open.set(key, out.length)
      openByMessage.set(op.messageId, [key])
      out.push(op)
      continue
    }
    if ('messageId' in op && typeof op.messageId === 'string') close(op.messageId)
    else if (!NEUTRAL.has(op.op)) closeAll()
    out.push(op)
  }
  // The caller's ops are left as they were: merged appends are new objects.
  for (const [at, pieces] of parts) {
    out[at] = { ...(out[at] as MergedAppend), value: pieces.join(''), parts: pieces } as MergedAppend
  }
  return out
}
