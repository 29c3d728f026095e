import fc from 'fast-check'
import { afterEach, describe, expect, it } from 'vitest'
import { syncScheduler } from '../../../src/core/store/batcher'
import { AgentClient } from '../../helpers/built-in-client'
import {
  CONVERSATION_CONFLICT, CONVERSATION_CORRUPT, CONVERSATION_FOREIGN, CONVERSATION_NEWER, CONVERSATION_VERSION,
  checkRecord, conversationRecord, createConversations, memoryConversations, settleInterrupted, stateOf,
  type ConversationStorage, type Conversations,
} from '../../../src/core/conversations/index'
import { emptyState } from '../../../src/core/model/model'
import { createAgentStore, type AgentStore } from '../../../src/core/store/store'
import type { Op } from '../../../src/core/model/ops'
import { memoryStorage } from '../../../src/core/resume/storage'
import { startServer, type TestServer } from '../../helpers/server'
import { messageIn } from '../../../src/core/model/message-table'

const open: Conversations[] = []
afterEach(async () => {
  for (const c of open.splice(0)) await c.dispose()
})

function conversationsOn(storage: ConversationStorage, selection = memoryStorage()): Conversations {
  const c = createConversations({ storage, selection, saveOnHide: false })
  open.push(c)
  return c
}

/** A storage that counts saves. */
function counting(storage: ConversationStorage): ConversationStorage & { saves: string[] } {
  const saves: string[] = []
  return {
    saves,
    list: () => storage.list(),
    load: (id) => storage.load(id),
    save: async (record, options) => {
      saves.push(record.id)
      await storage.save(record, options)
    },
    remove: (id) => storage.remove(id),
  }
}

function exchange(n: number, question: string, answer: string): Op[] {
  return [
    { op: 'turn.open', turnId: `u${n}`, role: 'user' },
    { op: 'message.put', turnId: `u${n}`, messageId: `u${n}/text`, role: 'user', type: 'text', props: { content: question }, status: 'done' },
    { op: 'turn.finish', turnId: `u${n}`, status: 'done' },
    { op: 'turn.open', turnId: `a${n}`, role: 'assistant' },
    { op: 'message.delta', turnId: `a${n}`, messageId: `a${n}/text`, type: 'text', action: 'append', path: 'content', value: answer },
    { op: 'turn.finish', turnId: `a${n}`, status: 'done' },
  ]
}

/** A message of a conversation's store, when the store is there. */
const messageOfStore = (store: AgentStore | undefined, id: string) => (store ? messageIn(store.getState().messages, id) : undefined)

const settle = () => new Promise((resolve) => setTimeout(resolve, 5))

