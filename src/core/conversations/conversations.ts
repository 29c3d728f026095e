/**
 * Many conversations, each with its own agent store. The list (id, title,
 * updatedAt, status) is a small zustand store of its own, so a token streaming
 * into any conversation never re-renders the list; only a status change does.
 *
 * Saves are throttled to the moments that matter: a run's end, a rename, a
 * removal, and the page going away (`pagehide`, `visibilitychange`). Each save
 * names the revision it builds on; a storage that holds a newer one refuses it,
 * and the conversation shows a conflict instead of overwriting the other tab.
 *
 * A page that goes away cannot wait for an asynchronous save, so it also writes
 * what it has not saved to the tab's session storage synchronously (the journal),
 * next to the resume handles a reload resumes from; the next page load takes the
 * journal over the stored record when nobody saved in between.
 */
import { createStore, type StoreApi } from 'zustand/vanilla'
import { weftError, type WeftError } from '../errors'
import { newId } from '../ids'
import type { AgentState, StreamStatus } from '../model'
import { defaultResumeStorage } from '../resume/storage'
import type { ResumeStorage } from '../resume/types'
import { createAgentStore, type AgentStore, type AgentStoreState } from '../store'
import { checkRecord, checkSummary, conversationRecord, stateOf, type ConversationRecord, type TitleSource } from './record'
import { ConversationConflictError, memoryConversations, type ConversationChange, type ConversationStorage } from './storage'
import { messageTitle, serverTitle, UNTITLED } from './title'

/**
 * Where a conversation stands: `loading` its record, `streaming` (also in the
 * background), `error` (its record cannot be read), `conflict` (another tab
 * saved it while this one had unsaved changes), or `idle`.
 */
export type ConversationStatus = 'idle' | 'loading' | 'streaming' | 'error' | 'conflict'

/**
 * One row of the conversation list.
 *
 * @example
 * const { id, title, updatedAt, status } = useConversations().conversations[0]
 */
export interface ConversationSummary {
  id: string
  title: string
  createdAt: number
  updatedAt: number
  status: ConversationStatus
  /** Why the record cannot be read (`status: 'error'`), or what the other tab did (`status: 'conflict'`). */
  error?: WeftError
  /** The last save failed (a full quota, a closed database); the next save point tries again. */
  saveError?: WeftError
}

/**
 * The list as the React binding reads it.
 *
 * @example
 * conversations.state.getState().selectedId
 */
export interface ConversationsState {
  /** The stored list has been read and the selected conversation loaded. */
  ready: boolean
  /** Newest first. */
  list: ConversationSummary[]
  selectedId?: string
  /** The list itself could not be read. */
  error?: WeftError
}

/**
 * Options of `createConversations`.
 *
 * @example
 * createConversations({ storage: indexedDbConversations(), titleLength: 48 })
 */
export interface ConversationsOptions {
  /** Default `memoryConversations()`. */
  storage?: ConversationStorage
  /** Where the selected id survives a reload (default `sessionStorage`; `false` keeps it nowhere). */
  selection?: ResumeStorage | false
  /** Separates the selection of several conversation lists on one origin. */
  namespace?: string
  /** Longest automatic title (default 60 characters). */
  titleLength?: number
  /** The clock (tests). */
  now?: () => number
  /** Listen to `pagehide` and `visibilitychange` to save (default true in a browser). */
  saveOnHide?: boolean
}

/** The `code` of a conversation's error when another tab saved it first. */
export const CONVERSATION_CONFLICT = 'conversation_conflict'

interface Entry {
  id: string
  summary: ConversationSummary
  titleSource?: TitleSource
  /** The stored revision this page's copy is built on (0: never stored). */
  revision: number
  store?: AgentStore
  loading?: Promise<void>
  /** Changes not yet saved. */
  dirty: boolean
  /** Bumped by every change, so a save knows whether more came in while it ran. */
  changes: number
  saving?: Promise<void>
  timer?: ReturnType<typeof setTimeout>
  storedRevision?: number
  unsubscribe?: () => void
  /** The store is being filled from storage: that is not a change to save. */
  quiet: boolean
}

interface Removed {
  record?: ConversationRecord
  summary: ConversationSummary
  titleSource?: TitleSource
}

