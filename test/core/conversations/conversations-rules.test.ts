/**
 * The conversation store's parts, rule by rule, with exact results: the memory
 * storage and its revision check, the journal a page leaves, the stored record and
 * its schema check (each problem's message and code), the typed save errors, and
 * through `createConversations` what the ledger publishes, what the loader reads
 * and what the saver stores.
 */
import { afterEach, describe, expect, it } from 'vitest'
import {
  CONVERSATION_CONFLICT, CONVERSATION_CORRUPT, CONVERSATION_FOREIGN, CONVERSATION_NEWER, CONVERSATION_NOT_DATA, CONVERSATION_QUOTA_EXCEEDED,
  CONVERSATION_SAVE_FAILED, ConversationConflictError, checkRecord, checkSummary, conversationRecord, createConversations, memoryConversations,
  readableTitle, stateOf, summaryOf, type ConversationChange, type ConversationRecord, type ConversationStorage, type Conversations,
} from '../../../src/core/conversations/index'
import { Journal } from '../../../src/core/conversations/journal'
import { messageOf, saveErrorOf } from '../../../src/core/conversations/saver'
import { storedRevision } from '../../../src/core/conversations/storage'
import { emptyState, type AgentState } from '../../../src/core/model/model'
import { fold } from '../../../src/core/fold/fold'
import { memoryStorage } from '../../../src/core/resume/storage'
import type { ResumeStorage } from '../../../src/core/resume/types'
import { messageList } from '../../../src/core/model/message-table'
import { exchange } from '../../helpers/exchange'

const open: Conversations[] = []
afterEach(async () => {
  for (const c of open.splice(0)) await c.dispose()
})

const record = (fields: Partial<ConversationRecord> = {}, state: AgentState = emptyState()): ConversationRecord => ({
  ...conversationRecord({ id: 'c1', title: 'Trip', createdAt: 1, updatedAt: 2, revision: 3 }, state), ...fields,
})

const corrupt = (problem: string, id = 'c1') => ({
  ok: false,
  error: { type: 'validation', message: `conversation "${id}" cannot be read: ${problem}; it is left as it is`, code: CONVERSATION_CORRUPT, retryable: false },
})

describe('the memory storage', () => {
  it('reads the stored revision from a raw summary: 0 when absent, -1 when unreadable', () => {
    expect([storedRevision(undefined), storedRevision({ revision: 4 }), storedRevision({ revision: 0 }), storedRevision(null), storedRevision({}), storedRevision({ revision: '4' }), storedRevision('x')])
      .toEqual([0, 4, 0, -1, -1, -1, -1])
  })

  it('a conflict names the conversation and both revisions', () => {
    const error = new ConversationConflictError('c1', 5, 3)
    expect([error.name, error.message, error.storedRevision, error instanceof Error]).toEqual([
      'ConversationConflictError', 'conversation "c1" was saved elsewhere (revision 5, this page had 3)', 5, true,
    ])
  })

  it('saves when the stored revision is the expected one, and refuses with the one it found otherwise', async () => {
    const storage = memoryConversations()
    const refusal = async (work: Promise<void>) => work.then(() => undefined, (e: ConversationConflictError) => [e.name, e.storedRevision, e.message])
    expect(await refusal(storage.save(record({ revision: 1 }), { expectedRevision: 1 }))).toEqual(['ConversationConflictError', 0, 'conversation "c1" was saved elsewhere (revision 0, this page had 1)'])
    expect(await refusal(storage.save(record({ revision: 1 }), { expectedRevision: 0 }))).toBeUndefined()
    expect(await refusal(storage.save(record({ revision: 2 }), { expectedRevision: 0 }))).toEqual(['ConversationConflictError', 1, 'conversation "c1" was saved elsewhere (revision 1, this page had 0)'])
    expect(await refusal(storage.save(record({ revision: 2 }), { expectedRevision: 1 }))).toBeUndefined()
    storage.records.set('c2', { revision: 'x' })
    expect(await refusal(storage.save(record({ id: 'c2', revision: 1 }), { expectedRevision: 0 }))).toEqual(['ConversationConflictError', -1, 'conversation "c2" was saved elsewhere (revision -1, this page had 0)'])
  })

  it('lists each record\'s summary (the record without its state), as a copy', async () => {
    const storage = memoryConversations()
    await storage.save(record({ revision: 1 }), { expectedRevision: 0 })
    storage.records.set('odd', 'not a record')
    storage.records.set('nothing', null)
    const listed = await storage.list()
    expect(listed).toStrictEqual([
      { id: 'c1', summary: { format: 'weft.conversation', version: 1, id: 'c1', title: 'Trip', createdAt: 1, updatedAt: 2, revision: 1 } },
      { id: 'odd', summary: 'not a record' },
      { id: 'nothing', summary: null },
    ])
    ;(listed[0]!.summary as { title: string }).title = 'changed'
    expect(((await storage.list())[0]!.summary as { title: string }).title).toBe('Trip')
  })

  it('stores a frozen copy and hands it out as it is; a record put in by hand goes out as a copy', async () => {
    const storage = memoryConversations()
    const mine = record({ revision: 1 }, fold(emptyState(), exchange(1, 'Hi', 'Hello')))
    await storage.save(mine, { expectedRevision: 0 })
    const loaded = (await storage.load('c1')) as ConversationRecord
    expect(loaded).toStrictEqual(mine)
    expect(loaded).not.toBe(mine)
    expect(await storage.load('c1')).toBe(loaded)
    expect([Object.isFrozen(loaded), Object.isFrozen(loaded.state), Object.isFrozen(loaded.state.turns.u1), Object.isFrozen(loaded.state.turns.u1!.messageIds)]).toEqual([true, true, true, true])
    expect(Object.isFrozen(mine)).toBe(false)
    const byHand = { id: 'c9', title: 'x' }
    storage.records.set('c9', byHand)
    const copy = await storage.load('c9')
    expect(copy).toStrictEqual(byHand)
    expect(copy).not.toBe(byHand)
    storage.records.set('c8', 7)
    expect(await storage.load('c8')).toBe(7)
    expect(await storage.load('none')).toBeUndefined()
    await storage.remove('c1')
    expect([await storage.load('c1'), storage.records.has('c1')]).toEqual([undefined, false])
  })
})