describe('conversations: storage round trip', () => {
  it('stores three conversations and a fresh store lists them, restores the selection and loads it', async () => {
    const storage = memoryConversations()
    const selection = memoryStorage()
    const first = conversationsOn(storage, selection)
    await first.ready()
    const ids = [first.selectedId as string, first.create(), first.create()]
    for (const [n, id] of ids.entries()) first.storeOf(id)?.getState().dispatch(exchange(n, `Question ${n}`, `Answer ${n}`))
    await first.select(ids[1] as string)
    await first.flush()

    const second = conversationsOn(storage, selection)
    await second.ready()
    expect(second.list().map((c) => c.id).sort()).toEqual([...ids].sort())
    expect(second.selectedId).toBe(ids[1])
    const state = second.storeOf(ids[1] as string)?.getState()
    expect(state?.turnIds).toEqual(['u1', 'a1'])
    expect((state && messageIn(state.messages, 'a1/text'))?.props.content).toBe('Answer 1')
    expect(second.list().find((c) => c.id === ids[2])?.title).toBe('Question 2')
    // Only the selected one is loaded; the others load when picked.
    expect(second.storeOf(ids[0] as string)).toBeUndefined()
    await second.select(ids[0] as string)
    expect(messageOfStore(second.storeOf(ids[0] as string), 'a0/text')?.props.content).toBe('Answer 0')
  })

  it('starts a conversation when storage holds none', async () => {
    const c = conversationsOn(memoryConversations())
    await c.ready()
    expect(c.list()).toHaveLength(1)
    expect(c.list()[0]).toMatchObject({ title: 'New chat', status: 'idle' })
    expect(c.state.getState()).toMatchObject({ ready: true, selectedId: c.list()[0]?.id })
  })

  it('saves at a run\'s end, never per token', async () => {
    const storage = counting(memoryConversations())
    const c = conversationsOn(storage)
    await c.ready()
    const id = c.selectedId as string
    await c.flush()
    const before = storage.saves.length
    const store = c.storeOf(id)
    store?.getState().dispatch([...exchange(0, 'Hi', '').slice(0, 4), { op: 'stream.status', status: 'streaming' }])
    for (let i = 0; i < 300; i += 1) {
      store?.getState().dispatch([{ op: 'message.delta', turnId: 'a0', messageId: 'a0/text', type: 'text', action: 'append', path: 'content', value: 'x' }])
    }
    await settle()
    expect(storage.saves.length).toBe(before)
    expect(c.list()[0]?.status).toBe('streaming')
    store?.getState().dispatch([{ op: 'turn.finish', turnId: 'a0', status: 'done' }, { op: 'stream.status', status: 'done' }])
    await settle()
    await c.flush()
    expect(storage.saves.length).toBe(before + 1)
    expect(c.list()[0]).toMatchObject({ status: 'idle', title: 'Hi' })
  })

  it('renames, and an automatic or server title never replaces the user\'s', async () => {
    const storage = memoryConversations()
    const c = conversationsOn(storage)
    await c.ready()
    const id = c.selectedId as string
    const store = c.storeOf(id)
    store?.getState().dispatch(exchange(0, 'A first question that is long enough to be cut somewhere before the end of it', 'ok'))
    expect(c.list()[0]?.title).toBe('A first question that is long enough to be cut somewhere…')
    store?.getState().dispatch([{ op: 'turn.update', turnId: 'a0', metadata: { title: 'From the server' } }, { op: 'turn.open', turnId: 'a9', role: 'assistant' }])
    expect(c.list()[0]?.title).toBe('From the server')
    await c.rename(id, '  Mine  ')
    store?.getState().dispatch([{ op: 'turn.update', turnId: 'a9', metadata: { title: 'Server again' } }, { op: 'turn.open', turnId: 'a10', role: 'assistant' }])
    expect(c.list()[0]?.title).toBe('Mine')
    const again = conversationsOn(storage)
    await again.ready()
    expect(again.list()[0]?.title).toBe('Mine')
  })

  it('removes a conversation and restores it with everything it held', async () => {
    const storage = memoryConversations()
    const c = conversationsOn(storage)
    await c.ready()
    const keep = c.selectedId as string
    const gone = c.create()
    c.storeOf(gone)?.getState().dispatch(exchange(0, 'Keep me', 'Kept'))
    await c.flush()
    expect(await c.remove(gone)).toBe(true)
    expect(c.list().map((x) => x.id)).toEqual([keep])
    expect(c.selectedId).toBe(keep)
    expect(storage.records.has(gone)).toBe(false)
    expect(await c.restore(gone)).toBe(true)
    expect(c.list().map((x) => x.id)).toContain(gone)
    const fresh = conversationsOn(storage)
    await fresh.ready()
    await fresh.select(gone)
    expect(messageOfStore(fresh.storeOf(gone), 'a0/text')?.props.content).toBe('Kept')
  })
})

