/**
 * One `AgentClient` per agent store the hook has served. When the provider swaps
 * stores (another conversation is selected), the client of the old store keeps
 * its stream: the answer goes on folding into the conversation it belongs to.
 */
import { useContext, useEffect, useLayoutEffect, useState } from 'react'
import { AgentClient, type AgentClientOptions } from '../core/client'
import type { AgentStore } from '../core/store/store'
import { ClientSlotsContext } from './client-slots'
import { useConversationStore } from './conversations'

/**
 * The client for `store`, made on first use; every client is let go of on unmount,
 * and a deleted conversation's stream is stopped.
 *
 * @example
 * const client = useStoreClient(useAgentStore(), options)
 */
export function useStoreClient(store: AgentStore, options: AgentClientOptions): AgentClient {
  return useStoreClients(store, options).client
}

/**
 * The client for `store`, and `clientFor` to reach the client of any other
 * conversation's store (one a stream resumes into in the background).
 *
 * @example
 * const { client, clientFor } = useStoreClients(useAgentStore(), options)
 */
export function useStoreClients(store: AgentStore, options: AgentClientOptions): { client: AgentClient; clientFor(other: AgentStore, options: AgentClientOptions): AgentClient } {
  const [clients] = useState(() => new Map<AgentStore, AgentClient>())
  const slots = useContext(ClientSlotsContext)
  const [clientFor] = useState(() => (other: AgentStore, otherOptions: AgentClientOptions) => {
    let found = clients.get(other)
    if (!found) {
      found = new AgentClient(other, otherOptions)
      clients.set(other, found)
    }
    return found
  })
  const client = clientFor(store, options)
  // The latest options serve the next send; a run in flight keeps its own. They are applied
  // once the render commits, as TanStack's useBaseQuery does: a render React throws away
  // (StrictMode's second pass, a suspended transition) must not change the client. A layout
  // effect runs before any passive effect or event handler can send.
  useIsomorphicLayoutEffect(() => {
    client.setOptions(options)
  }, [client, options])
  // Only a committed client acts for the store: one made in a render React threw away never does.
  useIsomorphicLayoutEffect(() => slots?.bind(store, client), [slots, store, client])

  const conversations = useConversationStore()
  useEffect(() => conversations?.onRemove((_id, removed) => {
    if (!removed) return
    clients.get(removed)?.stop()
    clients.delete(removed)
  }), [conversations, clients])
  // Unmount lets go of every client (a plain stream stops, a resumable one detaches).
  // Under StrictMode's simulated unmount nothing is in flight yet.
  useEffect(() => () => {
    for (const each of clients.values()) each.dispose()
  }, [clients])
  return { client, clientFor }
}

// useLayoutEffect warns when rendered on a server, where no effect runs anyway.
const useIsomorphicLayoutEffect = typeof window === 'undefined' ? useEffect : useLayoutEffect
