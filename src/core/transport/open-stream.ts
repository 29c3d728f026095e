/**
 * Open a server-sent event stream over `fetch` and iterate its frames.
 */
import { quote, weftError, WeftStreamError } from '../model/errors'
import { createFrameParser, isDoneFrame, type SSEFrame } from './frames'
import { httpError } from './http-errors'
import { Lifeline } from './lifeline'
import { networkError, readStart, requestInit, type HttpRequest } from './request'

/**
 * How long a stream may stay silent (no bytes at all) before it counts as dead.
 *
 * @example
 * openStream({ url, idleTimeoutMs: DEFAULT_IDLE_TIMEOUT_MS * 2 })
 */
export const DEFAULT_IDLE_TIMEOUT_MS = 45_000

/**
 * A request for an SSE stream.
 *
 * @example
 * const req: StreamRequest = {
 *   url: '/api/chat', method: 'POST', body: JSON.stringify({ messages }),
 *   headers: { 'content-type': 'application/json' }, signal: controller.signal,
 * }
 */
export interface StreamRequest extends HttpRequest {
  /** Sent as `Last-Event-ID`, to resume after the event with this id. */
  lastEventId?: string
  /** Give up when no bytes arrive for this long, while waiting for headers or data. Default 45 000; 0 disables. */
  idleTimeoutMs?: number
  /**
   * Deliver `data: [DONE]` frames like any other and read on to the end of the
   * body, so the caller sees (and can report) frames a server sent after it.
   * `endReason` is still `done` when one arrived.
   */
  readPastDone?: boolean
}

/**
 * Side channels of a stream, outside the frames themselves.
 *
 * @example
 * const hooks: StreamHooks = { onRetry: (ms) => (reconnectDelay = ms), onOpen: (res) => setStatus('streaming') }
 */
export interface StreamHooks {
  /** A `:` comment line (keepalives). */
  onComment?(text: string): void
  /** A `retry:` field, in milliseconds. */
  onRetry?(ms: number): void
  /** The response was accepted (2xx event stream, or 204). */
  onOpen?(response: Response): void
}

/**
 * Why a stream's iteration stopped: `done` after a `data: [DONE]` frame, `eof`
 * when the body ended (or a 204 had none), `aborted` when the caller's signal
 * fired or the consumer left the loop early.
 *
 * @example
 * if (stream.endReason === 'eof') scheduleResume()
 */
export type StreamEndReason = 'done' | 'eof' | 'aborted'

/**
 * An open stream. `frames` can be iterated once; breaking out of the loop
 * closes the connection.
 *
 * @example
 * const stream = await openStream({ url: '/events' })
 * for await (const frame of stream.frames) handle(frame)
 * console.log(stream.endReason, stream.lastEventId)
 */
export interface OpenedStream {
  /**
   * The server's response. When the caller aborts before one arrives this is a
   * placeholder: status 499, no headers, no body.
   */
  response: Response
  frames: AsyncIterable<SSEFrame>
  /**
   * The same frames grouped by the read that completed them: one await per
   * arrival of bytes instead of one per frame. Read `frames` or `batches`, not both.
   */
  batches: AsyncIterable<SSEFrame[]>
  /**
   * Why iteration stopped: 'done' ([DONE] data), 'eof', 'aborted' (signal, or the
   * loop was left early), or undefined while running and after an error.
   */
  readonly endReason: StreamEndReason | undefined
  /**
   * The protocol's own end arrived: from now on wait at most `ms` for more bytes,
   * and when none come, end the iteration cleanly (as the end of the body would).
   * `undefined` goes back to the idle timeout (a second run started).
   */
  settle(ms: number | undefined): void
  /**
   * The last event id delivered so far (kept across events without an `id:`),
   * starting from the request's `lastEventId`; undefined after the server resets it
   * with an empty `id:`. This is the cursor to resume from.
   */
  readonly lastEventId?: string
}