const ACTIVE: ReadonlySet<StreamStatus> = new Set<StreamStatus>(['connecting', 'streaming', 'reconnecting'])

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
  private readonly entries = new Map<string, Entry>()
  private readonly removed = new Map<string, Removed>()
  private readonly removeListeners = new Set<(id: string, store: AgentStore | undefined) => void>()
  private readonly selection: ResumeStorage | undefined
  private readonly selectionKey: string
  private readonly journalPrefix: string
  private readonly now: () => number
  private readonly titleLength: number
  private readonly cleanups: Array<() => void> = []
  private starting: Promise<void> | undefined

  constructor(options: ConversationsOptions = {}) {
    this.storage = options.storage ?? memoryConversations()
    this.selection = options.selection === false ? undefined : (options.selection ?? defaultResumeStorage())
    this.selectionKey = `weft:conversations:selected:${options.namespace ?? 'default'}`
    this.journalPrefix = `weft:conversations:journal:${options.namespace ?? 'default'}:`
    this.now = options.now ?? Date.now
    this.titleLength = options.titleLength ?? 60
    this.state = createStore<ConversationsState>()(() => ({ ready: false, list: [] }))
    const watched = this.storage.watch?.((change) => this.onOutsideChange(change))
    if (watched) this.cleanups.push(watched)
    if (options.saveOnHide !== false && typeof addEventListener === 'function' && typeof document !== 'undefined') {
      const onHide = () => {
        this.writeJournal()
        void this.flush()
      }
      const onVisibility = () => {
        if (document.visibilityState !== 'hidden') return
        this.writeJournal()
        void this.flush()
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
    return this.entries.get(id)?.store
  }

  /**
   * Start a conversation, select it and store it. Returns its id.
   *
   * @example
   * const id = conversations.create({ title: 'Planning' })
   */
  create(options: { title?: string; id?: string } = {}): string {
    const id = options.id ?? newId('chat')
    if (this.entries.has(id)) throw new Error(`weft: a conversation "${id}" exists already`)
    const at = this.now()
    const title = options.title?.trim()
    const entry = this.addEntry({ id, title: title || UNTITLED, createdAt: at, updatedAt: at, status: 'idle' }, 0, title ? 'user' : undefined)
    this.attachStore(entry, createAgentStore())
    entry.dirty = true
    this.publish()
    void this.select(id)
    this.scheduleSave(entry)
    return id
  }

  /**
   * Show another conversation. Resolves once its record is loaded (at once when it is).
   *
   * @example
   * await conversations.select(id)
   */
  select(id: string): Promise<void> {
    const entry = this.entries.get(id)
    if (!entry) return Promise.resolve()
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
   * that fails the schema check leaves the conversation in `status: 'error'`.
   */
  load(id: string): Promise<void> {
    const entry = this.entries.get(id)
    if (!entry) return Promise.resolve()
    if (entry.store || entry.summary.status === 'error') return entry.loading ?? Promise.resolve()
    return (entry.loading ??= this.read(entry).finally(() => {
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
    const entry = this.entries.get(id)
    const trimmed = title.trim()
    if (!entry || trimmed === '' || entry.summary.status === 'error') return
    entry.titleSource = 'user'
    this.patch(entry, { title: trimmed, updatedAt: this.now() })
    await this.load(id)
    this.touch(entry)
    await this.saveNow(entry)
  }

  /**
   * Delete a conversation, stopping what streams into it. Resolves true when
   * `restore(id)` can bring it back (its record was readable).
   *
   * @example
   * if (await conversations.remove(id)) showUndo(() => conversations.restore(id))
   */
  async remove(id: string): Promise<boolean> {
    const entry = this.entries.get(id)
    if (!entry) return false
    const store = entry.store
    for (const listener of this.removeListeners) listener(id, store)
    clearTimeout(entry.timer)
    entry.unsubscribe?.()
    this.entries.delete(id)
    this.dropJournal(id)
    const restorable = entry.summary.status !== 'error'
    if (restorable) {
      this.removed.set(id, {
        summary: { ...entry.summary, status: 'idle' },
        titleSource: entry.titleSource,
        record: store ? this.recordOf(entry, store.getState(), entry.revision) : undefined,
      })
    }
    if (this.state.getState().selectedId === id) {
      const next = this.sorted().find((e) => e.summary.status !== 'error') ?? this.sorted()[0]
      this.state.setState({ selectedId: undefined })
      if (next) void this.select(next.id)
      else this.create()
    }
    this.publish()
    if (!store && restorable) {
      // Never loaded here: keep the stored record itself for an undo.
      const raw = await this.storage.load(id).catch(() => undefined)
      const checked = checkRecord(raw, id)
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
    if (!removed?.record || this.entries.has(id)) return false
    this.removed.delete(id)
    const entry = this.addEntry({ ...removed.summary }, 0, removed.titleSource)
    this.attachStore(entry, createAgentStore({ initialState: stateOf(removed.record) }))
    entry.dirty = true
    this.publish()
    await this.saveNow(entry)
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
    const entry = this.entries.get(id)
    if (!entry || entry.summary.status !== 'conflict') return
    if (keep === 'mine') {
      entry.revision = entry.storedRevision ?? entry.revision
      entry.storedRevision = undefined
      this.patch(entry, { status: this.liveStatus(entry), error: undefined })
      this.touch(entry)
      await this.saveNow(entry)
      return
    }
    entry.storedRevision = undefined
    this.patch(entry, { status: 'loading', error: undefined })
    await this.reload(entry)
  }

  /** Save every conversation with unsaved changes now (the page is going away). */
  async flush(): Promise<void> {
    await Promise.all([...this.entries.values()].filter((e) => e.dirty || e.saving).map((e) => this.saveNow(e)))
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
    for (const entry of this.entries.values()) {
      if (!entry.store || !entry.dirty || entry.summary.status === 'error' || entry.summary.status === 'conflict') continue
      const record = this.recordOf(entry, entry.store.getState(), entry.revision)
      try {
        this.selection.setItem(this.journalPrefix + entry.id, JSON.stringify(record))
      } catch {
        // Too big for session storage, or refused: the asynchronous save is all there is.
      }
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
    for (const entry of this.entries.values()) {
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
    for (const { id, summary } of stored) {
      if (this.entries.has(id) || this.removed.has(id)) continue
      const checked = checkSummary(summary, id)
      if (checked.ok) {
        const s = checked.value
        this.addEntry({ id, title: s.title, createdAt: s.createdAt, updatedAt: s.updatedAt, status: 'idle' }, s.revision, s.titleSource)
      } else {
        this.addEntry({ id, title: id, createdAt: 0, updatedAt: 0, status: 'error', error: checked.error }, -1)
      }
    }
    this.publish()
    let chosen: string | undefined
    try {
      chosen = this.selection?.getItem(this.selectionKey) ?? undefined
    } catch {
      chosen = undefined
    }
    const wanted = chosen && this.entries.has(chosen) ? chosen : this.sorted().find((e) => e.summary.status !== 'error')?.id
    if (wanted) await this.select(wanted)
    else if (this.state.getState().selectedId === undefined) this.create()
    this.state.setState({ ready: true })
  }

  private async read(entry: Entry): Promise<void> {
    this.patch(entry, { status: 'loading' })
    let raw: unknown
    try {
      raw = await this.storage.load(entry.id)
    } catch (thrown) {
      this.patch(entry, { status: 'error', error: weftError('internal', `conversation "${entry.id}" could not be read: ${messageOf(thrown)}`) })
      return
    }
    if (!this.entries.has(entry.id) || entry.store) return
    const journal = this.takeJournal(entry.id, raw)
    if (raw === undefined && !journal) {
      // Listed but not stored yet (another tab is still writing it): it starts empty.
      this.attachStore(entry, createAgentStore())
      this.patch(entry, { status: 'idle' })
      return
    }
    const checked = checkRecord(raw, entry.id)
    if (!checked.ok && !journal) {
      entry.revision = -1
      this.patch(entry, { status: 'error', error: checked.error })
      return
    }
    const record = journal ?? (checked as { value: ConversationRecord }).value
    entry.revision = record.revision
    entry.titleSource = record.titleSource
    this.attachStore(entry, createAgentStore({ initialState: stateOf(record) }))
    this.patch(entry, { status: this.liveStatus(entry), title: record.title, updatedAt: record.updatedAt, error: undefined })
    if (journal) {
      // What the last page could not save: save it now.
      this.touch(entry)
      this.scheduleSave(entry)
    }
  }

  /**
   * The journal this tab wrote for a conversation, when it builds on the stored
   * revision (nobody saved since) and passes the schema check. It is read once.
   */
  private takeJournal(id: string, raw: unknown): ConversationRecord | undefined {
    if (!this.selection) return undefined
    let text: string | null = null
    try {
      text = this.selection.getItem(this.journalPrefix + id)
      this.selection.removeItem(this.journalPrefix + id)
    } catch {
      return undefined
    }
    if (!text) return undefined
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch {
      return undefined
    }
    const checked = checkRecord(parsed, id)
    if (!checked.ok) return undefined
    const stored = checkSummary(raw, id)
    const storedRevision = raw === undefined ? 0 : stored.ok ? stored.value.revision : -1
    return checked.value.revision === storedRevision ? checked.value : undefined
  }

  /** Replace the page's copy with the stored one (another tab saved it). */
  private async reload(entry: Entry): Promise<void> {
    const checked = checkRecord(await this.storage.load(entry.id).catch(() => undefined), entry.id)
    if (!checked.ok) {
      this.patch(entry, { status: 'error', error: checked.error })
      return
    }
    const record = checked.value
    entry.revision = record.revision
    entry.titleSource = record.titleSource
    if (entry.store) {
      entry.quiet = true
      try {
        entry.store.getState().reset({ ...stateOf(record), status: entry.store.getState().status })
      } finally {
        entry.quiet = false
      }
    } else {
      this.attachStore(entry, createAgentStore({ initialState: stateOf(record) }))
    }
    entry.dirty = false
    this.patch(entry, { status: this.liveStatus(entry), title: record.title, updatedAt: record.updatedAt, error: undefined })
  }

  private onOutsideChange(change: ConversationChange): void {
    if (change.type === 'removed') {
      const entry = this.entries.get(change.id)
      if (!entry) return
      for (const listener of this.removeListeners) listener(change.id, entry.store)
      clearTimeout(entry.timer)
      entry.unsubscribe?.()
      this.entries.delete(change.id)
      if (this.state.getState().selectedId === change.id) {
        const next = this.sorted()[0]
        this.state.setState({ selectedId: undefined })
        if (next) void this.select(next.id)
        else this.create()
      }
      this.publish()
      return
    }
    const checked = checkSummary(change.summary, change.id)
    if (!checked.ok || this.removed.has(change.id)) return
    const incoming = checked.value
    const entry = this.entries.get(change.id)
    if (!entry) {
      this.addEntry({ id: incoming.id, title: incoming.title, createdAt: incoming.createdAt, updatedAt: incoming.updatedAt, status: 'idle' }, incoming.revision, incoming.titleSource)
      this.publish()
      return
    }
    if (incoming.revision <= entry.revision || entry.summary.status === 'error') return
    if (entry.dirty || entry.saving || this.liveStatus(entry) === 'streaming') {
      this.conflict(entry, incoming.revision)
      return
    }
    if (!entry.store) {
      entry.revision = incoming.revision
      entry.titleSource = incoming.titleSource
      this.patch(entry, { title: incoming.title, updatedAt: incoming.updatedAt })
      return
    }
    void this.reload(entry)
  }

  private conflict(entry: Entry, storedRevision: number): void {
    entry.storedRevision = storedRevision
    clearTimeout(entry.timer)
    this.patch(entry, {
      status: 'conflict',
      error: weftError('validation', 'another tab saved this conversation while this one had changes; keep one of the two', {
        code: CONVERSATION_CONFLICT, retryable: false,
      }),
    })
  }

  private addEntry(summary: ConversationSummary, revision: number, titleSource?: TitleSource): Entry {
    const entry: Entry = { id: summary.id, summary, revision, titleSource, dirty: false, changes: 0, quiet: false }
    this.entries.set(entry.id, entry)
    return entry
  }

  private attachStore(entry: Entry, store: AgentStore): void {
    entry.store = store
    entry.unsubscribe = store.subscribe((next, previous) => this.onStoreChange(entry, next, previous))
  }

  private onStoreChange(entry: Entry, next: AgentStoreState, previous: AgentStoreState): void {
    if (entry.quiet) return
    entry.dirty = true
    entry.changes += 1
    // A token changes neither the list of turns nor the stream's status: the list stays as it is.
    if (next.status === previous.status && next.turnIds === previous.turnIds) return
    const patch: Partial<ConversationSummary> = { updatedAt: this.now() }
    const status = this.liveStatus(entry)
    if (entry.summary.status !== 'conflict' && entry.summary.status !== 'error') patch.status = status
    const title = this.autoTitle(entry, next)
    if (title !== undefined) patch.title = title
    this.patch(entry, patch)
    if (status !== 'streaming') this.scheduleSave(entry)
  }

  private autoTitle(entry: Entry, state: AgentState): string | undefined {
    if (entry.titleSource === 'user') return undefined
    const fromServer = serverTitle(state)
    if (fromServer !== undefined) {
      entry.titleSource = 'server'
      return fromServer === entry.summary.title ? undefined : fromServer
    }
    if (entry.titleSource === 'server' || entry.summary.title !== UNTITLED) return undefined
    const fromMessage = messageTitle(state, this.titleLength)
    if (fromMessage === undefined) return undefined
    entry.titleSource = 'message'
    return fromMessage
  }

  private liveStatus(entry: Entry): ConversationStatus {
    const status = entry.store?.getState().status
    return status !== undefined && ACTIVE.has(status) ? 'streaming' : 'idle'
  }

  private touch(entry: Entry): void {
    entry.dirty = true
    entry.changes += 1
  }

  /** Coalesce the saves one moment asks for into one. */
  private scheduleSave(entry: Entry): void {
    if (entry.timer !== undefined) return
    entry.timer = setTimeout(() => {
      entry.timer = undefined
      void this.saveNow(entry)
    }, 0)
  }

  private saveNow(entry: Entry): Promise<void> {
    clearTimeout(entry.timer)
    entry.timer = undefined
    if (entry.saving) {
      // One save at a time per conversation; what changed meanwhile goes in the next one.
      return entry.saving.then(() => (entry.dirty ? this.saveNow(entry) : undefined))
    }
    if (!entry.dirty || !entry.store || !this.entries.has(entry.id)) return Promise.resolve()
    if (entry.summary.status === 'error' || entry.summary.status === 'conflict') return Promise.resolve()
    const changes = entry.changes
    const record = this.recordOf(entry, entry.store.getState(), entry.revision + 1)
    const work = this.storage.save(record, { expectedRevision: entry.revision }).then(
      () => {
        entry.revision = record.revision
        if (entry.changes === changes) entry.dirty = false
        this.dropJournal(entry.id)
        if (entry.summary.saveError) this.patch(entry, { saveError: undefined })
      },
      (thrown: unknown) => {
        if (thrown instanceof ConversationConflictError) this.conflict(entry, thrown.storedRevision)
        else this.patch(entry, { saveError: weftError('internal', `conversation "${entry.id}" could not be saved: ${messageOf(thrown)}`) })
      },
    ).finally(() => {
      entry.saving = undefined
    })
    entry.saving = work
    return work
  }

  private dropJournal(id: string): void {
    try {
      this.selection?.removeItem(this.journalPrefix + id)
    } catch {
      // Nothing to do: a stale journal names an older revision and is ignored.
    }
  }

  private recordOf(entry: Entry, state: AgentState, revision: number): ConversationRecord {
    const { title, createdAt, updatedAt } = entry.summary
    return conversationRecord({ id: entry.id, title, createdAt, updatedAt, revision, ...(entry.titleSource ? { titleSource: entry.titleSource } : {}) }, state)
  }

  private patch(entry: Entry, patch: Partial<ConversationSummary>): void {
    const next = { ...entry.summary, ...patch }
    if (next.error === undefined) delete next.error
    if (next.saveError === undefined) delete next.saveError
    entry.summary = next
    if (this.entries.get(entry.id) === entry) this.publish()
  }

  private sorted(): Entry[] {
    return [...this.entries.values()].sort((a, b) => b.summary.updatedAt - a.summary.updatedAt || b.summary.createdAt - a.summary.createdAt)
  }

  private publish(): void {
    this.state.setState({ list: this.sorted().map((e) => e.summary) })
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

function messageOf(thrown: unknown): string {
  return thrown instanceof Error ? thrown.message : String(thrown)
}