describe('conversations: the journal a page leaves when it goes away', () => {
  const partial = (text: string): Op[] => [
    { op: 'turn.open', turnId: 'u1', role: 'user' },
    { op: 'message.put', turnId: 'u1', messageId: 'u1/text', role: 'user', type: 'text', props: { content: 'Tell me a story' }, status: 'done' },
    { op: 'turn.finish', turnId: 'u1', status: 'done' },
    { op: 'turn.open', turnId: 'a1', role: 'assistant' },
    { op: 'stream.status', status: 'streaming' },
    { op: 'message.delta', turnId: 'a1', messageId: 'a1/text', type: 'text', action: 'append', path: 'content', value: text },
  ]

  it('what was not saved when the page went away comes back in the next page of the tab, and is then saved', async () => {
    const storage = memoryConversations()
    const tab = memoryStorage()
    const before = createConversations({ storage, selection: tab, saveOnHide: false })
    await before.ready()
    const id = before.selectedId as string
    await before.flush()
    before.storeOf(id)?.getState().dispatch(partial('Once upon a'))
    // The page goes away mid-answer: the journal is written, the asynchronous save never runs.
    before.writeJournal()

    const after = conversationsOn(storage, tab)
    await after.ready()
    const state = after.storeOf(id)?.getState()
    expect(state?.turnIds).toEqual(['u1', 'a1'])
    expect((state && messageIn(state.messages, 'a1/text'))?.props.content).toBe('Once upon a')
    await after.flush()
    const saved = checkRecord(await storage.load(id), id)
    expect(saved.ok && saved.value.state.messages['a1/text']?.props.content).toBe('Once upon a')
    expect(tab.getItem(`weft:conversations:journal:default:${id}`)).toBeNull()
  })

  it('a journal older than what another tab saved since is dropped, not applied over it', async () => {
    const storage = memoryConversations()
    const tab = memoryStorage()
    const before = createConversations({ storage, selection: tab, saveOnHide: false })
    await before.ready()
    const id = before.selectedId as string
    await before.flush()
    before.storeOf(id)?.getState().dispatch(partial('Stale'))
    before.writeJournal()
    // Another tab saves the conversation first.
    const other = conversationsOn(storage, memoryStorage())
    await other.ready()
    await other.select(id)
    other.storeOf(id)?.getState().dispatch(exchange(0, 'From the other tab', 'Other answer'))
    await other.flush()

    const after = conversationsOn(storage, tab)
    await after.ready()
    await after.select(id)
    expect(after.storeOf(id)?.getState().turnIds).toEqual(['u0', 'a0'])
    expect(messageOfStore(after.storeOf(id), 'a1/text')).toBeUndefined()
  })
})

describe('conversations: the memory storage', () => {
  it('keeps what was saved: neither the saved object nor what a load hands out can change it', async () => {
    const storage = memoryConversations()
    const store = createAgentStore()
    store.getState().dispatch(exchange(0, 'Kept question', 'Kept answer'))
    const record = conversationRecord({ id: 'k', title: 'Kept', createdAt: 1, updatedAt: 1, revision: 1 }, store.getState())
    await storage.save(record, { expectedRevision: 0 })
    record.title = 'changed after the save'
    const loaded = await storage.load('k') as typeof record
    expect(loaded.title).toBe('Kept')
    expect(() => {
      (loaded.state.messages['u0/text'] as { props: Record<string, unknown> }).props.content = 'overwritten'
    }).toThrow(TypeError)
    const again = checkRecord(await storage.load('k'), 'k')
    expect(again.ok && again.value.state.messages['u0/text']?.props.content).toBe('Kept question')
    // A conversation loaded from it still changes through its own store.
    const conversations = conversationsOn(storage)
    await conversations.ready()
    conversations.storeOf('k')?.getState().dispatch(exchange(1, 'Next', 'Next answer'))
    await conversations.flush()
    const saved = checkRecord(await storage.load('k'), 'k')
    expect(saved.ok && saved.value.state.turnIds).toEqual(['u0', 'a0', 'u1', 'a1'])
  })
})