/**
 * Fetch `req` and expose its body as SSE frames.
 *
 * Resolves once the response headers are in. Rejects with a `WeftStreamError`
 * for a failed fetch (`network`), a silent server (`timeout`), a non-2xx status
 * (see `httpError`) or a 2xx that is not `text/event-stream` (`protocol`). A 204
 * gives a stream with no frames. Iterating throws `network` when the connection
 * breaks and `timeout` when it goes silent for `idleTimeoutMs`. An abort by the
 * caller's signal is never an error: iteration just stops with `endReason` 'aborted'.
 *
 * @example
 * const controller = new AbortController()
 * const stream = await openStream(
 *   { url: '/api/chat', method: 'POST', body, signal: controller.signal },
 *   { onComment: () => {} },
 * )
 * for await (const frame of stream.frames) console.log(frame.event, frame.data)
 */
export async function openStream(req: StreamRequest, hooks: StreamHooks = {}): Promise<OpenedStream> {
  const idleMs = req.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS
  const startId = req.lastEventId === '' ? undefined : req.lastEventId
  const line = new Lifeline(req.signal, idleMs)
  if (line.callerAborted) {
    line.dispose()
    return finishedStream(abortedResponse(), 'aborted', startId)
  }

  const doFetch = req.fetch ?? globalThis.fetch
  const extra = startId !== undefined ? { 'last-event-id': startId } : undefined
  let response: Response
  try {
    response = await line.within(doFetch(req.url, requestInit(req, 'text/event-stream', line.signal, extra)))
  } catch (thrown) {
    line.dispose()
    if (line.callerAborted) return finishedStream(abortedResponse(), 'aborted', startId)
    if (line.timedOut) throw timeoutError(idleMs, 'waiting for the response')
    throw networkError('Request failed', thrown)
  }

  let handedOver = false
  try {
    if (!response.ok) {
      const text = await readStart(response, 8192, (work) => line.within(work))
      if (line.callerAborted) return finishedStream(response, 'aborted', startId)
      throw new WeftStreamError(httpError(response, text))
    }
    if (response.status === 204 || !response.body) {
      response.body?.cancel().catch(() => {})
      hooks.onOpen?.(response)
      return finishedStream(response, 'eof', startId)
    }
    const contentType = response.headers.get('content-type') ?? ''
    if (!isEventStream(contentType)) {
      const start = (await readStart(response, 1024, (work) => line.within(work))).trim()
      if (line.callerAborted) return finishedStream(response, 'aborted', startId)
      const shown = quote(start)
      const got = contentType ? `"${contentType}"` : 'no content type'
      throw new WeftStreamError(
        weftError('protocol', `Expected an event stream (text/event-stream) but got ${got}: "${shown}"`, {
          status: response.status,
          detail: shown,
        }),
      )
    }
    hooks.onOpen?.(response)
    const stream = liveStream(response, response.body, line, idleMs, startId, hooks, req.readPastDone === true)
    handedOver = true
    return stream
  } finally {
    // From here on the iterator owns the lifeline and releases it when it stops.
    if (!handedOver) line.dispose()
  }
}

