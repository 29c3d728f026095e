/**
 * Only JSON data is stored. A value the model picked up that is not data (a
 * function a host or a patch put into `agentState`, a symbol, a class instance, a
 * cycle) would make every save of its conversation fail, in IndexedDB as in the
 * journal; instead it is left out of the stored copy and named, and the rest is
 * saved. The same walk checks a record on load, so what loads is what was saved.
 */

/**
 * A value with everything that is not JSON data left out, and the paths of what was.
 *
 * @example
 * const { value, dropped } = plainData({ a: 1, f: () => 1 }, 'state') // value { a: 1 }, dropped ['state.f (a function)']
 */
export interface PlainData<T> {
  value: T
  dropped: string[]
}

/** Deeper than this, a value is left out: no record the kit writes comes near it, and a walk must not overflow the stack. */
const MAX_DEPTH = 400

const DROP: unique symbol = Symbol('drop')
type Walked = unknown | typeof DROP

/**
 * `value` as plain JSON data: strings, finite numbers, booleans, null, arrays and
 * objects whose prototype is `Object.prototype` or null, with their own enumerable
 * string keys. Anything else is dropped (an array keeps its length: the slot becomes
 * null, as in JSON) and its path listed. `undefined` stands for an absent field and
 * is kept. Copy on write: the same value comes back when there was nothing to drop,
 * so a clean record costs one walk and no allocation. Never throws.
 *
 * @example
 * plainData({ when: new Date(0), n: 1 }, 'state').dropped // ['state.when (an instance of Date)']
 */
export function plainData<T>(value: T, path = '$'): PlainData<T> {
  const dropped: string[] = []
  const walked = walk(value, path, 0, new Set(), new Map(), dropped)
  return { value: (walked === DROP ? null : walked) as T, dropped }
}

function walk(value: unknown, path: string, depth: number, ancestors: Set<object>, done: Map<object, Walked>, dropped: string[]): Walked {
  switch (typeof value) {
    case 'string':
    case 'boolean':
    case 'undefined':
      return value
    case 'number':
      if (Number.isFinite(value)) return value
      dropped.push(`${path} (${String(value)})`)
      return DROP
    case 'object':
      break
    default:
      dropped.push(`${path} (a ${typeof value})`)
      return DROP
  }
  if (value === null) return value
  const object = value as object
  // A value reached twice (shared, not a cycle) is walked once: a damaged record must not cost exponential time.
  if (done.has(object)) return done.get(object)
  if (ancestors.has(object)) {
    dropped.push(`${path} (a circular reference)`)
    return DROP
  }
  if (depth >= MAX_DEPTH) {
    dropped.push(`${path} (nested deeper than ${MAX_DEPTH})`)
    return DROP
  }
  let result: Walked
  ancestors.add(object)
  try {
    result = Array.isArray(object) ? walkArray(object, path, depth, ancestors, done, dropped) : walkObject(object, path, depth, ancestors, done, dropped)
  } catch {
    // A proxy or a getter that throws: what cannot be read cannot be stored.
    dropped.push(`${path} (could not be read)`)
    result = DROP
  } finally {
    ancestors.delete(object)
  }
  done.set(object, result)
  return result
}

function walkArray(array: unknown[], path: string, depth: number, ancestors: Set<object>, done: Map<object, Walked>, dropped: string[]): Walked {
  let out: unknown[] | undefined
  for (let i = 0; i < array.length; i++) {
    const item = array[i]
    const next = walk(item, `${path}[${i}]`, depth + 1, ancestors, done, dropped)
    if (next !== item) (out ??= array.slice())[i] = next === DROP ? null : next
  }
  return out ?? array
}

function walkObject(object: object, path: string, depth: number, ancestors: Set<object>, done: Map<object, Walked>, dropped: string[]): Walked {
  const prototype = Object.getPrototypeOf(object) as object | null
  if (prototype !== Object.prototype && prototype !== null) {
    dropped.push(`${path} (${kindOf(object)})`)
    return DROP
  }
  const record = object as Record<string, unknown>
  let out: Record<string, unknown> | undefined
  for (const key of Object.keys(record)) {
    const item = record[key]
    const next = walk(item, `${path}.${key}`, depth + 1, ancestors, done, dropped)
    if (next === item) continue
    out ??= copyOf(record)
    if (next === DROP) delete out[key]
    else out[key] = next
  }
  return out ?? object
}

/** A plain copy of the object's own enumerable fields, read once each (a getter runs once). */
function copyOf(record: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(record)) {
    // defineProperty: a key such as `__proto__` is a field here, as it was in the source.
    Object.defineProperty(out, key, { value: record[key], enumerable: true, writable: true, configurable: true })
  }
  return out
}

function kindOf(object: object): string {
  const name = (object.constructor as { name?: unknown } | undefined)?.name
  return typeof name === 'string' && name !== '' && name !== 'Object' ? `an instance of ${name}` : 'an object with a prototype of its own'
}
