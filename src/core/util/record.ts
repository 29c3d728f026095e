/**
 * Small helpers for reading wire data safely: own-key lookups, plain-record
 * checks and the guard that keeps wire data away from object prototypes.
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
 * The record's own entry for `key`, read without drafting it: on an immer draft a
 * plain read makes a draft of the value, which a scan that only looks should not
 * pay for (nor leave for the batch's end to finalise). Same result as `own`.
 *
 * @example
 * peek({ a: 1 }, 'a')           // 1
 * peek({ a: 1 }, 'constructor') // undefined
 */
export function peek<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.getOwnPropertyDescriptor(record, key)?.value as T | undefined
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
 * With `frozenInside`, the copy's own container stays writable and every
 * container inside it is frozen. That is for values only the delta writers
 * touch afterwards (a message's props, a timeline row's fields): they copy a
 * frozen container before writing into it. It lets immer leave a long tool
 * input or output alone when it finishes a batch, instead of walking every
 * object in it.
 *
 * @example
 * const event = { props: { content: 'a' } }
 * const stored = cleanCopy(event.props) // stored !== event.props
 */
export function cleanCopy<T>(value: T, onDrop?: (key: string) => void, frozenInside = false): T {
  if (value === null || typeof value !== 'object') return value
  if (sealedValues.has(value)) return value
  return copyOf(value, onDrop, frozenInside) as T
}

function copyOf(value: object, onDrop: ((key: string) => void) | undefined, frozenInside: boolean): object {
  if (Array.isArray(value)) {
    const items = new Array<unknown>(value.length)
    for (let i = 0; i < value.length; i++) items[i] = innerCopy(value[i], onDrop, frozenInside)
    return items
  }
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(value)) {
    if (!isSafeKey(key)) {
      onDrop?.(key)
      continue
    }
    out[key] = innerCopy((value as Record<string, unknown>)[key], onDrop, frozenInside)
  }
  return out
}

function innerCopy(value: unknown, onDrop: ((key: string) => void) | undefined, frozen: boolean): unknown {
  if (value === null || typeof value !== 'object' || sealedValues.has(value)) return value
  const copy = copyOf(value, onDrop, frozen)
  return frozen ? Object.freeze(copy) : copy
}

/**
 * The value when it is a plain record, else `undefined`.
 *
 * @example
 * recordOf({ a: 1 }) // { a: 1 }
 * recordOf([1])      // undefined
 */
export function recordOf(value: unknown): Record<string, unknown> | undefined {
  return isRecord(value) ? value : undefined
}

/**
 * The fields of a wire record that weft does not read, so they can be kept (for
 * example as a message's `props.extra`) instead of dropped: a server's own
 * additions, or fields of a newer protocol version. `undefined` when there are none.
 * Keys that could reach a prototype (`__proto__`, `constructor`, `prototype`) and
 * `undefined` values are left out.
 *
 * Decoders call it on every event, so a record with nothing beyond `read` costs one
 * pass over its keys and allocates nothing (no key list, no object): the result is
 * made only once a key outside `read` turns up.
 *
 * @example
 * extrasOf({ type: 'text-end', id: 'a', cost: 3 }, new Set(['type', 'id'])) // { cost: 3 }
 * extrasOf({ type: 'text-end', id: 'a' }, new Set(['type', 'id']))          // undefined
 */
export function extrasOf(record: Record<string, unknown>, read: ReadonlySet<string>): Record<string, unknown> | undefined {
  let out: Record<string, unknown> | undefined
  for (const key in record) {
    if (read.has(key) || !isSafeKey(key) || !Object.prototype.hasOwnProperty.call(record, key)) continue
    const value = record[key]
    if (value !== undefined) (out ??= {})[key] = value
  }
  return out
}

/** Values the kit built itself: frozen, free of forbidden keys, safe to share. */
const sealedValues = new WeakSet<object>()

/**
 * Freeze a value the kit built and mark it clean, so the fold stores it as it
 * is instead of copying it (`cleanCopy` returns it unchanged). Only for values
 * whose keys were already checked and whose children are sealed too.
 *
 * @example
 * const input = seal({ city: 'Paris' })
 * cleanCopy(input) === input // true
 */
export function seal<T extends object>(value: T): T {
  Object.freeze(value)
  sealedValues.add(value)
  return value
}

/**
 * A container that may be written in place: the value itself, or a shallow copy
 * when it is frozen (a sealed value shared with earlier states).
 *
 * @example
 * const items = writable(seal([1, 2])) // a new, unfrozen [1, 2]
 */
export function writable<T extends object>(value: T): T {
  if (!Object.isFrozen(value)) return value
  return (Array.isArray(value) ? value.slice() : { ...value }) as T
}

/**
 * Deep-merge `value` into `target` in place, as the `merge` delta action does:
 * objects merge key by key, anything else (arrays included) is replaced. Objects
 * inside `target` that are frozen are copied before they are written.
 *
 * @example
 * const target = { a: { x: 1 } }
 * mergeInto(target, { a: { y: 2 }, b: [1] }) // target is { a: { x: 1, y: 2 }, b: [1] }
 */
export function mergeInto(target: Record<string, unknown>, value: Record<string, unknown>): void {
  for (const key of Object.keys(value)) {
    const incoming = value[key]
    const existing = target[key]
    if (isRecord(existing) && isRecord(incoming)) mergeInto((target[key] = writable(existing)) as Record<string, unknown>, incoming)
    else target[key] = incoming
  }
}

/**
 * `incoming` merged into `current` as `mergeInto` does: `current` itself (or its
 * writable copy, when frozen) when it is an object, else `incoming`. The `extra` of
 * rows, lanes and turns merges this way where their other fields are replaced.
 * Both must be values the caller owns (copies, not the wire's objects).
 *
 * @example
 * mergedRecord({ a: { x: 1 }, b: 1 }, { a: { y: 2 } }) // { a: { x: 1, y: 2 }, b: 1 }
 * mergedRecord(undefined, { a: 1 })                 // { a: 1 }
 */
export function mergedRecord(current: unknown, incoming: Record<string, unknown>): Record<string, unknown> {
  if (!isRecord(current)) return incoming
  const target = writable(current)
  mergeInto(target, incoming)
  return target
}
