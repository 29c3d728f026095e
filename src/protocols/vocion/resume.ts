/**
 * Vocion's rail: the first frame is `stream_meta {streamId}` (not counted); the
 * client counts every later event and reconnects with
 * `GET <resumeUrl>?id=<streamId>&after=<count>`, which replays from that index
 * and then goes live. A 404 means the stream expired.
 */
import { alignReplay, type ResumeHandle, type ResumeStrategy, weftError, WeftStreamError } from '../../core/index'
import { isRecord, withQuery } from '../../protocol-kit/index'

/**
 * A Vocion handle: the stream id and the events counted.
 *
 * @example
 * const handle: VocionHandle = { strategy: 'vocion', turnId: 't1', protocol: 'vocion', count: 12, streamId: 'stream-1' }
 */
export interface VocionHandle extends ResumeHandle {
  streamId: string
}

/**
 * Options of `vocionResume`.
 *
 * @example
 * vocionResume({ resumeUrl: '/rpc/agent/stream/resume' })
 */
export interface VocionResumeOptions {
  /** The resume endpoint, when the host does not pass `resumeUrl` to the client. */
  resumeUrl?: string
  /** See `AlignOptions.minOverlap`. */
  minOverlap?: number
}

/**
 * The Vocion resume strategy. The server's count can drift (it stops buffering
 * after 5,000 events), so the replay is aligned by fingerprint, not trusted by index.
 *
 * @example
 * new AgentClient(store, { url: '/rpc/agent/stream', resume: { strategy: vocionResume(), conversationKey: 'c1', resumeUrl: '/rpc/agent/stream/resume' } })
 */
export function vocionResume(options: VocionResumeOptions = {}): ResumeStrategy<VocionHandle> {
  return {
    name: 'vocion',
    replaysFromStart: true,
    identify: (_frame, event) => ({ counted: !(isRecord(event) && event.type === 'stream_meta') }),
    handle({ turnId, cursor, ledger, protocol, previous }) {
      const streamId = cursor.streamId ?? previous?.streamId
      if (!streamId) return undefined
      return { strategy: 'vocion', turnId, protocol: protocol ?? 'vocion', count: ledger.count, streamId }
    },
    request(handle, { resumeUrl, fromStart }) {
      const base = resumeUrl ?? options.resumeUrl
      if (!base) throw new WeftStreamError(weftError('validation', 'resuming a Vocion stream needs a resumeUrl', { retryable: false }))
      return { url: withQuery(base, { id: handle.streamId, after: fromStart ? 0 : handle.count }) }
    },
    dedupe: (ledger, { handle, fromStart, report }) =>
      alignReplay(ledger, { startAt: fromStart ? 0 : handle.count, probeOlder: true, minOverlap: options.minOverlap, report }),
    revive: (value) => (typeof value.streamId === 'string' && value.streamId !== '' ? (value as unknown as VocionHandle) : undefined),
  }
}
