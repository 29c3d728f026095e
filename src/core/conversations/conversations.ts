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
 */
import type { StoreApi } from 'zustand/vanilla'
import { weftError } from '../model/errors'
import { newId } from '../model/ids'
import { defaultResumeStorage } from '../resume/storage'
import type { ResumeStorage } from '../resume/types'
import { createAgentStore, type AgentStore } from '../store/store'
import { Journal } from './journal'
import { Ledger, type Entry, type Removed } from './ledger'
import { Loader } from './loader'
import { rawJson } from './raw-json'
import { checkRecord, stateOf } from './record'
import { messageOf, Saver } from './saver'
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
  private readonly removed = new Map<string, Removed>()
  private readonly removeListeners = new Set<(id: string, store: AgentStore | undefined) => void>()
  private readonly selection: ResumeStorage | undefined
  private readonly selectionKey: string
  private readonly now: () => number
  private readonly cleanups: Array<() => void> = []
  private starting: Promise<void> | undefined

  constructor(options: ConversationsOptions = {}) {
    this.storage = options.storage ?? memoryConversations()
    this.selection = options.selection === false ? undefined : (options.selection ?? defaultResumeStorage())
    this.selectionKey = `weft:conversations:selected:${options.namespace ?? 'default'}`
    this.journal = new Journal(this.selection, `weft:conversations:journal:${options.namespace ?? 'default'}:`)
    this.now = options.now ?? Date.now
    this.ledger = new Ledger(this.now, options.titleLength ?? 60, (entry) => this.saver.schedule(entry))
    this.saver = new Saver(this.ledger, this.storage, this.journal)
    this.loader = new Loader(this.ledger, this.saver, this.journal, this.storage, (id, store) => {
      for (const listener of this.removeListeners) listener(id, store)
    })
    this.state = this.ledger.state
    const watched = this.storage.watch?.((change) => this.onOutsideChange(change))
    if (watched) this.cleanups.push(watched)
    if (options.saveOnHide !== false && typeof addEventListener === 'function' && typeof document !== 'undefined') {
      const onHide = () => {
        this.writeJournal()
        void this.flush()
      }
      const onVisibility = () => {
        if (document.visibilityState === 'hidden') onHide()
      }
      addEventListener('pagehide', onHide)
      document.addEventListener('visibilitychange', onVisibility)
      this.cleanups.push(() => {
        removeEventListener('pagehide', onHide)
        document.removeEventListener('visibilitychange', onVisibility)
      })
    }
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
    const id = options.id ?? newId('chat')
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
      try {
        this.selection?.setItem(this.selectionKey, id)
      } catch {
        // Storage refused (private mode, quota): the selection just won't survive a reload.
      }
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
  async remove(id: string): Promise<boolean> {
    const entry = this.ledger.entries.get(id)
    if (!entry) return false
    const store = entry.store
    this.forget(entry)
    const restorable = entry.summary.status !== 'error'
    if (restorable) {
      this.removed.set(id, {
        summary: { ...entry.summary, status: 'idle' },
        titleSource: entry.titleSource,
        record: store ? this.saver.plainRecord(entry, store.getState(), entry.revision).record : undefined,
      })
    }
    if (!store && restorable) {
      // Never loaded here: keep the stored record itself for an undo.
      const checked = checkRecord(await this.storage.load(id).catch(() => undefined), id)
      const removed = this.removed.get(id)
      if (checked.ok && removed) removed.record = checked.value
    }
    await entry.saving?.catch(() => undefined)
    await this.storage.remove(id)
    return restorable
  }

  /**
   * Undo a `remove`: the conversation comes back with everything it held.
   *
   * @example
   * await conversations.restore(id)
   */
  async restore(id: string): Promise<boolean> {
    const removed = this.removed.get(id)
    if (!removed?.record || this.ledger.entries.has(id)) return false
    this.removed.delete(id)
    const entry = this.ledger.add({ ...removed.summary }, 0, removed.titleSource)
    this.ledger.attach(entry, createAgentStore({ initialState: stateOf(removed.record) }))
    entry.dirty = true
    this.ledger.publish()
    await this.saver.save(entry)
    return true
  }

  /**
   * Settle a conflict: `theirs` loads what the other tab saved; `mine` saves this
   * page's copy over it.
   *
   * @example
   * await conversations.resolveConflict(id, 'theirs')
   */
  async resolveConflict(id: string, keep: 'mine' | 'theirs'): Promise<void> {
    const entry = this.ledger.entries.get(id)
    if (!entry || entry.summary.status !== 'conflict') return
    if (keep === 'theirs') return this.reloadStored(id)
    entry.revision = entry.storedRevision ?? entry.revision
    entry.storedRevision = undefined
    this.ledger.patch(entry, { status: this.ledger.liveStatus(entry), error: undefined })
    this.ledger.touch(entry)
    await this.saver.save(entry)
  }

  /**
   * Save a conversation whose last save failed (`saveError`) now, instead of at its next save point.
   *
   * @example
   * if (summary.saveError) await conversations.retrySave(summary.id)
   */
  async retrySave(id: string): Promise<void> {
    const entry = this.ledger.entries.get(id)
    if (!entry?.store || entry.summary.status === 'error' || entry.summary.status === 'conflict') return
    this.ledger.touch(entry)
    await this.saver.save(entry)
  }

  /**
   * Drop this page's unsaved changes to a conversation and show what is stored
   * (after a failed save, or to take another tab's version in a conflict).
   *
   * @example
   * await conversations.reloadStored(id)
   */
  async reloadStored(id: string): Promise<void> {
    const entry = this.ledger.entries.get(id)
    if (!entry || entry.summary.status === 'error') return
    clearTimeout(entry.timer)
    entry.timer = undefined
    await entry.saving?.catch(() => undefined)
    entry.storedRevision = undefined
    this.ledger.patch(entry, { status: 'loading', error: undefined, saveError: undefined, saveProblem: undefined })
    await this.loader.reload(entry)
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
    this.loader.listed(stored, (id) => this.removed.has(id))
    let chosen: string | undefined
    try {
      chosen = this.selection?.getItem(this.selectionKey) ?? undefined
    } catch {
      chosen = undefined
    }
    if (chosen !== undefined && this.ledger.entries.has(chosen)) {
      await this.select(chosen)
    } else {
      // None remembered, or it is gone (deleted here or in another tab): the newest one that loads,
      // else the first one tried (it shows why it cannot be read), else a new one.
      const candidates = this.ledger.sorted().filter((e) => e.summary.status !== 'error')
      for (const entry of candidates) {
        await this.select(entry.id)
        if (entry.summary.status !== 'error') break
      }
      const readable = candidates.find((e) => e.summary.status !== 'error')
      if (readable) await this.select(readable.id)
      else if (candidates[0]) await this.select(candidates[0].id)
      else if (this.state.getState().selectedId === undefined) this.create()
    }
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
    } else if (!this.removed.has(change.id)) {
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
