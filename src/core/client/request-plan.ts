/**
 * The first request of a send: the host's url, method, headers and body, made
 * from the send input.
 */
import type { AgentClientOptions, RequestBody, SendInput } from './options'
import type { RequestTrigger } from '../protocol/request'
import { weftError, WeftStreamError } from '../model/errors'
import type { StreamRequest } from '../transport/open-stream'

/** A request the client will open as a stream (it adds the signal and `fetch`). */
export type RequestPlan = Omit<StreamRequest, 'signal' | 'fetch' | 'idleTimeoutMs'> & { runId?: string }

/**
 * The user's text in a send input, if any.
 *
 * @example
 * textOf({ text: 'Hi', files: [] }) // 'Hi'
 */
export function textOf(input: SendInput | undefined): string | undefined {
  if (typeof input === 'string') return input
  return typeof input?.text === 'string' ? input.text : undefined
}

/**
 * The request `url`, `method`, `headers` and `body` describe for one send;
 * objects are sent as JSON. `built` is the protocol's own body: sent unless the
 * host's `body` replaces it (a `body` function is handed it).
 *
 * @example
 * defaultRequest({ url: '/api/agent' }, 'Hi', 'turn-1') // POST {"input":"Hi"}
 */
export function defaultRequest(
  options: AgentClientOptions,
  input: SendInput | undefined,
  turnId: string,
  built?: RequestBody,
  trigger: RequestTrigger = 'submit',
): RequestPlan {
  if (!options.url) throw new WeftStreamError(weftError('validation', 'the agent client needs a url (or a source)'))
  const raw = hostBody(options, input, turnId, built, trigger) ?? { input: textOf(input) ?? '' }
  const headers = new Headers(typeof options.headers === 'function' ? options.headers() : options.headers)
  const method = options.method ?? 'POST'
  let body: BodyInit | null = null
  if (method === 'GET' || method === 'HEAD') body = null
  else if (typeof raw === 'string' || raw instanceof Blob || raw instanceof FormData || raw instanceof URLSearchParams) body = raw
  else {
    body = JSON.stringify(raw)
    if (!headers.has('content-type')) headers.set('content-type', 'application/json')
  }
  return { url: options.url, method, headers, body, credentials: options.credentials }
}

/**
 * The body after the host's `body` option: its value, or what its function makes
 * of a copy of the built body; without the option, the built body.
 *
 * @example
 * hostBody({ body: (_input, { built }) => ({ ...(built as object), model: 'small' }) }, 'Hi', 'turn-1', { messages: [] }, 'submit') // { messages: [], model: 'small' }
 */
export function hostBody(
  options: AgentClientOptions,
  input: SendInput | undefined,
  turnId: string,
  built: RequestBody | undefined,
  trigger: RequestTrigger,
): RequestBody | undefined {
  if (typeof options.body === 'function') return options.body(input, { turnId, built: ownCopy(built), trigger })
  return options.body ?? built
}

/**
 * A built body the host may change: a protocol reuses the messages of unchanged
 * turns from one request to the next (see `memoByTurn`), so they are not handed
 * out as they are. A body that cannot be cloned (a `FormData` of files) was built
 * for this request alone, and goes as it is.
 */
function ownCopy(built: RequestBody | undefined): RequestBody | undefined {
  if (built === null || typeof built !== 'object' || built instanceof Blob || built instanceof FormData || built instanceof URLSearchParams) return built
  try {
    return structuredClone(built)
  } catch {
    return built
  }
}