describe('the journal', () => {
  const PREFIX = 'weft:journal:'
  const entries = (storage: ResumeStorage & { keys?: () => string[] }) => storage
  const stored = (revision: number) => summaryOf(record({ revision }))

  it('writes a record under its id, and a take reads it once', () => {
    const session = memoryStorage()
    const journal = new Journal(session, PREFIX)
    const mine = record({ revision: 3 })
    journal.write(mine)
    expect(JSON.parse(session.getItem(`${PREFIX}c1`)!)).toStrictEqual(mine)
    expect(journal.take('c1', stored(3))).toStrictEqual(mine)
    expect(session.getItem(`${PREFIX}c1`)).toBeNull()
    expect(journal.take('c1', stored(3))).toBeUndefined()
    entries(session)
  })

  it('takes it only when it builds on the stored revision (0 when nothing is stored)', () => {
    const session = memoryStorage()
    const journal = new Journal(session, PREFIX)
    journal.write(record({ revision: 3 }))
    expect(journal.take('c1', stored(4))).toBeUndefined()
    expect(session.getItem(`${PREFIX}c1`)).toBeNull()
    journal.write(record({ revision: 0 }))
    expect(journal.take('c1', undefined)).toStrictEqual(record({ revision: 0 }))
    journal.write(record({ revision: 3 }))
    expect(journal.take('c1', undefined)).toBeUndefined()
    journal.write(record({ revision: 0 }))
    expect(journal.take('c1', { format: 'weft.conversation', version: 1, id: 'c1', title: 7 })).toBeUndefined()
  })

  it('drops what fails the check or does not parse, and anything when there is no session storage', () => {
    const session = memoryStorage()
    const journal = new Journal(session, PREFIX)
    session.setItem(`${PREFIX}c1`, '{not json')
    expect(journal.take('c1', undefined)).toBeUndefined()
    session.setItem(`${PREFIX}c1`, JSON.stringify({ ...record({ revision: 0 }), id: 'c2' }))
    expect(journal.take('c1', undefined)).toBeUndefined()
    session.setItem(`${PREFIX}c1`, '')
    expect(journal.take('c1', undefined)).toBeUndefined()
    const none = new Journal(undefined, PREFIX)
    none.write(record())
    none.drop('c1')
    expect(none.take('c1', undefined)).toBeUndefined()
  })

  it('a session storage that throws is no journal, and never throws out', () => {
    const refusing: ResumeStorage = {
      getItem: () => { throw new Error('denied') },
      setItem: () => { throw new Error('full') },
      removeItem: () => { throw new Error('denied') },
    }
    const journal = new Journal(refusing, PREFIX)
    expect(() => journal.write(record())).not.toThrow()
    expect(() => journal.drop('c1')).not.toThrow()
    expect(journal.take('c1', undefined)).toBeUndefined()
  })

  it('drop removes only its own conversation\'s entry', () => {
    const session = memoryStorage()
    const journal = new Journal(session, PREFIX)
    journal.write(record({ revision: 0 }))
    journal.write(record({ id: 'c2', revision: 0 }))
    journal.drop('c1')
    expect([session.getItem(`${PREFIX}c1`), session.getItem(`${PREFIX}c2`) !== null]).toEqual([null, true])
  })
})

describe('the stored record', () => {
  it('keeps every data field of the model but the page\'s own, and messages by id', () => {
    const state = { ...fold(emptyState(), exchange(1, 'Hi', 'Hello')), status: 'streaming' as const, activeTurnId: 'a1', error: { type: 'network' as const, message: 'x' }, later: 'kept', fn: () => 1 }
    const made = conversationRecord({ id: 'c1', title: 'Trip', createdAt: 1, updatedAt: 2, revision: 3, titleSource: 'user' }, state as unknown as AgentState)
    const { status: _s, activeTurnId: _a, error: _e, fn: _f, messages: _m, ...kept } = state
    expect(made).toStrictEqual({
      format: 'weft.conversation', version: 1, id: 'c1', title: 'Trip', createdAt: 1, updatedAt: 2, revision: 3, titleSource: 'user',
      state: { ...kept, messages: Object.fromEntries(messageList(state.messages).map((m) => [m.id, m])) },
    })
  })

  it('its summary: the record\'s fields without the state, titleSource only when set', () => {
    expect(summaryOf(record({ titleSource: 'server' }))).toStrictEqual({ format: 'weft.conversation', version: 1, id: 'c1', title: 'Trip', titleSource: 'server', createdAt: 1, updatedAt: 2, revision: 3 })
    expect(summaryOf(record())).toStrictEqual({ format: 'weft.conversation', version: 1, id: 'c1', title: 'Trip', createdAt: 1, updatedAt: 2, revision: 3 })
  })

  it('the model it holds: with its branches as stored', () => {
    const state = fold(emptyState(), exchange(1, 'Hi', 'Hello'))
    const back = stateOf(record({}, state))
    expect(back.turns).toStrictEqual(state.turns)
    expect([back.branches, back.selected, back.turnIds]).toStrictEqual([state.branches, state.selected, state.turnIds])
    expect(messageList(back.messages)).toStrictEqual(messageList(state.messages))
    expect(back.status).toBe('idle')
  })

  it('a record from before branches is read as one chain', () => {
    const state = fold(emptyState(), [...exchange(1, 'Hi', 'Hello'), ...exchange(2, 'More', 'Sure')])
    const old = record({}, state)
    const { branches: _b, selected: _s, ...stateWithout } = old.state
    const turns = Object.fromEntries(Object.entries(state.turns).map(([id, turn]) => {
      const { parentId: _p, ...rest } = turn
      return [id, id === 'u1' ? { ...rest, parentId: 'stale' } : rest]
    }))
    const back = stateOf({ ...old, state: { ...stateWithout, turns } as ConversationRecord['state'] })
    expect(back.turnIds).toEqual(['u1', 'a1', 'u2', 'a2'])
    expect(Object.fromEntries(back.turnIds.map((id) => [id, back.turns[id]!.parentId]))).toStrictEqual({ u1: undefined, a1: 'u1', u2: 'a1', a2: 'u2' })
    expect('parentId' in back.turns.u1!).toBe(false)
    expect(back.branches).toStrictEqual({ '': ['u1'], u1: ['a1'], a1: ['u2'], u2: ['a2'] })
    expect(back.selected).toStrictEqual({ '': 'u1', u1: 'a1', a1: 'u2', u2: 'a2' })
  })

  it('the title a damaged record still carries', () => {
    const throwing = Object.defineProperty({}, 'title', { get: () => { throw new Error('no') }, enumerable: true })
    expect([readableTitle({ title: 'Trip' }), readableTitle({ title: '  ' }), readableTitle({ title: '' }), readableTitle({ title: 3 }), readableTitle('Trip'), readableTitle(null), readableTitle(throwing)])
      .toEqual(['Trip', undefined, undefined, undefined, undefined, undefined, undefined])
  })
})

