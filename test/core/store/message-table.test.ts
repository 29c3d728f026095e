import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { bucketOf, deleteMessage, messageIn, messageList, messageRecord, putMessage, toMessageTable, type MessageTable } from '../../../src/core/model/message-table'
import { fold } from '../../../src/core/fold/fold'
import { emptyState, type Message } from '../../../src/core/model/model'
import { checkRecord, conversationRecord, stateOf } from '../../../src/core/conversations/record'

const message = (id: string, content = id, turnId = 't1'): Message => ({ id, turnId, role: 'assistant', type: 'text', props: { content }, status: 'done' })

describe('the message table', () => {
  it('finds what was put, by id alone, and nothing inherited', () => {
    const table: MessageTable = {}
    putMessage(table, message('m1'))
    putMessage(table, message('m2'))
    expect(messageIn(table, 'm1')?.props.content).toBe('m1')
    expect(messageIn(table, 'm2')?.props.content).toBe('m2')
    expect(messageIn(table, 'm3')).toBeUndefined()
    for (const id of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) expect(messageIn(table, id)).toBeUndefined()
  })

  it('puts a message in the bucket of its id, the same in every table', () => {
    const a: MessageTable = {}
    const b: MessageTable = {}
    putMessage(a, message('x'))
    putMessage(b, message('y'))
    putMessage(b, message('x', 'again'))
    expect(Object.keys(a)).toEqual([bucketOf('x')])
    expect(b[bucketOf('x')]!.x!.props.content).toBe('again')
    // 64 buckets; ids spread over them.
    const buckets = new Set(Array.from({ length: 2000 }, (_, i) => bucketOf(`msg-${i}`)))
    expect(buckets.size).toBe(64)
    for (const bucket of buckets) expect(Number(bucket)).toBeGreaterThanOrEqual(0)
  })

  it('deleting the last message of a bucket removes the bucket, so the table equals one that never held it', () => {
    const table: MessageTable = {}
    putMessage(table, message('keep'))
    putMessage(table, message('gone'))
    deleteMessage(table, 'gone')
    deleteMessage(table, 'never')
    const fresh: MessageTable = {}
    putMessage(fresh, message('keep'))
    expect(table).toEqual(fresh)
  })

  it('agrees with a Map on any sequence of puts and deletes (property)', () => {
    const id = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'constructor', 'toString', '0', '63', 'm/1', '')
    const action = fc.oneof(
      fc.record({ put: id, content: fc.string({ maxLength: 3 }) }),
      fc.record({ remove: id }),
    )
    fc.assert(fc.property(fc.array(action, { maxLength: 40 }), (actions) => {
      const table: MessageTable = {}
      const model = new Map<string, Message>()
      for (const a of actions) {
        if ('put' in a) {
          putMessage(table, message(a.put, a.content))
          model.set(a.put, message(a.put, a.content))
        } else {
          deleteMessage(table, a.remove)
          model.delete(a.remove)
        }
      }
      for (const key of ['a', 'b', 'c', 'd', 'e', 'constructor', 'toString', '0', '63', 'm/1', '', 'z']) {
        expect(messageIn(table, key)).toEqual(model.get(key))
      }
      expect(messageList(table).map((m) => m.id).sort()).toEqual([...model.keys()].sort())
      expect(messageRecord(table)).toEqual(Object.fromEntries(model))
      for (const bucket of Object.values(table)) expect(Object.keys(bucket).length).toBeGreaterThan(0)
    }))
  })

  it('lists and flattens once per table', () => {
    const table = toMessageTable([message('m1'), message('m2')])
    expect(messageList(table)).toBe(messageList(table))
    expect(messageRecord(table)).toBe(messageRecord(table))
    expect(Object.keys(messageRecord(table)).sort()).toEqual(['m1', 'm2'])
  })

  it('is made from a list, a record by id, or a table with messages in the wrong buckets', () => {
    const one = message('m1')
    const two = message('m2')
    const expected = toMessageTable([one, two])
    expect(toMessageTable({ m1: one, m2: two })).toEqual(expected)
    expect(toMessageTable(expected)).toEqual(expected)
    expect(toMessageTable({ 7: { m1: one, m2: two } })).toEqual(expected)
    // Entries that are not messages are left out, not thrown on.
    expect(toMessageTable({ m1: one, junk: 3, broken: { id: 4 }, nul: null } as Record<string, unknown>)).toEqual(toMessageTable([one]))
  })
})

