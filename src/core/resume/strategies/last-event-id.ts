/**
 * Standard server-sent events: every event may carry an `id:`; a reconnect
 * sends the last one as `Last-Event-ID` and the server replays what came after.
 * The AG-UI events endpoint works this way, as does any stream with `id:` lines.
 */
import { alignReplay } from '../align'
import type { ResumeHandle, ResumeStrategy } from '../types'

/**
 * A handle for a stream resumed by `Last-Event-ID`.
 *
 * @example
 * const handle: LastEventIdHandle = { strategy: 'sse', turnId: 't1', count: 7, url: '/runs/th1/events', lastEventId: 'run_1:0007' }
 */
export interface LastEventIdHandle extends ResumeHandle {
  /** Where to reconnect: the host's `resumeUrl`, else the URL the stream was read from. */
  url: string
  lastEventId?: string
}

/**
 * The `Last-Event-ID` strategy. Repeats are recognised by their id; events
 * without one are aligned by fingerprint after the last id.
 *
 * @example
 * useResumableStream({ source: agUiRuns, resume: lastEventIdResume(), conversationKey: threadId })
 */
export function lastEventIdResume(): ResumeStrategy<LastEventIdHandle> {
  return {
    name: 'sse',
    replaysFromStart: true,
    identify: (frame) => (frame.id ? { counted: true, key: frame.id } : { counted: true }),
    handle({ turnId, ledger, protocol, streamUrl, resumeUrl, previous }) {
      const url = resumeUrl ?? streamUrl ?? previous?.url
      if (!url) return undefined
      const lastEventId = ledger.lastKey ?? (ledger.count === 0 ? previous?.lastEventId : undefined)
      return { strategy: 'sse', turnId, protocol, count: ledger.count, url, ...(lastEventId !== undefined ? { lastEventId } : {}) }
    },
    request: (handle, { resumeUrl, fromStart }) => ({
      url: resumeUrl ?? handle.url,
      ...(fromStart || handle.lastEventId === undefined ? {} : { lastEventId: handle.lastEventId }),
    }),
    dedupe(ledger, { handle, fromStart, report }) {
      // Without an id the server starts over; with one, it goes on after it.
      const after = fromStart || handle.lastEventId === undefined
        ? -1
        : ledger.indexOfKey(handle.lastEventId) ?? ledger.count - 1
      return alignReplay(ledger, { startAt: after + 1, report })
    },
    revive: (value) =>
      typeof value.url === 'string' && value.url !== '' && (value.lastEventId === undefined || typeof value.lastEventId === 'string')
        ? (value as unknown as LastEventIdHandle)
        : undefined,
  }
}
