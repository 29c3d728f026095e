/**
 * Saves that fail, values that are not data, and the rules of the storage the
 * suite had not pinned: a stored revision older than expected, and a remembered
 * selection whose conversation is gone.
 */
import { afterEach, describe, expect, it } from 'vitest'
import {
  CONVERSATION_CONFLICT, CONVERSATION_NOT_DATA, CONVERSATION_QUOTA_EXCEEDED, CONVERSATION_SAVE_FAILED,
  ConversationConflictError, checkRecord, conversationRecord, createConversations, memoryConversations, plainData,
  type ConversationChange, type ConversationStorage, type Conversations,
} from '../../../src/core/conversations/index'
import { emptyState } from '../../../src/core/model/model'
import { memoryStorage } from '../../../src/core/resume/storage'
import type { ResumeStorage } from '../../../src/core/resume/types'
import { exchange } from '../../helpers/exchange'

const open: Conversations[] = []
afterEach(async () => {
  for (const c of open.splice(0)) await c.dispose()
})

function conversationsOn(storage: ConversationStorage, selection: ResumeStorage = memoryStorage()): Conversations {
  const c = createConversations({ storage, selection, saveOnHide: false })
  open.push(c)
  return c
}

/** A memory storage whose saves can be made to fail with what a browser throws. */
function failing() {
  const inner = memoryConversations()
  let refuse: (() => unknown) | undefined
  const storage: ConversationStorage & { records: Map<string, unknown>; refuse(next?: () => unknown): void } = {
    records: inner.records,
    refuse: (next) => {
      refuse = next
    },
    list: () => inner.list(),
    load: (id) => inner.load(id),
    remove: (id) => inner.remove(id),
    save: async (record, options) => {
      if (refuse) throw refuse()
      await inner.save(record, options)
    },
  }
  return storage
}

const revisionOf = (storage: { records: Map<string, unknown> }, id: string) => (storage.records.get(id) as { revision?: number } | undefined)?.revision

describe('conversations: a save that fails', () => {
  it('leaves the stored revision, shows a typed saveError, and the next save point saves (no conflict with itself)', async () => {
    const storage = failing()
    const c = conversationsOn(storage)
    await c.ready()
    const id = c.selectedId as string
    await c.flush()
    expect(revisionOf(storage, id)).toBe(1)
    storage.refuse(() => new DOMException('The object store is closing', 'InvalidStateError'))
    c.storeOf(id)?.getState().dispatch(exchange(0, 'First', 'one'))
    await c.flush()
    const row = c.list().find((x) => x.id === id)
    expect(row).toMatchObject({ status: 'idle', saveError: { type: 'internal', code: CONVERSATION_SAVE_FAILED, retryable: true } })
    expect(row?.saveError?.message).toContain(`conversation "${id}"`)
    expect(row?.saveError?.message).toContain('closing')
    expect(revisionOf(storage, id)).toBe(1)

    storage.refuse(undefined)
    c.storeOf(id)?.getState().dispatch(exchange(1, 'Second', 'two'))
    await c.flush()
    expect(c.list().find((x) => x.id === id)).toMatchObject({ status: 'idle' })
    expect(c.list().find((x) => x.id === id)?.saveError).toBeUndefined()
    expect(revisionOf(storage, id)).toBe(2)
    const stored = checkRecord(storage.records.get(id), id)
    expect(stored.ok && stored.value.state.turnIds).toEqual(['u0', 'a0', 'u1', 'a1'])
  })

  it('a full quota is its own code; retrySave saves now once there is room', async () => {
    const storage = failing()
    const c = conversationsOn(storage)
    await c.ready()
    const id = c.selectedId as string
    await c.flush()
    storage.refuse(() => new DOMException('Quota exceeded', 'QuotaExceededError'))
    c.storeOf(id)?.getState().dispatch(exchange(0, 'Big', 'answer'))
    await c.flush()
    expect(c.list()[0]?.saveError).toMatchObject({ code: CONVERSATION_QUOTA_EXCEEDED, retryable: true })
    await c.retrySave(id)
    expect(c.list()[0]?.saveError?.code).toBe(CONVERSATION_QUOTA_EXCEEDED)
    storage.refuse(undefined)
    await c.retrySave(id)
    expect(c.list()[0]?.saveError).toBeUndefined()
    expect(revisionOf(storage, id)).toBe(2)
  })

  it('reloadStored drops the changes that could not be saved and shows the stored copy', async () => {
    const storage = failing()
    const c = conversationsOn(storage)
    await c.ready()
    const id = c.selectedId as string
    c.storeOf(id)?.getState().dispatch(exchange(0, 'Kept', 'kept'))
    await c.flush()
    storage.refuse(() => new Error('disk on fire'))
    c.storeOf(id)?.getState().dispatch(exchange(1, 'Lost', 'lost'))
    await c.flush()
    expect(c.list()[0]?.saveError).toBeDefined()
    storage.refuse(undefined)
    await c.reloadStored(id)
    expect(c.list()[0]).toMatchObject({ status: 'idle', title: 'Kept' })
    expect(c.list()[0]?.saveError).toBeUndefined()
    expect(c.storeOf(id)?.getState().turnIds).toEqual(['u0', 'a0'])
    // Nothing unsaved is left: a flush stores nothing new.
    await c.flush()
    expect(revisionOf(storage, id)).toBe(1)
  })

  it('reloadStored on a conversation that was never stored empties it, and it saves again afterwards', async () => {
    const storage = failing()
    storage.refuse(() => new Error('refused'))
    const c = conversationsOn(storage)
    await c.ready()
    const id = c.selectedId as string
    c.storeOf(id)?.getState().dispatch(exchange(0, 'Never stored', 'no'))
    await c.flush()
    expect(c.list()[0]?.saveError?.code).toBe(CONVERSATION_SAVE_FAILED)
    storage.refuse(undefined)
    await c.reloadStored(id)
    expect(c.list()[0]?.status).toBe('idle')
    expect(c.storeOf(id)?.getState().turnIds).toEqual([])
    c.storeOf(id)?.getState().dispatch(exchange(1, 'Now stored', 'yes'))
    await c.flush()
    expect(revisionOf(storage, id)).toBe(1)
  })
})