describe('the schema check', () => {
  const summary = () => summaryOf(record()) as unknown as Record<string, unknown>

  it('passes a summary, handing back its summary fields only', () => {
    expect(checkSummary({ ...summary(), titleSource: 'message', state: {}, other: 1 }, 'c1')).toStrictEqual({ ok: true, value: { ...summary(), titleSource: 'message' } })
    for (const titleSource of ['server', 'user', undefined]) expect(checkSummary({ ...summary(), titleSource }, 'c1').ok).toBe(true)
    expect(checkSummary({ ...summary(), createdAt: 0, updatedAt: 0, revision: 0 }, 'c1').ok).toBe(true)
  })

  it('names what is not an object', () => {
    expect(checkSummary(null, 'c1')).toStrictEqual(corrupt('the record is null, not an object'))
    expect(checkSummary('x', 'c1')).toStrictEqual(corrupt('the record is string, not an object'))
    expect(checkSummary(undefined, 'c1')).toStrictEqual(corrupt('the record is undefined, not an object'))
    expect(checkSummary([], 'c1')).toStrictEqual(corrupt('the record is object, not an object'))
  })

  it('a record of another format is foreign; of a newer version, newer', () => {
    expect(checkSummary({ ...summary(), format: 'other' }, 'c1')).toStrictEqual({
      ok: false, error: { type: 'validation', message: 'conversation "c1" was not written by weft (format "other")', code: CONVERSATION_FOREIGN, retryable: false },
    })
    const { format: _f, ...noFormat } = summary()
    expect(checkSummary(noFormat, 'c1')).toStrictEqual({
      ok: false, error: { type: 'validation', message: 'conversation "c1" was not written by weft (format missing)', code: CONVERSATION_FOREIGN, retryable: false },
    })
    expect(checkSummary({ ...summary(), version: 2 }, 'c1')).toStrictEqual({
      ok: false,
      error: { type: 'validation', message: 'conversation "c1" was saved by a newer weft (record version 2, this one reads up to 1); it is left as it is', code: CONVERSATION_NEWER, retryable: false },
    })
  })

  it('names the first field that is wrong', () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ version: 0 }, 'version is not a positive integer'], [{ version: 1.5 }, 'version is not a positive integer'], [{ version: '1' }, 'version is not a positive integer'],
      [{ id: 'c2' }, 'the record names the id "c2"'], [{ id: undefined }, 'the record names the id undefined'],
      [{ title: 3 }, 'title is not a string'], [{ titleSource: 'robot' }, 'titleSource is not known'],
      [{ createdAt: -1 }, 'createdAt is not a time'], [{ createdAt: Number.NaN }, 'createdAt is not a time'], [{ createdAt: Infinity }, 'createdAt is not a time'], [{ createdAt: '1' }, 'createdAt is not a time'],
      [{ updatedAt: -1 }, 'updatedAt is not a time'], [{ updatedAt: '2' }, 'updatedAt is not a time'],
      [{ revision: -1 }, 'revision is not a count'], [{ revision: 1.5 }, 'revision is not a count'], [{ revision: '3' }, 'revision is not a count'],
      [{ title: 3, revision: -1 }, 'title is not a string'],
    ]
    for (const [change, problem] of cases) expect(checkSummary({ ...summary(), ...change }, 'c1'), problem).toStrictEqual(corrupt(problem))
  })

  it('a summary or record whose reading throws is damaged, never thrown', () => {
    const throwing = Object.defineProperty({ ...summary() }, 'title', { get: () => { throw new Error('boom') }, enumerable: true })
    expect(checkSummary(throwing, 'c1')).toStrictEqual(corrupt('the summary could not be checked (boom)'))
    const oddly = Object.defineProperty({ ...summary() }, 'title', { get: () => { throw 'odd' }, enumerable: true })
    expect(checkSummary(oddly, 'c1')).toStrictEqual(corrupt('the summary could not be checked (unreadable)'))
    const badState = Object.defineProperty({ ...record() }, 'state', { get: () => { throw new Error('gone') }, enumerable: true })
    expect(checkRecord(badState, 'c1')).toStrictEqual(corrupt('the record could not be checked (gone)'))
    const oddState = Object.defineProperty({ ...record() }, 'state', { get: () => { throw 7 }, enumerable: true })
    expect(checkRecord(oddState, 'c1')).toStrictEqual(corrupt('the record could not be checked (unreadable)'))
  })

  it('passes a whole record; refuses a summary problem, a model that is not data or a model that does not hold together', () => {
    const whole = record({}, fold(emptyState(), exchange(1, 'Hi', 'Hello')))
    expect(checkRecord(whole, 'c1')).toStrictEqual({ ok: true, value: whole })
    expect(checkRecord({ ...whole, title: 1 }, 'c1')).toStrictEqual(corrupt('title is not a string'))
    expect(checkRecord({ ...whole, state: { ...whole.state, when: new Date(0) } }, 'c1')).toStrictEqual(corrupt('state.when (an instance of Date) is not JSON data'))
    const broken = { ...whole, state: { ...whole.state, turnIds: ['u1', 'nope'] } }
    const checked = checkRecord(broken, 'c1')
    expect(checked.ok).toBe(false)
    expect(!checked.ok && checked.error.code).toBe(CONVERSATION_CORRUPT)
    expect(!checked.ok && checked.error.message).toMatch(/^conversation "c1" cannot be read: .*nope.*; it is left as it is$/)
  })
})

