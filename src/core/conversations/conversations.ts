/**
 * Many conversations, each with its own agent store. The list is published by
 * the ledger (`ledger.ts`), saves go through the saver (`saver.ts`), and what a
 * page could not save when it went away waits in the journal (`journal.ts`).
 *
 * Saves are throttled to the moments that matter: a run's end, a rename, a
 * removal, and the page going away (`pagehide`, `visibilitychange`). Each save
 * names the revision it builds on; a storage that holds another one refuses it,
 * and the conversation shows a conflict instead of overwriting the other tab.
 *
 * A record that fails the check on load is quarantined: listed as unreadable,
 * exportable as it is stored (`exportRaw`), deletable, never drawn and never
 * written over.
 *
 * What a removal keeps for an undo is in `removals.ts`, the ways out of a failed
 * or conflicting save in `save-recovery.ts`, the selection a reload comes back to
 * in `selection-memory.ts`, and the conversation a page starts on in `startup.ts`.
 */
import type { StoreApi } from 'zustand/vanilla'
import { weftError } from '../model/errors'
import { newId } from '../model/ids'
import { defaultResumeStorage } from '../resume/storage'
import type { ResumeStorage } from '../resume/types'
import { createAgentStore, type AgentStore } from '../store/store'
import { Journal } from './journal'
import { Ledger, type Entry } from './ledger'
import { Loader } from './loader'
import { watchPageHide } from './page-hide'
import { rawJson } from './raw-json'
import { Removals } from './removals'
import { SaveRecovery } from './save-recovery'
import { messageOf, Saver } from './saver'
import { SelectionMemory } from './selection-memory'
import { selectOnStart } from './startup'
import { memoryConversations, type ConversationChange, type ConversationStorage } from './storage'
import { UNTITLED } from './title'
import type { ConversationsOptions, ConversationsState, ConversationSummary } from './types'

export {
  CONVERSATION_CONFLICT, CONVERSATION_NOT_DATA, CONVERSATION_QUOTA_EXCEEDED, CONVERSATION_RENDER_FAILED, CONVERSATION_SAVE_FAILED,
  type ConversationStatus, type ConversationSummary, type ConversationsOptions, type ConversationsState,
} from './types'

/**
 * Many conversations, persisted. Framework-free: `weft/react`'s
 * `ConversationsProvider` and `useConversations` bind it to React.
 *
 * @example
 * const conversations = createConversations({ storage: indexedDbConversations() })
 * await conversations.ready()
 * const id = conversations.create()
 * conversations.storeOf(id)?.getState().turnIds
 */
export class Conversations {
  /** The list, for subscribers. */
  readonly state: StoreApi<ConversationsState>
  readonly storage: ConversationStorage
  private readonly ledger: Ledger
  private readonly saver: Saver
  private readonly journal: Journal
  private readonly loader: Loader
  private readonly removals: Removals
  private readonly recovery: SaveRecovery
  private readonly removeListeners = new Set<(id: string, store: AgentStore | undefined) => void>()
  private readonly selection: ResumeStorage | undefined
  private readonly memory: SelectionMemory
  private readonly now: () => number
  private readonly cleanups: Array<() => void> = []
  private starting: Promise<void> | undefined

  constructor(options: ConversationsOptions = {}) {
    this.storage = options.storage ?? memoryConversations()
    this.selection = options.selection === false ? undefined : (options.selection ?? defaultResumeStorage())
    this.memory = new SelectionMemory(this.selection, `weft:conversations:selected:${options.namespace ?? 'default'}`)
    this.journal = new Journal(this.selection, `weft:conversations:journal:${options.namespace ?? 'default'}:`)
    this.now = options.now ?? Date.now
    this.ledger = new Ledger(this.now, options.titleLength ?? 60, (entry) => this.saver.schedule(entry))
    this.saver = new Saver(this.ledger, this.storage, this.journal)
    this.loader = new Loader(this.ledger, this.saver, this.journal, this.storage, (id, store) => {
      for (const listener of this.removeListeners) listener(id, store)
    })
    this.removals = new Removals(this.ledger, this.saver, this.storage)
    this.recovery = new SaveRecovery(this.ledger, this.saver, this.loader)
    this.state = this.ledger.state
    const watched = this.storage.watch?.((change) => this.onOutsideChange(change))
    if (watched) this.cleanups.push(watched)
    const unwatch = options.saveOnHide === false ? undefined : watchPageHide(() => {
      this.writeJournal()
      void this.flush()
    })
    if (unwatch) this.cleanups.push(unwatch)
  }

