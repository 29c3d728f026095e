/**
 * AG-UI history: `GET <historyUrl>?before=YYYY-MM-DD` answers one day of the
 * conversation as plain JSON, `{scope, threadId, day, hasMore, messages}`, the
 * messages sorted by `seq`. A page becomes one `hydrate` op placed before what
 * the store holds; messages the store already has (by id, tool messages by
 * their `toolCallId`) are left as they are, so history and events never show
 * one message twice.
 */
import { type AgentState, type AgentStore, type HydratedTurn, type Op, weftError, type WeftError, WeftStreamError } from '../../core/index'
import { fetchJSON, HistoryPager, type HistoryStatus, isRecord, messageIn, own, quote, safeJson, toWeftError } from '../../protocol-kit/index'
import { readAgUiMessage, type MessagePart } from './messages'

/**
 * One page of history, as the server sends it.
 *
 * @example
 * const page: AgUiHistoryPage = { scope: 'history_day', threadId: 't1', day: '2026-03-16', hasMore: true, messages: [] }
 */
export interface AgUiHistoryPage {
  scope?: string
  threadId?: string
  /** The day this page covers; the next (older) page is asked for with `before` set to it. */
  day?: string
  hasMore: boolean
  messages: unknown[]
}

/**
 * Where the history lives and how to ask for it.
 *
 * @example
 * const options: AgUiHistoryOptions = { historyUrl: '/api/v1/agent/history', credentials: 'include' }
 */
export interface AgUiHistoryOptions {
  historyUrl: string
  headers?: HeadersInit | (() => HeadersInit)
  credentials?: RequestCredentials
  /** Replaces the global `fetch`. */
  fetch?: typeof fetch
}

/**
 * Where loading stands.
 *
 * @example
 * const { hasMore, loading, error } = history.status
 */
export interface AgUiHistoryStatus extends HistoryStatus<string> {
  /** The oldest day loaded so far (the pager's cursor). */
  day?: string
}

/**
 * The URL of one page: `before` is added to the query (`YYYY-MM-DD`, older than that day).
 *
 * @example
 * agUiHistoryUrl('/api/v1/agent/history', '2026-03-16') // '/api/v1/agent/history?before=2026-03-16'
 */
export function agUiHistoryUrl(historyUrl: string, before?: string): string {
  if (before === undefined) return historyUrl
  const hashAt = historyUrl.indexOf('#')
  const base = hashAt >= 0 ? historyUrl.slice(0, hashAt) : historyUrl
  const joiner = base.includes('?') ? (base.endsWith('?') || base.endsWith('&') ? '' : '&') : '?'
  return `${base}${joiner}before=${encodeURIComponent(before)}`
}

/**
 * Fetch one page. Rejects with a `WeftStreamError` (typed as for streams) when
 * the request fails or the answer is not a history page.
 *
 * @example
 * const page = await fetchAgUiHistory({ historyUrl: '/api/v1/agent/history' }, '2026-03-16')
 */
export async function fetchAgUiHistory(options: AgUiHistoryOptions, before?: string, signal?: AbortSignal): Promise<AgUiHistoryPage> {
  const headers = typeof options.headers === 'function' ? options.headers() : options.headers
  const { data } = await fetchJSON<unknown>({
    url: agUiHistoryUrl(options.historyUrl, before), method: 'GET', headers, credentials: options.credentials, signal, fetch: options.fetch,
  })
  const page = readAgUiHistoryPage(data)
  if (!page) throw new WeftStreamError(notAPage(data))
  return page
}

/**
 * A history document read as a page, or `undefined` when it has no `messages` list.
 *
 * @example
 * readAgUiHistoryPage({ day: '2026-03-16', hasMore: true, messages: [] })?.hasMore // true
 */
export function readAgUiHistoryPage(data: unknown): AgUiHistoryPage | undefined {
  if (!isRecord(data) || !Array.isArray(data.messages)) return undefined
  return {
    scope: typeof data.scope === 'string' ? data.scope : undefined,
    threadId: typeof data.threadId === 'string' ? data.threadId : undefined,
    day: typeof data.day === 'string' ? data.day : undefined,
    hasMore: data.hasMore === true,
    messages: data.messages,
  }
}

/**
 * AG-UI's history reader: one page document into ops (see `agUiHistoryOps`);
 * a document that is not a page is one `problem` op.
 *
 * @example
 * store.getState().dispatch(readAgUiHistory(await res.json(), { state: store.getState() }))
 */
export function readAgUiHistory(data: unknown, context: { state: AgentState }): Op[] {
  const page = readAgUiHistoryPage(data)
  return page ? agUiHistoryOps(page, context.state) : [{ op: 'problem', error: notAPage(data) }]
}

function notAPage(data: unknown): WeftError {
  return weftError('protocol', 'the history answer has no "messages" list', { detail: quote(safeJson(data)) })
}

interface Group {
  role: 'user' | 'assistant'
  runId?: string
  parts: MessagePart[]
  problems: string[]
}

/**
 * The ops that put a page into the store: one `hydrate` at the start, turns
 * grouped by `runId` (a user message is a turn of its own), then any problems.
 * A run the store already shows (a turn with that `runId`) takes the page's new
 * messages instead of getting a second turn.
 *
 * @example
 * store.getState().dispatch(agUiHistoryOps(page, store.getState()))
 */