describe('the typed save errors', () => {
  it('a full quota, any other refusal, and what was thrown as text', () => {
    expect(saveErrorOf('c1', new DOMException('full', 'QuotaExceededError'))).toStrictEqual({
      type: 'internal', message: 'conversation "c1" could not be saved: the browser\'s storage for this site is full', code: CONVERSATION_QUOTA_EXCEEDED, retryable: true,
    })
    expect(saveErrorOf('c1', { name: 'QuotaExceededError' })).toMatchObject({ code: CONVERSATION_QUOTA_EXCEEDED })
    expect(saveErrorOf('c1', new Error('closed'))).toStrictEqual({
      type: 'internal', message: 'conversation "c1" could not be saved: closed', code: CONVERSATION_SAVE_FAILED, retryable: true,
    })
    const sly = Object.defineProperty({}, 'name', { get: () => { throw new Error('no') } })
    expect(saveErrorOf('c1', sly)).toMatchObject({ code: CONVERSATION_SAVE_FAILED, message: 'conversation "c1" could not be saved: [object Object]' })
    expect(saveErrorOf('c1', null)).toMatchObject({ code: CONVERSATION_SAVE_FAILED, message: 'conversation "c1" could not be saved: null' })
    expect([messageOf(new Error('closed')), messageOf('plain'), messageOf(3), messageOf({ toString: () => { throw new Error('x') } })]).toEqual(['closed', 'plain', '3', 'an unreadable error'])
  })
})

// ---------------------------------------------------------------- through createConversations

function conversationsOn(storage: ConversationStorage, extra: Parameters<typeof createConversations>[0] = {}): Conversations {
  let now = 100
  const c = createConversations({ storage, selection: memoryStorage(), saveOnHide: false, now: () => now++, ...extra })
  open.push(c)
  return c
}

/** A memory storage that counts saves and can tell this page what "another tab" did. */
function watched() {
  const inner = memoryConversations()
  let tell: ((change: ConversationChange) => void) | undefined
  const saves: number[] = []
  const storage: ConversationStorage & { records: Map<string, unknown> } = {
    records: inner.records,
    list: () => inner.list(),
    load: (id) => inner.load(id),
    remove: (id) => inner.remove(id),
    save: async (r, options) => {
      saves.push(r.revision)
      await inner.save(r, options)
    },
    watch: (listener) => {
      tell = listener
      return () => { tell = undefined }
    },
  }
  return { storage, saves, inner, tell: (change: ConversationChange) => tell?.(change) }
}

const stripped = (list: readonly { id: string; title: string; status: string; updatedAt: number; createdAt: number }[]) => list.map(({ id, title, status }) => [id, title, status])

describe('the ledger: the list it publishes', () => {
  it('newest first by updatedAt, then by createdAt', async () => {
    const storage = memoryConversations()
    const at = { now: 5 }
    const c = conversationsOn(storage, { now: () => at.now })
    await c.ready()
    const ids = c.list().map((s) => s.id)
    at.now = 10
    const a = c.create({ title: 'A' })
    at.now = 11
    const b = c.create({ title: 'B' })
    const [first] = ids
    expect(c.list().map((s) => s.id)).toEqual([b, a, first])
    at.now = 12
    await c.rename(a, 'A2')
    expect(c.list().map((s) => [s.id, s.title])).toEqual([[a, 'A2'], [b, 'B'], [first, 'New chat']])
    at.now = 12
    await c.rename(b, 'B2')
    expect(c.list().map((s) => s.id)).toEqual([b, a, first])
  })

  it('a run that ends sets updatedAt, the status and a title from the first message; a token alone changes nothing in the list', async () => {
    const { storage } = watched()
    const c = conversationsOn(storage)
    await c.ready()
    const id = c.create()
    await c.flush()
    const store = c.storeOf(id)!
    const before = c.list().find((s) => s.id === id)!
    store.getState().dispatch([{ op: 'stream.status', status: 'streaming' }])
    const streaming = c.list().find((s) => s.id === id)!
    expect([streaming.status, streaming.updatedAt > before.updatedAt, streaming.title]).toEqual(['streaming', true, 'New chat'])
    store.getState().dispatch([{ op: 'agentState.set', value: { n: 1 } }])
    expect(c.list().find((s) => s.id === id)).toBe(streaming)
    store.getState().dispatch([...exchange(1, 'Plan a trip to Lisbon', 'Sure'), { op: 'stream.status', status: 'done' }])
    const done = c.list().find((s) => s.id === id)!
    expect([done.status, done.title, done.updatedAt > streaming.updatedAt]).toEqual(['idle', 'Plan a trip to Lisbon', true])
  })

  it('the first message names a conversation once, cut to titleLength; the user\'s title always wins', async () => {
    const c = conversationsOn(memoryConversations(), { titleLength: 10 })
    await c.ready()
    const id = c.create()
    const store = c.storeOf(id)!
    store.getState().dispatch([...exchange(1, 'Plan a trip to Lisbon', 'Sure'), { op: 'stream.status', status: 'done' }])
    const title = c.list().find((s) => s.id === id)!.title
    expect(title.length).toBeLessThanOrEqual(10)
    expect(title).not.toBe('New chat')
    store.getState().dispatch([...exchange(2, 'Something else', 'Ok'), { op: 'stream.status', status: 'idle' }])
    expect(c.list().find((s) => s.id === id)!.title).toBe(title)
    const named = c.create({ title: '  Mine  ' })
    c.storeOf(named)!.getState().dispatch([...exchange(1, 'Question', 'Answer'), { op: 'stream.status', status: 'done' }])
    expect(c.list().find((s) => s.id === named)!.title).toBe('Mine')
  })

  it('a run ending saves; streaming does not', async () => {
    const { storage, saves } = watched()
    const c = conversationsOn(storage)
    await c.ready()
    await c.flush()
    const id = c.selectedId!
    const count = saves.length
    const store = c.storeOf(id)!
    store.getState().dispatch([{ op: 'stream.status', status: 'connecting' }])
    store.getState().dispatch([{ op: 'stream.status', status: 'streaming' }])
    store.getState().dispatch(exchange(1, 'Hi', 'Hello'))
    await new Promise((resolve) => setTimeout(resolve, 5))
    expect(saves.length).toBe(count)
    store.getState().dispatch([{ op: 'stream.status', status: 'done' }])
    await new Promise((resolve) => setTimeout(resolve, 5))
    expect(saves.length).toBe(count + 1)
  })
})