describe('conversations: only JSON data is saved', () => {
  class Point {
    constructor(public x: number) {}
  }

  it('a function, a symbol, a BigInt, a class instance, a cycle and an inherited member are left out and named; the rest is saved', async () => {
    const storage = memoryConversations()
    const c = conversationsOn(storage)
    await c.ready()
    const id = c.selectedId as string
    await c.flush()
    const store = c.storeOf(id)
    const cyclic: Record<string, unknown> = { name: 'loop' }
    cyclic.self = cyclic
    const inherited = Object.assign(Object.create({ fromPrototype: 'not data' }) as object, { own: 1 })
    store?.getState().reset({
      ...store.getState(),
      agentState: { keep: [1, 'two', null, { three: true }], fn: () => 1, sym: Symbol('s'), big: 10n, point: new Point(1), when: new Date(0), cyclic, list: [1, () => 2, 3], inherited, nan: Number.NaN },
    })
    store?.getState().dispatch(exchange(0, 'Question', 'Answer'))
    await c.flush()
    const row = c.list()[0]
    expect(row?.saveError).toBeUndefined()
    expect(row?.saveProblem).toMatchObject({ type: 'validation', code: CONVERSATION_NOT_DATA })
    for (const path of ['state.agentState.fn (a function)', 'state.agentState.sym (a symbol)', 'state.agentState.big (a bigint)', 'state.agentState.point (an instance of Point)']) {
      expect(row?.saveProblem?.message).toContain(path)
    }
    expect(row?.saveProblem?.message).toContain('9 values')
    expect(row?.saveProblem?.message).toContain('and 4 more')
    const stored = checkRecord(storage.records.get(id), id)
    expect(stored.ok).toBe(true)
    expect(stored.ok && stored.value.state.agentState).toEqual({ keep: [1, 'two', null, { three: true }], cyclic: { name: 'loop' }, list: [1, null, 3] })
    expect(stored.ok && stored.value.state.turnIds).toEqual(['u0', 'a0'])

    // Once the value is gone from the page, the problem goes with the next save.
    store?.getState().reset({ ...store.getState(), agentState: { keep: 1 } })
    store?.getState().dispatch(exchange(1, 'Again', 'again'))
    await c.flush()
    expect(c.list()[0]?.saveProblem).toBeUndefined()
    expect(revisionOf(storage, id)).toBe(3)
  })

  it('a value in a message prop is left out the same way, and the journal holds the data too', async () => {
    const storage = memoryConversations()
    const tab = memoryStorage()
    const c = conversationsOn(storage, tab)
    await c.ready()
    const id = c.selectedId as string
    c.storeOf(id)?.getState().dispatch([
      { op: 'turn.open', turnId: 't1', role: 'assistant' },
      { op: 'message.put', turnId: 't1', messageId: 'm1', role: 'assistant', type: 'data-x', props: { data: { ok: 1, onClick: () => undefined } }, status: 'done' },
      { op: 'turn.finish', turnId: 't1', status: 'done' },
    ])
    c.writeJournal()
    const journal = JSON.parse(tab.getItem(`weft:conversations:journal:default:${id}`) as string) as { state: { messages: Record<string, { props: unknown }> } }
    expect(journal.state.messages.m1?.props).toEqual({ data: { ok: 1 } })
    await c.flush()
    expect(c.list()[0]?.saveProblem?.message).toContain('state.messages.m1.props.data.onClick (a function)')
    const stored = checkRecord(storage.records.get(id), id)
    expect(stored.ok && stored.value.state.messages.m1?.props).toEqual({ data: { ok: 1 } })
  })

  it('plainData hands back the same value when all of it is data', () => {
    const clean = { a: [1, { b: 'c' }], d: null, e: undefined, f: -0 }
    const result = plainData(clean)
    expect(result.value).toBe(clean)
    expect(result.dropped).toEqual([])
    const shared = { x: 1 }
    expect(plainData({ one: shared, two: shared }).dropped).toEqual([])
    const nullPrototype = Object.assign(Object.create(null) as object, { a: 1 })
    expect(plainData({ nullPrototype }).dropped).toEqual([])
    let deep: unknown = 'end'
    for (let i = 0; i < 1000; i++) deep = [deep]
    expect(plainData(deep).dropped).toHaveLength(1)
    const throwing = { get boom(): number { throw new Error('no') } }
    expect(plainData({ throwing }).dropped).toEqual(['$.throwing (could not be read)'])
  })
})

