/**
 * Records by id kept in a fixed number of buckets, for the store's tables that
 * grow with a conversation (messages, timeline rows). An immutable update copies
 * the record it changes, so with one flat record a commit that adds or changes
 * one entry copied every entry: n entries over n commits, the square. In buckets
 * a commit copies the bucket list and one bucket. A bucket is chosen by a hash
 * of the id alone, so an entry is found from its id without an index, and the
 * same id lands in the same bucket in every state.
 */
import { isRecord, own, peek } from '../util/record'

/** How many buckets: near √n for the longest histories measured (5,000 messages), cheap for short ones. */
const BUCKETS = 64

/** A bucket's key: the hash of the id, as a decimal string. */
export type Bucket = `${number}`

/** Entries by id, in buckets. */
export type BucketTable<T> = { [bucket: Bucket]: Record<string, T> }

/**
 * The bucket an id belongs to (FNV-1a over its UTF-16 code units).
 *
 * @example
 * bucketOf('m1') === bucketOf('m1') // true, in every state and every process
 */
export function bucketOf(id: string): Bucket {
  let hash = 0x811c9dc5
  for (let i = 0; i < id.length; i++) hash = Math.imul(hash ^ id.charCodeAt(i), 0x01000193)
  return `${(hash >>> 0) % BUCKETS}` as Bucket
}

/**
 * The entry with this id, or undefined. Never an inherited property.
 *
 * @example
 * entryIn<Message>(state.messages, 'm1')?.status
 */
export function entryIn<T>(table: BucketTable<T>, id: string): T | undefined {
  const bucket = own(table, bucketOf(id))
  return bucket ? own(bucket, id) : undefined
}

/**
 * The entry with this id, read without drafting: on an immer draft a plain read
 * drafts the bucket (and copies the table's bucket list), which a scan that only
 * looks should not pay for. Same result as `entryIn`.
 *
 * @example
 * entryPeek<TraceNode>(draft.trace, 'n1')?.parentId
 */
export function entryPeek<T>(table: BucketTable<T>, id: string): T | undefined {
  const bucket = peek(table, bucketOf(id))
  return bucket ? peek(bucket, id) : undefined
}

/**
 * Put an entry in a table you may change (a fold's draft, or a table you just made).
 *
 * @example
 * putEntry(draft.trace, row.id, row)
 */
export function putEntry<T>(table: BucketTable<T>, id: string, entry: T): void {
  const key = bucketOf(id)
  const bucket = own(table, key)
  if (bucket) bucket[id] = entry
  else table[key] = { [id]: entry }
}

/**
 * Take an entry out of a table you may change. An emptied bucket goes too, so
 * a table that held an entry and lost it equals one that never held it.
 *
 * @example
 * deleteEntry(draft.trace, 'n1')
 */
export function deleteEntry<T>(table: BucketTable<T>, id: string): void {
  const key = bucketOf(id)
  const bucket = own(table, key)
  if (!bucket) return
  delete bucket[id]
  if (Object.keys(bucket).length === 0) delete table[key]
}

/**
 * Every entry of the table, in no particular order.
 *
 * @example
 * entryList<TraceNode>(state.trace).filter((n) => n.status === 'error')
 */
export function entryList<T>(table: BucketTable<T>): T[] {
  const all: T[] = []
  for (const bucket of Object.values(table)) all.push(...Object.values(bucket))
  return all
}

/**
 * A table from entries: a list, a record by id (the shape records stored before
 * buckets have), or a table whose entries may sit in the wrong bucket. Only the
 * values `isEntry` accepts are kept.
 *
 * @example
 * const table = toBucketTable([row], isRow)
 */
export function toBucketTable<T extends { id: string }>(
  entries: Iterable<T> | Readonly<Record<string, unknown>>, isEntry: (value: unknown) => value is T,
): BucketTable<T> {
  const table: BucketTable<T> = {}
  for (const entry of candidates(entries, isEntry)) putEntry(table, entry.id, entry)
  return table
}

function candidates<T>(entries: Iterable<T> | Readonly<Record<string, unknown>>, isEntry: (value: unknown) => value is T): T[] {
  if (Symbol.iterator in entries) return [...(entries as Iterable<unknown>)].filter(isEntry)
  const found: T[] = []
  for (const value of Object.values(entries)) {
    if (isEntry(value)) found.push(value)
    else if (isRecord(value)) for (const inner of Object.values(value)) if (isEntry(inner)) found.push(inner)
  }
  return found
}
