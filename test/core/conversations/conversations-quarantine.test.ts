/**
 * A stored record is checked through and through before it loads: a value the
 * components would trip on (a null source, a problem that is not an error, a
 * BigInt from a structured clone) quarantines that conversation alone. It is
 * listed as unreadable with its title, exportable as stored, and deletable.
 */
import { afterEach, describe, expect, it } from 'vitest'
import {
  CONVERSATION_CORRUPT, checkRecord, conversationRecord, createConversations, memoryConversations, rawJson,
  type ConversationRecord, type Conversations,
} from '../../../src/core/conversations/index'
import { createAgentStore } from '../../../src/core/store/store'
import type { Op } from '../../../src/core/model/ops'
import { memoryStorage } from '../../../src/core/resume/storage'

const open: Conversations[] = []
afterEach(async () => {
  for (const c of open.splice(0)) await c.dispose()
})

/** A record with a turn of every kind of part: sources, a gate, a timeline row, a block and a lane. */
function fullRecord(id: string, title: string): ConversationRecord {
  const store = createAgentStore()
  const ops: Op[] = [
    { op: 'turn.open', turnId: 'u1', role: 'user' },
    { op: 'message.put', turnId: 'u1', messageId: 'u1/text', role: 'user', type: 'text', props: { content: 'Question' }, status: 'done' },
    { op: 'turn.finish', turnId: 'u1', status: 'done' },
    { op: 'turn.open', turnId: 'a1', role: 'assistant', suggestions: ['More'] },
    { op: 'block.open', turnId: 'a1', blockId: 'b1', kind: 'step', label: 'Step' },
    { op: 'thread.open', turnId: 'a1', threadId: 'th1', blockId: 'b1', label: 'Lane' },
    { op: 'message.put', turnId: 'a1', messageId: 'a1/text', blockId: 'b1', threadId: 'th1', role: 'assistant', type: 'text', props: { content: 'Answer [1]' }, status: 'done' },
    { op: 'trace.node', turnId: 'a1', node: { id: 'n1', kind: 'tool', label: 'Search', status: 'done', actor: { id: 'a', name: 'Agent' } } },
    { op: 'gate.open', gate: { id: 'g1', turnId: 'a1', kind: 'approval', question: 'Go?', payload: { x: 1 } } },
    { op: 'source.add', turnId: 'a1', source: { id: 's1', kind: 'url', url: 'https://example.com', title: 'Example', citationIndex: 1 } },
    { op: 'problem', turnId: 'a1', error: { type: 'protocol', message: 'odd frame', retryable: false } },
    { op: 'turn.finish', turnId: 'a1', status: 'done' },
  ]
  store.getState().dispatch(ops)
  return structuredClone(conversationRecord({ id, title, createdAt: 1, updatedAt: 2, revision: 1 }, store.getState()))
}

type Damage = (state: Record<string, any>) => void

const damages: Array<[string, Damage, string]> = [
  ['a null source', (s) => { s.turns.a1.sources = [null] }, 'sources[0] is not a source'],
  ['a source of no known kind', (s) => { s.turns.a1.sources[0].kind = 'video' }, 'kind that is not url or document'],
  ['a source title that is a number', (s) => { s.turns.a1.sources[0].title = 5 }, 'title that is not a string'],
  ['a problem that is not an error', (s) => { s.turns.a1.problems = [null] }, 'problems[0] is not an error'],
  ['a turn error that is a string', (s) => { s.turns.a1.error = 'bad' }, 'error is not an error'],
  ['suggestions that are not strings', (s) => { s.turns.a1.suggestions = [{}] }, 'suggestions is not a list of strings'],
  ['a message of no known role', (s) => { s.messages['a1/text'].role = 'robot' }, 'role is not user, assistant, system or tool'],
  ['a block of no known status', (s) => { s.blocks.b1.status = 'sideways' }, 'status is not open, done or error'],
  ['a lane label that is an object', (s) => { s.threads.th1.label = {} }, 'label that is not a string'],
  ['a timeline row with no label', (s) => { delete s.trace.n1.label }, 'lacks its childIds, text or label'],
  ['a timeline actor that is null', (s) => { s.trace.n1.actor = null }, 'actor is not one'],
  ['a gate of no known status', (s) => { s.gates.g1.status = 'maybe' }, 'status is not a gate status'],
  ['a gate with no question', (s) => { s.gates.g1.question = undefined }, 'lacks its turnId, kind or question'],
  ['a cursor protocol that is a number', (s) => { s.cursor.protocol = 5 }, 'cursor.protocol'],
  ['a BigInt in a prop', (s) => { s.messages['a1/text'].props.tokens = 10n }, 'state.messages.a1/text.props.tokens (a bigint) is not JSON data'],
  ['a Map in a gate payload', (s) => { s.gates.g1.payload = new Map([[1, 2]]) }, 'state.gates.g1.payload (an instance of Map) is not JSON data'],
  ['a cycle in the agent state', (s) => { s.agentState.self = s.agentState }, 'state.agentState.self (a circular reference) is not JSON data'],
]

