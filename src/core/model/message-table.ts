/**
 * The store's messages, by id, kept in a fixed number of buckets. An immutable
 * update copies the record it changes, so with one flat record a token appended
 * to the newest answer copied every message of the conversation: 2 ms a commit
 * with 5,000 messages. In buckets a commit copies the bucket list and one bucket.
 * A bucket is chosen by a hash of the id alone, so a message is found from its id
 * without an index, and the same id lands in the same bucket in every state.
 */
import type { Message } from './model'
import { isRecord } from '../util/record'
import { bucketOf, deleteEntry, entryIn, entryList, putEntry, toBucketTable } from './bucket-table'

export { bucketOf }

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
 * The message with this id, or undefined. Never an inherited property.
 *
 * @example
 * messageIn(store.getState().messages, 'm1')?.status // 'streaming'
 */
export function messageIn(table: MessageTable, id: string): Message | undefined {
  return entryIn(table, id)
}

/**
 * Put a message in a table you may change (a fold's draft, or a table you just made).
 *
 * @example
 * putMessage(draft.messages, { id: 'm1', turnId: 't1', role: 'assistant', type: 'text', props: {}, status: 'streaming' })
 */
export function putMessage(table: MessageTable, message: Message): void {
  putEntry(table, message.id, message)
}

/**
 * Take a message out of a table you may change. An emptied bucket goes too, so
 * a table that held a message and lost it equals one that never held it.
 *
 * @example
 * deleteMessage(draft.messages, 'm1')
 */
export function deleteMessage(table: MessageTable, id: string): void {
  deleteEntry(table, id)
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
    listed.set(table, (list = entryList(table)))
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
  return toBucketTable(messages, isMessageLike)
}

function isMessageLike(value: unknown): value is Message {
  return isRecord(value) && typeof value.id === 'string' && typeof value.turnId === 'string' && typeof value.type === 'string'
}
