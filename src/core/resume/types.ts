/**
 * What a resume strategy is: four answers, one per question a reconnect asks.
 * What counts as the cursor, what to persist, how to ask again, and how to drop
 * what the server sends twice.
 */
import type { ProtocolName, StreamCursor } from '../model/model'
import type { HydratedTurn, Op } from '../model/ops'
import type { SSEFrame } from '../transport/frames'
import type { LedgerView } from './ledger'

/**
 * What every persisted handle carries; each strategy adds its own fields.
 *
 * @example
 * const handle: ResumeHandle = { strategy: 'vocion', turnId: 'turn-1', protocol: 'vocion', count: 12 }
 */
export interface ResumeHandle {
  /** The name of the strategy that wrote it. */
  strategy: string
  /** The assistant turn the stream feeds. */
  turnId: string
  protocol?: ProtocolName
  /** Events folded when the handle was written, counted the strategy's way. */
  count: number
  /**
   * Where the stream's ids are scoped, when it is not the turn's first run (a
   * continuation after a tool's result or a gate's answer), so a re-attach after
   * a reload writes into that run's messages, not the first run's. Set by the client.
   */
  scope?: string
}

/**
 * One event read from a stream, as the de-duplication sees it.
 *
 * @example
 * const item: ReplayItem = { frame: { data: '{"type":"done"}' }, event: { type: 'done' }, json: true, fingerprint: 'k3x9a-15', counted: true }
 */
export interface ReplayItem {
  frame: SSEFrame
  /** The parsed data, when `json` is true. */
  event: unknown
  /** False when the data is not JSON (the decoder reports it as a problem). */
  json: boolean
  /** A hash of the event name and data, to recognise the event when it comes again. */
  fingerprint: string
  /** Whether the event counts in the protocol's cursor (Vocion's `stream_meta` does not). */
  counted: boolean
  /** The event's own identity when the wire gives one: an SSE id, a Yao sequence. */
  key?: string
}

/**
 * How a strategy classifies one event.
 *
 * @example
 * const identity: EventIdentity = { counted: true, key: '42' }
 */
export interface EventIdentity {
  counted: boolean
  key?: string
}

/**
 * What a strategy is told when it builds a handle from the live turn.
 *
 * @example
 * strategy.handle({ turnId, conversationKey: 'chat-1', cursor: store.getState().cursor, ledger, protocol: 'vocion' })
 */
export interface ResumeState<H extends ResumeHandle = ResumeHandle> {
  turnId: string
  /** The host's key for the conversation. */
  conversationKey: string
  /** The store's cursor (fields the decoders set: `streamId`, `sequence`). */
  cursor: StreamCursor
  /** What was folded, in order: the count, keys and fingerprints. */
  ledger: LedgerView
  protocol?: ProtocolName
  /** The URL the turn's stream was first read from. */
  streamUrl?: string
  /** The host's `resumeUrl` option. */
  resumeUrl?: string
  /** The handle written before this one (or read from storage), for fields the live state lost. */
  previous?: H
}

/**
 * What a strategy is told when it builds a reconnect request.
 *
 * @example
 * strategy.request(handle, { conversationKey: 'chat-1', resumeUrl: '/api/resume', fromStart: false })
 */
export interface ResumeRequestContext {
  conversationKey: string
  resumeUrl?: string
  /**
   * Ask for the whole turn: the store holds nothing of it (a real reload), so a
   * replay from the start rebuilds it.
   */
  fromStart: boolean
}

/**
 * The reconnect request a strategy builds. The client adds the host's headers,
 * credentials, fetch and the abort signal.
 *
 * @example
 * const req: ResumeRequest = { url: '/events', lastEventId: 'run_1:0007' }
 */
export interface ResumeRequest {
  url: string
  /** Default `GET`. */
  method?: string
  headers?: HeadersInit
  body?: BodyInit | null
  /** Sent as `Last-Event-ID`. */
  lastEventId?: string
}

/**
 * Drops what a replay repeats. Fed every event of one resumed connection, in
 * order; answers with the events to fold (it may hold some back while it cannot
 * yet tell a repeat from new content).
 *
 * @example
 * for (const item of filter.push(next)) fold(item)
 * for (const item of filter.end(true)) fold(item)
 */
export interface ReplayFilter {
  /** One event in; the events to fold now out. */
  push(item: ReplayItem): ReplayItem[]
  /**
   * The connection ended. `final` when the stream ended normally: what is held
   * is released. Otherwise it is dropped, as the next reconnect asks for it again.
   */
  end(final: boolean): ReplayItem[]
  /** True once the server said nothing more will come (Yao's `read_complete` with `live: false`). */
  readonly settled?: boolean
}

