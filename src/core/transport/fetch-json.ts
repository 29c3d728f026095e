/**
 * Plain JSON requests (starting a run, loading history) with the same error
 * mapping as streams.
 */
import { quote, weftError, WeftStreamError } from '../model/errors'
import { httpError } from './http-errors'
import { networkError, readStart, requestInit, type HttpRequest } from './request'

/**
 * A parsed JSON response.
 *
 * @example
 * const { response, data }: JSONResponse<{ runId: string }> = await fetchJSON({ url: '/runs', method: 'POST' })
 */
export interface JSONResponse<T> {
  response: Response
  data: T
}

/**
 * Fetch `req` and parse the body as JSON.
 *
 * Rejects with a `WeftStreamError`: `network` when the fetch or the body read
 * fails, the `httpError` mapping for a non-2xx status, `protocol` (quoting the
 * start of the body) when the body is not JSON. A response without a body (204,
 * or zero length, as some 202s are) resolves with `data` undefined, so type `T`
 * as `X | undefined` for such endpoints. An abort by the caller's signal rejects
 * with the abort reason as `fetch` does (normally a `DOMException` named
 * `AbortError`), not with a `WeftStreamError`.
 *
 * @example
 * const { data } = await fetchJSON<{ taskId: string; runId: string }>({
 *   url: '/api/v1/agent/runs', method: 'POST',
 *   headers: { 'content-type': 'application/json' }, body: JSON.stringify(input),
 * })
 */
export async function fetchJSON<T>(req: HttpRequest): Promise<JSONResponse<T>> {
  const doFetch = req.fetch ?? globalThis.fetch
  const rethrowAbort = (thrown: unknown): void => {
    if (req.signal?.aborted) throw thrown
  }

  let response: Response
  try {
    response = await doFetch(req.url, requestInit(req, 'application/json', req.signal))
  } catch (thrown) {
    rethrowAbort(thrown)
    throw networkError('Request failed', thrown)
  }

  if (!response.ok) {
    const text = await readStart(response, 8192)
    if (req.signal?.aborted) throw req.signal.reason
    throw new WeftStreamError(httpError(response, text))
  }

  let text: string
  try {
    text = await response.text()
  } catch (thrown) {
    rethrowAbort(thrown)
    throw networkError('Connection lost while reading the response', thrown)
  }
  if (text.trim() === '') return { response, data: undefined as T }
  try {
    return { response, data: JSON.parse(text) as T }
  } catch {
    const shown = quote(text.trim())
    const contentType = response.headers.get('content-type')
    const got = contentType ? ` (${contentType})` : ''
    throw new WeftStreamError(
      weftError('protocol', `Expected JSON${got}: "${shown}"`, { status: response.status, detail: shown }),
    )
  }
}
