/**
 * A fresh `JSON.parse` result made safe to share: frozen all through, checked for
 * keys that could reach a prototype and for depth. Both the streamed input's
 * native path and the incremental parser's whole-container path use it.
 */
import { isSafeKey } from './record'

/**
 * Freeze every container of a fresh `JSON.parse` result and return how deep it
 * nests, in containers (`0` for a primitive); `-1` as soon as it holds a key that
 * could reach a prototype, a number too large to be finite, or nests deeper than `limit`, and then the caller reads
 * the text another way, to report it exactly. The caller seals a root it stores.
 *
 * @example
 * freezeClean(JSON.parse('{"a":[1]}'), 64) // 2, and the object and its array are frozen
 * freezeClean(JSON.parse('{"__proto__":1}'), 64) // -1
 */
export function freezeClean(value: unknown, limit: number): number {
  // A number too large for a double is left out by the incremental parser; `Infinity` here would disagree with it.
  if (typeof value === 'number') return Number.isFinite(value) ? 0 : -1
  if (value === null || typeof value !== 'object') return 0
  if (limit === 0) return -1
  let deepest = 0
  if (Array.isArray(value)) {
    for (const item of value) {
      const depth = freezeClean(item, limit - 1)
      if (depth < 0) return -1
      if (depth > deepest) deepest = depth
    }
  } else {
    for (const key in value) {
      if (!isSafeKey(key)) return -1
      const depth = freezeClean((value as Record<string, unknown>)[key], limit - 1)
      if (depth < 0) return -1
      if (depth > deepest) deepest = depth
    }
  }
  Object.freeze(value)
  return deepest + 1
}
