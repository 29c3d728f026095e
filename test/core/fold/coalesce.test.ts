import { describe, expect, it } from 'vitest'
import { coalesce } from '../../../src/core/fold/coalesce'
import { fold } from '../../../src/core/fold/fold'
import { emptyState } from '../../../src/core/model/model'
import type { Op } from '../../../src/core/model/ops'
import { messageIn } from '../../../src/core/model/message-table'

/** A small deterministic generator of plausible op batches. */
function randomOps(seed: number, count: number): Op[] {
  let x = seed
  const rand = (n: number) => ((x = (x * 48271) % 2147483647) % n)
  const messages = ['a', 'b', 'c']
  const ops: Op[] = [{ op: 'turn.open', turnId: 't', role: 'assistant' }]
  for (let i = 0; i < count; i++) {
    const m = messages[rand(3)]!
    switch (rand(10)) {
      case 0: ops.push({ op: 'message.put', turnId: 't', messageId: m, type: 'text', props: rand(2) ? { content: 'P' } : { content: ['x'] } }); break
      case 1: ops.push({ op: 'message.delta', turnId: 't', messageId: m, action: 'set', path: 'content', value: `S${i}` }); break
      case 2: ops.push({ op: 'cursor', cursor: { eventCount: i } }); break
      case 3: ops.push({ op: 'message.finish', messageId: m, status: 'done' }); break
      case 4: ops.push({ op: 'trace.node', turnId: 't', node: { id: `n${rand(2)}`, status: 'progress' }, delta: `${i}` }); break
      case 5: ops.push({ op: 'message.delta', turnId: 't', messageId: m, action: 'append', path: 'title', value: `${i}` }); break
      case 6: ops.push(rand(2) ? { op: 'message.delta', turnId: 't', messageId: m, action: 'set', path: 'input.a', value: `${i}` } : { op: 'message.delta', turnId: 't', messageId: m, action: 'set', path: 'input', value: { k: i } }); break
      case 7: ops.push({ op: 'message.delta', turnId: 't', messageId: m, action: 'append', path: rand(2) ? 'input.a' : 'input.b', value: `${i}` }); break
      default: ops.push({ op: 'message.delta', turnId: 't', messageId: m, action: 'append', path: 'content', value: `${i},` })
    }
  }
  ops.push({ op: 'turn.finish', turnId: 't', status: 'done' })
  return ops
}

describe('coalescing a batch', () => {
  it('folds to exactly the state the ops give one by one', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const ops = randomOps(seed, 40)
      const oneByOne = ops.reduce((state, op) => fold(state, [op]), emptyState())
      expect(fold(emptyState(), ops), `seed ${seed}`).toEqual(oneByOne)
    }
  })

  it('merges interleaved appends to several messages and collapses cursors', () => {
    const ops: Op[] = []
    for (let i = 0; i < 6; i++) {
      ops.push({ op: 'cursor', cursor: { eventCount: i } })
      ops.push({ op: 'message.delta', turnId: 't', messageId: i % 2 ? 'a' : 'b', action: 'append', path: 'content', value: `${i}` })
    }
    const out = coalesce(ops)
    expect(out).toHaveLength(3)
    expect(out.map((op) => ('value' in op ? op.value : op.op))).toEqual(['cursor', '024', '135'])
  })

  it('keeps merging appends to one prop while deltas to another prop of the message go by', () => {
    const ops: Op[] = []
    for (let i = 0; i < 4; i++) {
      ops.push({ op: 'message.delta', turnId: 't', messageId: 'a', action: 'append', path: 'inputText', value: `${i}` })
      ops.push({ op: 'message.delta', turnId: 't', messageId: 'a', action: 'set', path: `input.k${i}`, value: i })
    }
    const out = coalesce(ops)
    expect(out.map((op) => ('path' in op ? op.path : op.op))).toEqual(['inputText', 'input.k0', 'input.k1', 'input.k2', 'input.k3'])
    expect(fold(emptyState(), out)).toEqual(fold(emptyState(), ops))
    expect(messageIn(fold(emptyState(), out).messages, 'a')!.props).toEqual({ inputText: '0123', input: { k0: 0, k1: 1, k2: 2, k3: 3 } })
  })

  it('leaves the ops it was given untouched', () => {
    const ops: Op[] = [
      { op: 'message.delta', turnId: 't', messageId: 'a', action: 'append', path: 'content', value: 'x' },
      { op: 'message.delta', turnId: 't', messageId: 'a', action: 'append', path: 'content', value: 'y' },
    ]
    const copy = structuredClone(ops)
    coalesce(ops)
    expect(ops).toEqual(copy)
  })

  it('does not merge appends that place the message differently, so batch edges do not matter', () => {
    const ops: Op[] = [
      { op: 'message.delta', turnId: 't', messageId: 'm1', action: 'append', path: 'content', value: 'Hel' },
      { op: 'block.open', turnId: 't', blockId: 'b1', kind: 'step' },
      { op: 'message.delta', turnId: 't', messageId: 'm1', blockId: 'b1', action: 'append', path: 'content', value: '' },
    ]
    const whole = fold(emptyState(), coalesce(ops))
    const pieces = ops.reduce((state, op) => fold(state, coalesce([op])), emptyState())
    expect(coalesce(ops)).toHaveLength(3)
    expect(whole).toEqual(pieces)
  })
})
