/**
 * Context from the page, registered while a component is mounted: what the
 * person is looking at travels with every request the store's client makes.
 */
import { useEffect, useRef } from 'react'
import type { ContextEntry } from '../core/protocol/request'
import { useActingClient } from './client-slots'
import { useAgentStore } from './store-context'

/**
 * Tell the agent something while this component is mounted: the entry goes with
 * every request of the client that acts for the store (AG-UI's
 * `RunAgentInput.context`, an extra `context` field of the AI SDK chat request),
 * and a new value replaces the old one from the next request on. A value that is
 * not JSON data is refused by the client and not sent.
 *
 * @example
 * function Document({ doc }: { doc: { title: string; page: number } }) {
 *   useAgentContext({ description: 'The document the person is reading', value: { title: doc.title, page: doc.page } })
 *   return <article>{doc.title}</article>
 * }
 */
export function useAgentContext(entry: ContextEntry): void {
  const client = useActingClient(useAgentStore())
  const latest = useRef(entry)
  latest.current = entry
  // The value by content, so a new object with the same data does not register again.
  let key: string | undefined
  try {
    key = JSON.stringify(entry.value)
  } catch {
    key = undefined
  }
  useEffect(() => {
    const added = client?.addContext?.({ description: latest.current.description, value: latest.current.value })
    return added?.ok ? added.remove : undefined
  }, [client, entry.description, key])
}
