/**
 * A transport that calls an agent function in the page: no server, for demos,
 * stories and tests.
 */
import { quote, weftError, WeftStreamError } from '../model/errors'
import type { SSEFrame } from './frames'
import { Lifeline } from './lifeline'
import { DEFAULT_IDLE_TIMEOUT_MS } from './open-stream'
import { abortedStream, pulledStream } from './pulled'
import type { StreamTransport } from './transport'

/**
 * The request an in-process agent is given: what the client would have sent,
 * with the body parsed when it is JSON text (the AI SDK chat request, AG-UI's
 * `RunAgentInput`, ...).
 *
 * @example
 * const agent: InProcessAgent = async function* (request: InProcessRequest) {
 *   const body = request.body as { messages?: unknown[] }
 *   yield { type: 'text-delta', id: 't1', delta: `${body.messages?.length ?? 0} messages so far` }
 * }
 *
 * @beta Experimental: the shape may change in a minor release.
 */
export interface InProcessRequest {
  /** The url the client built (a resume strategy's differs from a send's). */
  url: string
  /** `POST` for a send, `GET` for most resumes. */
  method: string
  headers: Headers
  /** JSON text parsed; any other body as it was given (a `FormData` stays one). */
  body: unknown
  /** Set when a resume rejoins after this event id. */
  lastEventId?: string
}

/**
 * An agent that runs in the page: it gets the request and a signal that fires
 * when the client stops, and yields the stream's events. An object is one event,
 * sent as its JSON; a string is a frame's data as it is (`'[DONE]'`, a line some
 * protocol wants verbatim).
 *
 * @example
 * const echo: InProcessAgent = async function* (request, { signal }) {
 *   yield { type: 'start' }
 *   yield { type: 'text-start', id: 't1' }
 *   yield { type: 'text-delta', id: 't1', delta: 'Hello' }
 *   yield { type: 'text-end', id: 't1' }
 *   yield { type: 'finish' }
 * }
 *
 * @beta Experimental: the shape may change in a minor release.
 */
export type InProcessAgent = (request: InProcessRequest, context: { signal: AbortSignal }) => AsyncIterable<unknown> | Iterable<unknown>

/**
 * The `code` of the error a turn ends in when an in-process agent throws (a
 * thrown `WeftStreamError` keeps its own).
 *
 * @example
 * if (turn.error?.code === AGENT_FAILED) console.warn(turn.error.message)
 *
 * @beta Experimental: the shape may change in a minor release.
 */
export const AGENT_FAILED = 'agent_failed'

/**
 * Streams from an agent function in the page instead of a server.
 *
 * Each call of `open` (a send, a tool result's or a gate's continuation, a
 * resume) calls `agent` once and reads what it yields, one frame per item.
 * Status is 200 and there are no headers, so give the client its `protocol` (or
 * `protocols`). When the agent's iteration ends the stream ends cleanly (a turn
 * whose protocol had not ended is truncated, as over HTTP). When it throws the
 * turn ends in an `internal` error with code `AGENT_FAILED`, not retried (a thrown
 * `WeftStreamError` is reported as it is). The client's `stop()` aborts the
 * signal and ends the iteration (its `return()` runs, so `finally` blocks do).
 * The idle timeout applies between items, as it does between bytes.
 *
 * @example
 * const client = new AgentClient(createAgentStore(), {
 *   url: '/agent', // only named: no request leaves the page
 *   protocol: 'ui-message',
 *   transport: inProcessTransport(async function* () {
 *     yield { type: 'start' }
 *     yield { type: 'text-start', id: 't1' }
 *     yield { type: 'text-delta', id: 't1', delta: 'Hi from the page' }
 *     yield { type: 'text-end', id: 't1' }
 *     yield { type: 'finish' }
 *   }),
 * })
 *
 * @beta Experimental: the shape may change in a minor release.
 */
export function inProcessTransport(agent: InProcessAgent): StreamTransport {
  return {
    async open(request, hooks = {}) {
      const idleMs = request.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS
      const line = new Lifeline(request.signal, idleMs)
      if (line.callerAborted) {
        line.dispose()
        return abortedStream()
      }
      const stop = new AbortController()
      const onAbort = () => stop.abort(request.signal?.reason)
      request.signal?.addEventListener('abort', onAbort, { once: true })
      const input: InProcessRequest = {
        url: request.url,
        method: request.method ?? 'GET',
        headers: new Headers(request.headers),
        body: parsedBody(request.body),
      }
      if (request.lastEventId) input.lastEventId = request.lastEventId
      let iterator: AsyncIterator<unknown> | Iterator<unknown>
      try {
        const items = agent(input, { signal: stop.signal })
        iterator = Symbol.asyncIterator in items ? items[Symbol.asyncIterator]() : items[Symbol.iterator]()
      } catch (thrown) {
        request.signal?.removeEventListener('abort', onAbort)
        line.dispose()
        throw agentError(thrown)
      }
      let finished = false
      return pulledStream({
        line,
        idleMs,
        readPastDone: request.readPastDone === true,
        hooks,
        async next() {
          for (;;) {
            const step = await iterator.next()
            if (step.done) {
              finished = true
              return null
            }
            const frame = frameOf(step.value)
            if (frame) return [frame]
          }
        },
        failure(thrown) {
          finished = true
          return agentError(thrown)
        },
        close() {
          request.signal?.removeEventListener('abort', onAbort)
          if (finished) return
          stop.abort()
          // Not awaited: an agent still waiting on something must not hold up the client.
          Promise.resolve(iterator.return?.()).catch(() => {})
        },
      })
    },
  }
}

function frameOf(item: unknown): SSEFrame | undefined {
  if (item === undefined) return undefined
  return { data: typeof item === 'string' ? item : JSON.stringify(item) }
}

function parsedBody(body: BodyInit | null | undefined): unknown {
  if (typeof body !== 'string') return body ?? undefined
  try {
    return JSON.parse(body) as unknown
  } catch {
    return body
  }
}

function agentError(thrown: unknown): WeftStreamError {
  if (thrown instanceof WeftStreamError) return thrown
  const message = thrown instanceof Error ? thrown.message : String(thrown)
  return new WeftStreamError(weftError('internal', `The agent failed: ${quote(message, 200)}`, { code: AGENT_FAILED, retryable: false }))
}
