/**
 * Small URL edits that keep whatever query the host already put on a URL, and
 * work on relative URLs (no base needed).
 */

/**
 * Set query parameters on a URL, replacing those of the same name.
 *
 * @example
 * withQuery('/resume?delay=30', { id: 's1', after: 12 }) // '/resume?delay=30&id=s1&after=12'
 */
export function withQuery(url: string, params: Record<string, string | number>): string {
  const { path, query, hash } = split(url)
  const search = new URLSearchParams(query)
  for (const [name, value] of Object.entries(params)) search.set(name, String(value))
  const text = search.toString()
  return `${path}${text ? `?${text}` : ''}${hash}`
}

/**
 * Append path segments (each encoded) before the query.
 *
 * @example
 * joinPath('/api/chat?x=1', 'chat 1', 'stream') // '/api/chat/chat%201/stream?x=1'
 */
export function joinPath(url: string, ...segments: string[]): string {
  const { path, query, hash } = split(url)
  const joined = segments.map((s) => encodeURIComponent(s)).join('/')
  return `${path.replace(/\/+$/, '')}/${joined}${query ? `?${query}` : ''}${hash}`
}

function split(url: string): { path: string; query: string; hash: string } {
  const hashAt = url.indexOf('#')
  const hash = hashAt >= 0 ? url.slice(hashAt) : ''
  const rest = hashAt >= 0 ? url.slice(0, hashAt) : url
  const queryAt = rest.indexOf('?')
  return queryAt >= 0
    ? { path: rest.slice(0, queryAt), query: rest.slice(queryAt + 1), hash }
    : { path: rest, query: '', hash }
}
