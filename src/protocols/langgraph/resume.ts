/**
 * Rejoining a LangGraph run: `GET /threads/{id}/runs/{run_id}/stream` with
 * `Last-Event-ID`. Event ids count from 0 per run; the server replays what came
 * after the id (`-1`: from the start). Only runs started with
 * `stream_resumable: true` keep what a rejoin replays (`langGraphSource` asks for it).
 */
import { alignReplay, type ResumeHandle, type ResumeStrategy } from '../../core/index'

/**
 * A handle for a LangGraph run.
 *
 * @example
 * const handle: LangGraphHandle = { strategy: 'langgraph', turnId: 't1', count: 12, url: '/threads/th1/runs/r1/stream', lastEventId: '11' }
 */
export interface LangGraphHandle extends ResumeHandle {
  /** The run's join URL. */
  url: string
  lastEventId?: string
}

/**
 * The join URL of a run from the URL its stream was read from: a join URL as it
 * is; `…/threads/{id}/runs/stream` (the run was started by that request) with the run's id put in.
 *
 * @example
 * joinUrlOf('/api/threads/th1/runs/stream', 'r1') // '/api/threads/th1/runs/r1/stream'
 */
export function joinUrlOf(url: string, runId: string | undefined): string | undefined {
  const [path = '', query] = url.split('?', 2)
  if (/\/runs\/[^/]+\/stream$/.test(path) && !path.endsWith('/runs/stream')) return url
  if (!runId || !path.endsWith('/runs/stream')) return undefined
  return `${path.slice(0, -'stream'.length)}${encodeURIComponent(runId)}/stream${query ? `?${query}` : ''}`
}

/**
 * The LangGraph strategy: reconnects join the run after the last event id seen;
 * after a reload (the store holds nothing of the turn) it asks for the whole run (`Last-Event-ID: -1`).
 *
 * @example
 * const source = langGraphSource({ apiUrl: 'http://localhost:2024', assistantId: 'agent' })
 * new AgentClient(createAgentStore(), { source, protocol: langGraphProtocol, protocols: [langGraphProtocol], resume: { strategy: langGraphResume(), conversationKey: 'chat-1' } })
 */
export function langGraphResume(): ResumeStrategy<LangGraphHandle> {
  return {
    name: 'langgraph',
    replaysFromStart: true,
    identify: (frame) => (frame.id ? { counted: true, key: frame.id } : { counted: true }),
    handle({ turnId, ledger, protocol, cursor, streamUrl, resumeUrl, previous }) {
      const url = resumeUrl ?? (streamUrl ? joinUrlOf(streamUrl, cursor.streamId) : undefined) ?? previous?.url
      if (!url) return undefined
      const lastEventId = ledger.lastKey ?? (ledger.count === 0 ? previous?.lastEventId : undefined)
      return { strategy: 'langgraph', turnId, protocol, count: ledger.count, url, ...(lastEventId !== undefined ? { lastEventId } : {}) }
    },
    request: (handle, { resumeUrl, fromStart }) => ({
      url: resumeUrl ?? handle.url,
      lastEventId: fromStart || handle.lastEventId === undefined ? '-1' : handle.lastEventId,
    }),
    dedupe(ledger, { handle, fromStart, report }) {
      const after = fromStart || handle.lastEventId === undefined
        ? -1
        : ledger.indexOfKey(handle.lastEventId) ?? ledger.count - 1
      return alignReplay(ledger, { startAt: after + 1, report })
    },
    revive: (value) =>
      typeof value.url === 'string' && value.url !== '' && (value.lastEventId === undefined || typeof value.lastEventId === 'string')
        ? (value as unknown as LangGraphHandle)
        : undefined,
  }
}
