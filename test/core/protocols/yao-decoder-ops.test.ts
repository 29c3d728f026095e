/**
 * The Yao decoder's content chunks, op by op: which chunk replaces a message
 * and which merges into it (`delta`, `delta_path`, `delta_action`,
 * `type_change`), how an append to all of props splits by key, ids and their
 * scope per request, the resume cursor, the problems a malformed chunk
 * reports, Yao's type names in weft's model, and how a stream is sniffed.
 */
import { describe, expect, it } from 'vitest'
import { createYaoDecoder, sniffYao } from '../../../src/protocols/yao/decoder'
import type { Op } from '../../../src/core/model/ops'

type Ev = Record<string, unknown>
const decoder = () => createYaoDecoder({ turnId: 't1', scope: 't1' })
/** The chunks as one read: each chunk's ops, then what the read's end writes (the tokens held for the batch). */
const run = (chunks: readonly unknown[], d = decoder()): Op[] => [...chunks.flatMap((c) => d.decode(c, {})), ...d.flush!()]
const ev = (event: string, data: Ev = {}, chunk: Ev = {}): Ev => ({ type: 'event', props: { event, data }, ...chunk })
const problem = (message: string, raw: unknown, code?: string): Op => ({
  op: 'problem', turnId: 't1',
  error: { type: 'protocol', message, retryable: false, ...(code ? { code } : {}), detail: JSON.stringify(raw) },
})
/** Where a message of `M1` sits: the fields every content op carries. */
const at = (messageId = 't1/M1', type = 'text', more: Ev = {}) => ({ turnId: 't1', messageId, type, role: 'assistant', blockId: undefined, threadId: undefined, ...more })
/** A key the plain-key cache has not seen yet, so what it finds is computed now. */
let fresh = 0
const newKey = (stem: string) => `${stem}${++fresh}_${Math.random().toString(36).slice(2, 8)}`

