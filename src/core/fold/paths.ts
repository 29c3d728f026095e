/**
 * Paths inside a message's props (`items.0.title`, `items[0].title`) and the
 * guard that keeps wire data away from object prototypes.
 */

/** Keys that would let wire data reach a prototype if written through. */
const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype'])

/**
 * True when a key may be written into the model.
 *
 * @example
 * isSafeKey('title')     // true
 * isSafeKey('__proto__') // false
 */
export function isSafeKey(key: string): boolean {
  return !FORBIDDEN_KEYS.has(key)
}

/** Thrown (and caught inside the fold) when a path cannot be used. */
export class PathError extends Error {
  override name = 'PathError'
}

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

/**
 * A copy of wire data with every forbidden key removed, so nothing a server
 * sends can reach a prototype later (Object.assign, spreads, drafts). Returns the
 * same value when there was nothing to remove, which is the common case.
 *
 * @example
 * clean(JSON.parse('{"__proto__":{"x":1},"a":2}')) // { a: 2 }
 */
export function clean<T>(value: T, onDrop?: (key: string) => void): T {
  if (value === null || typeof value !== 'object') return value
  if (Array.isArray(value)) {
    let out: unknown[] | undefined
    for (let i = 0; i < value.length; i++) {
      const item = value[i]
      const cleaned = clean(item, onDrop)
      if (cleaned !== item) (out ??= value.slice())[i] = cleaned
    }
    return (out ?? value) as T
  }
  let out: Record<string, unknown> | undefined
  for (const key of Object.keys(value)) {
    const item = (value as Record<string, unknown>)[key]
    if (!isSafeKey(key)) {
      onDrop?.(key)
      out ??= { ...(value as Record<string, unknown>) }
      delete out[key]
      continue
    }
    const cleaned = clean(item, onDrop)
    if (cleaned !== item) (out ??= { ...(value as Record<string, unknown>) })[key] = cleaned
  }
  return (out ?? value) as T
}

/**
 * The record's own entry for `key`, never something inherited: an id such as
 * `constructor` or `toString` sent by a server must not find `Object.prototype`'s.
 *
 * @example
 * own({ a: 1 }, 'a')           // 1
 * own({ a: 1 }, 'constructor') // undefined
 */
export function own<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined
}

/**
 * True for plain data objects (not arrays, not null).
 *
 * @example
 * isRecord({}) // true
 * isRecord([]) // false
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

/**
 * A deep copy of wire data with every forbidden key removed. The fold stores
 * copies, never the caller's objects: later deltas in the same batch mutate what
 * was stored, and must not reach back into the events a host passed in.
 *
 * @example
 * const event = { props: { content: 'a' } }
 * const stored = cleanCopy(event.props) // stored !== event.props
 */
export function cleanCopy<T>(value: T, onDrop?: (key: string) => void): T {
  if (value === null || typeof value !== 'object') return value
  if (Array.isArray(value)) return value.map((item) => cleanCopy(item, onDrop)) as T
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(value)) {
    if (!isSafeKey(key)) {
      onDrop?.(key)
      continue
    }
    out[key] = cleanCopy((value as Record<string, unknown>)[key], onDrop)
  }
  return out as T
}
