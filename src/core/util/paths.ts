/**
 * Paths inside a message's props (`items.0.title`, `items[0].title`).
 */
import { isSafeKey, writable } from './record'

/**
 * Thrown (and caught inside the fold) when a path cannot be used.
 *
 * @example
 * try { parsePath('items[x') } catch (e) { console.log(e instanceof PathError) } // true: malformed path "items[x"
 */
export class PathError extends Error {
  override name = 'PathError'
}

/**
 * The most segments a path may have. Real props are a few levels deep; a path of
 * thousands would build a structure that overflows the stack when it is copied.
 *
 * @example
 * parsePath(Array(MAX_PATH_SEGMENTS + 1).fill('a').join('.')) // throws PathError
 */
export const MAX_PATH_SEGMENTS = 64

/**
 * Split a dot/bracket path into segments; an empty path is `[]` (the whole props).
 *
 * @example
 * parsePath('items[0].title') // ['items', '0', 'title']
 */
export function parsePath(path: string): readonly string[] {
  if (path === '') return NO_SEGMENTS
  const cached = parsedPaths.get(path)
  if (cached) return cached
  const segments = splitPath(path)
  // Streams use a handful of paths over and over; the cache is bounded for the rest.
  if (parsedPaths.size >= MAX_CACHED_PATHS) parsedPaths.clear()
  parsedPaths.set(path, segments)
  return segments
}

const NO_SEGMENTS: readonly string[] = Object.freeze([])
const MAX_CACHED_PATHS = 512
const parsedPaths = new Map<string, readonly string[]>()

function splitPath(path: string): readonly string[] {
  // A scanner, not regular expressions: tool input writes a new path per value it streams.
  const segments: string[] = []
  let at = 0
  while (at <= path.length) {
    // One dot-separated part: a name, then any number of [index] groups.
    let end = at
    while (end < path.length && path.charCodeAt(end) !== DOT && path.charCodeAt(end) !== OPEN) {
      if (path.charCodeAt(end) === CLOSE) throw new PathError(`malformed path "${path}"`)
      end++
    }
    const name = path.slice(at, end)
    let groups = 0
    while (end < path.length && path.charCodeAt(end) === OPEN) {
      const close = path.indexOf(']', end + 1)
      if (close < 0) throw new PathError(`malformed path "${path}"`)
      const index = path.slice(end + 1, close)
      if (index.includes('[') || index.includes('.')) throw new PathError(`malformed path "${path}"`)
      if (groups === 0 && name) segments.push(name)
      segments.push(index)
      groups++
      end = close + 1
    }
    if (groups === 0) {
      if (name === '') throw new PathError(`malformed path "${path}"`)
      segments.push(name)
    }
    if (end < path.length && path.charCodeAt(end) !== DOT) throw new PathError(`malformed path "${path}"`)
    at = end + 1
  }
  if (segments.length > MAX_PATH_SEGMENTS) {
    throw new PathError(`a path of ${segments.length} segments is deeper than the limit of ${MAX_PATH_SEGMENTS}`)
  }
  for (const s of segments) {
    if (s === '') throw new PathError(`empty segment in path "${path}"`)
    if (!isSafeKey(s)) throw new PathError(`path "${path}" names a forbidden key "${s}"`)
  }
  return Object.freeze(segments)
}

const DOT = 46
const OPEN = 91
const CLOSE = 93

/**
 * Read the value at a path, or `undefined`.
 *
 * @example
 * getAt({ a: [{ b: 1 }] }, ['a', '0', 'b']) // 1
 */
export function getAt(root: unknown, segments: readonly string[]): unknown {
  let node = root
  for (const s of segments) {
    if (node === null || typeof node !== 'object') return undefined
    if (!Object.prototype.hasOwnProperty.call(node, s)) return undefined
    node = (node as Record<string, unknown>)[s]
  }
  return node
}

/**
 * Write a value at a path, creating objects (or arrays, for numeric segments) on the way.
 *
 * @example
 * const o = {}; setAt(o, ['a', '0'], 'x') // o = { a: ['x'] }
 */
export function setAt(root: Record<string, unknown>, segments: readonly string[], value: unknown): void {
  if (segments.length === 0) throw new PathError('cannot set the root')
  parentAt(root, segments)[segments[segments.length - 1] as string] = value
}

/**
 * The object holding the last segment of a path, created on the way (arrays for
 * numeric segments) where missing or not an object.
 *
 * @example
 * const o: Record<string, any> = {}; parentAt(o, ['a', 'b', 'c']) === o.a.b // true
 */
export function parentAt(root: Record<string, unknown>, segments: readonly string[]): Record<string, unknown> {
  let node: Record<string, unknown> = root
  for (let i = 0; i < segments.length - 1; i++) {
    const s = segments[i] as string
    // A plain read: the keys parsePath lets through inherit nothing that is an object,
    // and it costs one proxy trap on a draft where an own-key check costs two.
    let next = node[s]
    if (next === null || typeof next !== 'object') {
      next = NUMERIC.test(segments[i + 1] as string) ? [] : {}
      node[s] = next
      // Read back: on a draft, the stored value is what later writes must reach.
      next = node[s]
    } else if (Object.isFrozen(next)) {
      // A sealed value stored earlier in this batch is shared: write into a copy.
      node[s] = writable(next as object)
      next = node[s]
    }
    node = next as Record<string, unknown>
  }
  return node
}

const NUMERIC = /^\d+$/