describe('Yao content: replace or merge', () => {
  it('a chunk without a delta flag on a new message puts the message whole', () => {
    expect(run([{ message_id: 'M1', type: 'text', props: { content: 'Hi' } }])).toStrictEqual([
      { op: 'message.put', ...at(), props: { content: 'Hi' } },
    ])
  })

  it('delta: true appends each plain key of props at its own path', () => {
    expect(run([{ message_id: 'M1', type: 'text', delta: true, props: { content: 'Hel', 'a-b_$9': 'x' } }])).toEqual([
      { op: 'message.delta', ...at(), action: 'append', path: 'content', value: 'Hel' },
      { op: 'message.delta', ...at(), action: 'append', path: 'a-b_$9', value: 'x' },
    ])
  })

  it('a plain key the cache has not seen is appended at its own path', () => {
    const key = newKey('k')
    expect(run([{ message_id: 'M1', type: 'text', delta: true, props: { [key]: 'v' } }])).toEqual([
      { op: 'message.delta', ...at(), action: 'append', path: key, value: 'v' },
    ])
  })

  it('a key that is not plain is appended as a one-key object at the root, whatever its place in the key', () => {
    for (const stem of ['a.b', '.ab', 'ab.', 'a b', '[0]']) {
      const key = `${stem}${newKey('')}`
      const keys = [key, `${newKey('')}${stem}`]
      for (const k of keys) {
        expect(run([{ message_id: 'M1', type: 'text', delta: true, props: { [k]: 'v' } }])).toStrictEqual([
          { op: 'message.delta', ...at(), action: 'append', path: '', value: { [k]: 'v' } },
        ])
      }
    }
  })

  it('an append of empty props is an empty merge, so the message exists', () => {
    expect(run([{ message_id: 'M1', type: 'text', delta: true, props: {} }])).toStrictEqual([
      { op: 'message.delta', ...at(), action: 'merge', path: '', value: {} },
    ])
  })

  it('delta: false replaces a message already streaming', () => {
    const d = decoder()
    run([{ message_id: 'M1', type: 'text', delta: true, props: { content: 'a' } }], d)
    expect(run([{ message_id: 'M1', type: 'text', delta: false, props: { content: 'b' } }], d)).toStrictEqual([
      { op: 'message.put', ...at(), props: { content: 'b' } },
    ])
  })

  it('no flag on a message of the same type already streaming merges, as Yao\'s concurrent example does', () => {
    const d = decoder()
    run([{ message_id: 'M1', type: 'text', props: { content: 'Weather: Sunny' } }], d)
    expect(run([{ message_id: 'M1', type: 'text', props: { content: ', 25°C' } }], d)).toEqual([
      { op: 'message.delta', ...at(), action: 'append', path: 'content', value: ', 25°C' },
    ])
  })

  it('no flag on a message of another type replaces it', () => {
    const d = decoder()
    run([{ message_id: 'M1', type: 'text', props: { content: 'a' } }], d)
    expect(run([{ message_id: 'M1', type: 'loading', props: { content: 'b' } }], d)).toStrictEqual([
      { op: 'message.put', ...at('t1/M1', 'loading'), props: { content: 'b' } },
    ])
  })

  it('a flag that is not a boolean counts as no flag', () => {
    for (const delta of [null, 0, '', [], 'true', 1]) {
      expect(run([{ message_id: 'M1', type: 'text', delta, props: { content: 'a' } }])[0]!.op).toBe('message.put')
    }
  })

  it('a delta on a message of another type re-types it, as Yao\'s client does, so a later unflagged chunk of the old type replaces', () => {
    const d = decoder()
    run([{ message_id: 'M1', type: 'text', props: { content: 'a' } }], d)
    expect(run([{ message_id: 'M1', type: 'loading', delta: true, props: { content: 'b' } }], d)).toEqual([
      { op: 'message.delta', ...at('t1/M1', 'loading'), action: 'append', path: '', value: { content: 'b' }, retype: true },
    ])
    expect(run([{ message_id: 'M1', type: 'text', props: { content: 'c' } }], d)[0]!.op).toBe('message.put')
  })

  it('a replacing chunk of another type gives the message its new type, so a later unflagged chunk of the old type replaces', () => {
    const d = decoder()
    run([{ message_id: 'M1', type: 'text', props: { content: 'a' } }], d)
    run([{ message_id: 'M1', type: 'loading', delta: false, props: { content: 'b' } }], d)
    expect(run([{ message_id: 'M1', type: 'text', props: { content: 'c' } }], d)[0]!.op).toBe('message.put')
  })

  it('a type_change delta gives the message its new type, retyped, and the next unflagged chunk of the new type merges', () => {
    const d = decoder()
    run([{ message_id: 'M1', type: 'text', props: { content: 'a' } }], d)
    expect(run([{ message_id: 'M1', type: 'loading', delta: true, type_change: true, props: { content: 'b' } }], d)).toEqual([
      { op: 'message.delta', ...at('t1/M1', 'loading'), action: 'append', path: '', value: { content: 'b' }, retype: true },
    ])
    expect(run([{ message_id: 'M1', type: 'loading', props: { content: 'c' } }], d)[0]).toMatchObject({ op: 'message.delta', path: 'content' })
    expect(run([{ message_id: 'M1', type: 'text', props: { content: 'd' } }], d)[0]!.op).toBe('message.put')
  })

  it('type_change is a flag only when it is true', () => {
    expect(run([{ message_id: 'M1', type: 'text', delta: true, type_change: 'yes', props: { content: 'a' } }])).toEqual([
      { op: 'message.delta', ...at(), action: 'append', path: 'content', value: 'a' },
    ])
  })

  it('a chunk without a message_id never merges, even into an anonymous message of its type', () => {
    const d = decoder()
    run([{ chunk_id: 'C1', type: 'text', props: { content: 'a' } }], d)
    expect(run([{ type: 'text', props: { content: 'b' } }], d)).toStrictEqual([
      { op: 'message.put', ...at('t1/chunk#2'), props: { content: 'b' } },
    ])
  })
})

