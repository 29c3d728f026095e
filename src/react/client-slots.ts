/**
 * Which client acts for a store, so that a component holding only the store (a
 * gate card, a branch picker, Retry) can act through the kit without the host
 * wiring a callback. The slots live in the provider's context, not in module
 * state: a hook binds its client once the render that made it commits, and a
 * component that reads the slot re-renders when the binding changes.
 */
import { createContext, useContext, useSyncExternalStore } from 'react'
import type { AgentClient } from '../core/client'
import type { AgentStore } from '../core/store/store'

/**
 * What a component may ask of the client that acts for its store (a client of
 * the host's own may leave out the queue's actions; the queue's parts then hide them).
 *
 * @example
 * const client: StoreClient = { answer: agent.answer, selectBranch: agent.selectBranch, regenerate: agent.regenerate }
 */
export type StoreClient = Pick<AgentClient, 'answer' | 'selectBranch' | 'regenerate'> & Partial<Pick<AgentClient, 'editQueued' | 'cancelQueued' | 'sendQueued' | 'respond' | 'addContext'>>

/**
 * The clients that act for the stores under one provider.
 *
 * @example
 * const slots = new ClientSlots()
 * const unbind = slots.bind(store, client)
 * slots.get(store) === client // true
 */
export class ClientSlots {
  private readonly clients = new WeakMap<AgentStore, StoreClient>()
  private readonly listeners = new Set<() => void>()

  /** Make `client` the one that acts for `store` (the newest binding wins); the returned function undoes it. */
  bind(store: AgentStore, client: StoreClient): () => void {
    this.clients.set(store, client)
    this.notify()
    return () => {
      if (this.clients.get(store) !== client) return
      this.clients.delete(store)
      this.notify()
    }
  }

  /** The client that acts for `store`, if one is bound. */
  get(store: AgentStore): StoreClient | undefined {
    return this.clients.get(store)
  }

  /** Hear of every change of binding. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  private notify(): void {
    for (const listener of [...this.listeners]) listener()
  }
}

/**
 * The slots of the nearest `AgentProvider`, or null outside one.
 *
 * @example
 * <ClientSlotsContext.Provider value={slots}>…</ClientSlotsContext.Provider>
 */
export const ClientSlotsContext = createContext<ClientSlots | null>(null)

const NO_SLOTS = { subscribe: () => () => undefined, get: () => undefined }

/**
 * The client that acts for `store` under the nearest provider: the one a hook
 * (`useAgentStream`, `useResumableStream`) made for it, or the one the provider
 * was given (`<AgentProvider client={client}>`). `undefined` until one is bound.
 *
 * @example
 * const client = useActingClient(useAgentStore())
 * <button disabled={!client} onClick={() => client?.regenerate(turnId)}>Retry</button>
 */
export function useActingClient(store: AgentStore): StoreClient | undefined {
  const slots = useContext(ClientSlotsContext) ?? NO_SLOTS
  return useSyncExternalStore(
    (listener) => slots.subscribe(listener),
    () => slots.get(store),
    () => slots.get(store),
  )
}
