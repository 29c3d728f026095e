/**
 * Exact expectations for a message delta: where it places its message when a
 * batch names the block or lane late, that only `retype` changes a type, that a
 * delta makes a finished message stream again, and that a run of deltas in one
 * batch lands as the same deltas would one batch each (the fold reuses the
 * message the previous delta found, and must never reuse a stale one).
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { fold } from '../../../src/core/fold/fold'
import { emptyState, type AgentState } from '../../../src/core/model/model'
import type { DeltaAction, Op } from '../../../src/core/model/ops'
import { messageIn, messageRecord } from '../../../src/core/model/message-table'

const open: Op = { op: 'turn.open', turnId: 't1', role: 'assistant' }
const append = (value: unknown, place: { blockId?: string; threadId?: string; path?: string } = {}): Op => {
  const { path = 'content', ...where } = place
  return { op: 'message.delta', turnId: 't1', messageId: 'm1', action: 'append', path, value, ...where }
}

describe('where a delta places its message', () => {
  it('a delta after its message was removed in the same batch makes the message anew', () => {
    const state = fold(emptyState(), [open, append('a'), { op: 'message.remove', messageId: 'm1' }, append('b')])
    expect(messageRecord(state.messages)).toStrictEqual({
      m1: { id: 'm1', turnId: 't1', role: 'assistant', type: 'text', props: { content: 'b' }, status: 'streaming' },
    })
    expect(state.turns.t1!.messageIds).toEqual(['m1'])
  })

  it('a delta that names a block later in the batch puts the message in it', () => {
    const state = fold(emptyState(), [open, append('a'), append('b', { blockId: 'b1' })])
    expect(messageIn(state.messages, 'm1')).toStrictEqual({
      id: 'm1', turnId: 't1', blockId: 'b1', role: 'assistant', type: 'text', props: { content: 'ab' }, status: 'streaming',
    })
    expect(state.blocks.b1!.messageIds).toEqual(['m1'])
    expect(state.turns.t1!.blockIds).toEqual(['b1'])
  })

  it('a delta that names a lane later in the batch puts the message in it', () => {
    const state = fold(emptyState(), [open, append('a', { blockId: 'b1' }), append('b', { blockId: 'b1', threadId: 'lane' })])
    expect(messageIn(state.messages, 'm1')).toStrictEqual({
      id: 'm1', turnId: 't1', blockId: 'b1', threadId: 'lane', role: 'assistant', type: 'text', props: { content: 'ab' }, status: 'streaming',
    })
    expect(state.threads.lane).toStrictEqual({ id: 'lane', turnId: 't1', blockId: 'b1', status: 'open', messageIds: ['m1'] })
    expect(state.blocks.b1).toStrictEqual({ id: 'b1', turnId: 't1', kind: 'block', status: 'open', messageIds: ['m1'], threadIds: ['lane'] })
  })

  it('a message keeps the first block and lane it was placed in', () => {
    const state = fold(emptyState(), [open, append('a', { blockId: 'b1', threadId: 'l1' }), append('b', { blockId: 'b2', threadId: 'l2' })])
    expect(messageIn(state.messages, 'm1')).toMatchObject({ blockId: 'b1', threadId: 'l1', props: { content: 'ab' } })
    expect(Object.keys(state.blocks)).toEqual(['b1'])
    expect(Object.keys(state.threads)).toEqual(['l1'])
  })
})

describe('the type and status a delta leaves', () => {
  const reasoning: Op = { op: 'message.put', turnId: 't1', messageId: 'm1', type: 'reasoning', props: { content: 'x' } }

  it('a type on a delta is the type of a new message, and changes a known one only with retype', () => {
    const kept = fold(emptyState(), [open, reasoning, { ...append('y'), type: 'text' } as Op])
    expect(messageIn(kept.messages, 'm1')).toMatchObject({ type: 'reasoning', props: { content: 'xy' } })
    const retyped = fold(kept, [{ ...append('z'), type: 'text', retype: true } as Op])
    expect(messageIn(retyped.messages, 'm1')).toMatchObject({ type: 'text', props: { content: 'xyz' } })
    const untyped = fold(kept, [{ ...append('z'), retype: true } as Op])
    expect(messageIn(untyped.messages, 'm1')!.type).toBe('reasoning')
    expect(messageIn(fold(emptyState(), [open, { ...append('a'), type: 'reasoning' } as Op]).messages, 'm1')!.type).toBe('reasoning')
  })

  it('a delta makes a finished message stream again, in the same batch or a later one', () => {
    const done = fold(emptyState(), [open, { ...reasoning, status: 'done' } as Op])
    expect(messageIn(done.messages, 'm1')!.status).toBe('done')
    expect(messageIn(fold(done, [append('y')]).messages, 'm1')).toStrictEqual({
      id: 'm1', turnId: 't1', role: 'assistant', type: 'reasoning', props: { content: 'xy' }, status: 'streaming',
    })
    const same = fold(emptyState(), [open, reasoning, append('y'), { op: 'message.finish', messageId: 'm1', status: 'error' }, append('z')])
    expect(messageIn(same.messages, 'm1')).toMatchObject({ status: 'streaming', props: { content: 'xyz' } })
  })
})

describe('a run of appends in one batch', () => {
  it('to a list pushes each piece; to an object refuses each piece with its own problem', () => {
    const state = fold(emptyState(), [
      open,
      { op: 'message.put', turnId: 't1', messageId: 'm1', type: 'data', props: { items: ['a'], box: { k: 1 } } },
      append('b', { path: 'items' }), append('c', { path: 'items' }),
      append('x', { path: 'box' }), append('y', { path: 'box' }),
    ])
    expect(messageIn(state.messages, 'm1')!.props).toStrictEqual({ items: ['a', 'b', 'c'], box: { k: 1 } })
    const refused = { type: 'protocol', message: 'cannot append string to an object; the object was kept', code: 'message.delta', retryable: false }
    expect(state.turns.t1!.problems).toStrictEqual([refused, refused])
  })

  it('lands as the same ops would, one batch each', () => {
    const ids = fc.constantFrom('m1', 'm2')
    const where = fc.record({ blockId: fc.constantFrom('b1', 'b2'), threadId: fc.constantFrom('l1', 'l2') }, { requiredKeys: [] })
    const value = fc.oneof(fc.constantFrom('a', 'bc', ''), fc.constant(['x']), fc.constant({ k: 'v' }), fc.constant(3), fc.constant(null))
    const delta = fc.record({
      messageId: ids, where, value,
      action: fc.constantFrom<DeltaAction>('append', 'append', 'append', 'set', 'replace', 'merge'),
      path: fc.constantFrom('content', 'content', 'items', 'input.q', ''),
      type: fc.option(fc.constantFrom('text', 'tool'), { nil: undefined }),
      retype: fc.boolean(),
    }).map(({ messageId, where, value, action, path, type, retype }): Op => ({
      op: 'message.delta', turnId: 't1', messageId, action, path, value, ...where,
      ...(type ? { type } : {}), ...(retype ? { retype } : {}),
    }))
    const other = fc.oneof(
      ids.map((messageId): Op => ({ op: 'message.remove', messageId })),
      ids.map((messageId): Op => ({ op: 'message.finish', messageId, status: 'done' })),
      ids.map((messageId): Op => ({ op: 'message.put', turnId: 't1', messageId, type: 'text', props: { content: 'p' } })),
      fc.constantFrom<Op>({ op: 'block.reset', blockId: 'b1' }, { op: 'block.close', blockId: 'b2' }, { op: 'cursor', cursor: { eventCount: 1 } }),
    )
    const ops = fc.array(fc.oneof({ arbitrary: delta, weight: 4 }, { arbitrary: other, weight: 1 }), { maxLength: 14 })
    fc.assert(fc.property(ops, (batch) => {
      const start = fold(emptyState(), [open])
      const once = fold(start, batch)
      const oneByOne = batch.reduce((state: AgentState, op) => fold(state, [op]), start)
      expect(once).toEqual(oneByOne)
    }))
  })
})