describe('Yao content: delta_path and delta_action', () => {
  it('delta_action replace at a path writes the value found there, not retyped', () => {
    expect(run([{ message_id: 'M1', type: 'text', delta: true, delta_action: 'replace', delta_path: 'items[0].title', props: { items: [{ title: 'T' }] } }])).toStrictEqual([
      { op: 'message.delta', ...at(), action: 'replace', path: 'items[0].title', value: 'T', retype: false },
    ])
  })

  it('an append at a path is one op with the value at that path', () => {
    expect(run([{ message_id: 'M1', type: 'text', delta: true, delta_path: 'content', props: { content: 'x', other: 1 } }])).toStrictEqual([
      { op: 'message.delta', ...at(), action: 'append', path: 'content', value: 'x', retype: false },
    ])
  })

  it('merge and set at the root write all of props', () => {
    for (const action of ['merge', 'set']) {
      expect(run([{ message_id: 'M1', type: 'text', delta: true, delta_action: action, props: { a: 1 } }])).toStrictEqual([
        { op: 'message.delta', ...at(), action, path: '', value: { a: 1 }, retype: false },
      ])
    }
  })

  it('a path to nothing writes undefined', () => {
    expect(run([{ message_id: 'M1', type: 'text', delta: true, delta_action: 'set', delta_path: 'a.b', props: { a: 1 } }])).toStrictEqual([
      { op: 'message.delta', ...at(), action: 'set', path: 'a.b', value: undefined, retype: false },
    ])
  })

  it('an unknown delta_action is a problem and the chunk is ignored', () => {
    const chunk = { message_id: 'M1', type: 'text', delta: true, delta_action: 'prepend', props: { content: 'x' } }
    expect(run([chunk])).toEqual([problem('unknown delta_action "prepend"; the chunk was ignored', chunk, 'delta_action')])
    const empty = { message_id: 'M1', type: 'text', delta: true, delta_action: '', props: {} }
    expect(run([empty])).toEqual([problem('unknown delta_action ""; the chunk was ignored', empty, 'delta_action')])
  })

  it('a malformed delta_path is a problem quoting the path error, and the chunk is ignored', () => {
    const chunk = { message_id: 'M1', type: 'text', delta: true, delta_path: Array(65).fill('a').join('.'), props: {} }
    const ops = run([chunk])
    expect(ops).toHaveLength(1)
    expect(ops[0]).toMatchObject({ op: 'problem', turnId: 't1', error: { type: 'protocol', code: 'delta_path' } })
    expect((ops[0] as { error: { message: string } }).error.message).not.toBe('bad delta_path')
    expect((ops[0] as { error: { message: string } }).error.message).not.toBe('')
  })

  it('a tool_call delta with another action does not append its arguments', () => {
    const d = decoder()
    run([{ message_id: 'M1', type: 'tool_call', delta: true, props: { id: 'c', name: 'n', arguments: '{"a":' } }], d)
    const ops = run([{ message_id: 'M1', type: 'tool_call', delta: true, delta_action: 'merge', props: { arguments: '{"b":1}' } }], d)
    expect(ops.at(-2)).toMatchObject({ value: { inputText: '{"b":1}' } })
  })

  it('a tool_call delta without a delta_action appends its arguments', () => {
    const d = decoder()
    run([{ message_id: 'M1', type: 'tool_call', delta: true, props: { id: 'c', name: 'n', arguments: '{"a":' } }], d)
    const ops = run([{ message_id: 'M1', type: 'tool_call', delta: true, props: { arguments: '1}' } }], d)
    expect(ops.at(-2)).toMatchObject({ value: { inputText: '{"a":1}', input: { a: 1 } } })
  })
})

