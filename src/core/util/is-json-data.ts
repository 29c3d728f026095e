/**
 * What JSON data is: `null`, booleans, finite numbers, strings, arrays and plain
 * objects of them, and nothing a JavaScript object brings along (its prototype's
 * members, functions, getters, class instances, cycles). Apart from JSON Patch
 * (json-data.ts), so a bundle that only checks values ships no patch code.
 */

/** Marks the end of a container's children in `isJsonData`'s walk. */
class Leave {
  constructor(readonly container: object) {}
}

/**
 * True when the value is JSON data all the way down: `null`, a boolean, a finite
 * number, a string, or an array (no holes, no other own properties) or a plain
 * object (prototype `Object.prototype` or `null`) whose own properties are all
 * enumerable string-keyed data properties holding JSON data. Functions,
 * symbols, `undefined`, bigints, class instances (a `Date`, a `Map`), getters
 * and cycles are not. A value shared in two places is fine. Never throws, and
 * walks without recursion, so depth costs no stack.
 *
 * @example
 * isJsonData({ a: [1, 'x', null] })     // true
 * isJsonData({ f: Object.prototype.toString }) // false
 * isJsonData(new Date())                // false
 */
export function isJsonData(value: unknown): boolean {
  // The containers on the way to the one being read: meeting one again is a cycle.
  const onPath = new Set<object>()
  const stack: unknown[] = [value]
  while (stack.length > 0) {
    const item = stack.pop()
    if (item instanceof Leave) {
      onPath.delete(item.container)
      continue
    }
    if (item === null || typeof item === 'string' || typeof item === 'boolean') continue
    if (typeof item === 'number') {
      if (!Number.isFinite(item)) return false
      continue
    }
    if (typeof item !== 'object' || onPath.has(item)) return false
    const children = ownData(item)
    if (!children) return false
    onPath.add(item)
    stack.push(new Leave(item))
    for (const child of children) stack.push(child)
  }
  return true
}

/** The values a plain array or object holds, or `undefined` when it is anything else. */
function ownData(container: object): unknown[] | undefined {
  const proto = Object.getPrototypeOf(container) as unknown
  const isArray = Array.isArray(container)
  if (isArray ? proto !== Array.prototype : proto !== Object.prototype && proto !== null) return undefined
  const keys = Reflect.ownKeys(container)
  // An array's own keys are its indices and `length`: one more key, or a hole, is not JSON.
  if (isArray && keys.length !== (container as unknown[]).length + 1) return undefined
  const values: unknown[] = []
  for (const key of keys) {
    if (typeof key !== 'string') return undefined
    if (isArray && key === 'length') continue
    const descriptor = Object.getOwnPropertyDescriptor(container, key)
    if (!descriptor || !descriptor.enumerable || !('value' in descriptor)) return undefined
    values.push(descriptor.value)
  }
  return values
}
