/**
 * A transport over a WebSocket: one socket per request, the request as the
 * first message, one frame per incoming message.
 */
import { quote, weftError, WeftStreamError } from '../model/errors'
import type { SSEFrame } from './frames'
import { Lifeline } from './lifeline'
import { DEFAULT_IDLE_TIMEOUT_MS, type StreamRequest } from './open-stream'
import { abortedStream, pulledStream } from './pulled'
import { networkError } from './request'
import type { StreamTransport } from './transport'

/** What the transport reads of a socket's events: `data` of a message; `code` and `reason` of a close. */
interface SocketEvent {
  data?: unknown
  code?: number
  reason?: string
}

/**
 * The part of a WebSocket the transport uses: the browser's `WebSocket` and the
 * `ws` package's both fit.
 *
 * @example
 * const socket: WebSocketLike = new WebSocket('wss://agent.example/chat')
 *
 * @beta Experimental: the shape may change in a minor release.
 */
export interface WebSocketLike {
  /** Set to `arraybuffer`, so a binary message can be read as UTF-8. */
  binaryType?: string
  /** Sends the request message. */
  send(data: string): void
  /** Called with 1000 when the caller stops or the stream is left. */
  close(code?: number, reason?: string): void
  /** `message` events carry `data`; `close` events `code` and `reason`. */
  addEventListener(type: 'open' | 'message' | 'close' | 'error', listener: (event: unknown) => void): void
}

/**
 * A WebSocket constructor: the global one, or `ws`'s in Node before 22.
 *
 * @example
 * const Ctor: WebSocketConstructor = WebSocket
 *
 * @beta Experimental: the shape may change in a minor release.
 */
export type WebSocketConstructor = new (url: string, protocols?: string | string[]) => WebSocketLike

/**
 * The first message the transport sends on a new socket (as JSON): the request
 * the client built. `body` is its text (the JSON of a chat request, as it would
 * be POSTed); `lastEventId` is there when a resume rejoins after that event.
 *
 * @example
 * socket.on('message', (raw) => {
 *   const request = JSON.parse(String(raw)) as WebSocketRequestMessage
 *   const chat = request.body ? JSON.parse(request.body) : undefined
 * })
 *
 * @beta Experimental: the shape may change in a minor release.
 */
export interface WebSocketRequestMessage {
  type: 'request'
  /** The url the client built (a send's `url`, or a resume strategy's): a server on one socket path routes by it. */
  url: string
  /** `POST` for a send, `GET` for most resumes. */
  method: string
  /** The request's headers, names in lower case (what the browser's WebSocket cannot send itself: `authorization`). */
  headers: Record<string, string>
  /** The body's text; `null` for none. */
  body: string | null
  /** The event to rejoin after. */
  lastEventId?: string
}

/**
 * How `webSocketTransport` reaches its sockets.
 *
 * @example
 * const options: WebSocketTransportOptions = { url: 'wss://agent.example/chat', WebSocket: WebSocket }
 *
 * @beta Experimental: the shape may change in a minor release.
 */
export interface WebSocketTransportOptions {
  /**
   * Where to connect: a `ws:`/`wss:` URL, or one made from the request (a resume
   * may go elsewhere than a send). Default: the request's url with `http` turned
   * into `ws` (a relative url is resolved against the page).
   */
  url?: string | ((request: StreamRequest) => string)
  /** Make the socket yourself (subprotocols, a token in the URL, a test double); replaces `url`. */
  socketFor?: (request: StreamRequest) => WebSocketLike
  /** The constructor to use; default the global `WebSocket` (Node 22 and browsers). */
  WebSocket?: WebSocketConstructor
  /** Subprotocols to ask for. */
  protocols?: string | string[]
}

/**
 * Streams over a WebSocket, one socket per request.
 *
 * Once the socket opens, the request goes as its first message, a
 * `WebSocketRequestMessage` (JSON). Then every incoming message is one frame
 * whose `data` is the message's text, exactly what an SSE `data:` line would
 * carry (a binary message is read as UTF-8); a `[DONE]` message is the same
 * sentinel it is over SSE. The rule has no `event:` or `id:`: a protocol that
 * needs them (an id to resume from) needs the HTTP transport or its own.
 *
 * A close with code 1000 (or 1005, no code) ends the stream cleanly, like the end
 * of an HTTP body: a turn whose protocol had not ended yet is truncated. Any other
 * close (1006 for a dropped connection, 1011, ...) is a lost connection, a
 * retryable `network` error, so a resume strategy reconnects. A socket that does
 * not open is a `network` error too (the WebSocket API does not say why). The
 * caller's abort (the client's `stop()`) closes the socket with 1000.
 * Status is always 200 and there are no headers: give the client its `protocol`
 * (or `protocols`) rather than rely on header detection.
 *
 * @example
 * const transport = webSocketTransport({ url: 'wss://agent.example/chat' })
 * const client = new AgentClient(createAgentStore(), { url: '/chat', transport, protocol: 'ui-message' })
 *
 * @beta Experimental: the shape may change in a minor release.
 */