describe('Yao ids: scoping, anonymous messages, blocks and threads', () => {
  it('a message without a message_id is named by its chunk and a count', () => {
    const d = decoder()
    expect(run([{ chunk_id: 'C7', type: 'text', props: { content: 'a' } }], d)[0]).toMatchObject({ messageId: 't1/C7#1' })
    expect(run([{ chunk_id: 'C8', type: 'text', props: { content: 'b' } }], d)[0]).toMatchObject({ messageId: 't1/C8#2' })
  })

  it('an anonymous message never takes a name a server message holds: after a server C2#1, the anonymous chunk C2 is C2#2', () => {
    const d = decoder()
    run([{ chunk_id: 'C1', message_id: 'C2#1', type: 'text', props: { content: 'named' } }], d)
    expect(run([{ chunk_id: 'C2', type: 'text', props: { content: 'anonymous' } }], d)[0]).toMatchObject({ messageId: 't1/C2#2' })
  })

  it('a server message named as an anonymous one already is keeps its own message, for every chunk that names it', () => {
    const d = decoder()
    expect(run([{ chunk_id: 'C5', type: 'text', props: { content: 'anonymous' } }], d)[0]).toMatchObject({ messageId: 't1/C5#1' })
    const named = run([
      { chunk_id: 'C6', message_id: 'C5#1', type: 'text', delta: true, props: { content: 'Hel' } },
      { chunk_id: 'C7', message_id: 'C5#1', type: 'text', delta: true, props: { content: 'lo' } },
      ev('message_end', { message_id: 'C5#1' }),
    ], d)
    // The two tokens reach the message as one append, written before the end.
    expect(named.map((op) => ('messageId' in op ? op.messageId : op.op))).toEqual(['t1/C5#1~1', 't1/C5#1~1'])
    expect(named[0]).toMatchObject({ op: 'message.delta', action: 'append', path: 'content', value: 'Hello' })
  })

  it('a content chunk sits in the block and thread it names, or in the block its props name', () => {
    expect(run([{ message_id: 'M1', block_id: 'B1', thread_id: 'T1', type: 'text', props: {} }])[0]).toMatchObject({ blockId: 't1/B1', threadId: 't1/T1' })
    expect(run([{ message_id: 'M1', type: 'text', props: { block_id: 'B2' } }])[0]).toMatchObject({ blockId: 't1/B2', threadId: undefined })
  })

  it('a content chunk of type event does not take a block from its props', () => {
    expect(run([{ message_id: 'M1', type: 'event', props: { event: 'custom', block_id: 'B2' } }])[0]).toMatchObject({ blockId: undefined })
    expect(run([{ message_id: 'M1', block_id: 'B1', type: 'event', props: { event: 'custom' } }])[0]).toMatchObject({ blockId: 't1/B1' })
  })

  it('a second request opens a new id scope, r2, then r3', () => {
    const d = decoder()
    run([ev('stream_start', { request_id: 'R1' }), { message_id: 'M1', type: 'text', props: {} }], d)
    expect(run([ev('stream_start', { request_id: 'R2' }), { message_id: 'M1', type: 'text', props: {} }], d)[1]).toMatchObject({ messageId: 't1/r2/M1' })
    expect(run([ev('stream_start', { request_id: 'R3' }), { message_id: 'M1', type: 'text', props: {} }], d)[1]).toMatchObject({ messageId: 't1/r3/M1' })
  })

  it('a repeated stream_start of the same request keeps its ids and what it knows of them, and opens no turn', () => {
    const d = decoder()
    run([ev('stream_start', { request_id: 'R1' }), { message_id: 'M1', type: 'text', props: {} }], d)
    const ops = run([ev('stream_start', { request_id: 'R1' }), { message_id: 'M1', type: 'text', props: {} }], d)
    // The message is still known, so the unflagged chunk of its type merges into it.
    expect(ops.map((op) => op.op)).toEqual(['turn.update', 'message.delta'])
    expect(ops[1]).toMatchObject({ messageId: 't1/M1' })
  })

  it('a first stream_start after chunks without one keeps the first scope', () => {
    const d = decoder()
    run([{ message_id: 'M1', type: 'text', props: {} }], d)
    expect(run([ev('stream_start', { request_id: 'R1' }), { message_id: 'M2', type: 'text', props: {} }], d)[1]).toMatchObject({ messageId: 't1/M2' })
  })

  it('a stream_start after stream_end reopens the turn under a new scope', () => {
    const d = decoder()
    run([ev('stream_start', { request_id: 'R1' }), ev('stream_end')], d)
    expect(run([ev('stream_start', { request_id: 'R2' })], d)).toEqual([
      { op: 'turn.open', turnId: 't1', role: 'assistant' },
      { op: 'turn.update', turnId: 't1', metadata: { requestId: 'R2' } },
    ])
    expect(d.ended).toBe(false)
    expect(run([{ message_id: 'M1', type: 'text', props: {} }], d)[0]).toMatchObject({ messageId: 't1/r2/M1' })
  })

  it('a new request forgets the chunks, message types and tool calls of the one before', () => {
    const d = decoder()
    run([ev('stream_start', { request_id: 'R1' }), { chunk_id: 'C1', message_id: 'M1', type: 'text', props: { content: 'a' } }], d)
    const ops = run([ev('stream_start', { request_id: 'R2' }), { chunk_id: 'C1', message_id: 'M1', type: 'text', props: { content: 'b' } }], d)
    expect(ops[1]).toStrictEqual({ op: 'message.put', ...at('t1/r2/M1'), props: { content: 'b' } })
  })

  it('a stream_start whose props are not an object, or of another type, opens no request', () => {
    const d = decoder()
    run([ev('stream_start', { request_id: 'R1' })], d)
    run([{ type: 'text', props: { event: 'stream_start', request_id: 'R2' } }], d)
    run([{ type: 'event', props: { event: 'custom', request_id: 'R2' } }], d)
    expect(run([{ message_id: 'M1', type: 'text', props: {} }], d)[0]).toMatchObject({ messageId: 't1/M1' })
  })
})

