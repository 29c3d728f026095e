/**
 * Conversations in IndexedDB, through `idb`: one database with a `summaries`
 * store (what the list reads, small) and a `records` store (the whole model).
 * A save reads the stored revision and writes both stores in one transaction,
 * so two tabs can never interleave a check and a write. Saves and removals are
 * announced on a BroadcastChannel so other tabs follow.
 */
import { openDB, type DBSchema, type IDBPDatabase, type IDBPTransaction } from 'idb'
import { summaryOf } from './record'
import { ConversationConflictError, storedRevision, type ConversationChange, type ConversationStorage } from './storage'

interface ConversationDB extends DBSchema {
  summaries: { key: string; value: unknown }
  records: { key: string; value: unknown }
}

/**
 * Options of `indexedDbConversations`.
 *
 * @example
 * indexedDbConversations({ name: 'my-app-chats' })
 */
export interface IndexedDbConversationsOptions {
  /** The database's name (default `weft-conversations`); also names the channel tabs talk on. */
  name?: string
}

/** The IndexedDB storage, plus `close()` for tests and page teardown. */
export type IndexedDbConversationStorage = ConversationStorage & {
  /** Close the database connection and the channel. */
  close(): void
  readonly name: string
}

/**
 * Conversations kept in the browser's IndexedDB, shared by every tab of the origin.
 *
 * @example
 * const conversations = createConversations({ storage: indexedDbConversations() })
 */
export function indexedDbConversations(options: IndexedDbConversationsOptions = {}): IndexedDbConversationStorage {
  const name = options.name ?? 'weft-conversations'
  let db: Promise<IDBPDatabase<ConversationDB>> | undefined
  const open = () =>
    (db ??= openDB<ConversationDB>(name, 1, {
        upgrade(database) {
          database.createObjectStore('summaries')
          database.createObjectStore('records')
        },
        // Another tab upgrading the schema: let it, and open again on the next call.
        blocking() {
          void db?.then((open) => open.close())
          db = undefined
        },
      }))

  const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(`weft:conversations:${name}`) : undefined
  const announce = (change: ConversationChange) => {
    try {
      channel?.postMessage(change)
    } catch {
      // A closed channel: this storage is being torn down.
    }
  }

  return {
    name,
    async list() {
      const database = await open()
      const tx = database.transaction('summaries')
      const [keys, values] = await Promise.all([tx.store.getAllKeys(), tx.store.getAll()])
      return keys.map((id, index) => ({ id, summary: values[index] }))
    },
    async load(id) {
      return (await open()).get('records', id)
    },
    async save(record, { expectedRevision }) {
      const database = await open()
      const tx = database.transaction(['summaries', 'records'], 'readwrite')
      const writes: Array<Promise<unknown>> = []
      const summary = summaryOf(record)
      try {
        const summaries = tx.objectStore('summaries')
        const found = storedRevision(await summaries.get(record.id))
        if (found !== expectedRevision) throw new ConversationConflictError(record.id, found, expectedRevision)
        // put() clones its value there and then: a value it cannot clone throws DataCloneError
        // synchronously, and a transaction is not aborted by a throw, only by abort(). The
        // record goes first, so nothing is queued when it throws; the catch aborts either way.
        writes.push(tx.objectStore('records').put(record, record.id))
        writes.push(summaries.put(summary, record.id))
        await Promise.all([...writes, tx.done])
      } catch (thrown) {
        abortQuietly(tx, writes)
        await tx.done.catch(() => undefined)
        throw thrown
      }
      announce({ type: 'saved', id: record.id, summary })
    },
    async remove(id) {
      const database = await open()
      const tx = database.transaction(['summaries', 'records'], 'readwrite')
      await Promise.all([tx.objectStore('summaries').delete(id), tx.objectStore('records').delete(id), tx.done])
      announce({ type: 'removed', id })
    },
    watch(listener) {
      if (!channel) return () => undefined
      const onMessage = (event: MessageEvent<unknown>) => {
        const change = event.data as ConversationChange | null
        if (change && typeof change === 'object' && typeof change.id === 'string' && (change.type === 'saved' || change.type === 'removed')) listener(change)
      }
      channel.addEventListener('message', onMessage)
      return () => channel.removeEventListener('message', onMessage)
    },
    close() {
      channel?.close()
      void db?.then((database) => database.close())
      db = undefined
    },
  }
}

/** Abort a transaction that may have finished already, and silence the requests it cancels. */
function abortQuietly(tx: IDBPTransaction<ConversationDB, ['summaries', 'records'], 'readwrite'>, writes: Array<Promise<unknown>>): void {
  for (const write of writes) write.catch(() => undefined)
  try {
    tx.abort()
  } catch {
    // Already committed or aborted (the error came from tx.done): nothing left to undo.
  }
}