describe('conversations: a record is checked deeply before it loads', () => {
  it('the full record itself passes', () => {
    expect(checkRecord(fullRecord('x', 'X'), 'x').ok).toBe(true)
  })

  it.each(damages)('%s is quarantined, alone, with its title, exportable and deletable', async (_name, damage, problem) => {
    const storage = memoryConversations()
    storage.records.set('good', fullRecord('good', 'Good'))
    const bad = fullRecord('bad', 'Damaged trip')
    damage(bad.state as Record<string, any>)
    expect(checkRecord(bad, 'bad')).toMatchObject({ ok: false, error: { type: 'validation', code: CONVERSATION_CORRUPT } })
    // The memory storage hands out a copy of a record set by hand; what cannot be copied stays as it is.
    storage.records.set('bad', bad)
    const c = createConversations({ storage: { ...storage, load: async (id) => storage.records.get(id) }, selection: memoryStorage(), saveOnHide: false })
    open.push(c)
    await c.ready()
    await c.select('bad')
    const row = c.list().find((x) => x.id === 'bad')
    expect(row).toMatchObject({ status: 'error', title: 'Damaged trip', error: { code: CONVERSATION_CORRUPT } })
    expect(row?.error?.message).toContain(problem)
    expect(c.storeOf('bad')).toBeUndefined()
    await c.select('good')
    expect(c.list().find((x) => x.id === 'good')?.status).toBe('idle')
    expect(c.storeOf('good')?.getState().turnIds).toEqual(['u1', 'a1'])

    const exported = await c.exportRaw('bad')
    expect(JSON.parse(exported as string)).toMatchObject({ id: 'bad', title: 'Damaged trip', revision: 1 })
    expect(storage.records.get('bad')).toBe(bad)
    expect(await c.remove('bad')).toBe(false)
    expect(storage.records.has('bad')).toBe(false)
    expect(c.list().map((x) => x.id)).toEqual(['good'])
  })

  it('a summary that cannot be read is listed with its title when the title is readable, and exports as stored', async () => {
    const storage = memoryConversations()
    storage.records.set('odd', { format: 'weft.conversation', version: 1, id: 'odd', title: 'Still named', createdAt: 'yesterday', updatedAt: 1, revision: 1, state: {} })
    storage.records.set('nameless', { format: 'weft.conversation', version: 1, id: 'nameless', title: 7, createdAt: 1, updatedAt: 1, revision: 1 })
    const c = createConversations({ storage, selection: memoryStorage(), saveOnHide: false })
    open.push(c)
    await c.ready()
    expect(c.list().find((x) => x.id === 'odd')).toMatchObject({ status: 'error', title: 'Still named' })
    expect(c.list().find((x) => x.id === 'nameless')).toMatchObject({ status: 'error', title: 'nameless' })
    expect(JSON.parse(await c.exportRaw('odd') as string)).toMatchObject({ createdAt: 'yesterday' })
    expect(await c.exportRaw('missing')).toBeUndefined()
  })

  it('exports what JSON cannot hold as tags, and never throws', () => {
    const cyclic: Record<string, unknown> = { a: 1 }
    cyclic.self = cyclic
    const text = rawJson({ big: 12n, nan: Number.NaN, when: new Date(0), map: new Map([['k', 1]]), set: new Set([1]), cyclic, f: () => 1 })
    expect(JSON.parse(text)).toEqual({
      big: { $bigint: '12' }, nan: { $number: 'NaN' }, when: { $date: '1970-01-01T00:00:00.000Z' },
      map: { $map: [['k', 1]] }, set: { $set: [1] }, cyclic: { a: 1, self: '$circular' }, f: { $type: 'function' },
    })
    const hostile = new Proxy({}, { ownKeys: () => { throw new Error('no') } })
    expect(() => JSON.parse(rawJson(hostile))).not.toThrow()
  })
})