describe('conversations: schema check on load', () => {
  const good = (id: string, text: string) => {
    const store = emptyState()
    const record = conversationRecord({ id, title: text, createdAt: 1, updatedAt: 2, revision: 1 }, store)
    return record
  }

  it.each([
    ['corrupt', (r: Record<string, unknown>) => ({ ...r, state: { turnIds: ['t1'], turns: {} } }), CONVERSATION_CORRUPT],
    ['foreign', () => ({ format: 'someone.else', id: 'bad', payload: [1, 2, 3] }), CONVERSATION_FOREIGN],
    ['newer', (r: Record<string, unknown>) => ({ ...r, version: CONVERSATION_VERSION + 1, state: { shape: 'v2' } }), CONVERSATION_NEWER],
    ['not an object', () => 'garbage', CONVERSATION_CORRUPT],
  ])('a %s record is an error for that conversation only, and is never written over', async (_name, damage, code) => {
    const storage = memoryConversations()
    storage.records.set('a', good('a', 'Alpha'))
    storage.records.set('c', good('c', 'Gamma'))
    const bad = damage(good('bad', 'Bad') as unknown as Record<string, unknown>)
    storage.records.set('bad', bad)
    // A readable summary with a damaged body, or a damaged summary: both land on the one conversation.
    const c = conversationsOn(storage)
    await c.ready()
    expect(c.list().map((x) => x.id).sort()).toEqual(['a', 'bad', 'c'])
    await c.select('bad')
    const row = c.list().find((x) => x.id === 'bad')
    expect(row?.status).toBe('error')
    expect(row?.error).toMatchObject({ type: 'validation', code })
    expect(c.storeOf('bad')).toBeUndefined()
    await c.rename('bad', 'Overwrite?')
    await c.select('a')
    c.storeOf('a')?.getState().dispatch(exchange(0, 'Still works', 'yes'))
    await c.flush()
    expect(storage.records.get('bad')).toEqual(bad)
    expect(c.list().find((x) => x.id === 'a')?.status).toBe('idle')
    const saved = checkRecord(storage.records.get('a'), 'a')
    expect(saved.ok && saved.value.state.turnIds).toEqual(['u0', 'a0'])
    expect(c.list().find((x) => x.id === 'c')?.status).toBe('idle')
  })

  it('a record naming another id, a dangling reference or an unsafe id is refused', () => {
    const base = conversationRecord({ id: 'x', title: 't', createdAt: 1, updatedAt: 1, revision: 1 }, emptyState())
    expect(checkRecord({ ...base, id: 'y' }, 'x')).toMatchObject({ ok: false, error: { code: CONVERSATION_CORRUPT } })
    const dangling = structuredClone(base) as unknown as { state: { turnIds: string[]; turns: Record<string, unknown> } }
    dangling.state.turnIds = ['t1']
    dangling.state.turns.t1 = { id: 't1', role: 'assistant', status: 'done', messageIds: ['m1'], blockIds: [], traceRootIds: [], gateIds: [], sources: [], metadata: {}, problems: [] }
    const checked = checkRecord(dangling, 'x')
    expect(checked.ok).toBe(false)
    if (!checked.ok) expect(checked.error.message).toContain('missing message "m1"')
    const unsafe = structuredClone(base) as unknown as { state: { messages: Record<string, unknown> } }
    unsafe.state.messages = JSON.parse('{"__proto__": {"id": "__proto__"}}') as Record<string, unknown>
    expect(checkRecord(unsafe, 'x').ok).toBe(false)
    expect(checkRecord(base, 'x').ok).toBe(true)
  })

  it('never throws on any stored value, and accepts only what it can load', () => {
    fc.assert(fc.property(fc.anything({ withNullPrototype: true, withMap: true, withSet: true }), (raw) => {
      const checked = checkRecord(raw, 'x')
      expect(checked.ok).toBe(false)
    }))
    const valid = conversationRecord({ id: 'x', title: 't', createdAt: 1, updatedAt: 1, revision: 1 }, {
      ...emptyState(), turnIds: ['t1'],
      turns: { t1: { id: 't1', role: 'user', status: 'done', messageIds: [], blockIds: [], traceRootIds: [], gateIds: [], sources: [], metadata: {}, problems: [] } },
    })
    const paths = ['format', 'version', 'id', 'title', 'revision', 'createdAt', 'state', 'state.turnIds', 'state.turns', 'state.turns.t1', 'state.turns.t1.role', 'state.turns.t1.messageIds', 'state.cursor']
    fc.assert(fc.property(fc.constantFrom(...paths), fc.anything(), (path, value) => {
      const copy = structuredClone(valid) as unknown as Record<string, unknown>
      const keys = path.split('.')
      let at: Record<string, unknown> = copy
      for (const key of keys.slice(0, -1)) at = at[key] as Record<string, unknown>
      at[keys.at(-1) as string] = value
      const checked = checkRecord(copy, 'x')
      // What passes the check loads into a store that folds on from it.
      if (checked.ok) {
        const store = createAgentStore({ initialState: stateOf(checked.value) })
        store.getState().dispatch(exchange(5, 'more', 'text'))
        expect(store.getState().turnIds.slice(-2)).toEqual(['u5', 'a5'])
      } else {
        expect(checked.error.type).toBe('validation')
      }
    }))
  })
})

