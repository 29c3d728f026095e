/**
 * Where conversations are kept. A storage only moves records; the schema check
 * and the merge of what other tabs wrote happen in the conversation store.
 */
import type { ConversationRecord, ConversationSummaryRecord } from './record'

/**
 * One entry of a storage's list: the key it is stored under and the summary as
 * stored (unchecked: a damaged one is still listed, with its error).
 *
 * @example
 * const entries: StoredConversation[] = await storage.list()
 */
export interface StoredConversation {
  id: string
  summary: unknown
}

/**
 * What another tab (or another store on this page) changed.
 *
 * @example
 * storage.watch?.((change) => change.type === 'removed' && forget(change.id))
 */
export type ConversationChange =
  | { type: 'saved'; id: string; summary: ConversationSummaryRecord }
  | { type: 'removed'; id: string }

/**
 * Where conversations are kept.
 *
 * @example
 * const storage: ConversationStorage = memoryConversations()
 * await storage.save(record, { expectedRevision: 0 })
 * const raw = await storage.load(record.id)
 */
export interface ConversationStorage {
  /** Every stored conversation's summary, unchecked. */
  list(): Promise<StoredConversation[]>
  /** The stored record, unchecked; `undefined` when there is none. */
  load(id: string): Promise<unknown>
  /**
   * Store a record whose `revision` is `expectedRevision + 1`. Rejects with a
   * `ConversationConflictError` when the stored revision is not `expectedRevision`
   * (0: nothing may be stored yet), newer or older: somebody else saved or restored
   * in between. A save that rejects, for any reason, stores nothing: the record and
   * its summary are written together or not at all.
   */
  save(record: ConversationRecord, options: { expectedRevision: number }): Promise<void>
  remove(id: string): Promise<void>
  /** Be told what other tabs save and remove; returns the unsubscribe function. */
  watch?(listener: (change: ConversationChange) => void): () => void
  /**
   * The id of a new conversation, when the storage's back end names them its own
   * way (a server that keys its threads by UUID). Default: weft's own `chat-…` ids.
   */
  createId?(): string
}

/**
 * A save found a newer revision than the one it started from.
 *
 * @example
 * try { await storage.save(record, { expectedRevision: 3 }) } catch (e) { if (e instanceof ConversationConflictError) e.storedRevision }
 */
export class ConversationConflictError extends Error {
  readonly storedRevision: number
  constructor(id: string, storedRevision: number, expectedRevision: number) {
    super(`conversation "${id}" was saved elsewhere (revision ${storedRevision}, this page had ${expectedRevision})`)
    this.name = 'ConversationConflictError'
    this.storedRevision = storedRevision
  }
}

/**
 * The stored revision a save must find, read from a raw stored summary (0 when absent or unreadable).
 *
 * @example
 * storedRevision(await summaries.get(id)) // 3
 */
export function storedRevision(summary: unknown): number {
  if (summary === undefined) return 0
  const revision = (summary as { revision?: unknown } | null)?.revision
  return typeof revision === 'number' ? revision : -1
}

/**
 * Conversations kept in memory: for tests, servers, and pages that must not persist.
 * A save stores a frozen copy, so neither the caller nor a later load can change
 * what is stored (what a database guarantees by copying), and a load hands out
 * that frozen record itself: loading a long conversation costs no copy.
 *
 * @example
 * const conversations = createConversations({ storage: memoryConversations() })
 */
export function memoryConversations(): ConversationStorage & { readonly records: Map<string, unknown> } {
  const records = new Map<string, unknown>()
  return {
    records,
    async list() {
      return [...records].map(([id, record]) => ({ id, summary: structuredClone(summaryPart(record)) }))
    },
    async load(id) {
      if (!records.has(id)) return undefined
      const stored = records.get(id)
      // A record put into `records` by hand (tests) is not frozen: hand out a copy of it.
      return isFrozenObject(stored) ? stored : structuredClone(stored)
    },
    async save(record, { expectedRevision }) {
      const found = storedRevision(records.has(record.id) ? summaryPart(records.get(record.id)) : undefined)
      if (found !== expectedRevision) throw new ConversationConflictError(record.id, found, expectedRevision)
      records.set(record.id, deepFreeze(structuredClone(record)))
    },
    async remove(id) {
      records.delete(id)
    },
  }
}

function isFrozenObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && Object.isFrozen(value)
}

function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value
  Object.freeze(value)
  for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key])
  return value
}

function summaryPart(record: unknown): unknown {
  if (typeof record !== 'object' || record === null) return record
  const { state: _state, ...summary } = record as Record<string, unknown>
  return summary
}
