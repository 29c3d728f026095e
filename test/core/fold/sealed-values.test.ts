import { describe, expect, it } from 'vitest'
import { fold } from '../../../src/core/fold/fold'
import { emptyState } from '../../../src/core/model/model'
import type { Op } from '../../../src/core/model/ops'
import { seal } from '../../../src/core/util/record'
import { messageIn } from '../../../src/core/model/message-table'

const at = { turnId: 't1', messageId: 'm1', type: 'tool' } as const
const sealedInput = () => seal({ items: seal([seal({ id: 1 })]), q: 'a', nested: seal({ deep: seal({ x: 1 }) }) })
const edits: Op[] = [
  { op: 'message.delta', ...at, action: 'append', path: 'input.items', value: [{ id: 2 }] },
  { op: 'message.delta', ...at, action: 'append', path: 'input.q', value: 'b' },
  { op: 'message.delta', ...at, action: 'set', path: 'input.nested.deep.y', value: 2 },
  { op: 'message.delta', ...at, action: 'merge', path: 'input', value: { nested: { deep: { z: 3 } } } },
]
const after = { items: [{ id: 1 }, { id: 2 }], q: 'ab', nested: { deep: { x: 1, y: 2, z: 3 } } }

describe('sealed values in the fold', () => {
  it('are stored as they are, not copied', () => {
    const input = sealedInput()
    const state = fold(emptyState(), [{ op: 'turn.open', turnId: 't1', role: 'assistant' }, { op: 'message.delta', ...at, action: 'set', path: 'input', value: input }])
    expect(messageIn(state.messages, 'm1')!.props.input).toBe(input)
  })

  it('a later write in the same batch goes to a copy, and the sealed value stays as it was', () => {
    const input = sealedInput()
    const state = fold(emptyState(), [
      { op: 'turn.open', turnId: 't1', role: 'assistant' },
      { op: 'message.delta', ...at, action: 'set', path: 'input', value: input },
      ...edits,
    ])
    expect(messageIn(state.messages, 'm1')!.props.input).toEqual(after)
    expect(state.turns.t1!.problems).toEqual([])
    expect(input).toEqual({ items: [{ id: 1 }], q: 'a', nested: { deep: { x: 1 } } })
  })

  it('a write in a later batch does too', () => {
    const input = sealedInput()
    const first = fold(emptyState(), [{ op: 'turn.open', turnId: 't1', role: 'assistant' }, { op: 'message.delta', ...at, action: 'set', path: 'input', value: input }])
    const second = fold(first, edits)
    expect(messageIn(second.messages, 'm1')!.props.input).toEqual(after)
    expect(messageIn(first.messages, 'm1')!.props.input).toBe(input)
    expect(input).toEqual({ items: [{ id: 1 }], q: 'a', nested: { deep: { x: 1 } } })
    expect(second.turns.t1!.problems).toEqual([])
  })
})