export function webSocketTransport(options: WebSocketTransportOptions = {}): StreamTransport {
  return {
    async open(request, hooks = {}) {
      const message = JSON.stringify(requestMessage(request))
      const idleMs = request.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS
      const line = new Lifeline(request.signal, idleMs)
      if (line.callerAborted) {
        line.dispose()
        return abortedStream()
      }
      let socket: WebSocketLike
      try {
        socket = options.socketFor ? options.socketFor(request) : openSocket(options, request)
      } catch (thrown) {
        line.dispose()
        if (thrown instanceof WeftStreamError) throw thrown
        throw networkError('Could not open the WebSocket', thrown)
      }
      try {
        socket.binaryType = 'arraybuffer'
      } catch {
        // A socket that will not change it hands binary messages as it likes; they are decoded below.
      }

      const queue: SSEFrame[] = []
      let closed: SocketEvent | undefined
      let wake: (() => void) | undefined
      let isOpen = false
      let settleOpen: ((ok: boolean) => void) | undefined
      const opened = new Promise<boolean>((resolve) => (settleOpen = resolve))
      const decoder = new TextDecoder()
      socket.addEventListener('open', () => {
        isOpen = true
        settleOpen?.(true)
      })
      socket.addEventListener('message', (event) => {
        if (closed) return
        queue.push({ data: textOf((event as SocketEvent).data, decoder) })
        wake?.()
      })
      socket.addEventListener('close', (event) => {
        const { code, reason } = event as SocketEvent
        closed = { code: code ?? 1005, reason: reason ?? '' }
        settleOpen?.(false)
        wake?.()
      })
      // An error is always followed by a close, which says the rest.
      socket.addEventListener('error', () => {})
      const shut = () => {
        if (!closed) {
          try {
            socket.close(1000)
          } catch {
            // Closing a socket that is still connecting throws in some runtimes; it is dropped anyway.
          }
        }
      }
      request.signal?.addEventListener('abort', shut, { once: true })
      const release = () => {
        request.signal?.removeEventListener('abort', shut)
        shut()
      }

      let ok: boolean
      try {
        ok = await line.within(opened)
      } catch {
        release()
        line.dispose()
        if (line.callerAborted) return abortedStream()
        throw new WeftStreamError(weftError('timeout', `The WebSocket did not open within ${idleMs} ms`))
      }
      if (!ok || !isOpen) {
        release()
        line.dispose()
        if (line.callerAborted) return abortedStream()
        throw new WeftStreamError(weftError('network', `The WebSocket did not open${closeDetail(closed)}`, { code: closeCode(closed) }))
      }
      try {
        socket.send(message)
      } catch (thrown) {
        release()
        line.dispose()
        throw networkError('Could not send the request over the WebSocket', thrown)
      }

      return pulledStream({
        line,
        idleMs,
        readPastDone: request.readPastDone === true,
        hooks,
        next: () => {
          if (queue.length > 0) return Promise.resolve(queue.splice(0))
          if (closed) return Promise.resolve(ended(closed))
          return new Promise<SSEFrame[] | null>((resolve, reject) => {
            wake = () => {
              wake = undefined
              if (queue.length > 0) resolve(queue.splice(0))
              else if (closed) {
                try {
                  resolve(ended(closed))
                } catch (thrown) {
                  reject(thrown)
                }
              }
            }
          })
        },
        failure: (thrown) => (thrown instanceof WeftStreamError ? thrown : networkError('The WebSocket failed', thrown)),
        close: release,
      })
    },
  }
}

/** A clean close ends the stream; any other is a lost connection. */
function ended(closed: SocketEvent): null {
  if (closed.code === 1000 || closed.code === 1005) return null
  throw new WeftStreamError(weftError('network', `The WebSocket closed while streaming${closeDetail(closed)}`, { code: closeCode(closed) }))
}

function closeDetail(closed: SocketEvent | undefined): string {
  if (!closed) return ''
  return ` (code ${closed.code}${closed.reason ? `: ${quote(closed.reason)}` : ''})`
}

function closeCode(closed: SocketEvent | undefined): string | undefined {
  return closed?.code !== undefined ? `websocket_${closed.code}` : undefined
}

function openSocket(options: WebSocketTransportOptions, request: StreamRequest): WebSocketLike {
  const Ctor = options.WebSocket ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket
  if (!Ctor) throw new WeftStreamError(weftError('validation', 'No WebSocket here: pass webSocketTransport({ WebSocket }) (the `ws` package in Node before 22)'))
  const url = typeof options.url === 'function' ? options.url(request) : (options.url ?? socketUrl(request.url))
  return options.protocols === undefined ? new Ctor(url) : new Ctor(url, options.protocols)
}

/** The request's url as a WebSocket url: `http` becomes `ws`, a relative one is resolved against the page. */
function socketUrl(url: string): string {
  const base = (globalThis as { location?: { href?: string } }).location?.href
  let parsed: URL
  try {
    parsed = new URL(url, base)
  } catch {
    throw new WeftStreamError(weftError('validation', `Cannot make a WebSocket url of "${quote(url)}": pass webSocketTransport({ url })`))
  }
  if (parsed.protocol === 'http:') parsed.protocol = 'ws:'
  else if (parsed.protocol === 'https:') parsed.protocol = 'wss:'
  return parsed.href
}

/** The first message: what of the request a socket can carry. */
function requestMessage(request: StreamRequest): WebSocketRequestMessage {
  const headers: Record<string, string> = {}
  new Headers(request.headers).forEach((value, name) => (headers[name] = value))
  const message: WebSocketRequestMessage = {
    type: 'request',
    url: request.url,
    method: request.method ?? 'GET',
    headers,
    body: bodyText(request.body),
  }
  if (request.lastEventId) message.lastEventId = request.lastEventId
  return message
}

function bodyText(body: BodyInit | null | undefined): string | null {
  if (body == null) return null
  if (typeof body === 'string') return body
  if (body instanceof URLSearchParams) return body.toString()
  throw new WeftStreamError(
    weftError('validation', 'A WebSocket request carries a text body; this one is binary or a form (give the client an `upload` for files)'),
  )
}

function textOf(data: unknown, decoder: TextDecoder): string {
  if (typeof data === 'string') return data
  if (data instanceof ArrayBuffer || ArrayBuffer.isView(data)) return decoder.decode(data)
  return String(data)
}
