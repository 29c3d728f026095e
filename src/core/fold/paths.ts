/**
 * Paths inside a message's props (`items.0.title`, `items[0].title`).
 */
import { isSafeKey } from '../util/record'

/** Thrown (and caught inside the fold) when a path cannot be used. */
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
  const segments: string[] = []
  for (const part of path.split('.')) {
    // `a[0][1]` → `a`, `0`, `1`
    const match = /^([^[\]]*)((?:\[[^[\]]*\])*)$/.exec(part)
    if (!match || part === '') throw new PathError(`malformed path "${path}"`)
    if (match[1]) segments.push(match[1])
    for (const index of (match[2] ?? '').matchAll(/\[([^[\]]*)\]/g)) segments.push(index[1] ?? '')
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
  let node: Record<string, unknown> = root
  for (let i = 0; i < segments.length - 1; i++) {
    const s = segments[i] as string
    const next = node[s]
    if (next === null || typeof next !== 'object' || !Object.prototype.hasOwnProperty.call(node, s)) {
      node[s] = /^\d+$/.test(segments[i + 1] as string) ? [] : {}
    }
    node = node[s] as Record<string, unknown>
  }
  node[segments[segments.length - 1] as string] = value
}
