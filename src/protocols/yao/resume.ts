/**
 * Yao tasks: every message carries `metadata.sequence`; a reconnect asks for
 * `GET <resumeUrl>?since=<sequence>`, the server replays what is newer and then
 * sends `event: read_complete {last_seq, live}` (`live: false`: nothing more comes).
 */
import { alignReplay, type ReplayFilter, type ResumeHandle, type ResumeStrategy, type SSEFrame } from '../../core/index'
import { isRecord, withQuery } from '../../protocol-kit/index'

/**
 * A handle for a Yao task stream.
 *
 * @example
 * const handle: YaoTaskHandle = { strategy: 'yao', turnId: 't1', protocol: 'yao', count: 9, url: '/api/task/1/stream', since: 9 }
 */
export interface YaoTaskHandle extends ResumeHandle {
  url: string
  /** The highest sequence folded. */
  since: number
}

/**
 * The Yao task strategy. Repeats are recognised by sequence.
 *
 * @example
 * useResumableStream({ url: '/api/chat', protocol: 'yao', resume: yaoResume(), resumeUrl: '/api/task/1/stream', conversationKey: 'c1' })
 */
export function yaoResume(): ResumeStrategy<YaoTaskHandle> {
  return {
    name: 'yao',
    replaysFromStart: true,
    identify(frame, event) {
      if (isReadComplete(frame)) return { counted: false }
      const metadata = isRecord(event) && isRecord(event.metadata) ? event.metadata : undefined
      const sequence = metadata?.sequence
      return typeof sequence === 'number' && Number.isFinite(sequence) ? { counted: true, key: String(sequence) } : { counted: true }
    },
    handle({ turnId, ledger, protocol, streamUrl, resumeUrl, previous }) {
      const url = resumeUrl ?? previous?.url ?? streamUrl
      if (!url) return undefined
      const since = ledger.maxNumericKey ?? (ledger.count === 0 ? previous?.since : undefined) ?? 0
      return { strategy: 'yao', turnId, protocol: protocol ?? 'yao', count: ledger.count, url, since }
    },
    request: (handle, { resumeUrl, fromStart }) => ({ url: withQuery(resumeUrl ?? handle.url, { since: fromStart ? 0 : handle.since }) }),
    dedupe(ledger, { handle, fromStart, report }) {
      const at = fromStart || handle.since <= 0 ? -1 : ledger.indexOfKey(String(handle.since)) ?? ledger.count - 1
      const inner = alignReplay(ledger, { startAt: at + 1, report })
      let settled = false
      const filter: ReplayFilter = {
        push(item) {
          if (isReadComplete(item.frame) && isRecord(item.event) && item.event.live === false) settled = true
          return inner.push(item)
        },
        end: (final) => inner.end(final),
        get settled() {
          return settled
        },
      }
      return filter
    },
    revive: (value) =>
      typeof value.url === 'string' && value.url !== '' && typeof value.since === 'number' && Number.isFinite(value.since)
        ? (value as unknown as YaoTaskHandle)
        : undefined,
  }
}

function isReadComplete(frame: SSEFrame): boolean {
  return frame.event === 'read_complete'
}
