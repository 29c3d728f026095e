/**
 * Which client acts for a store, so that a component holding only the store
 * (a gate card, a branch picker) can act through the kit without the host wiring
 * a callback. Kept apart from the client so that reading it brings in nothing else.
 */
import type { AgentClient } from './client'
import type { AgentStore } from './store'

/** What a component may ask of the client that acts for its store. */
export type StoreClient = Pick<AgentClient, 'answer' | 'selectBranch' | 'regenerate'>

const clients = new WeakMap<AgentStore, StoreClient>()

/**
 * Make `client` the one that acts for `store` (the newest client of a store wins).
 *
 * @example
 * bindStoreClient(store, client)
 */
export function bindStoreClient(store: AgentStore, client: StoreClient): void {
  clients.set(store, client)
}

/**
 * The client that acts for `store`, if one was made for it.
 *
 * @example
 * await storeClient(store)?.answer(gate.id, { approved: true })
 */
export function storeClient(store: AgentStore): StoreClient | undefined {
  return clients.get(store)
}