export function agUiHistoryOps(page: AgUiHistoryPage, state: AgentState): Op[] {
  const groups = groupMessages(sortBySeq(page.messages))
  const turns: HydratedTurn[] = []
  const problems: Array<{ turnId?: string; message: string }> = []
  let lastTurnId: string | undefined
  for (const group of groups) {
    const parts = group.parts.filter((part) => !messageIn(state.messages, part.id))
    const first = parts[0]
    if (!first) {
      for (const message of group.problems) problems.push({ turnId: lastTurnId, message })
      continue
    }
    const turnId = turnIdFor(group, first, state)
    lastTurnId = turnId
    const known = Boolean(own(state.turns, turnId))
    const turn: HydratedTurn['turn'] = known
      ? { id: turnId, role: group.role }
      : {
        id: turnId, role: group.role, status: 'done', protocol: 'ag-ui',
        ...(group.role === 'assistant' && group.runId ? { runId: group.runId } : {}),
        ...(page.threadId ? { threadId: page.threadId } : {}),
        metadata: { ...(page.day ? { historyDay: page.day } : {}), ...(group.runId ? { runId: group.runId } : {}) },
      }
    turns.push({
      turn,
      messages: parts.map((part) => ({
        id: part.id, type: part.type, role: part.role, props: part.props,
        status: part.props.state === 'output-error' ? 'error' as const : 'done' as const,
        ...(part.threadId ? { threadId: part.threadId } : {}),
      })),
    })
    for (const message of group.problems) problems.push({ turnId, message })
  }
  const ops: Op[] = turns.length > 0 ? [{ op: 'hydrate', turns, at: 'start' }] : []
  const fallback = lastTurnId ?? state.turnIds[0]
  for (const { turnId, message } of problems) {
    ops.push({ op: 'problem', turnId: turnId ?? fallback, error: weftError('protocol', `history: ${message}`, { code: 'history' }) })
  }
  return ops
}

/** The fields of a stored message the history reader uses itself (order and grouping), so none of them is an extra. */
const HISTORY_FIELDS: ReadonlySet<string> = new Set(['seq', 'runId', 'run_id'])

function groupMessages(messages: unknown[]): Group[] {
  const groups: Group[] = []
  const byId = new Map<string, MessagePart>()
  let current: Group | undefined
  for (const raw of messages) {
    const { parts, problems } = readAgUiMessage(raw, HISTORY_FIELDS)
    const role = isRecord(raw) ? raw.role : undefined
    const runId = runIdOf(raw)
    if (role === 'user' || !current || current.role === 'user' || (runId && current.runId && runId !== current.runId)) {
      current = { role: role === 'user' ? 'user' : 'assistant', runId, parts: [], problems: [] }
      groups.push(current)
    } else if (runId && !current.runId) {
      current.runId = runId
    }
    current.problems.push(...problems)
    for (const part of parts) {
      const seen = byId.get(part.id)
      if (seen) {
        // A result completes its call; a repeated message updates the first one.
        Object.assign(seen.props, part.props, seen.props.name !== undefined && part.isResult ? { name: seen.props.name } : {})
        continue
      }
      const copy = { ...part, props: { ...part.props } }
      byId.set(part.id, copy)
      current.parts.push(copy)
    }
  }
  return groups
}

function turnIdFor(group: Group, first: MessagePart, state: AgentState): string {
  if (group.role === 'user') return `ag-ui-user:${first.id}`
  if (!group.runId) return `ag-ui-history:${first.id}`
  for (const id of state.turnIds) {
    const turn = own(state.turns, id)
    if (turn && turn.role === 'assistant' && turn.runId === group.runId) return id
  }
  return `ag-ui-run:${group.runId}`
}

function runIdOf(raw: unknown): string | undefined {
  if (!isRecord(raw)) return undefined
  const metadata = isRecord(raw.metadata) ? raw.metadata : {}
  for (const value of [raw.runId, raw.run_id, metadata.runId, metadata.run_id]) {
    if (typeof value === 'string' && value !== '') return value
  }
  return undefined
}

function sortBySeq(messages: unknown[]): unknown[] {
  const seqOf = (m: unknown) => (isRecord(m) && typeof m.seq === 'number' ? m.seq : undefined)
  if (!messages.every((m) => seqOf(m) !== undefined)) return messages
  return messages
    .map((message, index) => ({ message, index }))
    .sort((a, b) => (seqOf(a.message) as number) - (seqOf(b.message) as number) || a.index - b.index)
    .map(({ message }) => message)
}

/**
 * Loads history into a store page by page, framework-free (the React hook
 * `useAgUiHistory` is a thin binding over it): the history pager every protocol
 * uses, with AG-UI's day pages as its source.
 *
 * @example
 * const history = new AgUiHistory(store, { historyUrl: '/api/v1/agent/history' })
 * await history.loadOlder() // the latest day
 * if (history.status.hasMore) await history.loadOlder() // the day before
 */
export class AgUiHistory extends HistoryPager<string, AgUiHistoryStatus> {
  private options: AgUiHistoryOptions

  constructor(store: AgentStore, options: AgUiHistoryOptions) {
    super(store, (before, signal) => this.page(before, signal))
    this.options = options
  }

  /** Replace the request options (headers, fetch); the pages loaded stay. */
  setOptions(options: AgUiHistoryOptions): void {
    this.options = options
  }

  protected override describe(status: HistoryStatus<string>): AgUiHistoryStatus {
    return status.cursor === undefined ? status : { ...status, day: status.cursor }
  }

  private async page(before: string | undefined, signal: AbortSignal) {
    const page = await fetchAgUiHistory(this.options, before, signal)
    return { ops: (state: AgentState) => agUiHistoryOps(page, state), next: page.day, hasMore: page.hasMore }
  }
}