describe('the saver: what it stores', () => {
  it('the record of the model, one revision up each save, with the title and its source', async () => {
    const { storage, saves } = watched()
    const c = conversationsOn(storage)
    await c.ready()
    const id = c.create({ title: 'Trip' })
    await c.flush()
    c.storeOf(id)!.getState().dispatch([...exchange(1, 'Hi', 'Hello'), { op: 'stream.status', status: 'done' }])
    await c.flush()
    const stored = (await storage.load(id)) as ConversationRecord
    expect(summaryOf(stored)).toStrictEqual({ format: 'weft.conversation', version: 1, id, title: 'Trip', titleSource: 'user', createdAt: stored.createdAt, updatedAt: stored.updatedAt, revision: 2 })
    expect(saves.filter((_, i) => i >= saves.length - 2)).toEqual([1, 2])
    expect(stored.state.turnIds).toEqual(['u1', 'a1'])
    const { status: _s, activeTurnId: _a, ...expected } = conversationRecord({ id, title: 'Trip', createdAt: 0, updatedAt: 0, revision: 2 }, c.storeOf(id)!.getState()).state as unknown as Record<string, unknown>
    expect(stored.state).toStrictEqual(expected)
  })

  it('a model with values JSON cannot hold is saved without them, and saveProblem names up to five', async () => {
    const c = conversationsOn(memoryConversations())
    await c.ready()
    const id = c.selectedId!
    const problem = async (value: Record<string, unknown>) => {
      c.storeOf(id)!.getState().dispatch([{ op: 'agentState.set', value }, { op: 'stream.status', status: 'done' }])
      await c.flush()
      return c.list().find((s) => s.id === id)!.saveProblem
    }
    expect(await problem({ a: () => 1 })).toStrictEqual({
      type: 'validation', message: `conversation "${id}" was saved without a value that JSON cannot hold: state.agentState.a (a function)`, code: CONVERSATION_NOT_DATA, retryable: false,
    })
    const seven = Object.fromEntries('abcdefg'.split('').map((k) => [k, () => k]))
    expect((await problem(seven))!.message).toBe(
      `conversation "${id}" was saved without 7 values that JSON cannot hold: state.agentState.a (a function), state.agentState.b (a function), state.agentState.c (a function), state.agentState.d (a function), state.agentState.e (a function) and 2 more`,
    )
    const five = Object.fromEntries('abcde'.split('').map((k) => [k, () => k]))
    expect((await problem(five))!.message).toBe(
      `conversation "${id}" was saved without 5 values that JSON cannot hold: state.agentState.a (a function), state.agentState.b (a function), state.agentState.c (a function), state.agentState.d (a function), state.agentState.e (a function)`,
    )
    expect(await problem({ fine: 1 })).toBeUndefined()
    expect('saveProblem' in c.list().find((s) => s.id === id)!).toBe(false)
  })

  it('a conflict stops saving until a person keeps one copy', async () => {
    const { storage, inner, saves } = watched()
    const c = conversationsOn(storage)
    await c.ready()
    const id = c.selectedId!
    await c.flush()
    const theirs = (await inner.load(id)) as ConversationRecord
    await inner.save({ ...theirs, revision: theirs.revision + 1, title: 'Theirs' }, { expectedRevision: theirs.revision })
    c.storeOf(id)!.getState().dispatch([...exchange(1, 'Hi', 'Hello'), { op: 'stream.status', status: 'done' }])
    await c.flush()
    const summary = c.list().find((s) => s.id === id)!
    expect(summary.status).toBe('conflict')
    expect(summary.error).toStrictEqual({
      type: 'validation', message: 'another tab saved this conversation while this one had changes; keep one of the two', code: CONVERSATION_CONFLICT, retryable: false,
    })
    const count = saves.length
    c.storeOf(id)!.getState().dispatch([...exchange(2, 'More', 'Sure'), { op: 'stream.status', status: 'done' }])
    await c.flush()
    expect(saves.length).toBe(count)
    await c.resolveConflict(id, 'mine')
    expect(((await inner.load(id)) as ConversationRecord).revision).toBe(theirs.revision + 2)
    expect(c.list().find((s) => s.id === id)!.status).toBe('idle')
  })
})

describe('the loader: following another tab', () => {
  it('lists a conversation another tab saved, with its title and source', async () => {
    const { storage, tell } = watched()
    const c = conversationsOn(storage)
    await c.ready()
    tell({ type: 'saved', id: 'x1', summary: summaryOf(record({ id: 'x1', title: 'From there', revision: 1, createdAt: 1, updatedAt: 999 })) })
    expect(c.list()[0]).toStrictEqual({ id: 'x1', title: 'From there', createdAt: 1, updatedAt: 999, status: 'idle' })
    tell({ type: 'saved', id: 'x2', summary: { ...summaryOf(record({ id: 'x2' })), title: 5 } as never })
    expect(c.list().some((s) => s.id === 'x2')).toBe(false)
  })

  it('a newer save of a conversation this page holds unloaded updates its title and revision; an older one is ignored', async () => {
    const { storage, tell, inner } = watched()
    await inner.save(record({ id: 'x1', title: 'One', revision: 1, updatedAt: 5 }), { expectedRevision: 0 })
    await inner.save(record({ id: 'x0', title: 'Shown', revision: 1, updatedAt: 50 }), { expectedRevision: 0 })
    const c = conversationsOn(storage)
    await c.ready()
    expect(c.storeOf('x1')).toBeUndefined()
    tell({ type: 'saved', id: 'x1', summary: summaryOf(record({ id: 'x1', title: 'Two', revision: 2, updatedAt: 6 })) })
    expect(c.list().find((s) => s.id === 'x1')).toStrictEqual({ id: 'x1', title: 'Two', createdAt: 1, updatedAt: 6, status: 'idle' })
    tell({ type: 'saved', id: 'x1', summary: summaryOf(record({ id: 'x1', title: 'Old', revision: 2, updatedAt: 7 })) })
    expect(c.list().find((s) => s.id === 'x1')!.title).toBe('Two')
  })

  it('a newer save of the conversation shown, with no changes here, loads the stored copy', async () => {
    const { storage, tell, inner } = watched()
    const c = conversationsOn(storage)
    await c.ready()
    const id = c.selectedId!
    await c.flush()
    const mine = (await inner.load(id)) as ConversationRecord
    const theirs = record({ id, title: 'Theirs', revision: mine.revision + 1, createdAt: mine.createdAt, updatedAt: 500 }, fold(emptyState(), exchange(1, 'Hi', 'Hello')))
    await inner.save(theirs, { expectedRevision: mine.revision })
    tell({ type: 'saved', id, summary: summaryOf(theirs) })
    await new Promise((resolve) => setTimeout(resolve, 5))
    expect(c.storeOf(id)!.getState().turnIds).toEqual(['u1', 'a1'])
    expect(c.list().find((s) => s.id === id)).toStrictEqual({ id, title: 'Theirs', createdAt: mine.createdAt, updatedAt: 500, status: 'idle' })
  })

  it('a conversation listed but not stored yet opens empty; one that cannot be read is listed as unreadable', async () => {
    const storage = memoryConversations()
    const listed: ConversationStorage = { ...storage, list: async () => [...(await storage.list()), { id: 'ghost', summary: summaryOf(record({ id: 'ghost', title: 'Ghost', updatedAt: 900 })) }, { id: 'bad', summary: { title: 'Bad one' } }] }
    const c = conversationsOn(listed)
    await c.ready()
    expect(c.list().find((s) => s.id === 'bad')).toMatchObject({ id: 'bad', title: 'Bad one', createdAt: 0, updatedAt: 0, status: 'error', error: { code: CONVERSATION_FOREIGN } })
    await c.select('ghost')
    expect(c.list().find((s) => s.id === 'ghost')).toStrictEqual({ id: 'ghost', title: 'Ghost', createdAt: 1, updatedAt: 900, status: 'idle' })
    expect(c.storeOf('ghost')!.getState().turnIds).toEqual([])
  })

  it('a load that fails shows the conversation as unreadable, with the reason', async () => {
    const storage = memoryConversations()
    await storage.save(record({ id: 'x1', revision: 1, updatedAt: 1 }), { expectedRevision: 0 })
    const failing: ConversationStorage = { ...storage, load: async (id) => { if (id === 'x1') throw new Error('disk gone'); return storage.load(id) } }
    const c = conversationsOn(failing)
    await c.ready()
    await c.select('x1')
    expect(c.list().find((s) => s.id === 'x1')).toStrictEqual({
      id: 'x1', title: 'Trip', createdAt: 1, updatedAt: 1, status: 'error', error: { type: 'internal', message: 'conversation "x1" could not be read: disk gone', retryable: true },
    })
  })

  it('a stored record that fails the check is quarantined with its readable title, and never saved over', async () => {
    const { storage, saves } = watched()
    storage.records.set('x1', { ...record({ id: 'x1', title: 'Damaged', revision: 1, updatedAt: 999 }), state: { turnIds: 'nope' } })
    const c = conversationsOn(storage)
    await c.ready()
    await c.select('x1')
    const shown = c.list().find((s) => s.id === 'x1')!
    expect([shown.status, shown.title, shown.error?.code]).toEqual(['error', 'Damaged', CONVERSATION_CORRUPT])
    expect(c.storeOf('x1')).toBeUndefined()
    await c.flush()
    expect(saves.includes(2)).toBe(false)
  })
})

