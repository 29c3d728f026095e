/**
 * The store's messages, by id, kept in a fixed number of buckets. An immutable
 * update copies the record it changes, so with one flat record a token appended
 * to the newest answer copied every message of the conversation: 2 ms a commit
 * with 5,000 messages. In buckets a commit copies the bucket list and one bucket.
 * A bucket is chosen by a hash of the id alone, so a message is found from its id
 * without an index, and the same id lands in the same bucket in every state.
 */
import type { Message } from './model'
import { isRecord, own } from '../util/record'

/** How many buckets: near √n for the longest histories measured (5,000 messages), cheap for short ones. */
const BUCKETS = 64

/** A bucket's key: the hash of the id, as a decimal string. */
export type MessageBucket = `${number}`

/**
 * Messages by id, in buckets. Read it with `messageIn` (or `selectMessage`),
 * list it with `messageList`, and never index it with an id directly.
 *
 * @example
 * messageIn(state.messages, 'm1')?.props.content
 */
export type MessageTable = { [bucket: MessageBucket]: Record<string, Message> }

/**
 * The bucket an id belongs to (FNV-1a over its UTF-16 code units).
 *
 * @example
 * bucketOf('m1') === bucketOf('m1') // true, in every state and every process
 */
export function bucketOf(id: string): MessageBucket {
  let hash = 0x811c9dc5
  for (let i = 0; i < id.length; i++) hash = Math.imul(hash ^ id.charCodeAt(i), 0x01000193)
  return `${(hash >>> 0) % BUCKETS}` as MessageBucket
}

/**
 * The message with this id, or undefined. Never an inherited property.
 *
 * @example
 * messageIn(store.getState().messages, 'm1')?.status // 'streaming'
 */
export function messageIn(table: MessageTable, id: string): Message | undefined {
  const bucket = own(table, bucketOf(id))
  return bucket ? own(bucket, id) : undefined
}

/**
 * Put a message in a table you may change (a fold's draft, or a table you just made).
 *
 * @example
 * putMessage(draft.messages, { id: 'm1', turnId: 't1', role: 'assistant', type: 'text', props: {}, status: 'streaming' })
 */
export function putMessage(table: MessageTable, message: Message): void {
  const key = bucketOf(message.id)
  const bucket = own(table, key)
  if (bucket) bucket[message.id] = message
  else table[key] = { [message.id]: message }
}

/**
 * Take a message out of a table you may change. An emptied bucket goes too, so
 * a table that held a message and lost it equals one that never held it.
 *
 * @example
 * deleteMessage(draft.messages, 'm1')
 */
export function deleteMessage(table: MessageTable, id: string): void {
  const key = bucketOf(id)
  const bucket = own(table, key)
  if (!bucket) return
  delete bucket[id]
  if (Object.keys(bucket).length === 0) delete table[key]
}

const listed = new WeakMap<MessageTable, readonly Message[]>()

/**
 * Every message of the table, in no particular order (a turn's `messageIds`
 * give the order). The list is made once per table.
 *
 * @example
 * messageList(state.messages).filter((m) => m.status === 'error')
 */
export function messageList(table: MessageTable): readonly Message[] {
  let list = listed.get(table)
  if (!list) {
    const all: Message[] = []
    for (const bucket of Object.values(table)) all.push(...Object.values(bucket))
    listed.set(table, (list = all))
  }
  return list
}

const flattened = new WeakMap<MessageTable, Readonly<Record<string, Message>>>()

/**
 * The table as one record by id, for inspection, tests and storage. Made once
 * per table; the fold never reads it.
 *
 * @example
 * Object.keys(messageRecord(state.messages)) // ['m1', 'm2']
 */
export function messageRecord(table: MessageTable): Readonly<Record<string, Message>> {
  let record = flattened.get(table)
  if (!record) {
    const out: Record<string, Message> = {}
    for (const message of messageList(table)) out[message.id] = message
    flattened.set(table, (record = out))
  }
  return record
}

/**
 * A table from messages: a list, a record by id (the shape records stored
 * before buckets have), or a table whose messages may sit in the wrong bucket.
 * Entries that are not records with a string `id` are left out.
 *
 * @example
 * const table = toMessageTable([{ id: 'm1', turnId: 't1', role: 'user', type: 'text', props: { content: 'Hi' }, status: 'done' }])
 */
export function toMessageTable(messages: Iterable<Message> | Readonly<Record<string, unknown>>): MessageTable {
  const table: MessageTable = {}
  for (const message of candidates(messages)) putMessage(table, message)
  return table
}

function candidates(messages: Iterable<Message> | Readonly<Record<string, unknown>>): Message[] {
  if (Symbol.iterator in messages) return [...(messages as Iterable<Message>)].filter(isMessageLike)
  const found: Message[] = []
  for (const value of Object.values(messages)) {
    if (isMessageLike(value)) found.push(value)
    else if (isRecord(value)) for (const inner of Object.values(value)) if (isMessageLike(inner)) found.push(inner)
  }
  return found
}

function isMessageLike(value: unknown): value is Message {
  return isRecord(value) && typeof value.id === 'string' && typeof value.turnId === 'string' && typeof value.type === 'string'
}
