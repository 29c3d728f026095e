/**
 * How the client reaches a stream: the request it built goes in, frames come
 * out. HTTP server-sent events are the default; a WebSocket or an agent
 * function in the page are other ways to the same frames.
 */
import type { SSEFrame } from './frames'
import { openStream, type StreamEndReason, type StreamRequest } from './open-stream'

/**
 * Side channels a transport may report besides the frames.
 *
 * @example
 * const hooks: TransportHooks = { onRetry: (ms) => (reconnectDelay = ms) }
 */
export interface TransportHooks {
  /** The server asked for this reconnection delay (an SSE `retry:` field), in milliseconds. */
  onRetry?(ms: number): void
}

/**
 * One open stream as the client reads it, whatever carried it.
 *
 * `batches` is read once; leaving the loop early closes the stream. Iterating
 * throws a `WeftStreamError` when the stream fails: `network` (retryable) for a
 * lost connection, which is what lets a resume strategy reconnect; `timeout`
 * when it goes silent. A caller's abort is never an error: iteration stops and
 * `endReason` is `aborted`.
 *
 * @example
 * const stream = await httpSseTransport.open({ url: '/api/chat', method: 'POST', body })
 * for await (const batch of stream.batches) for (const frame of batch) console.log(frame.data)
 * console.log(stream.status, stream.endReason)
 */
export interface TransportStream {
  /**
   * The HTTP status: 204 means "no stream to resume"; 499 a stream aborted before
   * it answered. A transport without HTTP gives 200.
   */
  readonly status: number
  /** The response headers protocol detection reads (a transport without HTTP gives empty headers). */
  readonly headers: Headers
  /** The frames, grouped by the arrival that completed them. */
  readonly batches: AsyncIterable<SSEFrame[]>
  /**
   * Why iteration stopped: `done` after a `[DONE]` frame, `eof` at a clean end,
   * `aborted` when the caller's signal fired or the loop was left; undefined while
   * running and after an error.
   */
  readonly endReason: StreamEndReason | undefined
  /**
   * The protocol's own end arrived: from now on wait at most `ms` for more, and
   * when nothing comes end the iteration cleanly. `undefined` goes back to the
   * idle timeout (a second run started).
   */
  settle(ms: number | undefined): void
}

/**
 * What carries a client's streams (modelled on the AI SDK's `ChatTransport`).
 * `open` gets the request the client built, from its options, a `source`, a
 * gate's continuation or a resume strategy (url, method, headers, body,
 * `lastEventId`, the run's `signal`, its `fetch` and idle timeout), and resolves
 * once the stream is open, or rejects with a `WeftStreamError` (a `network` error
 * is retried when resuming; a 404/405/410 `status` on a resume means the stream is gone).
 * The client's reconnect, resume, truncation and gate rules work the same over any transport.
 *
 * @example
 * const logged: StreamTransport = {
 *   open: (request, hooks) => {
 *     console.log('opening', request.url)
 *     return httpSseTransport.open(request, hooks)
 *   },
 * }
 * const client = new AgentClient(createAgentStore(), { url: '/api/chat', transport: logged })
 */
export interface StreamTransport {
  /** Open one stream for `request`; the run's `signal` in it stops the stream. */
  open(request: StreamRequest, hooks?: TransportHooks): Promise<TransportStream>
}

/**
 * The default transport: `fetch` the request and read its body as server-sent
 * events (`openStream`), sending `lastEventId` as `Last-Event-ID`.
 *
 * @example
 * const client = new AgentClient(createAgentStore(), { url: '/api/chat', transport: httpSseTransport })
 */
export const httpSseTransport: StreamTransport = {
  async open(request, hooks = {}) {
    const stream = await openStream(request, hooks.onRetry ? { onRetry: hooks.onRetry } : {})
    return {
      status: stream.response.status,
      headers: stream.response.headers,
      batches: stream.batches,
      get endReason() {
        return stream.endReason
      },
      settle: (ms) => stream.settle(ms),
    }
  },
}