describe('the ledger: status and titles', () => {
  it('connecting, streaming and reconnecting list as streaming; any other status as idle', async () => {
    const c = conversationsOn(memoryConversations())
    await c.ready()
    const id = c.selectedId!
    const store = c.storeOf(id)!
    const seen: string[] = []
    for (const status of ['connecting', 'idle', 'reconnecting', 'error', 'streaming', 'aborted', 'done'] as const) {
      store.getState().dispatch([{ op: 'stream.status', status }])
      seen.push(c.list().find((s) => s.id === id)!.status)
    }
    expect(seen).toEqual(['streaming', 'idle', 'streaming', 'idle', 'streaming', 'idle', 'idle'])
  })

  it('a title the server gave wins over the first message, once given; the same title again changes nothing', async () => {
    const c = conversationsOn(memoryConversations())
    await c.ready()
    const id = c.selectedId!
    const store = c.storeOf(id)!
    store.getState().dispatch([...exchange(1, 'Plan a trip', 'Sure'), { op: 'turn.update', turnId: 'a1', metadata: { title: '  Lisbon trip  ' } }, { op: 'stream.status', status: 'done' }])
    expect(c.list().find((s) => s.id === id)!.title).toBe('Lisbon trip')
    store.getState().dispatch([{ op: 'turn.update', turnId: 'a1', metadata: { title: 'Lisbon trip' } }, { op: 'stream.status', status: 'idle' }])
    expect(c.list().find((s) => s.id === id)!.title).toBe('Lisbon trip')
    store.getState().dispatch([...exchange(2, 'Other', 'Ok'), { op: 'stream.status', status: 'done' }])
    expect(c.list().find((s) => s.id === id)!.title).toBe('Lisbon trip')
    await c.flush()
    const stored = (await (c as unknown as { storage: ConversationStorage }).storage.load(id)) as ConversationRecord
    expect([stored.title, stored.titleSource]).toEqual(['Lisbon trip', 'server'])
  })

  it('a server title never replaces the user\'s', async () => {
    const c = conversationsOn(memoryConversations())
    await c.ready()
    const id = c.create({ title: 'Mine' })
    c.storeOf(id)!.getState().dispatch([...exchange(1, 'Q', 'A'), { op: 'turn.update', turnId: 'a1', metadata: { title: 'Server' } }, { op: 'stream.status', status: 'done' }])
    expect(c.list().find((s) => s.id === id)!.title).toBe('Mine')
  })
})

