/**
 * A save to IndexedDB is one transaction or nothing: the summary and the record
 * commit together or neither does, so a save that fails leaves the stored
 * revision where it was and the next good save goes through (no conflict with itself).
 */
import { openDB } from 'idb'
import { afterEach, describe, expect, it } from 'vitest'
import {
  checkRecord, conversationRecord, createConversations, indexedDbConversations,
  type ConversationStorage, type Conversations, type IndexedDbConversationStorage,
} from '../../src/core/conversations/index'
import { emptyState } from '../../src/core/model/model'
import { memoryStorage } from '../../src/core/resume/storage'
import { exchange } from '../helpers/exchange'

const storages: IndexedDbConversationStorage[] = []
const lists: Conversations[] = []
afterEach(async () => {
  for (const c of lists.splice(0)) await c.dispose()
  for (const s of storages.splice(0)) s.close()
})

let databases = 0
const freshName = () => `weft-atomic-${Date.now()}-${++databases}`
const open = (name: string) => {
  const storage = indexedDbConversations({ name })
  storages.push(storage)
  return storage
}

async function storedRevisions(name: string, id: string): Promise<{ summary: unknown; record: unknown }> {
  const db = await openDB(name)
  const summary = (await db.get('summaries', id) as { revision?: number } | undefined)?.revision
  const record = (await db.get('records', id) as { revision?: number } | undefined)?.revision
  db.close()
  return { summary, record }
}

