/**
 * What the fold stores of a message's props and a timeline row's fields: a copy
 * whose inner objects are frozen (so immer need not walk them at the end of a
 * batch), which later deltas still change, in the same batch or a later one, by
 * copying what they write into, and never by writing into the events given.
 */
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { fold } from '../../../src/core/fold/fold'
import { messageIn } from '../../../src/core/model/message-table'
import { emptyState } from '../../../src/core/model/model'
import type { Op } from '../../../src/core/model/ops'
import { cleanCopy } from '../../../src/core/util/record'
import { traceRecord } from '../../../src/core/model/trace-table'

const delta = (action: 'set' | 'merge' | 'append' | 'replace', path: string, value: unknown): Op => ({
  op: 'message.delta', turnId: 't1', messageId: 'm1', type: 'tool', role: 'assistant', action, path, value,
})

describe('cleanCopy with frozenInside', () => {
  it('keeps its own container writable, freezes every one inside, and drops forbidden keys at any depth', () => {
    const dropped: string[] = []
    const wire = JSON.parse('{"a":{"b":[{"c":1,"__proto__":{"x":1}}]},"constructor":2,"d":"e"}') as Record<string, unknown>
    const copy = cleanCopy(wire, (key) => dropped.push(key), true) as { a: { b: Array<Record<string, unknown>> }; d: string }
    expect(copy).toEqual({ a: { b: [{ c: 1 }] }, d: 'e' })
    expect(dropped.sort()).toEqual(['__proto__', 'constructor'])
    expect(Object.isFrozen(copy)).toBe(false)
    expect([copy.a, copy.a.b, copy.a.b[0]].map(Object.isFrozen)).toEqual([true, true, true])
    // A copy, never the wire objects themselves.
    expect(copy.a).not.toBe(wire.a)
    expect(Object.isFrozen(wire.a)).toBe(false)
  })

  it('without it, nothing of the copy is frozen', () => {
    const copy = cleanCopy({ a: { b: [1] } })
    expect([copy, copy.a, copy.a.b].map(Object.isFrozen)).toEqual([false, false, false])
  })
})

describe('stored props and rows', () => {
  const input = () => ({ query: 'paris', items: [{ id: 1, tags: ['a'] }] })

  it('deltas change a stored input in the same batch, and the events given are left as they were', () => {
    const first = input()
    const merged = { filters: { lang: 'fr' } }
    const more = [{ id: 2, tags: [] as string[] }]
    const ops: Op[] = [
      { op: 'turn.open', turnId: 't1', role: 'assistant' },
      delta('set', '', { name: 'search', input: first }),
      delta('merge', 'input', merged),
      delta('append', 'input.items', more),
      delta('set', 'input.items.0.title', 'Paris'),
      delta('append', 'input.items.0.tags', ['b']),
    ]
    const state = fold(emptyState(), ops)
    const props = messageIn(state.messages, 'm1')!.props
    expect(props).toEqual({
      name: 'search',
      input: { query: 'paris', filters: { lang: 'fr' }, items: [{ id: 1, tags: ['a', 'b'], title: 'Paris' }, { id: 2, tags: [] }] },
    })
    expect(first).toEqual(input())
    expect(merged).toEqual({ filters: { lang: 'fr' } })
    expect(more).toEqual([{ id: 2, tags: [] }])
  })

  it('a stored value is the same whatever batches the ops come in (property)', () => {
    const ops: Op[] = [
      { op: 'turn.open', turnId: 't1', role: 'assistant' },
      delta('set', '', { name: 'search', input: input(), output: { rows: [{ n: 1 }] } }),
      delta('merge', 'input', { filters: { lang: 'fr' } }),
      delta('append', 'input.items', [{ id: 2 }]),
      delta('set', 'output.rows.0.n', 2),
      delta('merge', '', { extra: { cost: { usd: 1 } } }),
      delta('merge', 'extra', { cost: { eur: 1 } }),
      { op: 'trace.node', turnId: 't1', node: { id: 'r1', kind: 'tool', label: 'search', args: { q: ['a'] }, extra: { a: { b: 1 } } } },
      { op: 'trace.node', turnId: 't1', node: { id: 'r1', status: 'done', result: { rows: [1] }, extra: { a: { c: 2 } } } },
    ]
    const whole = fold(emptyState(), ops)
    fc.assert(fc.property(fc.array(fc.integer({ min: 1, max: ops.length - 1 }), { maxLength: 4 }), (cuts) => {
      const at = [...new Set(cuts)].sort((a, b) => a - b)
      let state = emptyState()
      let from = 0
      for (const cut of [...at, ops.length]) {
        state = fold(state, ops.slice(from, cut))
        from = cut
      }
      expect(messageIn(state.messages, 'm1')!.props).toEqual(messageIn(whole.messages, 'm1')!.props)
      expect(traceRecord(state.trace).r1).toEqual(traceRecord(whole.trace).r1)
    }))
    expect(traceRecord(whole.trace).r1).toMatchObject({ status: 'done', args: { q: ['a'] }, result: { rows: [1] }, extra: { a: { b: 1, c: 2 } } })
    expect(messageIn(whole.messages, 'm1')!.props.extra).toEqual({ cost: { usd: 1, eur: 1 } })
  })

  it('leaves the message props writable to the fold and freezes what is inside them', () => {
    const state = fold(emptyState(), [{ op: 'turn.open', turnId: 't1', role: 'assistant' }, delta('set', '', { input: input() })])
    const props = messageIn(state.messages, 'm1')!.props as { input: { items: unknown[] } }
    expect([props.input, props.input.items, props.input.items[0]].map(Object.isFrozen)).toEqual([true, true, true])
    const next = fold(state, [delta('append', 'input.items', [{ id: 3 }])])
    expect((messageIn(next.messages, 'm1')!.props as { input: { items: unknown[] } }).input.items).toHaveLength(2)
    // The earlier state is untouched.
    expect(props.input.items).toHaveLength(1)
  })
})
