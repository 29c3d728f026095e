/**
 * State a module keeps for one store, kept on the store itself rather than in a
 * module-level table keyed by it: the resume memory of its turns, the listener
 * that serves its per-entry subscriptions. The slot is a non-enumerable,
 * Symbol-keyed property of the store object (not of its zustand state), so it is
 * never serialized, never in a snapshot, and goes with the store.
 *
 * `createAgentStore` gives each store its slot when it makes it. Any other owner
 * (a store a host made with zustand directly, a plain object in a test) gets one
 * on first use, if it can still take a property.
 */

declare const valueType: unique symbol

/** The key of one kind of per-store local; `T` is the type of its value. */
export type StoreLocalKey<T> = symbol & { readonly [valueType]?: T }

/**
 * A new key, one per kind of local (made once, at module level).
 *
 * @example
 * const TURNS = storeLocalKey<Map<string, TurnMemory>>('turn memories')
 */
export function storeLocalKey<T>(name: string): StoreLocalKey<T> {
  return Symbol(`weft: ${name}`) as StoreLocalKey<T>
}

const LOCALS = Symbol('weft: store locals')

type Locals = Map<symbol, unknown>

/**
 * Give `owner` its (empty) slot of locals now, unless it has one. `createAgentStore`
 * calls it, so a store frozen by its host afterwards still works.
 *
 * @example
 * attachStoreLocals(store)
 */
export function attachStoreLocals(owner: object): void {
  localsOf(owner, true)
}

/**
 * The local `key` of `owner`, made by `make` on first use and kept for the owner's life.
 *
 * @example
 * const turns = storeLocal(store, TURNS, () => new Map())
 */
export function storeLocal<T>(owner: object, key: StoreLocalKey<T>, make: () => T): T {
  const locals = localsOf(owner, true)!
  if (locals.has(key)) return locals.get(key) as T
  const value = make()
  locals.set(key, value)
  return value
}

/**
 * The local `key` of `owner` if it was made, without making it.
 *
 * @example
 * const TURNS = storeLocalKey<Map<string, number>>('turns')
 * findStoreLocal(store, TURNS)?.get('turn-1') // undefined until storeLocal(store, TURNS, …) made it
 */
export function findStoreLocal<T>(owner: object, key: StoreLocalKey<T>): T | undefined {
  return localsOf(owner, false)?.get(key) as T | undefined
}

function localsOf(owner: object, create: boolean): Locals | undefined {
  // Own property only: an object made with `Object.create(store)` is another owner.
  if (Object.prototype.hasOwnProperty.call(owner, LOCALS)) return (owner as { [LOCALS]: Locals })[LOCALS]
  if (!create) return undefined
  if (!Object.isExtensible(owner)) {
    throw new TypeError('weft: this store object cannot hold per-store state (it is frozen or sealed); make it with createAgentStore, or freeze it after')
  }
  const locals: Locals = new Map()
  Object.defineProperty(owner, LOCALS, { value: locals, enumerable: false, writable: false, configurable: false })
  return locals
}