describe('Yao sequence and replay', () => {
  it('a repeated chunk_id applies once', () => {
    const d = decoder()
    const chunk = { chunk_id: 'C1', message_id: 'M1', type: 'text', delta: true, props: { content: 'a' } }
    expect(run([chunk], d)).toHaveLength(1)
    expect(run([chunk], d)).toEqual([])
  })

  it('the cursor is empty until a sequence arrives, then the last sequence', () => {
    const d = decoder()
    expect(d.cursor!()).toStrictEqual({})
    run([{ type: 'text', props: {}, metadata: { sequence: 4 } }, { type: 'text', props: {}, metadata: { sequence: 5 } }], d)
    expect(d.cursor!()).toStrictEqual({ sequence: 5 })
  })

  it('a sequence that is not a number leaves the cursor as it was', () => {
    const d = decoder()
    run([{ type: 'text', props: {}, metadata: { sequence: 4 } }, { type: 'text', props: {}, metadata: { sequence: '9' } }], d)
    expect(d.cursor!()).toStrictEqual({ sequence: 4 })
  })

  it('read_complete moves the cursor to its last_seq and emits nothing', () => {
    const d = decoder()
    expect(d.decode({ last_seq: 12 }, { event: 'read_complete' })).toEqual([])
    expect(d.cursor!()).toStrictEqual({ sequence: 12 })
    expect(d.decode({ last_seq: 'x', type: 'text', props: {} }, { event: 'read_complete' })).toEqual([])
    expect(d.cursor!()).toStrictEqual({ sequence: 12 })
  })

  it('a read_complete that is not an object emits nothing', () => {
    const d = decoder()
    expect(d.decode('done', { event: 'read_complete' })).toEqual([])
    expect(d.cursor!()).toStrictEqual({})
  })

  it('a chunk under another event name is decoded, its last_seq ignored', () => {
    const d = decoder()
    expect(d.decode({ last_seq: 3, message_id: 'M1', type: 'text', props: {} }, { event: 'message' })[0]).toMatchObject({ op: 'message.put', messageId: 't1/M1' })
    expect(d.cursor!()).toStrictEqual({})
  })
})

describe('Yao problems', () => {
  it('a chunk that is not an object is a problem without a code', () => {
    expect(run(['hello'])).toStrictEqual([problem('a Yao chunk must be an object', 'hello')])
    expect(run([[1]])).toStrictEqual([problem('a Yao chunk must be an object', [1])])
  })

  it('a chunk without a type is a missing_type problem', () => {
    const chunk = { chunk_id: 'C1', props: {} }
    expect(run([chunk])).toEqual([problem('a Yao chunk has no type', chunk, 'missing_type')])
  })

  it('props that are not an object are a problem, and the chunk is read with empty props', () => {
    const chunk = { message_id: 'M1', type: 'text', props: 'Hi' }
    expect(run([chunk])).toStrictEqual([
      problem('a Yao chunk\'s props must be an object', chunk, 'invalid'),
      { op: 'message.put', ...at(), props: {} },
    ])
  })

  it('a chunk without props reports no problem', () => {
    expect(run([{ message_id: 'M1', type: 'text' }])).toStrictEqual([{ op: 'message.put', ...at(), props: {} }])
  })
})