describe('the fold writes the table', () => {
  const text = (messageId: string, turnId = 't1') => ({ op: 'message.delta' as const, turnId, messageId, type: 'text', action: 'append' as const, path: 'content', value: 'x' })

  it('a delta to one message copies only its bucket: every other bucket is the same object', () => {
    let state = emptyState()
    const ids = Array.from({ length: 300 }, (_, i) => `m${i}`)
    state = fold(state, [{ op: 'turn.open', turnId: 't1', role: 'assistant' }, ...ids.map((id) => text(id))])
    const next = fold(state, [text('m7')])
    expect(messageIn(next.messages, 'm7')?.props.content).toBe('xx')
    for (const [bucket, messages] of Object.entries(next.messages)) {
      if (bucket === bucketOf('m7')) expect(messages).not.toBe(state.messages[bucket as `${number}`])
      else expect(messages).toBe(state.messages[bucket as `${number}`])
    }
    expect(messageIn(next.messages, 'm8')).toBe(messageIn(state.messages, 'm8'))
  })

  it('a message id is one message across turns: a later turn naming it updates it where it is', () => {
    const state = fold(emptyState(), [
      { op: 'turn.open', turnId: 't1', role: 'assistant' }, text('shared', 't1'),
      { op: 'turn.open', turnId: 't2', role: 'assistant' }, text('shared', 't2'),
    ])
    expect(messageList(state.messages)).toHaveLength(1)
    expect(messageIn(state.messages, 'shared')).toMatchObject({ turnId: 't1', props: { content: 'xx' } })
    expect(state.turns.t2!.messageIds).toEqual([])
  })

  it('removing every message leaves an empty table', () => {
    const state = fold(emptyState(), [{ op: 'turn.open', turnId: 't1', role: 'assistant' }, text('a'), text('b')])
    const removed = fold(state, [{ op: 'message.remove', messageId: 'a' }, { op: 'message.remove', messageId: 'b' }])
    expect(removed.messages).toEqual({})
  })
})

describe('a stored conversation keeps its messages as one record by id', () => {
  const state = fold(emptyState(), [
    { op: 'turn.open', turnId: 't1', role: 'assistant' },
    { op: 'message.put', turnId: 't1', messageId: 'm1', type: 'text', props: { content: 'Hi' }, status: 'done' },
    { op: 'turn.finish', turnId: 't1', status: 'done' },
  ])
  const fields = { id: 'c1', title: 'T', createdAt: 1, updatedAt: 1, revision: 1 }

  it('writes the flat record, and loads it back into buckets', () => {
    const record = conversationRecord(fields, state)
    expect(record.state.messages).toEqual({ m1: messageIn(state.messages, 'm1') })
    const stored = JSON.parse(JSON.stringify(record))
    const checked = checkRecord(stored, 'c1')
    expect(checked.ok).toBe(true)
    if (!checked.ok) return
    const loaded = stateOf(checked.value)
    expect(loaded.messages).toEqual(state.messages)
    expect(messageIn(loaded.messages, 'm1')?.props.content).toBe('Hi')
  })

  it('a record whose message sits under another id is refused as damaged', () => {
    const stored = JSON.parse(JSON.stringify(conversationRecord(fields, state)))
    stored.state.messages = { other: stored.state.messages.m1 }
    const checked = checkRecord(stored, 'c1')
    expect(checked.ok).toBe(false)
    if (checked.ok) return
    expect(checked.error.code).toBe('conversation_corrupt')
  })
})