describe('conversations: the storage refuses a save unless the stored revision is the expected one', () => {
  const record = (revision: number) => conversationRecord({ id: 'c', title: `r${revision}`, createdAt: 1, updatedAt: revision, revision }, emptyState())

  it('refuses when the stored revision is newer, and when it is older (a stored copy rolled back)', async () => {
    const storage = memoryConversations()
    await storage.save(record(1), { expectedRevision: 0 })
    await storage.save(record(2), { expectedRevision: 1 })
    // Newer than this page thinks.
    await expect(storage.save(record(2), { expectedRevision: 1 })).rejects.toMatchObject({ storedRevision: 2 })
    // Older than this page thinks: another program put revision 1 back.
    storage.records.set('c', record(1))
    const refused = await storage.save(record(3), { expectedRevision: 2 }).then(() => undefined, (thrown: unknown) => thrown)
    expect(refused).toBeInstanceOf(ConversationConflictError)
    expect((refused as ConversationConflictError).storedRevision).toBe(1)
    expect((storage.records.get('c') as { title: string }).title).toBe('r1')
    // Nothing stored at all, while the page expected revision 2.
    storage.records.delete('c')
    await expect(storage.save(record(3), { expectedRevision: 2 })).rejects.toMatchObject({ storedRevision: 0 })
    expect(storage.records.has('c')).toBe(false)
  })

  it('a conversation whose stored copy went back to an older revision shows a conflict instead of writing over it', async () => {
    const storage = memoryConversations()
    const c = conversationsOn(storage)
    await c.ready()
    const id = c.selectedId as string
    c.storeOf(id)?.getState().dispatch(exchange(0, 'One', 'one'))
    await c.flush()
    const older = storage.records.get(id)
    c.storeOf(id)?.getState().dispatch(exchange(1, 'Two', 'two'))
    await c.flush()
    expect(revisionOf(storage, id)).toBe(2)
    storage.records.set(id, structuredClone(older))
    c.storeOf(id)?.getState().dispatch(exchange(2, 'Three', 'three'))
    await c.flush()
    expect(c.list()[0]).toMatchObject({ status: 'conflict', error: { code: CONVERSATION_CONFLICT } })
    expect(revisionOf(storage, id)).toBe(1)
    await c.resolveConflict(id, 'mine')
    expect(revisionOf(storage, id)).toBe(2)
    const stored = checkRecord(storage.records.get(id), id)
    expect(stored.ok && stored.value.state.turnIds).toEqual(['u0', 'a0', 'u1', 'a1', 'u2', 'a2'])
  })
})

