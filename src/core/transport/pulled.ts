/**
 * A `TransportStream` over a source that is pulled for its next frames (a
 * socket's queue, an async iterator): the abort, idle timeout, grace and
 * `[DONE]` rules every transport shares with the HTTP one.
 */
import { weftError, WeftStreamError } from '../model/errors'
import { isDoneFrame, type SSEFrame } from './frames'
import type { Lifeline } from './lifeline'
import type { TransportHooks, TransportStream } from './transport'

/** What a pulled stream reads from. */
export interface PullSource {
  /** The request's lifeline: the caller's signal, the idle timeout and the grace after the end. */
  line: Lifeline
  idleMs: number
  /** Deliver `[DONE]` frames and read on (the client's way), or stop at the first one. */
  readPastDone: boolean
  hooks: TransportHooks
  /** The next frames (at least one), or `null` at a clean end; rejects when the source fails. */
  next(): Promise<SSEFrame[] | null>
  /** What a rejection of `next` is reported as. */
  failure(thrown: unknown): WeftStreamError
  /** Release the source; called once, however the iteration stopped. */
  close(): void
}

/**
 * Read a pulled source as a transport stream: status 200, no headers.
 *
 * @example
 * const stream = pulledStream({ line, idleMs, readPastDone: false, hooks: {}, next, failure, close })
 */
export function pulledStream(source: PullSource): TransportStream {
  const { line } = source
  let endReason: TransportStream['endReason']
  let sawDone = false
  let taken = false

  async function* read(): AsyncGenerator<SSEFrame[], void, undefined> {
    let failed = false
    try {
      for (;;) {
        if (line.callerAborted) {
          endReason = 'aborted'
          return
        }
        let batch: SSEFrame[] | null
        try {
          batch = await line.within(source.next())
        } catch (thrown) {
          if (line.callerAborted) {
            endReason = 'aborted'
            return
          }
          if (line.graceOver) {
            endReason = sawDone ? 'done' : 'eof'
            return
          }
          if (line.timedOut) {
            throw new WeftStreamError(weftError('timeout', `No data from the agent for ${source.idleMs} ms while streaming`))
          }
          throw source.failure(thrown)
        }
        if (batch === null) {
          endReason = sawDone ? 'done' : 'eof'
          return
        }
        for (const frame of batch) if (frame.retry !== undefined) source.hooks.onRetry?.(frame.retry)
        const done = source.readPastDone ? -1 : batch.findIndex(isDoneFrame)
        if (done >= 0) batch = batch.slice(0, done)
        if (source.readPastDone && !sawDone) sawDone = batch.some(isDoneFrame)
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
      }
    } catch (thrown) {
      failed = true
      throw thrown
    } finally {
      // The consumer left the loop early: that is its own way of stopping.
      if (endReason === undefined && !failed) endReason = 'aborted'
      line.dispose()
      source.close()
    }
  }

  return {
    status: 200,
    headers: new Headers(),
    batches: {
      [Symbol.asyncIterator]() {
        if (taken) throw new Error('an opened stream can be read once')
        taken = true
        return read()[Symbol.asyncIterator]()
      },
    },
    get endReason() {
      return endReason
    },
    settle(ms) {
      line.settle(ms)
    },
  }
}

/**
 * A stream that ended before it started (the caller aborted first).
 *
 * @example
 * const stream = abortedStream() // stream.endReason === 'aborted', no frames
 */
export function abortedStream(): TransportStream {
  return {
    status: 499,
    headers: new Headers(),
    batches: { async *[Symbol.asyncIterator]() {} },
    endReason: 'aborted',
    settle() {},
  }
}
