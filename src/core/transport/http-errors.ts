/**
 * Map an unsuccessful HTTP response to a typed error.
 */
import { quote, weftError, type ErrorType, type WeftError } from '../model/errors'
import { isRecord } from '../util/record'

/**
 * Read a `Retry-After` header value (delay in seconds, or an HTTP date) as
 * milliseconds from `now`. A date in the past gives 0; anything unreadable gives
 * `undefined`.
 *
 * @example
 * parseRetryAfter('2')                                  // 2000
 * parseRetryAfter('Wed, 21 Oct 2015 07:28:00 GMT', Date.parse('Wed, 21 Oct 2015 07:27:00 GMT')) // 60000
 */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | undefined {
  if (value == null) return undefined
  const trimmed = value.trim()
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000)
  // Date.parse accepts bare numbers and other odd inputs; an HTTP date always names a weekday or month.
  if (!/[a-z]/i.test(trimmed)) return undefined
  const at = Date.parse(trimmed)
  return Number.isNaN(at) ? undefined : Math.max(0, at - now)
}

/**
 * Turn a non-2xx response (and its body text, if read) into a `WeftError`:
 * 401/403 `authentication`, 408 `timeout`, 429 `rate_limit`, other 4xx
 * `validation`, 5xx `internal` (retryable). `Retry-After` becomes `retryAfterMs`;
 * a JSON body's `message`/`error`/`code` are lifted into the error, and the start
 * of the body is kept as `detail`.
 *
 * @example
 * const res = await fetch(url)
 * if (!res.ok) throw new WeftStreamError(httpError(res, await res.text()))
 */
export function httpError(response: Response, bodyText?: string): WeftError {
  const { status } = response
  const body = bodyText?.trim() ?? ''
  const fromBody = readErrorBody(body)
  const head = `HTTP ${status}${response.statusText ? ` ${response.statusText}` : ''}`
  const message = fromBody.message ? `${head}: ${quote(fromBody.message, 200)}` : head
  const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'))
  return weftError(errorTypeForStatus(status), message, {
    status,
    code: fromBody.code,
    retryAfterMs,
    detail: body ? quote(body) : undefined,
  })
}

function errorTypeForStatus(status: number): ErrorType {
  if (status === 401 || status === 403) return 'authentication'
  if (status === 408) return 'timeout'
  if (status === 429) return 'rate_limit'
  if (status >= 400 && status < 500) return 'validation'
  if (status >= 500 && status < 600) return 'internal'
  return 'unknown'
}

/** The common shapes: `{message}`, `{error: "..."}`, `{error: {message, code}}`, `{detail: "..."}`. */
function readErrorBody(body: string): { message?: string; code?: string } {
  if (!body.startsWith('{')) return {}
  let parsed: unknown
  try {
    parsed = JSON.parse(body)
  } catch {
    return {}
  }
  if (!isRecord(parsed)) return {}
  const inner = isRecord(parsed.error) ? parsed.error : parsed
  const message = firstString(inner.message, parsed.error, parsed.message, parsed.detail)
  const code = firstString(inner.code, inner.type, parsed.code)
  return { message, code }
}

function firstString(...values: unknown[]): string | undefined {
  for (const v of values) if (typeof v === 'string' && v !== '') return v
  return undefined
}