describe('conversations: the remembered selection after its conversation was deleted', () => {
  it('a reload falls back to the newest readable conversation, and the deleted one does not come back', async () => {
    const storage = memoryConversations()
    const tab = memoryStorage()
    const first = createConversations({ storage, selection: tab, saveOnHide: false })
    await first.ready()
    const older = first.selectedId as string
    first.storeOf(older)?.getState().dispatch(exchange(0, 'Older', 'a'))
    const gone = first.create()
    first.storeOf(gone)?.getState().dispatch(exchange(1, 'Gone', 'b'))
    await first.flush()
    expect(tab.getItem('weft:conversations:selected:default')).toBe(gone)
    // Unsaved changes to it were in the journal when another tab deleted it.
    first.storeOf(gone)?.getState().dispatch(exchange(2, 'Unsaved', 'c'))
    first.writeJournal()
    await first.dispose()
    const other = conversationsOn(storage)
    await other.ready()
    await other.remove(gone)
    // A broken record newer than the rest must not be chosen either.
    storage.records.set('broken', { format: 'weft.conversation', version: 1, id: 'broken', title: 'Broken', createdAt: 9e12, updatedAt: 9e12, revision: 1, state: null })

    const after = conversationsOn(storage, tab)
    await after.ready()
    expect(after.selectedId).toBe(older)
    expect(after.list().map((x) => x.id).sort()).toEqual(['broken', older].sort())
    expect(after.storeOf(older)?.getState().turnIds).toEqual(['u0', 'a0'])
    await after.flush()
    expect(storage.records.has(gone)).toBe(false)
    expect(tab.getItem('weft:conversations:selected:default')).toBe(older)
  })

  it('when every conversation was deleted, a reload starts a new one instead of bringing one back', async () => {
    const storage = memoryConversations()
    const tab = memoryStorage()
    const first = createConversations({ storage, selection: tab, saveOnHide: false })
    await first.ready()
    const only = first.selectedId as string
    first.storeOf(only)?.getState().dispatch(exchange(0, 'Only', 'a'))
    await first.flush()
    await first.dispose()
    await storage.remove(only)

    const after = conversationsOn(storage, tab)
    await after.ready()
    expect(after.selectedId).toBeDefined()
    expect(after.selectedId).not.toBe(only)
    expect(after.list().map((x) => x.id)).toEqual([after.selectedId])
    expect(after.storeOf(after.selectedId as string)?.getState().turnIds).toEqual([])
  })

  it('deleted in another tab while shown: the selection moves to a readable conversation', async () => {
    const inner = memoryConversations()
    let tell: ((change: ConversationChange) => void) | undefined
    const storage: ConversationStorage = {
      list: () => inner.list(), load: (id) => inner.load(id), save: (r, o) => inner.save(r, o), remove: (id) => inner.remove(id),
      watch: (listener) => {
        tell = listener
        return () => undefined
      },
    }
    const c = conversationsOn(storage)
    await c.ready()
    const readable = c.selectedId as string
    c.storeOf(readable)?.getState().dispatch(exchange(0, 'Readable', 'a'))
    const shown = c.create()
    await c.flush()
    // A damaged conversation, newest of all, is listed beside them.
    inner.records.set('broken', { format: 'weft.conversation', version: 1, id: 'broken', title: 'Broken', createdAt: 9e12, updatedAt: 9e12, revision: 1, state: null })
    tell?.({ type: 'saved', id: 'broken', summary: { format: 'weft.conversation', version: 1, id: 'broken', title: 'Broken', createdAt: 9e12, updatedAt: 9e12, revision: 1 } })
    expect(c.list()[0]?.id).toBe('broken')
    await c.load('broken')
    expect(c.list()[0]?.status).toBe('error')
    await inner.remove(shown)
    tell?.({ type: 'removed', id: shown })
    expect(c.selectedId).toBe(readable)
    expect(c.list().map((x) => x.id)).not.toContain(shown)
  })
})
