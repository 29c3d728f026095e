/**
 * Subscriptions to one entry of one of the store's records (a message, a turn, a
 * thread, a timeline row, a gate). A store change runs every store listener, so with one
 * listener per drawn message a token would cost a check per message on screen.
 * Here one store listener serves all of them: it looks only at the ids someone
 * watches, and only in the records that changed, and calls the listeners of the
 * entries that did.
 */
import type { AgentState } from './model'
import type { AgentStore } from './store'
import { own } from './util/record'

/** The records of the state whose entries can be watched one by one. */
export type EntryTable = 'messages' | 'turns' | 'threads' | 'trace' | 'gates'

type Watchers = Map<string, Set<() => void>>

interface Channel {
  tables: Map<EntryTable, Watchers>
  watched: number
  stop?: () => void
}

const channels = new WeakMap<AgentStore, Channel>()

/**
 * Calls `listener` whenever the entry `id` of `table` changes (is added, replaced
 * or removed), and never for a change elsewhere. Returns the unsubscribe.
 *
 * @example
 * const stop = subscribeEntry(store, 'messages', 'm1', () => draw(store.getState().messages.m1))
 * stop()
 */
export function subscribeEntry(store: AgentStore, table: EntryTable, id: string, listener: () => void): () => void {
  let channel = channels.get(store)
  if (!channel) {
    channel = { tables: new Map(), watched: 0 }
    channels.set(store, channel)
  }
  const open = channel
  open.stop ??= store.subscribe((state, previous) => notify(open, state, previous))
  let byId = open.tables.get(table)
  if (!byId) open.tables.set(table, (byId = new Map()))
  let listeners = byId.get(id)
  if (!listeners) byId.set(id, (listeners = new Set()))
  if (listeners.has(listener)) return () => undefined
  listeners.add(listener)
  open.watched += 1
  let subscribed = true
  return () => {
    if (!subscribed) return
    subscribed = false
    listeners.delete(listener)
    if (listeners.size === 0) byId.delete(id)
    open.watched -= 1
    if (open.watched === 0) {
      open.stop?.()
      open.stop = undefined
    }
  }
}

function notify(channel: Channel, state: AgentState, previous: AgentState): void {
  for (const [table, byId] of channel.tables) {
    const next: Readonly<Record<string, unknown>> = state[table]
    const before: Readonly<Record<string, unknown>> = previous[table]
    if (next === before) continue
    for (const [id, listeners] of byId) {
      if (own(next, id) === own(before, id)) continue
      // A listener may unsubscribe another one of the same entry while they run.
      for (const listener of [...listeners]) listener()
    }
  }
}
