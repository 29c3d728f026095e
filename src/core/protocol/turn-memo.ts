/**
 * A protocol's request carries the whole conversation, rebuilt from the store on
 * every send. A finished turn rebuilds to the same value each time, so its value is
 * kept and reused while the turn and the blocks and messages it reads are the same
 * objects. The store changes by copy (immer), never in place, so an object that is
 * the same is unchanged.
 */
import { messageIn } from '../model/message-table'
import type { AgentState, Turn } from '../model/model'
import { own } from '../util/record'

/**
 * `build`, remembered per turn: a turn whose own object, blocks and messages are
 * the ones it was built from gets the value built then. The value is shared by
 * every request that carries the turn, so it must not be changed (a host's `body`
 * function is handed a copy; see `hostBody`).
 *
 * @example
 * const toWire = memoByTurn((state, turn) => ({ id: turn.id, parts: partsOf(state, turn) }))
 * toWire(state, turn) === toWire(state, turn) // true while the turn is unchanged
 */
export function memoByTurn<T>(build: (state: AgentState, turn: Turn) => T): (state: AgentState, turn: Turn) => T {
  const built = new WeakMap<Turn, { from: readonly unknown[]; value: T }>()
  return (state, turn) => {
    const known = built.get(turn)
    if (known && sameObjects(known.from, readBy(state, turn))) return known.value
    const value = build(state, turn)
    built.set(turn, { from: readBy(state, turn), value })
    return value
  }
}

/** What building a turn reads besides the turn: its blocks and its messages, as objects. */
function readBy(state: AgentState, turn: Turn): unknown[] {
  const objects: unknown[] = []
  for (const id of turn.blockIds) objects.push(own(state.blocks, id))
  for (const id of turn.messageIds) objects.push(messageIn(state.messages, id))
  return objects
}

function sameObjects(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}