describe('the saver: one save at a time', () => {
  /** A storage whose saves wait until released. */
  function held() {
    const inner = memoryConversations()
    const waiting: Array<() => void> = []
    const stored: ConversationRecord[] = []
    const storage: ConversationStorage = {
      list: () => inner.list(),
      load: (id) => inner.load(id),
      remove: (id) => inner.remove(id),
      save: async (r, options) => {
        await new Promise<void>((resolve) => waiting.push(resolve))
        await inner.save(r, options)
        stored.push(r)
      },
    }
    return { storage, inner, stored, release: () => waiting.splice(0).forEach((go) => go()), waiting }
  }

  it('what changed during a save goes in the next one, built on the revision the first stored', async () => {
    const { storage, stored, release, waiting } = held()
    const c = conversationsOn(storage)
    const starting = c.ready()
    await new Promise((resolve) => setTimeout(resolve, 5))
    release()
    await starting
    await new Promise((resolve) => setTimeout(resolve, 5))
    release()
    await new Promise((resolve) => setTimeout(resolve, 5))
    const id = c.selectedId!
    const base = stored.length
    const store = c.storeOf(id)!
    store.getState().dispatch([...exchange(1, 'Hi', 'Hello'), { op: 'stream.status', status: 'done' }])
    const flushing = c.flush()
    await new Promise((resolve) => setTimeout(resolve, 5))
    expect(waiting).toHaveLength(1)
    store.getState().dispatch([...exchange(2, 'More', 'Sure'), { op: 'stream.status', status: 'idle' }])
    const again = c.flush()
    await new Promise((resolve) => setTimeout(resolve, 5))
    expect(waiting).toHaveLength(1)
    release()
    await new Promise((resolve) => setTimeout(resolve, 5))
    release()
    await Promise.all([flushing, again])
    const saved = stored.slice(base)
    expect(saved.map((r) => [r.revision, r.state.turnIds.length])).toEqual([[saved[0]!.revision, 2], [saved[0]!.revision + 1, 4]])
  })

  it('a save that succeeds clears an earlier saveError, and drops the journal', async () => {
    const inner = memoryConversations()
    let refuse = false
    const storage: ConversationStorage = { ...inner, list: () => inner.list(), load: (id) => inner.load(id), remove: (id) => inner.remove(id), save: async (r, o) => { if (refuse) throw new Error('offline'); await inner.save(r, o) } }
    const session = memoryStorage()
    const c = conversationsOn(storage, { selection: session })
    await c.ready()
    await c.flush()
    const id = c.selectedId!
    refuse = true
    c.storeOf(id)!.getState().dispatch([...exchange(1, 'Hi', 'Hello'), { op: 'stream.status', status: 'done' }])
    await c.flush()
    expect(c.list().find((s) => s.id === id)!.saveError).toMatchObject({ code: CONVERSATION_SAVE_FAILED, message: `conversation "${id}" could not be saved: offline` })
    c.writeJournal()
    expect(session.getItem(`weft:conversations:journal:default:${id}`)).not.toBeNull()
    refuse = false
    await c.retrySave(id)
    const summary = c.list().find((s) => s.id === id)!
    expect('saveError' in summary).toBe(false)
    expect(session.getItem(`weft:conversations:journal:default:${id}`)).toBeNull()
  })

  it('the journal a page left is taken on the next load and saved', async () => {
    const inner = memoryConversations()
    let refuse = false
    const storage: ConversationStorage = { list: () => inner.list(), load: (id) => inner.load(id), remove: (id) => inner.remove(id), save: async (r, o) => { if (refuse) throw new Error('offline'); await inner.save(r, o) } }
    const session = memoryStorage()
    const first = conversationsOn(storage, { selection: session })
    await first.ready()
    await first.flush()
    const id = first.selectedId!
    refuse = true
    first.storeOf(id)!.getState().dispatch([...exchange(1, 'Unsaved', 'Kept'), { op: 'stream.status', status: 'done' }])
    await first.flush()
    first.writeJournal()
    refuse = false
    open.splice(open.indexOf(first), 1)
    const storedBefore = ((await inner.load(id)) as ConversationRecord).revision
    const second = conversationsOn(storage, { selection: session })
    await second.ready()
    expect(second.selectedId).toBe(id)
    expect(second.storeOf(id)!.getState().turnIds).toEqual(['u1', 'a1'])
    await new Promise((resolve) => setTimeout(resolve, 5))
    await second.flush()
    const after = (await inner.load(id)) as ConversationRecord
    expect([after.revision, after.state.turnIds]).toEqual([storedBefore + 1, ['u1', 'a1']])
  })
})

describe('the loader: another tab\'s save meeting this page\'s changes', () => {
  it('unsaved changes here turn a newer save there into a conflict, and keeping mine saves over it', async () => {
    const { storage, tell, inner } = watched()
    const c = conversationsOn(storage)
    await c.ready()
    await c.flush()
    const id = c.selectedId!
    const mine = (await inner.load(id)) as ConversationRecord
    const theirs = { ...mine, revision: mine.revision + 1, title: 'Theirs' }
    await inner.save(theirs, { expectedRevision: mine.revision })
    const store = c.storeOf(id)!
    store.getState().dispatch([{ op: 'agentState.set', value: { draft: 1 } }])
    tell({ type: 'saved', id, summary: summaryOf(theirs) })
    const summary = c.list().find((s) => s.id === id)!
    expect([summary.status, summary.error?.code]).toEqual(['conflict', CONVERSATION_CONFLICT])
    store.getState().dispatch([{ op: 'stream.status', status: 'done' }])
    expect(c.list().find((s) => s.id === id)!.status).toBe('conflict')
    await c.resolveConflict(id, 'mine')
    const after = c.list().find((s) => s.id === id)!
    expect([after.status, 'error' in after]).toEqual(['idle', false])
    const stored = (await inner.load(id)) as ConversationRecord
    expect([stored.revision, stored.state.agentState]).toEqual([mine.revision + 2, { draft: 1 }])
  })

  it('a stream running here also turns it into a conflict', async () => {
    const { storage, tell, inner } = watched()
    const c = conversationsOn(storage)
    await c.ready()
    await c.flush()
    const id = c.selectedId!
    c.storeOf(id)!.getState().dispatch([{ op: 'stream.status', status: 'streaming' }])
    await c.flush()
    const mine = (await inner.load(id)) as ConversationRecord
    tell({ type: 'saved', id, summary: summaryOf({ ...mine, revision: mine.revision + 1 }) })
    expect(c.list().find((s) => s.id === id)!.status).toBe('conflict')
  })

  it('a newer copy there whose record is damaged quarantines the conversation shown here, and lets its store go', async () => {
    const { storage, tell, inner } = watched()
    const c = conversationsOn(storage)
    const removed: string[] = []
    c.onRemove((id) => removed.push(id))
    await c.ready()
    await c.flush()
    const id = c.selectedId!
    const mine = (await inner.load(id)) as ConversationRecord
    const damaged = { ...mine, revision: mine.revision + 1, title: 'Broken there', state: { turnIds: 7 } }
    inner.records.set(id, damaged)
    tell({ type: 'saved', id, summary: summaryOf(damaged as unknown as ConversationRecord) })
    await new Promise((resolve) => setTimeout(resolve, 5))
    const summary = c.list().find((s) => s.id === id)!
    expect([summary.status, summary.title, summary.error?.code]).toEqual(['error', 'Broken there', CONVERSATION_CORRUPT])
    expect(c.storeOf(id)).toBeUndefined()
    expect(removed).toEqual([id])
    tell({ type: 'saved', id, summary: summaryOf({ ...mine, revision: mine.revision + 5 }) })
    await new Promise((resolve) => setTimeout(resolve, 5))
    expect(c.list().find((s) => s.id === id)!.status).toBe('error')
  })

  it('dropping this page\'s changes shows the stored copy, keeps the stream\'s status, and saves nothing for it', async () => {
    const { storage, inner, saves } = watched()
    const c = conversationsOn(storage)
    await c.ready()
    await c.flush()
    const id = c.selectedId!
    const stored = (await inner.load(id)) as ConversationRecord
    const store = c.storeOf(id)!
    store.getState().dispatch([...exchange(1, 'Drop me', 'Gone'), { op: 'stream.status', status: 'streaming' }])
    const count = saves.length
    await c.reloadStored(id)
    expect(store.getState().turnIds).toEqual([])
    expect(store.getState().status).toBe('streaming')
    const summary = c.list().find((s) => s.id === id)!
    expect([summary.status, summary.title, summary.updatedAt]).toEqual(['streaming', stored.title, stored.updatedAt])
    await c.flush()
    expect(saves.length).toBe(count)
  })
})