describe('conversations: two pages on one storage', () => {
  it('a save that would overwrite another page\'s save becomes a visible conflict', async () => {
    const storage = memoryConversations()
    const seed = conversationsOn(storage)
    await seed.ready()
    const id = seed.selectedId as string
    await seed.flush()
    const one = conversationsOn(storage)
    const two = conversationsOn(storage)
    await one.ready()
    await two.ready()
    await one.select(id)
    await two.select(id)
    one.storeOf(id)?.getState().dispatch(exchange(0, 'From one', 'a'))
    await one.flush()
    two.storeOf(id)?.getState().dispatch(exchange(1, 'From two', 'b'))
    await settle()
    await two.flush()
    const row = two.list().find((c) => c.id === id)
    expect(row).toMatchObject({ status: 'conflict', error: { code: CONVERSATION_CONFLICT } })
    const stored = checkRecord(storage.records.get(id), id)
    expect(stored.ok && stored.value.state.turnIds).toEqual(['u0', 'a0'])

    await two.resolveConflict(id, 'theirs')
    expect(two.list().find((c) => c.id === id)?.status).toBe('idle')
    expect(two.storeOf(id)?.getState().turnIds).toEqual(['u0', 'a0'])
  })

  it('keeping "mine" saves this page\'s copy over the other', async () => {
    const storage = memoryConversations()
    const one = conversationsOn(storage)
    await one.ready()
    const id = one.selectedId as string
    await one.flush()
    const two = conversationsOn(storage)
    await two.ready()
    one.storeOf(id)?.getState().dispatch(exchange(0, 'From one', 'a'))
    await one.flush()
    two.storeOf(id)?.getState().dispatch(exchange(1, 'From two', 'b'))
    await settle()
    await two.flush()
    await two.resolveConflict(id, 'mine')
    const stored = checkRecord(storage.records.get(id), id)
    expect(stored.ok && stored.value.state.turnIds).toEqual(['u1', 'a1'])
    expect(stored.ok && stored.value.revision).toBe(3)
  })
})

describe('conversations: streams', () => {
  let srv: TestServer
  afterEach(async () => srv?.close())

  it('a stream keeps folding into its own conversation after the user switches away', async () => {
    srv = await startServer()
    const c = conversationsOn(memoryConversations())
    await c.ready()
    const first = c.selectedId as string
    const store = c.storeOf(first)
    if (!store) throw new Error('no store')
    const client = new AgentClient(store, { url: `${srv.url}/mock/stream/vocion/answer?delay=5`, protocol: 'vocion', scheduler: syncScheduler })
    const sent = client.send('Where is the Contoso renewal?')
    await new Promise<void>((resolve) => {
      const stop = store.subscribe((s) => {
        if (s.status === 'streaming') {
          stop()
          resolve()
        }
      })
    })
    const second = c.create()
    expect(c.selectedId).toBe(second)
    expect(c.list().find((x) => x.id === first)?.status).toBe('streaming')
    await sent
    const state = store.getState()
    expect(state.status).toBe('done')
    const answer = state.turns[state.turnIds[1] as string]
    expect(answer?.status).toBe('done')
    const texts = (answer?.messageIds ?? []).map((m) => messageIn(state.messages, m)).filter((m) => m?.type === 'text')
    expect(texts.map((m) => String(m?.props.content)).join('')).toContain('Contoso renews')
    expect(c.storeOf(second)?.getState().turnIds).toEqual([])
    expect(c.list().find((x) => x.id === first)).toMatchObject({ status: 'idle', title: 'Where is the Contoso renewal?' })
  })

  it('turns a previous page left streaming end as aborted when nothing resumes them', () => {
    const c = createConversations({ saveOnHide: false, selection: false })
    open.push(c)
    const id = c.create()
    const store = c.storeOf(id)
    store?.getState().dispatch([{ op: 'turn.open', turnId: 't1', role: 'assistant' }, { op: 'message.delta', turnId: 't1', messageId: 'm', type: 'text', action: 'append', path: 'content', value: 'half' }])
    expect(settleInterrupted(store as NonNullable<typeof store>)).toBe(1)
    expect(store?.getState().turns.t1?.status).toBe('aborted')
    expect((store && messageIn(store.getState().messages, 'm'))?.status).toBe('done')
  })
})
