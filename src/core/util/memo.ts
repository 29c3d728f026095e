/**
 * One memo for everything derived from the store: a value per key, recomputed
 * only when one of its dependencies changed identity. The store replaces what
 * the fold touched and keeps the rest, so identity is the whole change signal.
 */

/** What `memo` keeps for one key. */
export interface Memo<V> {
  deps: readonly unknown[]
  value: V
}

/**
 * Computes a value for `key` once per set of dependencies. A recomputed array
 * whose items did not change (or a value `same` calls equal) keeps the previous
 * identity, so a selector built on it does not re-render its component.
 *
 * @example
 * const cache = new WeakMap<Turn, Memo<Message[]>>()
 * const messages = memo(cache, turn, [state.messages], () => turn.messageIds.map((id) => state.messages[id]))
 */
export function memo<K extends object, V>(
  cache: WeakMap<K, Memo<V>>,
  key: K,
  deps: readonly unknown[],
  compute: () => V,
  same: (a: V, b: V) => boolean = defaultSame,
): V {
  const cached = cache.get(key)
  if (cached && sameItems(cached.deps, deps)) return cached.value
  const computed = compute()
  const value = cached && same(cached.value, computed) ? cached.value : computed
  cache.set(key, { deps, value })
  return value
}

function defaultSame<V>(a: V, b: V): boolean {
  return Array.isArray(a) && Array.isArray(b) ? sameItems(a, b) : Object.is(a, b)
}

/**
 * Two arrays with the same items, by identity, in the same order.
 *
 * @example
 * sameItems([a, b], [a, b]) // true
 */
export function sameItems(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a === b) return true
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}
