/**
 * The conversations a page knows and the list it publishes. The list (id, title,
 * updatedAt, status) is a small zustand store of its own, so a token streaming
 * into any conversation never re-renders the list; only a turn or status change does.
 */
import { createStore, type StoreApi } from 'zustand/vanilla'
import type { AgentState, StreamStatus } from '../model/model'
import type { AgentStore, AgentStoreState } from '../store/store'
import type { ConversationRecord, TitleSource } from './record'
import { messageTitle, serverTitle, UNTITLED } from './title'
import type { ConversationStatus, ConversationsState, ConversationSummary } from './types'

/** One conversation as this page holds it. */
export interface Entry {
  id: string
  summary: ConversationSummary
  titleSource?: TitleSource
  /** The stored revision this page's copy is built on (0: never stored; -1: the stored one is unreadable). */
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

/** A conversation removed on this page, kept for an undo. */
export interface Removed {
  record?: ConversationRecord
  summary: ConversationSummary
  titleSource?: TitleSource
}

const ACTIVE: ReadonlySet<StreamStatus> = new Set<StreamStatus>(['connecting', 'streaming', 'reconnecting'])

/**
 * The entries and the published list.
 *
 * @example
 * const ledger = new Ledger(Date.now, 60, (entry) => saver.schedule(entry))
 */
export class Ledger {
  readonly entries = new Map<string, Entry>()
  readonly state: StoreApi<ConversationsState>

  /** `settled`: a run ended in a conversation (its stream left streaming), the moment to save it. */
  constructor(private readonly now: () => number, private readonly titleLength: number, private readonly settled: (entry: Entry) => void) {
    this.state = createStore<ConversationsState>()(() => ({ ready: false, list: [] }))
  }

  add(summary: ConversationSummary, revision: number, titleSource?: TitleSource): Entry {
    const entry: Entry = { id: summary.id, summary, revision, titleSource, dirty: false, changes: 0, quiet: false }
    this.entries.set(entry.id, entry)
    return entry
  }

  attach(entry: Entry, store: AgentStore): void {
    entry.store = store
    entry.unsubscribe = store.subscribe((next, previous) => this.onStoreChange(entry, next, previous))
  }

  /** Forget an entry: its timer and its store's subscription go with it. */
  drop(entry: Entry): void {
    clearTimeout(entry.timer)
    entry.timer = undefined
    entry.unsubscribe?.()
    this.entries.delete(entry.id)
  }

  patch(entry: Entry, patch: Partial<ConversationSummary>): void {
    const next = { ...entry.summary, ...patch }
    if (next.error === undefined) delete next.error
    if (next.saveError === undefined) delete next.saveError
    if (next.saveProblem === undefined) delete next.saveProblem
    entry.summary = next
    if (this.entries.get(entry.id) === entry) this.publish()
  }

  touch(entry: Entry): void {
    entry.dirty = true
    entry.changes += 1
  }

  liveStatus(entry: Entry): ConversationStatus {
    const status = entry.store?.getState().status
    return status !== undefined && ACTIVE.has(status) ? 'streaming' : 'idle'
  }

  /** Newest first. */
  sorted(): Entry[] {
    return [...this.entries.values()].sort((a, b) => b.summary.updatedAt - a.summary.updatedAt || b.summary.createdAt - a.summary.createdAt)
  }

  /** What to show when the shown conversation goes: the newest one that can be read, else the newest. */
  fallback(): Entry | undefined {
    const sorted = this.sorted()
    return sorted.find((e) => e.summary.status !== 'error') ?? sorted[0]
  }

  publish(): void {
    this.state.setState({ list: this.sorted().map((e) => e.summary) })
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
    if (status !== 'streaming') this.settled(entry)
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
}