/**
 * What a strategy is told when it builds the filter for one resumed connection.
 *
 * @example
 * strategy.dedupe(ledger, { handle, fromStart: false, report: (m) => console.warn(m) })
 */
export interface DedupeContext<H extends ResumeHandle = ResumeHandle> {
  /** The handle the reconnect request was built from. */
  handle: H
  fromStart: boolean
  /** Record a problem on the turn (e.g. a replay that differs from what was shown). */
  report(message: string): void
}

/**
 * How one protocol resumes a stream. A plain object; hosts can write their own.
 *
 * @example
 * const strategy: ResumeStrategy<MyHandle> = {
 *   name: 'mine', replaysFromStart: true,
 *   identify: () => ({ counted: true }),
 *   handle: ({ turnId, ledger }) => ({ strategy: 'mine', turnId, count: ledger.count }),
 *   request: (h, { resumeUrl, fromStart }) => ({ url: `${resumeUrl}?from=${fromStart ? 0 : h.count}` }),
 *   dedupe: (ledger, { handle, report }) => alignReplay(ledger, { startAt: handle.count, report }),
 *   revive: (value) => (typeof value.count === 'number' ? (value as MyHandle) : undefined),
 * }
 */
export interface ResumeStrategy<H extends ResumeHandle = ResumeHandle> {
  /** Stored in the handle; a handle written by another strategy is ignored. */
  readonly name: string
  /** Whether a reconnect can ask for the whole turn (needed to rebuild it after a real reload). */
  readonly replaysFromStart: boolean
  /** 1. The cursor: whether an event counts, and what identifies it. */
  identify(frame: SSEFrame, event: unknown): EventIdentity
  /** 2. The handle to persist for the turn as it stands; undefined while nothing can be resumed yet. */
  handle(state: ResumeState<H>): H | undefined
  /** 3. The reconnect request. */
  request(handle: H, context: ResumeRequestContext): ResumeRequest
  /** 4. How to drop what the replay repeats. */
  dedupe(ledger: LedgerView, context: DedupeContext<H>): ReplayFilter
  /** Read a stored handle back; undefined when it is not one of this strategy's. */
  revive(value: Record<string, unknown>): H | undefined
}

/**
 * Where handles are kept: `sessionStorage` by default, or anything with the same three methods.
 *
 * @example
 * const storage: ResumeStorage = window.localStorage // survive closing the tab too
 */
export interface ResumeStorage {
  getItem(key: string): string | null
  setItem(key: string, value: string): void
  removeItem(key: string): void
}

/**
 * What a history loader is told.
 *
 * @example
 * const loader: HistoryLoader = async ({ conversationKey, signal }) => fetchTurns(conversationKey, signal)
 */
export interface HistoryContext {
  conversationKey: string
  /** The handle that could not be resumed, if there was one. */
  handle?: ResumeHandle
  /** `expired`: the server no longer knows the stream (404/410). `ended`: it finished while nobody listened. */
  reason: 'expired' | 'ended'
  signal: AbortSignal
}

/**
 * The conversation as the host's history has it: hydrated turns, or ops. An
 * empty answer leaves the store as it is.
 *
 * @example
 * const result: HistoryResult = [{ turn: { id: 't1', role: 'assistant' }, messages: [{ id: 'm1', type: 'text', props: { content: 'Hi' } }] }]
 */
export type HistoryResult = readonly HydratedTurn[] | readonly Op[] | undefined | void

/**
 * Loads the conversation when a stream can no longer be resumed.
 *
 * @example
 * const loadHistory: HistoryLoader = async ({ conversationKey }) => {
 *   const res = await fetch(`/api/history/${conversationKey}`)
 *   return (await res.json()).turns
 * }
 */
export type HistoryLoader = (context: HistoryContext) => HistoryResult | Promise<HistoryResult>

/**
 * Exponential backoff between reconnects: the delay doubles from `baseMs` up to
 * `maxMs`, with jitter so many clients do not come back at the same instant.
 *
 * @example
 * const backoff: BackoffOptions = { baseMs: 250, maxMs: 8000 }
 */
export interface BackoffOptions {
  /** The first delay (default 500 ms). */
  baseMs?: number
  /** The largest delay (default 10 000 ms); a server's `retry:` may ask for more. */
  maxMs?: number
  /** A number in [0, 1) (default `Math.random`). */
  random?: () => number
  /**
   * Waits `ms` before a reconnect; resolves false when `signal` aborts first
   * (default: a timer). Tests pass one that records the delay and resolves at once.
   */
  sleep?: (ms: number, signal: AbortSignal) => Promise<boolean>
}
