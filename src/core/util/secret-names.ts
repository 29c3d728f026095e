/**
 * Which names carry credentials: one rule for everything that keeps or shows a
 * request (the recorder's fixtures, the inspector's tap), so a header or query
 * parameter dropped from one is never kept by the other.
 */

/** Header names that carry credentials or sessions. */
const SECRET_NAME = /auth|cookie|token|secret|key|session|password|credential|signature|csrf|xsrf/i
/** Query parameters that do. */
const SECRET_PARAM = /token|key|secret|auth|sig|session|password|code|credential/i

/** What a redacted value is shown as. */
export const REDACTED = '[redacted]'

/**
 * True for a header name that looks like it carries a credential or a session.
 *
 * @example
 * isSecretName('Authorization') // true
 * isSecretName('content-type')  // false
 */
export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name)
}

/**
 * A URL without its user info and without query parameters that look like credentials.
 *
 * @example
 * scrubUrl('https://agent.example.com/chat?api_key=abc&q=1') // 'https://agent.example.com/chat?q=1'
 */
export function scrubUrl(raw: string): string {
  try {
    const url = new URL(raw, 'http://relative.invalid/')
    url.username = ''
    url.password = ''
    for (const key of [...url.searchParams.keys()]) if (SECRET_PARAM.test(key)) url.searchParams.delete(key)
    return url.origin === 'http://relative.invalid' ? url.pathname + url.search : url.toString()
  } catch {
    return raw.split('?')[0] ?? ''
  }
}

/**
 * Request headers as name and value, with the value of each secret-looking name replaced by `[redacted]`.
 *
 * @example
 * redactHeaders({ authorization: 'Bearer x', accept: 'text/event-stream' }) // { authorization: '[redacted]', accept: 'text/event-stream' }
 */
export function redactHeaders(headers: HeadersInit | undefined): Record<string, string> {
  const out: Record<string, string> = {}
  if (!headers) return out
  new Headers(headers).forEach((value, name) => {
    out[name] = isSecretName(name) ? REDACTED : value
  })
  return out
}
