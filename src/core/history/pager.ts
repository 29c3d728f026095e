/**
 * Older history, page by page, into a store: the newest page first, then each
 * older one on demand (scrolling up). One page loads at a time; a failure is
 * kept in `status.error` and loading again retries that page. Every protocol's
 * history goes through this one pager (AG-UI's `AgUiHistory` is one).
 */
import { toWeftError, weftError, WeftStreamError, type WeftError } from '../model/errors'
import type { AgentState } from '../model/model'
import type { Op } from '../model/ops'
import type { HistoryReader } from '../protocol/types'
import type { AgentStore } from '../store/store'
import { historyOps, type HistoryBatch } from './merge'

/**
 * One page as a source hands it over: the document the server returned (read by
 * the pager's protocol reader), a batch (merged with de-duplication) or the ops
 * for the store's current state; and where the next older page starts.
 *
 * @example
 * const page: HistoryPageResult<number> = { data: await res.json(), next: 40, hasMore: true }
 */
export interface HistoryPageResult<C> {
  /** What the protocol's back end stored, as it came: the pager's `read` (a protocol's `history` slot) turns it into ops. */
  data?: unknown
  batch?: HistoryBatch
  /** For sources that merge for themselves (AG-UI matches runs the store already shows). */
  ops?: (state: AgentState) => Op[]
  /** The cursor that asks for the next older page. */
  next?: C
  hasMore: boolean
}

/**
 * Fetch one page: `before` is undefined for the newest one.
 *
 * @example
 * const source: HistorySource<string> = async (before, signal) => {
 *   const res = await fetch(`/api/chats/1/messages${before ? `?before=${before}` : ''}`, { signal })
 *   const { messages, cursor } = await res.json()
 *   return { batch: uiMessageHistory(messages), next: cursor, hasMore: Boolean(cursor) }
 * }
 */
export type HistorySource<C> = (before: C | undefined, signal: AbortSignal) => Promise<HistoryPageResult<C>>

/**
 * Where paging stands.
 *
 * @example
 * const { hasMore, loading, error, pages } = pager.status
 */
export interface HistoryStatus<C = unknown> {
  hasMore: boolean
  loading: boolean
  error?: WeftError
  /** Pages loaded so far. */
  pages: number
  /** The cursor of the next older page. */
  cursor?: C
}

/**
 * Loads a conversation's history into a store page by page.
 *
 * @example
 * const pager = new HistoryPager(store, async (before) => ({ batch: vocionHistory(await load(before)), hasMore: false }))
 * await pager.loadFirst()
 */
export class HistoryPager<C = unknown, S extends HistoryStatus<C> = HistoryStatus<C>> {
  protected source: HistorySource<C>
  protected readonly store: AgentStore
  /** Reads a page's `data` (a protocol's `history` slot). */
  protected read: HistoryReader | undefined
  private current: S
  private inFlight: Promise<void> | undefined
  private readonly listeners = new Set<() => void>()
  private controller: AbortController | undefined

  constructor(store: AgentStore, source: HistorySource<C>, read?: HistoryReader) {
    this.store = store
    this.source = source
    this.read = read
    this.current = this.describe({ hasMore: true, loading: false, pages: 0 })
  }

  /** Where loading stands; a new object after every change. */
  get status(): S {
    return this.current
  }

  /** Replace the source (fresh headers, a new fetch); the pages loaded stay. */
  setSource(source: HistorySource<C>): void {
    this.source = source
  }

  /** Be told when `status` changes; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** Load the newest page unless a page was loaded or is loading. */
  loadFirst(): Promise<void> {
    if (this.inFlight) return this.inFlight
    if (this.current.pages > 0) return Promise.resolve()
    return this.loadOlder()
  }

  /** Load the next older page (the newest first). Never rejects: a failure lands in `status.error`. */
  loadOlder(): Promise<void> {
    if (this.inFlight) return this.inFlight
    if (!this.current.hasMore) return Promise.resolve()
    const before = this.current.pages > 0 ? this.current.cursor : undefined
    const controller = (this.controller = new AbortController())
    this.update({ loading: true, error: undefined })
    const work: Promise<void> = this.fetchPage(before, controller).finally(() => {
      if (this.inFlight === work) this.inFlight = undefined
    })
    this.inFlight = work
    return work
  }

  /** Abort a page in flight; a later `loadOlder` asks for it again. */
  dispose(): void {
    this.controller?.abort()
    this.controller = undefined
    this.inFlight = undefined
    if (this.current.loading) this.update({ loading: false })
  }

  /** Adds a subclass's own fields to each status. */
  protected describe(status: HistoryStatus<C>): S {
    return status as S
  }

  private async fetchPage(before: C | undefined, controller: AbortController): Promise<void> {
    try {
      const page = await this.source(before, controller.signal)
      if (this.controller !== controller) return
      const state = this.store.getState()
      const ops = page.ops ? page.ops(state) : page.batch ? historyOps(page.batch, state) : page.data !== undefined ? this.readData(page.data, state) : []
      state.dispatch(ops)
      const cursor = page.next ?? this.current.cursor
      this.update({ loading: false, pages: this.current.pages + 1, cursor, hasMore: page.hasMore && page.next !== undefined })
    } catch (thrown) {
      if (this.controller !== controller) return
      if (controller.signal.aborted) this.update({ loading: false })
      else this.update({ loading: false, error: toWeftError(thrown, 'network') })
    }
  }

  private readData(data: unknown, state: AgentState): Op[] {
    if (!this.read) throw new WeftStreamError(weftError('validation', 'a history page brought `data` but the pager has no protocol to read it with'))
    return this.read(data, { state })
  }

  private update(patch: Partial<HistoryStatus<C>>): void {
    const next: HistoryStatus<C> = { ...this.current, ...patch }
    if (next.error === undefined) delete next.error
    this.current = this.describe(next)
    for (const listener of this.listeners) listener()
  }
}
