/**
 * A quarantined record as JSON text, for a person to keep or repair. A storage
 * can hand back what JSON cannot hold (a BigInt, a Map, a cycle, NaN from a
 * structured clone); those are written as tagged values instead of failing the
 * export or being lost without a trace.
 */

/** Deeper than this the export writes a marker: a record this deep is damaged beyond reading anyway. */
const MAX_DEPTH = 400

/**
 * `value` as indented JSON text. Never throws: a value JSON cannot hold is written
 * as a tag (`{ "$bigint": "12" }`, `{ "$number": "NaN" }`, `{ "$map": [[k, v]] }`,
 * `{ "$set": [...] }`, `{ "$date": "…" }`, `{ "$type": "Blob" }`, `"$circular"`).
 *
 * @example
 * rawJson({ n: 1n, when: new Date(0) }) // '{\n  "n": { "$bigint": "1" }, …'
 */
export function rawJson(value: unknown): string {
  try {
    return JSON.stringify(toJsonable(value, 0, new Set()), null, 2) ?? 'null'
  } catch {
    return JSON.stringify({ $unreadable: safeString(value) })
  }
}

function toJsonable(value: unknown, depth: number, ancestors: Set<object>): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value
    case 'number':
      return Number.isFinite(value) ? value : { $number: String(value) }
    case 'bigint':
      return { $bigint: value.toString() }
    case 'undefined':
      return undefined
    case 'object':
      break
    default:
      return { $type: typeof value }
  }
  if (value === null) return null
  if (ancestors.has(value)) return '$circular'
  if (depth >= MAX_DEPTH) return '$too-deep'
  ancestors.add(value)
  try {
    return objectJsonable(value, depth + 1, ancestors)
  } catch {
    return { $unreadable: safeString(value) }
  } finally {
    ancestors.delete(value)
  }
}

function objectJsonable(value: object, depth: number, ancestors: Set<object>): unknown {
  const inner = (item: unknown) => toJsonable(item, depth, ancestors)
  if (Array.isArray(value)) return value.map((item) => inner(item) ?? null)
  if (value instanceof Date) return { $date: Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString() }
  if (value instanceof Map) return { $map: [...value].map(([k, v]) => [inner(k) ?? null, inner(v) ?? null]) }
  if (value instanceof Set) return { $set: [...value].map((item) => inner(item) ?? null) }
  const prototype = Object.getPrototypeOf(value) as object | null
  const out: Record<string, unknown> = {}
  if (prototype !== Object.prototype && prototype !== null) out.$type = (value.constructor as { name?: unknown } | undefined)?.name ?? 'object'
  for (const key of Object.keys(value)) {
    const item = inner((value as Record<string, unknown>)[key])
    if (item !== undefined) Object.defineProperty(out, key, { value: item, enumerable: true, writable: true, configurable: true })
  }
  return out
}

function safeString(value: unknown): string {
  try {
    return String(value)
  } catch {
    return typeof value
  }
}