function liveStream(
  response: Response,
  body: ReadableStream<Uint8Array>,
  line: Lifeline,
  idleMs: number,
  startId: string | undefined,
  hooks: StreamHooks,
  readPastDone: boolean,
): OpenedStream {
  let endReason: StreamEndReason | undefined
  let lastEventId = startId
  let sawDone = false

  /** Every frame one read of the body completed, up to a `[DONE]`. */
  async function* readBatches(): AsyncGenerator<SSEFrame[], void, undefined> {
    const reader = body.getReader()
    // ignoreBOM: the frame parser strips exactly one leading BOM itself.
    const decoder = new TextDecoder('utf-8', { ignoreBOM: true })
    let queue: SSEFrame[] = []
    const parser = createFrameParser({
      onFrame: (frame) => queue.push(frame),
      ...(hooks.onComment ? { onComment: hooks.onComment } : {}),
      ...(hooks.onRetry ? { onRetry: hooks.onRetry } : {}),
    })
    let bodyDone = false
    let failed = false
    try {
      for (;;) {
        if (line.callerAborted) {
          endReason = 'aborted'
          return
        }
        let chunk: ReadableStreamReadResult<Uint8Array>
        try {
          chunk = await line.within(reader.read())
        } catch (thrown) {
          if (line.callerAborted) {
            endReason = 'aborted'
            return
          }
          if (line.graceOver) {
            endReason = sawDone ? 'done' : 'eof'
            return
          }
          if (line.timedOut) throw timeoutError(idleMs, 'while streaming')
          throw networkError('Connection lost while streaming', thrown)
        }
        if (chunk.done) {
          bodyDone = true
          parser.push(decoder.decode())
        } else {
          parser.push(decoder.decode(chunk.value, { stream: true }))
        }
        const batch = queue
        queue = []
        const done = readPastDone ? -1 : batch.findIndex(isDoneFrame)
        if (done >= 0) batch.length = done
        if (readPastDone && !sawDone) sawDone = batch.some(isDoneFrame)
        if (batch.length > 0) {
          if (line.callerAborted) {
            endReason = 'aborted'
            return
          }
          yield batch
        }
        if (done >= 0) {
          endReason = 'done'
          return
        }
        if (bodyDone) {
          endReason = sawDone ? 'done' : 'eof'
          return
        }
      }
    } catch (thrown) {
      failed = true
      throw thrown
    } finally {
      // The consumer left the loop early: that is its own way of stopping.
      if (endReason === undefined && !failed) endReason = 'aborted'
      line.dispose()
      queue = []
      // Not awaited: a body source whose cancel hangs must not hold up the caller's loop.
      if (!bodyDone) reader.cancel().catch(() => {})
      try {
        reader.releaseLock()
      } catch {
        // Older stream implementations refuse while a read is settling; the cancel above already closed it.
      }
    }
  }

  const track = (frame: SSEFrame) => {
    if (frame.id !== undefined) lastEventId = frame.id === '' ? undefined : frame.id
  }

  async function* frames(): AsyncGenerator<SSEFrame, void, undefined> {
    for await (const batch of readBatches()) {
      for (const frame of batch) {
        if (line.callerAborted) return
        track(frame)
        yield frame
      }
    }
  }

  async function* batches(): AsyncGenerator<SSEFrame[], void, undefined> {
    for await (const batch of readBatches()) {
      for (const frame of batch) track(frame)
      yield batch
    }
  }

  let taken = false
  const once = <T>(make: () => AsyncIterable<T>): AsyncIterable<T> => ({
    [Symbol.asyncIterator]() {
      if (taken) throw new Error('an opened stream can be read once, by frames or by batches')
      taken = true
      return make()[Symbol.asyncIterator]()
    },
  })

  return {
    response,
    frames: once(frames),
    batches: once(batches),
    get endReason() {
      return endReason
    },
    settle(ms) {
      line.settle(ms)
    },
    get lastEventId() {
      return lastEventId
    },
  }
}

function finishedStream(response: Response, endReason: StreamEndReason, lastEventId: string | undefined): OpenedStream {
  async function* none(): AsyncGenerator<never, void, undefined> {}
  return { response, frames: none(), batches: none(), endReason, lastEventId, settle() {} }
}

function abortedResponse(): Response {
  return new Response(null, { status: 499, statusText: 'Client Closed Request' })
}

function isEventStream(contentType: string): boolean {
  return contentType.split(';')[0]?.trim().toLowerCase() === 'text/event-stream'
}

function timeoutError(idleMs: number, when: string): WeftStreamError {
  return new WeftStreamError(weftError('timeout', `No data from the server for ${idleMs} ms ${when}`))
}
