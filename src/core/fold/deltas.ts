/**
 * The four delta actions, applied to a message's props (an immer draft).
 */
import type { DeltaAction } from '../model/ops'
import { parentAt, parsePath, PathError } from '../util/paths'

/**
 * Thrown (and caught inside the fold, which records a problem) when a delta's
 * value cannot combine with what is there; what is there stays.
 *
 * @example
 * applyDelta({ content: 'Hi' }, 'append', 'content', null) // throws DeltaError, content stays 'Hi'
 */
export class DeltaError extends Error {
  override name = 'DeltaError'
}
import { isRecord, mergeInto, writable } from '../util/record'

/**
 * Apply one delta to `props` in place.
 *
 * - `append`: strings concatenate, arrays extend, objects append key by key; a value that
 *   cannot extend a string or an object throws `DeltaError` (the old value stays); a missing
 *   value or another scalar is set.
 * - `replace`: the value at the path (or all of props) is replaced.
 * - `merge`: deep merge of objects; arrays and scalars are replaced.
 * - `set`: the field at the path is set; with no path, a shallow assign into props.
 *
 * Throws `PathError` for a path it refuses; the fold turns that into a problem.
 *
 * @example
 * const props = { content: 'Hel' }
 * applyDelta(props, 'append', 'content', 'lo') // props.content === 'Hello'
 */
export function applyDelta(props: Record<string, unknown>, action: DeltaAction, path: string, value: unknown): void {
  const segments = parsePath(path)
  if (segments.length === 0) {
    applyAtRoot(props, action, value)
    return
  }
  // One walk to the parent serves both the read and the write. Plain reads: what a
  // safe key inherits is a function at most, which appends and merges replace.
  const parent = parentAt(props, segments)
  const key = segments[segments.length - 1] as string
  switch (action) {
    case 'append':
      parent[key] = appended(parent[key], value)
      return
    case 'merge': {
      const current = parent[key]
      if (isRecord(current) && isRecord(value)) mergeInto((parent[key] = writable(current)) as Record<string, unknown>, value)
      else parent[key] = value
      return
    }
    case 'replace':
    case 'set':
      parent[key] = value
      return
  }
}

function applyAtRoot(props: Record<string, unknown>, action: DeltaAction, value: unknown): void {
  if (!isRecord(value)) throw new PathError(`a ${action} at the root needs an object, got ${typeName(value)}`)
  switch (action) {
    case 'append':
      appendInto(props, value)
      return
    case 'merge':
      mergeInto(props, value)
      return
    case 'replace':
      for (const key of Object.keys(props)) delete props[key]
      Object.assign(props, value)
      return
    case 'set':
      Object.assign(props, value)
      return
  }
}

/** The result of appending `value` to `current`, reusing `current` when it can grow in place. */
function appended(current: unknown, value: unknown): unknown {
  if (typeof current === 'string') {
    if (typeof value === 'string') return current + value
    // Text already shown is never replaced by a value that cannot extend it.
    throw new DeltaError(`cannot append ${typeName(value)} to text; the text was kept`)
  }
  if (Array.isArray(current)) {
    const items = writable(current)
    if (Array.isArray(value)) items.push(...value)
    else items.push(value)
    return items
  }
  if (isRecord(current)) {
    if (isRecord(value)) {
      const record = writable(current)
      appendInto(record, value)
      return record
    }
    throw new DeltaError(`cannot append ${typeName(value)} to an object; the object was kept`)
  }
  return value
}

function appendInto(target: Record<string, unknown>, value: Record<string, unknown>): void {
  let refused: DeltaError | undefined
  for (const key of Object.keys(value)) {
    // One key that cannot combine keeps its value; the others still append.
    try {
      target[key] = appended(target[key], value[key])
    } catch (thrown) {
      if (!(thrown instanceof DeltaError)) throw thrown
      refused = new DeltaError(`"${key}": ${thrown.message}`)
    }
  }
  if (refused) throw refused
}

function typeName(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value
}
