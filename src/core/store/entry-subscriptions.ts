/**
 * Subscriptions to one entry of one of the store's records (a message, a turn, a
 * thread, a timeline row, a gate). A store change runs every store listener, so with one
 * listener per drawn message a token would cost a check per message on screen.
 * Here one store listener serves all of them: it looks only at the ids someone
 * watches, and only in the records that changed, and calls the listeners of the
 * entries that did.
 */
import { messageIn } from '../model/message-table'
import { traceNodeIn } from '../model/trace-table'
import type { AgentState, Gate, Message, TraceNode, Thread, Turn } from '../model/model'
import type { AgentStore } from './store'
import { own } from '../util/record'
import { storeLocal, storeLocalKey } from './store-locals'

/** What an entry of each watchable record is. */
export interface EntryTypes {
  messages: Message
  turns: Turn
  threads: Thread
  trace: TraceNode
  gates: Gate
}

/** The records of the state whose entries can be watched one by one. */
export type EntryTable = keyof EntryTypes

/**
 * The entry `id` of `table`, never an inherited property.
 *
 * @example
 * entryOf(store.getState(), 'messages', 'm1')?.props.content
 */
export function entryOf<Table extends EntryTable>(state: AgentState, table: Table, id: string): EntryTypes[Table] | undefined {
  if (table === 'messages') return messageIn(state.messages, id) as EntryTypes[Table] | undefined
  if (table === 'trace') return traceNodeIn(state.trace, id) as EntryTypes[Table] | undefined
  return own(state[table] as Readonly<Record<string, EntryTypes[Table]>>, id)
}

type Watchers = Map<EntryTable, Map<string, Set<() => void>>>

/** One store listener per store, made on the first subscription and kept on the store for its life (`store-locals.ts`). */
const WATCHERS = storeLocalKey<Watchers>('entry watchers')

/**
 * Calls `listener` whenever the entry `id` of `table` changes (is added, replaced
 * or removed), and never for a change elsewhere. Returns the unsubscribe.
 *
 * @example
 * const stop = subscribeEntry(store, 'messages', 'm1', () => draw(entryOf(store.getState(), 'messages', 'm1')))
 * stop()
 */
export function subscribeEntry(store: AgentStore, table: EntryTable, id: string, listener: () => void): () => void {
  const watchers = storeLocal(store, WATCHERS, () => {
    const created: Watchers = new Map()
    store.subscribe((state, previous) => notify(created, state, previous))
    return created
  })
  let byId = watchers.get(table)
  if (!byId) watchers.set(table, (byId = new Map()))
  let listeners = byId.get(id)
  if (!listeners) byId.set(id, (listeners = new Set()))
  listeners.add(listener)
  return () => {
    listeners.delete(listener)
    // A later subscription to the same id may have made a new set: leave that one.
    if (listeners.size === 0 && byId.get(id) === listeners) byId.delete(id)
  }
}

function notify(watchers: Watchers, state: AgentState, previous: AgentState): void {
  for (const [table, byId] of watchers) {
    if (state[table] === previous[table]) continue
    for (const [id, listeners] of byId) {
      if (entryOf(state, table, id) === entryOf(previous, table, id)) continue
      // A listener may unsubscribe another one of the same entry while they run.
      for (const listener of [...listeners]) listener()
    }
  }
}