  /**
   * Read the stored list, restore the selection (or pick the newest, or start a
   * new conversation when there is none) and load the selected one. Idempotent.
   */
  ready(): Promise<void> {
    return (this.starting ??= this.start())
  }

  /** The list, newest first. */
  list(): ConversationSummary[] {
    return this.state.getState().list
  }

  get selectedId(): string | undefined {
    return this.state.getState().selectedId
  }

  /** The agent store of a conversation loaded (or being loaded) on this page. */
  storeOf(id: string): AgentStore | undefined {
    return this.ledger.entries.get(id)?.store
  }

  /**
   * Start a conversation, select it and store it. Returns its id.
   *
   * @example
   * const id = conversations.create({ title: 'Planning' })
   */
  create(options: { title?: string; id?: string } = {}): string {
    const id = options.id ?? this.storage.createId?.() ?? newId('chat')
    if (this.ledger.entries.has(id)) throw new Error(`weft: a conversation "${id}" exists already`)
    const at = this.now()
    const title = options.title?.trim()
    const entry = this.ledger.add({ id, title: title || UNTITLED, createdAt: at, updatedAt: at, status: 'idle' }, 0, title ? 'user' : undefined)
    this.ledger.attach(entry, createAgentStore())
    entry.dirty = true
    this.ledger.publish()
    void this.select(id)
    this.saver.schedule(entry)
    return id
  }

  /**
   * Show another conversation. Resolves once its record is loaded (at once when it is).
   *
   * @example
   * await conversations.select(id)
   */
  select(id: string): Promise<void> {
    if (!this.ledger.entries.has(id)) return Promise.resolve()
    if (this.state.getState().selectedId !== id) {
      this.state.setState({ selectedId: id })
      this.memory.remember(id)
    }
    return this.load(id)
  }

  /**
   * Load a conversation's record into its store (selecting does this). A record
   * that fails the check is quarantined: `status: 'error'`, with the reason.
   */
  load(id: string): Promise<void> {
    const entry = this.ledger.entries.get(id)
    if (!entry) return Promise.resolve()
    if (entry.store || entry.summary.status === 'error') return entry.loading ?? Promise.resolve()
    return (entry.loading ??= this.loader.read(entry).finally(() => {
      entry.loading = undefined
    }))
  }

  /**
   * Give a conversation a title of the user's or host's; automatic titles never replace it.
   *
   * @example
   * await conversations.rename(id, 'Lisbon trip')
   */
  async rename(id: string, title: string): Promise<void> {
    const entry = this.ledger.entries.get(id)
    const trimmed = title.trim()
    if (!entry || trimmed === '' || entry.summary.status === 'error') return
    entry.titleSource = 'user'
    this.ledger.patch(entry, { title: trimmed, updatedAt: this.now() })
    await this.load(id)
    this.ledger.touch(entry)
    await this.saver.save(entry)
  }

  /**
   * Delete a conversation, stopping what streams into it. Resolves true when
   * `restore(id)` can bring it back (its record was readable). A quarantined
   * conversation is deleted for good.
   *
   * @example
   * if (await conversations.remove(id)) showUndo(() => conversations.restore(id))
   */
  remove(id: string): Promise<boolean> {
    const entry = this.ledger.entries.get(id)
    if (!entry) return Promise.resolve(false)
    return this.removals.remove(entry, (gone) => this.forget(gone))
  }

  /**
   * Undo a `remove`: the conversation comes back with everything it held.
   *
   * @example
   * await conversations.restore(id)
   */
  restore(id: string): Promise<boolean> {
    return this.removals.restore(id)
  }

  /**
   * Settle a conflict: `theirs` loads what the other tab saved; `mine` saves this
   * page's copy over it.
   *
   * @example
   * await conversations.resolveConflict(id, 'theirs')
   */
  resolveConflict(id: string, keep: 'mine' | 'theirs'): Promise<void> {
    return this.recovery.resolveConflict(id, keep)
  }

