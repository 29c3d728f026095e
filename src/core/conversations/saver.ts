/**
 * Saving one conversation: one save at a time, each naming the revision it builds
 * on. What is saved is the model as JSON data (see `plainData`): a value that is
 * not data is left out and named in `saveProblem`, so it can never make every
 * later save fail. A save the storage refuses stores nothing (the storage's
 * contract), so the page keeps its revision and the next save goes through.
 */
import { weftError, type WeftError } from '../model/errors'
import type { AgentState } from '../model/model'
import type { Journal } from './journal'
import type { Entry, Ledger } from './ledger'
import { plainData } from './plain-data'
import { conversationRecord, type ConversationRecord } from './record'
import { ConversationConflictError, type ConversationStorage } from './storage'
import { CONVERSATION_CONFLICT, CONVERSATION_NOT_DATA, CONVERSATION_QUOTA_EXCEEDED, CONVERSATION_SAVE_FAILED } from './types'

/** How many of the left-out paths a `saveProblem` names; the count says how many there were. */
const NAMED_PATHS = 5

/**
 * The saves of one conversation list.
 *
 * @example
 * const saver = new Saver(ledger, storage, journal); await saver.save(entry)
 */
export class Saver {
  constructor(private readonly ledger: Ledger, private readonly storage: ConversationStorage, private readonly journal: Journal) {}

  /** Coalesce the saves one moment asks for into one. */
  schedule(entry: Entry): void {
    if (entry.timer !== undefined) return
    entry.timer = setTimeout(() => {
      entry.timer = undefined
      void this.save(entry)
    }, 0)
  }

  save(entry: Entry): Promise<void> {
    clearTimeout(entry.timer)
    entry.timer = undefined
    if (entry.saving) {
      // One save at a time per conversation; what changed meanwhile goes in the next one.
      return entry.saving.then(() => (entry.dirty ? this.save(entry) : undefined))
    }
    if (!entry.dirty || !entry.store || !this.ledger.entries.has(entry.id)) return Promise.resolve()
    if (entry.summary.status === 'error' || entry.summary.status === 'conflict') return Promise.resolve()
    const changes = entry.changes
    const { record, dropped } = this.plainRecord(entry, entry.store.getState(), entry.revision + 1)
    const work = this.storage.save(record, { expectedRevision: entry.revision }).then(
      () => {
        entry.revision = record.revision
        if (entry.changes === changes) entry.dirty = false
        this.journal.drop(entry.id)
        const saveProblem = dropped.length > 0 ? notData(entry.id, dropped) : undefined
        if (entry.summary.saveError || saveProblem?.message !== entry.summary.saveProblem?.message) {
          this.ledger.patch(entry, { saveError: undefined, saveProblem })
        }
      },
      (thrown: unknown) => {
        if (thrown instanceof ConversationConflictError) this.conflict(entry, thrown.storedRevision)
        else this.ledger.patch(entry, { saveError: saveErrorOf(entry.id, thrown) })
      },
    ).finally(() => {
      entry.saving = undefined
    })
    entry.saving = work
    return work
  }

  /** Another tab saved the conversation while this page had changes: stop saving until a person keeps one of the two. */
  conflict(entry: Entry, storedRevision: number): void {
    entry.storedRevision = storedRevision
    clearTimeout(entry.timer)
    entry.timer = undefined
    this.ledger.patch(entry, {
      status: 'conflict',
      error: weftError('validation', 'another tab saved this conversation while this one had changes; keep one of the two', {
        code: CONVERSATION_CONFLICT, retryable: false,
      }),
    })
  }

  /** The record to store: the entry's fields and model, as JSON data, and the paths of what was left out. */
  plainRecord(entry: Entry, state: AgentState, revision: number): { record: ConversationRecord; dropped: string[] } {
    const whole = this.recordOf(entry, state, revision)
    const { value, dropped } = plainData(whole.state, 'state')
    return { record: value === whole.state ? whole : { ...whole, state: value }, dropped }
  }

  recordOf(entry: Entry, state: AgentState, revision: number): ConversationRecord {
    const { title, createdAt, updatedAt } = entry.summary
    return conversationRecord({ id: entry.id, title, createdAt, updatedAt, revision, ...(entry.titleSource ? { titleSource: entry.titleSource } : {}) }, state)
  }
}

/**
 * The typed `saveError` for what a storage threw: a full quota, or any other refusal.
 *
 * @example
 * saveErrorOf('c1', new DOMException('full', 'QuotaExceededError')).code // 'conversation_quota_exceeded'
 */
export function saveErrorOf(id: string, thrown: unknown): WeftError {
  if (nameOf(thrown) === 'QuotaExceededError') {
    return weftError('internal', `conversation "${id}" could not be saved: the browser's storage for this site is full`, { code: CONVERSATION_QUOTA_EXCEEDED, retryable: true })
  }
  return weftError('internal', `conversation "${id}" could not be saved: ${messageOf(thrown)}`, { code: CONVERSATION_SAVE_FAILED, retryable: true })
}

function notData(id: string, dropped: string[]): WeftError {
  const named = dropped.slice(0, NAMED_PATHS).join(', ')
  const more = dropped.length > NAMED_PATHS ? ` and ${dropped.length - NAMED_PATHS} more` : ''
  return weftError('validation', `conversation "${id}" was saved without ${dropped.length === 1 ? 'a value' : `${dropped.length} values`} that JSON cannot hold: ${named}${more}`, {
    code: CONVERSATION_NOT_DATA, retryable: false,
  })
}

function nameOf(thrown: unknown): unknown {
  try {
    return typeof thrown === 'object' && thrown !== null ? (thrown as { name?: unknown }).name : undefined
  } catch {
    return undefined
  }
}

/**
 * What was thrown, as text for a message.
 *
 * @example
 * messageOf(new Error('closed')) // 'closed'
 */
export function messageOf(thrown: unknown): string {
  try {
    return thrown instanceof Error ? thrown.message : String(thrown)
  } catch {
    return 'an unreadable error'
  }
}