describe('an IndexedDB save is atomic', { timeout: 60_000 }, () => {
  it('a put that cannot clone its value commits neither the record nor its summary', async () => {
    const name = freshName()
    const storage = open(name)
    const first = conversationRecord({ id: 'c', title: 'One', createdAt: 1, updatedAt: 1, revision: 1 }, emptyState())
    await storage.save(first, { expectedRevision: 0 })
    // A function inside a value: structured clone throws DataCloneError from put(), synchronously.
    const bad = conversationRecord({ id: 'c', title: 'Two', createdAt: 1, updatedAt: 2, revision: 2 }, { ...emptyState(), agentState: { onChange: () => 1 } })
    await expect(storage.save(bad, { expectedRevision: 1 })).rejects.toMatchObject({ name: 'DataCloneError' })
    expect(await storedRevisions(name, 'c')).toEqual({ summary: 1, record: 1 })
    expect((await storage.list()).map((entry) => (entry.summary as { title: string }).title)).toEqual(['One'])
    // The next good save builds on revision 1, as the page believes.
    const good = conversationRecord({ id: 'c', title: 'Two', createdAt: 1, updatedAt: 2, revision: 2 }, emptyState())
    await storage.save(good, { expectedRevision: 1 })
    expect(await storedRevisions(name, 'c')).toEqual({ summary: 2, record: 2 })
  })

  it('a symbol in the record fails the same way, and a failed save leaves no stray request behind', async () => {
    const name = freshName()
    const storage = open(name)
    const bad = { ...conversationRecord({ id: 's', title: 'S', createdAt: 1, updatedAt: 1, revision: 1 }, emptyState()), mark: Symbol('x') }
    await expect(storage.save(bad, { expectedRevision: 0 })).rejects.toMatchObject({ name: 'DataCloneError' })
    expect(await storedRevisions(name, 's')).toEqual({ summary: undefined, record: undefined })
    expect(await storage.list()).toEqual([])
  })

  it('refuses a save when the stored revision is older than expected, not only newer, and writes nothing', async () => {
    const name = freshName()
    const storage = open(name)
    const at = (revision: number) => conversationRecord({ id: 'o', title: `r${revision}`, createdAt: 1, updatedAt: revision, revision }, emptyState())
    await storage.save(at(1), { expectedRevision: 0 })
    await storage.save(at(2), { expectedRevision: 1 })
    await expect(storage.save(at(2), { expectedRevision: 1 })).rejects.toMatchObject({ name: 'ConversationConflictError', storedRevision: 2 })
    // Another program put revision 1 back (a restore from a backup): a page on revision 2 must not write over it.
    const db = await openDB(name)
    await db.put('summaries', { ...at(1), state: undefined }, 'o')
    await db.put('records', at(1), 'o')
    db.close()
    await expect(storage.save(at(3), { expectedRevision: 2 })).rejects.toMatchObject({ name: 'ConversationConflictError', storedRevision: 1 })
    expect(await storedRevisions(name, 'o')).toEqual({ summary: 1, record: 1 })
    // Nothing stored any more, while the page expected revision 1.
    await storage.remove('o')
    await expect(storage.save(at(2), { expectedRevision: 1 })).rejects.toMatchObject({ storedRevision: 0 })
    expect(await storedRevisions(name, 'o')).toEqual({ summary: undefined, record: undefined })
  })

  it('a conversation whose save fails in the database keeps its revision, shows a typed saveError, and saves next time', async () => {
    const name = freshName()
    const inner = open(name)
    let poison = false
    // The database refuses one save (as it would a value it cannot clone) after the conversation layer let it through.
    const storage: ConversationStorage = {
      list: () => inner.list(),
      load: (id) => inner.load(id),
      remove: (id) => inner.remove(id),
      save: (record, options) => inner.save(poison ? { ...record, mark: Symbol('refused') } as typeof record : record, options),
    }
    const conversations = createConversations({ storage, selection: memoryStorage(), saveOnHide: false })
    lists.push(conversations)
    await conversations.ready()
    const id = conversations.selectedId as string
    await conversations.flush()
    expect(await storedRevisions(name, id)).toEqual({ summary: 1, record: 1 })

    poison = true
    conversations.storeOf(id)?.getState().dispatch(exchange(0, 'Kept question', 'Kept answer'))
    await conversations.flush()
    const row = conversations.list().find((c) => c.id === id)
    expect(row?.status).toBe('idle')
    expect(row?.saveError).toMatchObject({ type: 'internal', code: 'conversation_save_failed', retryable: true })
    expect(row?.saveError?.message).toContain(id)
    expect(await storedRevisions(name, id)).toEqual({ summary: 1, record: 1 })

    // The next save point (the next answer's end) goes through, on revision 1 as the page believes: no conflict with itself.
    poison = false
    conversations.storeOf(id)?.getState().dispatch(exchange(1, 'Next question', 'Next answer'))
    await conversations.flush()
    const saved = conversations.list().find((c) => c.id === id)
    expect(saved?.status).toBe('idle')
    expect(saved?.saveError).toBeUndefined()
    expect(await storedRevisions(name, id)).toEqual({ summary: 2, record: 2 })
    const stored = checkRecord(await inner.load(id), id)
    expect(stored.ok && stored.value.state.turnIds).toEqual(['u0', 'a0', 'u1', 'a1'])
  })

  it('a function in the agent state (a patch put it there) is left out of the save, named, and never blocks a save', async () => {
    const name = freshName()
    const storage = open(name)
    const conversations = createConversations({ storage, selection: memoryStorage(), saveOnHide: false })
    lists.push(conversations)
    await conversations.ready()
    const id = conversations.selectedId as string
    await conversations.flush()
    const store = conversations.storeOf(id)
    store?.getState().reset({ ...store.getState(), agentState: { step: 2, onChange: () => 1 } })
    store?.getState().dispatch(exchange(0, 'With a callback around', 'Saved anyway'))
    await conversations.flush()
    const row = conversations.list().find((c) => c.id === id)
    expect(row?.saveError).toBeUndefined()
    expect(row?.saveProblem).toMatchObject({ type: 'validation', code: 'conversation_not_data' })
    expect(row?.saveProblem?.message).toContain('state.agentState.onChange (a function)')
    expect(await storedRevisions(name, id)).toEqual({ summary: 2, record: 2 })
    const stored = checkRecord(await storage.load(id), id)
    expect(stored.ok && stored.value.state.agentState).toEqual({ step: 2 })
    expect(stored.ok && stored.value.state.turnIds).toEqual(['u0', 'a0'])
    // The page still holds the function; the stored copy is the data.
    expect(typeof store?.getState().agentState.onChange).toBe('function')
    store?.getState().dispatch(exchange(1, 'And again', 'Saved again'))
    await conversations.flush()
    expect(await storedRevisions(name, id)).toEqual({ summary: 3, record: 3 })
  })
})