  /**
   * Save a conversation whose last save failed (`saveError`) now, instead of at its next save point.
   *
   * @example
   * if (summary.saveError) await conversations.retrySave(summary.id)
   */
  retrySave(id: string): Promise<void> {
    return this.recovery.retrySave(id)
  }

  /**
   * Drop this page's unsaved changes to a conversation and show what is stored
   * (after a failed save, or to take another tab's version in a conflict).
   *
   * @example
   * await conversations.reloadStored(id)
   */
  reloadStored(id: string): Promise<void> {
    return this.recovery.reloadStored(id)
  }

  /**
   * A conversation's record exactly as stored, as indented JSON text (its summary
   * when no record is stored; `undefined` when neither is), for a person to keep a
   * quarantined conversation before deleting it. Values JSON cannot hold are
   * written as tags (`{ "$bigint": "1" }`). Never rejects.
   *
   * @example
   * const json = await conversations.exportRaw(id)
   */
  async exportRaw(id: string): Promise<string | undefined> {
    let raw = await this.storage.load(id).catch(() => undefined)
    if (raw === undefined) raw = (await this.storage.list().catch(() => [])).find((stored) => stored.id === id)?.summary
    return raw === undefined ? undefined : rawJson(raw)
  }

  /** Save every conversation with unsaved changes now (the page is going away). */
  async flush(): Promise<void> {
    await Promise.all([...this.ledger.entries.values()].filter((e) => e.dirty || e.saving).map((e) => this.saver.save(e)))
  }

  /**
   * Write every conversation with unsaved changes to the tab's session storage,
   * synchronously (the page is going away and an asynchronous save may not finish).
   * The next load of that conversation in this tab takes it over the stored record
   * when the record is still the revision it was built on. `pagehide` and a hidden
   * page call it.
   *
   * @example
   * addEventListener('beforeunload', () => conversations.writeJournal())
   */
  writeJournal(): void {
    if (!this.selection) return
    for (const entry of this.ledger.entries.values()) {
      if (!entry.store || !entry.dirty || entry.summary.status === 'error' || entry.summary.status === 'conflict') continue
      this.journal.write(this.saver.plainRecord(entry, entry.store.getState(), entry.revision).record)
    }
  }

  /** Be told when a conversation is removed (the React binding stops its stream). */
  onRemove(listener: (id: string, store: AgentStore | undefined) => void): () => void {
    this.removeListeners.add(listener)
    return () => this.removeListeners.delete(listener)
  }

  /** Stop listening to the page and to other tabs. Unsaved changes are saved first. */
  async dispose(): Promise<void> {
    await this.flush()
    for (const cleanup of this.cleanups.splice(0)) cleanup()
    for (const entry of this.ledger.entries.values()) {
      clearTimeout(entry.timer)
      entry.unsubscribe?.()
    }
  }

  private async start(): Promise<void> {
    let stored: Awaited<ReturnType<ConversationStorage['list']>> = []
    try {
      stored = await this.storage.list()
    } catch (thrown) {
      this.state.setState({ error: weftError('internal', `the conversation list could not be read: ${messageOf(thrown)}`) })
    }
    this.loader.listed(stored, (id) => this.removals.has(id))
    await selectOnStart(this.ledger, this.memory.recall(), this)
    this.state.setState({ ready: true })
  }

  /** Take a conversation off this page: its stream stops, its journal goes, and the selection moves on. */
  private forget(entry: Entry): void {
    for (const listener of this.removeListeners) listener(entry.id, entry.store)
    this.ledger.drop(entry)
    this.journal.drop(entry.id)
    if (this.state.getState().selectedId === entry.id) {
      const next = this.ledger.fallback()
      this.state.setState({ selectedId: undefined })
      if (next) void this.select(next.id)
      else this.create()
    }
    this.ledger.publish()
  }

  private onOutsideChange(change: ConversationChange): void {
    const entry = this.ledger.entries.get(change.id)
    if (change.type === 'removed') {
      if (entry) this.forget(entry)
    } else if (!this.removals.has(change.id)) {
      this.loader.followSave(change)
    }
  }
}

/**
 * A conversation store.
 *
 * @example
 * const conversations = createConversations({ storage: indexedDbConversations() })
 * await conversations.ready()
 */
export function createConversations(options: ConversationsOptions = {}): Conversations {
  return new Conversations(options)
}
