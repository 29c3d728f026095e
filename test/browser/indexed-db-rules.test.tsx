/**
 * The IndexedDB storage's results, compared whole, in Chromium (the only place
 * the suite has IndexedDB and BroadcastChannel, so this module is not in a
 * mutation group): the database's name, what list and load hand back, removal,
 * and the changes another storage of the same name is told, and only those.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  conversationRecord, indexedDbConversations, summaryOf, type ConversationChange, type ConversationRecord, type IndexedDbConversationStorage,
} from '../../src/core/conversations/index'
import { emptyState } from '../../src/core/model/model'

const storages: IndexedDbConversationStorage[] = []
afterEach(() => {
  for (const s of storages.splice(0)) s.close()
})

let databases = 0
const freshName = () => `weft-idb-rules-${Date.now()}-${++databases}`
const open = (name?: string) => {
  const storage = indexedDbConversations(name === undefined ? {} : { name })
  storages.push(storage)
  return storage
}
const record = (id: string, revision: number, title = 'Trip'): ConversationRecord => conversationRecord({ id, title, createdAt: 1, updatedAt: 2, revision }, emptyState())

describe('indexedDbConversations', () => {
  it('is named weft-conversations unless told otherwise', () => {
    expect(open().name).toBe('weft-conversations')
    expect(open('mine').name).toBe('mine')
  })

  it('lists each stored summary under its id, loads the whole record, and removes both', async () => {
    const storage = open(freshName())
    expect(await storage.list()).toEqual([])
    expect(await storage.load('c1')).toBeUndefined()
    await storage.save(record('c1', 1), { expectedRevision: 0 })
    await storage.save(record('c2', 1, 'Other'), { expectedRevision: 0 })
    await storage.save(record('c1', 2, 'Trip again'), { expectedRevision: 1 })
    expect(await storage.list()).toStrictEqual([
      { id: 'c1', summary: summaryOf(record('c1', 2, 'Trip again')) },
      { id: 'c2', summary: summaryOf(record('c2', 1, 'Other')) },
    ])
    expect(await storage.load('c1')).toStrictEqual(record('c1', 2, 'Trip again'))
    await storage.remove('c1')
    expect(await storage.list()).toStrictEqual([{ id: 'c2', summary: summaryOf(record('c2', 1, 'Other')) }])
    expect(await storage.load('c1')).toBeUndefined()
  })

  it('another storage of the same name is told each save and removal, exactly; its own are not told to itself', async () => {
    const name = freshName()
    const here = open(name)
    const there = open(name)
    const heardThere: ConversationChange[] = []
    const heardHere: ConversationChange[] = []
    const stop = there.watch!((change) => heardThere.push(change))
    here.watch!((change) => heardHere.push(change))
    await here.save(record('c1', 1), { expectedRevision: 0 })
    await here.remove('c1')
    await vi.waitFor(() => expect(heardThere).toStrictEqual([
      { type: 'saved', id: 'c1', summary: summaryOf(record('c1', 1)) },
      { type: 'removed', id: 'c1' },
    ]))
    stop()
    await here.save(record('c2', 1), { expectedRevision: 0 })
    const other = open(name)
    const heardOther: ConversationChange[] = []
    other.watch!((change) => heardOther.push(change))
    await here.save(record('c3', 1), { expectedRevision: 0 })
    await vi.waitFor(() => expect(heardOther).toHaveLength(1))
    expect(heardThere).toHaveLength(2)
    expect(heardHere).toEqual([])
  })

  it('what is not a change on the channel is ignored', async () => {
    const name = freshName()
    const storage = open(name)
    const heard: unknown[] = []
    storage.watch!((change) => heard.push(change))
    const channel = new BroadcastChannel(`weft:conversations:${name}`)
    for (const message of [null, 'saved', 3, { type: 'saved' }, { type: 'saved', id: 3 }, { type: 'renamed', id: 'c1' }, { type: 'removed', id: 'c9' }]) channel.postMessage(message)
    await vi.waitFor(() => expect(heard).toStrictEqual([{ type: 'removed', id: 'c9' }]))
    channel.close()
  })

  it('once closed it tells nobody, and a later call opens the database again', async () => {
    const name = freshName()
    const here = open(name)
    const there = open(name)
    const heard: ConversationChange[] = []
    there.watch!((change) => heard.push(change))
    await here.save(record('c1', 1), { expectedRevision: 0 })
    await vi.waitFor(() => expect(heard).toHaveLength(1))
    here.close()
    await here.save(record('c1', 2), { expectedRevision: 1 })
    expect((await here.load('c1') as ConversationRecord).revision).toBe(2)
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(heard).toHaveLength(1)
  })
})