describe('conversations: what the review of the first mutation run asked for', () => {
  it('a journal is never taken over a stored copy that cannot be read', () => {
    const session = memoryStorage()
    const journal = new Journal(session, 'j:')
    journal.write(record({ revision: 1 }))
    expect(journal.take('c1', { format: 'weft.conversation', version: 1, id: 'c1', title: 7, revision: 1 })).toBeUndefined()
  })

  it('the memory storage keeps a record holding null, frozen', async () => {
    const storage = memoryConversations()
    const state = fold(emptyState(), [{ op: 'agentState.set', value: { city: null, tags: ['a'] } }])
    await storage.save(record({ revision: 1 }, state), { expectedRevision: 0 })
    const loaded = (await storage.load('c1')) as ConversationRecord
    expect(loaded.state.agentState).toStrictEqual({ city: null, tags: ['a'] })
    expect(Object.isFrozen(loaded.state.agentState)).toBe(true)
  })

  it('a record with branches keeps them: two answers to one question stay two', () => {
    const state = fold(emptyState(), [
      ...exchange(1, 'Hi', 'Hello').slice(0, 3),
      { op: 'turn.open', turnId: 'a1', role: 'assistant', parentId: 'u1' },
      { op: 'turn.finish', turnId: 'a1', status: 'done' },
      { op: 'turn.open', turnId: 'a2', role: 'assistant', parentId: 'u1' },
      { op: 'turn.finish', turnId: 'a2', status: 'done' },
    ])
    const back = stateOf(record({}, state))
    expect(back.branches).toStrictEqual(state.branches)
    expect(back.branches.u1).toEqual(['a1', 'a2'])
    expect(back.selected).toStrictEqual(state.selected)
  })

  it('the list starts empty and not ready', () => {
    const c = conversationsOn(memoryConversations())
    expect(c.state.getState()).toStrictEqual({ ready: false, list: [] })
  })

  it('a stored title of no known source stays; a message title is stored as such; no text, no source', async () => {
    const storage = memoryConversations()
    await storage.save(record({ id: 'x1', title: 'Trip', revision: 1, updatedAt: 999 }), { expectedRevision: 0 })
    const c = conversationsOn(storage)
    await c.ready()
    await c.select('x1')
    c.storeOf('x1')!.getState().dispatch([...exchange(1, 'Plan it', 'Ok'), { op: 'stream.status', status: 'done' }])
    expect(c.list().find((s) => s.id === 'x1')!.title).toBe('Trip')
    const fresh = c.create()
    c.storeOf(fresh)!.getState().dispatch([{ op: 'stream.status', status: 'done' }])
    await c.flush()
    expect('titleSource' in ((await storage.load(fresh)) as ConversationRecord)).toBe(false)
    c.storeOf(fresh)!.getState().dispatch([...exchange(1, 'Plan it', 'Ok'), { op: 'stream.status', status: 'idle' }])
    await c.flush()
    const stored = (await storage.load(fresh)) as ConversationRecord
    expect([stored.title, stored.titleSource]).toEqual(['Plan it', 'message'])
  })

  it('a save that changes nothing in the list leaves the list as it was; a flush with nothing to save saves nothing', async () => {
    const { storage, saves } = watched()
    const c = conversationsOn(storage)
    await c.ready()
    await c.flush()
    const id = c.selectedId!
    c.storeOf(id)!.getState().dispatch([...exchange(1, 'Hi', 'Hello'), { op: 'stream.status', status: 'done' }])
    const list = c.state.getState().list
    const count = saves.length
    await c.flush()
    expect(saves.length).toBe(count + 1)
    expect(c.state.getState().list).toBe(list)
    await c.flush()
    await c.flush()
    expect(saves.length).toBe(count + 1)
  })

  it('a conversation shows loading while its record is read, and loading it saves nothing', async () => {
    const { storage, saves, inner } = watched()
    await inner.save(record({ id: 'x1', revision: 1, updatedAt: 1 }), { expectedRevision: 0 })
    await inner.save(record({ id: 'x0', revision: 1, updatedAt: 5 }), { expectedRevision: 0 })
    let release = () => {}
    const gate = new Promise<void>((resolve) => (release = resolve))
    const slow: ConversationStorage = { ...storage, load: async (id) => { if (id === 'x1') await gate; return storage.load(id) } }
    const c = conversationsOn(slow)
    await c.ready()
    await c.flush()
    const count = saves.length
    const loading = c.select('x1')
    expect(c.list().find((s) => s.id === 'x1')!.status).toBe('loading')
    release()
    await loading
    expect(c.list().find((s) => s.id === 'x1')!.status).toBe('idle')
    await new Promise((resolve) => setTimeout(resolve, 5))
    await c.flush()
    expect(saves.length).toBe(count)
  })

  it('dropping changes of a conversation not loaded here loads the stored copy; a failed read says so', async () => {
    const storage = memoryConversations()
    await storage.save(record({ id: 'x1', revision: 1, updatedAt: 1 }, fold(emptyState(), exchange(1, 'Hi', 'Hello'))), { expectedRevision: 0 })
    await storage.save(record({ id: 'x0', revision: 1, updatedAt: 5 }), { expectedRevision: 0 })
    let fail = false
    const flaky: ConversationStorage = { ...storage, load: async (id) => { if (fail) throw new Error('disk gone'); return storage.load(id) } }
    const c = conversationsOn(flaky)
    await c.ready()
    expect(c.storeOf('x1')).toBeUndefined()
    await c.reloadStored('x1')
    expect(c.storeOf('x1')!.getState().turnIds).toEqual(['u1', 'a1'])
    fail = true
    await c.reloadStored('x1')
    expect(c.list().find((s) => s.id === 'x1')!.error).toStrictEqual({ type: 'internal', message: 'conversation "x1" could not be read: disk gone', retryable: true })
  })
})