describe('Yao type names', () => {
  it('thinking is reasoning and tool_call is tool; other types keep their name', () => {
    const type = (t: string) => (run([{ message_id: 'M1', type: t, props: {} }])[0] as { type: string }).type
    expect(type('thinking')).toBe('reasoning')
    expect(type('tool_call')).toBe('tool')
    expect(type('loading')).toBe('loading')
    expect(type('toString')).toBe('toString')
  })
})

describe('Yao sniffing', () => {
  it('a chunk_id is sure, a type with props likely, anything else not Yao', () => {
    expect(sniffYao({ first: { chunk_id: 'C1' } } as never)).toBe(1)
    expect(sniffYao({ first: { type: 'text', props: {} } } as never)).toBe(0.8)
    expect(sniffYao({ first: { type: 'text' } } as never)).toBe(0)
    expect(sniffYao({ first: { props: {} } } as never)).toBe(0)
    expect(sniffYao({ first: { type: 1, props: {} } } as never)).toBe(0)
    expect(sniffYao({ first: { chunk_id: 1 } } as never)).toBe(0)
    expect(sniffYao({ first: 'C1' } as never)).toBe(0)
    expect(sniffYao({ first: ['C1'] } as never)).toBe(0)
    expect(sniffYao({ first: null } as never)).toBe(0)
    expect(sniffYao({} as never)).toBe(0)
  })
})

describe('Yao tokens of one read', () => {
  const token = (message: string, content: string, more: Ev = {}) => ({ message_id: message, type: 'text', delta: true, props: { content }, ...more })

  it('reach each message as one append, in the order the messages began, at the read’s end', () => {
    const d = decoder()
    expect([token('M1', 'a'), token('M2', 'x'), token('M1', 'b'), token('M2', 'y')].flatMap((c) => d.decode(c, {}))).toEqual([])
    expect(d.flush!()).toEqual([
      { op: 'message.delta', ...at('t1/M1'), action: 'append', path: 'content', value: 'ab' },
      { op: 'message.delta', ...at('t1/M2'), action: 'append', path: 'content', value: 'xy' },
    ])
    expect(d.flush!()).toEqual([])
  })

  it('are written before any other chunk’s ops, and before the turn finishes', () => {
    const d = decoder()
    d.decode(token('M1', 'a'), {})
    d.decode(token('M2', 'x'), {})
    // A token with a field of its own is written at once, after what was held.
    expect(d.decode(token('M1', 'b', { region: 'eu' }), {}).map((op) => op.op === 'message.delta' && [op.messageId, op.path, op.value])).toEqual([
      ['t1/M1', 'content', 'a'], ['t1/M2', 'content', 'x'], ['t1/M1', 'content', 'b'], ['t1/M1', 'extra', { region: 'eu' }],
    ])
    d.decode(token('M1', 'c'), {})
    expect(d.decode(ev('message_end', { message_id: 'M1' }), {})[0]).toMatchObject({ messageId: 't1/M1', value: 'c' })
    d.decode(token('M2', 'z'), {})
    expect(d.end('done').map((op) => op.op)).toEqual(['message.delta', 'turn.finish'])
  })

  it('are written by a release, and a token in another block or of another action is not held', () => {
    const d = decoder()
    d.decode(token('M1', 'a'), {})
    expect(d.release!()).toEqual([{ op: 'message.delta', ...at('t1/M1'), action: 'append', path: 'content', value: 'a' }])
    d.decode(token('M1', 'b'), {})
    // The same message, placed in a block now: what was held goes first, the new token is held apart.
    expect(d.decode(token('M1', 'c', { block_id: 'B1' }), {})).toEqual([{ op: 'message.delta', ...at('t1/M1'), action: 'append', path: 'content', value: 'b' }])
    expect(d.decode(token('M1', 'd', { delta_action: 'replace' }), {})).toEqual([
      { op: 'message.delta', ...at('t1/M1', 'text', { blockId: 't1/B1' }), action: 'append', path: 'content', value: 'c' },
      { op: 'message.delta', ...at('t1/M1'), action: 'replace', path: '', value: { content: 'd' }, retype: false },
    ])
  })
})
