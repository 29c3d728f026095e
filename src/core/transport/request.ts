/**
 * Pieces shared by the streaming and the JSON request paths.
 */
import { quote, weftError, WeftStreamError } from '../model/errors'
import { isRecord } from '../util/record'

/**
 * What to fetch and how. `fetch` replaces the global one (tests, proxies, auth
 * wrappers).
 *
 * @example
 * const req: HttpRequest = { url: '/api/chat', method: 'POST', body: JSON.stringify({ text: 'hi' }) }
 */
export interface HttpRequest {
  url: string
  method?: string
  headers?: HeadersInit
  body?: BodyInit | null
  credentials?: RequestCredentials
  signal?: AbortSignal
  fetch?: typeof fetch
}

/**
 * Build the `RequestInit` for a request, adding `Accept` when the caller did not
 * set one.
 *
 * @example
 * const init = requestInit({ url: '/x' }, 'application/json', controller.signal)
 */
export function requestInit(
  req: HttpRequest,
  accept: string,
  signal: AbortSignal | undefined,
  extra?: HeadersInit,
): RequestInit {
  const headers = new Headers(req.headers)
  if (!headers.has('accept')) headers.set('accept', accept)
  if (extra) new Headers(extra).forEach((value, name) => headers.set(name, value))
  const init: RequestInit & { duplex?: 'half' } = { method: req.method ?? 'GET', headers }
  if (signal) init.signal = signal
  if (req.body != null) init.body = req.body
  if (req.credentials !== undefined) init.credentials = req.credentials
  // Node's fetch refuses a streamed request body unless told it is half duplex.
  if (typeof ReadableStream !== 'undefined' && req.body instanceof ReadableStream) init.duplex = 'half'
  return init
}

/**
 * A `network` error (retryable) for a fetch or body read that failed, naming the
 * low-level cause when the runtime gives one (e.g. `ECONNREFUSED`).
 *
 * @example
 * throw networkError('request failed', new TypeError('fetch failed'))
 */
export function networkError(what: string, thrown: unknown): WeftStreamError {
  const message = thrown instanceof Error ? thrown.message : String(thrown)
  const cause = thrown instanceof Error ? thrown.cause : undefined
  const causeMessage = cause instanceof Error && cause.message !== message ? cause.message : undefined
  const code = isRecord(cause) && typeof cause.code === 'string' ? cause.code : undefined
  const full = causeMessage ? `${message} (${causeMessage})` : message
  return new WeftStreamError(weftError('network', `${what}: ${quote(full, 200)}`, { code }))
}

/**
 * Read at most about `maxBytes` of a body as text and cancel the rest: enough to
 * quote in an error without downloading a whole page. Never throws; gives what
 * it got.
 *
 * @example
 * const start = await readStart(response, 4096)
 */
export async function readStart(
  response: Response,
  maxBytes: number,
  wait: <T>(work: Promise<T>) => Promise<T> = (work) => work,
): Promise<string> {
  const body = response.body
  if (!body) return ''
  const reader = body.getReader()
  const decoder = new TextDecoder()
  let text = ''
  let bytes = 0
  try {
    while (bytes < maxBytes) {
      const { done, value } = await wait(reader.read())
      if (done) return text + decoder.decode()
      bytes += value.byteLength
      text += decoder.decode(value, { stream: true })
    }
  } catch {
    // The start is only for a message; a broken or aborted body still leaves what arrived.
  } finally {
    reader.cancel().catch(() => {})
  }
  return text + decoder.decode()
}
