/**
 * Reading conversations from storage into the page: the stored list, one record
 * into its store (or the journal this tab left), the stored copy again when another
 * tab saved it, and the quarantine of a record that fails the check.
 */
import { weftError, type WeftError } from '../model/errors'
import { emptyState } from '../model/model'
import { createAgentStore, type AgentStore } from '../store/store'
import type { Journal } from './journal'
import type { Entry, Ledger } from './ledger'
import { checkRecord, checkSummary, readableTitle, stateOf, type ConversationRecord } from './record'
import { messageOf, type Saver } from './saver'
import type { ConversationChange, ConversationStorage, StoredConversation } from './storage'

/**
 * The reads of one conversation list.
 *
 * @example
 * const loader = new Loader(ledger, saver, journal, storage, (id) => stopStream(id))
 */
export class Loader {
  /** `detached`: a loaded conversation lost its store (its record turned out unreadable); whatever streams into it stops. */
  constructor(
    private readonly ledger: Ledger,
    private readonly saver: Saver,
    private readonly journal: Journal,
    private readonly storage: ConversationStorage,
    private readonly detached: (id: string, store: AgentStore) => void,
  ) {}

  /** Add the stored list's conversations this page does not hold; a damaged summary is listed quarantined. */
  listed(stored: readonly StoredConversation[], skip: (id: string) => boolean): void {
    for (const { id, summary } of stored) {
      if (this.ledger.entries.has(id) || skip(id)) continue
      const checked = checkSummary(summary, id)
      if (checked.ok) {
        const s = checked.value
        this.ledger.add({ id, title: s.title, createdAt: s.createdAt, updatedAt: s.updatedAt, status: 'idle' }, s.revision, s.titleSource)
      } else {
        this.ledger.add({ id, title: readableTitle(summary) ?? id, createdAt: 0, updatedAt: 0, status: 'error', error: checked.error }, -1)
      }
    }
    this.ledger.publish()
  }

  /** Load a conversation's record (or this tab's journal of it) into a new store. */
  async read(entry: Entry): Promise<void> {
    this.ledger.patch(entry, { status: 'loading' })
    const raw = await this.stored(entry)
    if (raw === FAILED || !this.ledger.entries.has(entry.id) || entry.store) return
    const journal = this.journal.take(entry.id, raw)
    if (raw === undefined && !journal) {
      // Listed but not stored yet (another tab is still writing it): it starts empty.
      this.ledger.attach(entry, createAgentStore())
      this.ledger.patch(entry, { status: 'idle' })
      return
    }
    const checked = checkRecord(raw, entry.id)
    if (!checked.ok && !journal) {
      this.quarantine(entry, raw, checked.error)
      return
    }
    const record = journal ?? (checked as { value: ConversationRecord }).value
    entry.revision = record.revision
    entry.titleSource = record.titleSource
    this.ledger.attach(entry, createAgentStore({ initialState: stateOf(record) }))
    this.ledger.patch(entry, { status: this.ledger.liveStatus(entry), title: record.title, updatedAt: record.updatedAt, error: undefined })
    if (journal) {
      // What the last page could not save: save it now.
      this.ledger.touch(entry)
      this.saver.schedule(entry)
    }
  }

  /** Replace the page's copy with the stored one (another tab saved it, or this page's changes are dropped). */
  async reload(entry: Entry): Promise<void> {
    const raw = await this.stored(entry)
    if (raw === FAILED) return
    // Never stored (its first save failed): what is stored is an empty conversation.
    const checked = raw === undefined ? undefined : checkRecord(raw, entry.id)
    if (checked && !checked.ok) {
      this.quarantine(entry, raw, checked.error)
      return
    }
    const record = checked?.value
    const state = record ? stateOf(record) : emptyState()
    entry.revision = record?.revision ?? 0
    if (record) entry.titleSource = record.titleSource
    if (entry.store) {
      entry.quiet = true
      try {
        entry.store.getState().reset({ ...state, status: entry.store.getState().status })
      } finally {
        entry.quiet = false
      }
    } else {
      this.ledger.attach(entry, createAgentStore({ initialState: state }))
    }
    entry.dirty = false
    this.ledger.patch(entry, {
      status: this.ledger.liveStatus(entry), error: undefined,
      ...(record ? { title: record.title, updatedAt: record.updatedAt } : {}),
    })
  }

  /** Another tab saved a conversation: list it, follow it, or show the conflict when this page has changes of its own. */
  followSave(change: Extract<ConversationChange, { type: 'saved' }>): void {
    const checked = checkSummary(change.summary, change.id)
    if (!checked.ok) return
    const incoming = checked.value
    const entry = this.ledger.entries.get(change.id)
    if (!entry) {
      this.ledger.add({ id: incoming.id, title: incoming.title, createdAt: incoming.createdAt, updatedAt: incoming.updatedAt, status: 'idle' }, incoming.revision, incoming.titleSource)
      this.ledger.publish()
      return
    }
    if (incoming.revision <= entry.revision || entry.summary.status === 'error') return
    if (entry.dirty || entry.saving || this.ledger.liveStatus(entry) === 'streaming') {
      this.saver.conflict(entry, incoming.revision)
      return
    }
    if (!entry.store) {
      entry.revision = incoming.revision
      entry.titleSource = incoming.titleSource
      this.ledger.patch(entry, { title: incoming.title, updatedAt: incoming.updatedAt })
      return
    }
    void this.reload(entry)
  }

  /**
   * A record that fails the check: listed as unreadable, with its title when it has
   * a readable one; never drawn, never saved, never written over. A store the page
   * held for it is let go.
   */
  private quarantine(entry: Entry, raw: unknown, error: WeftError): void {
    const store = entry.store
    if (store) {
      entry.unsubscribe?.()
      entry.store = undefined
      entry.dirty = false
      this.detached(entry.id, store)
    }
    entry.revision = -1
    this.ledger.patch(entry, { status: 'error', error, title: readableTitle(raw) ?? entry.summary.title })
  }

  private async stored(entry: Entry): Promise<unknown> {
    try {
      return await this.storage.load(entry.id)
    } catch (thrown) {
      this.ledger.patch(entry, { status: 'error', error: weftError('internal', `conversation "${entry.id}" could not be read: ${messageOf(thrown)}`) })
      return FAILED
    }
  }
}

const FAILED: unique symbol = Symbol('failed')
