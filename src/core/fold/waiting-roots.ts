/**
 * The rows of a turn shown at the top only until their parent arrives. Every new
 * row asks whether rows wait for it, so the answer is kept rather than found by
 * scanning every root: a set per turn, kept for each state the fold makes and
 * carried to the next, so a long timeline costs no scan per row nor per batch.
 */
import { isDraft, original } from 'immer'
import type { AgentState, Turn } from '../model/model'
import { peekTraceNode } from '../model/trace-table'

interface Waiting {
  /** The waiting roots of each turn scanned so far; a turn not here has not been scanned. */
  sets: Map<string, Set<string>>
  /** The turns whose set this state made itself (and may change); the others' are the previous state's. */
  owned: Set<string>
}

/**
 * Per state (an immer draft while a batch runs, then the state it became): derived
 * from the state's roots and rows alone, so dropping it changes nothing but speed.
 * An id whose row is gone or is no longer a root is harmless: a row is looked up
 * before it is adopted.
 */
const waitingByState = new WeakMap<object, Waiting>()

/**
 * The set of `turn`'s roots that wait for a parent, which this batch may change:
 * the previous state's, copied on first use in a batch (that state keeps its own),
 * or found by one scan of the roots when no state before had it.
 *
 * @example
 * waitingRoots(draft, turn).add(row.id)
 */
export function waitingRoots(state: AgentState, turn: Turn): Set<string> {
  let waiting = waitingByState.get(state)
  if (!waiting) {
    const before = isDraft(state) ? waitingByState.get(original(state) as object) : undefined
    waitingByState.set(state, (waiting = { sets: new Map(before?.sets), owned: new Set() }))
  }
  const known = waiting.sets.get(turn.id)
  if (known && waiting.owned.has(turn.id)) return known
  const set = known ? new Set(known) : scan(state, turn)
  waiting.sets.set(turn.id, set)
  waiting.owned.add(turn.id)
  return set
}

/**
 * Hand what a batch kept to the state it produced, so the next batch starts from
 * it: the draft's sets, or the base state's when the batch needed none (only a
 * batch that asks for a turn's set changes which of its roots wait). Called once
 * per `produce`, after it returns.
 *
 * @example
 * carryWaitingRoots(state, draft, next)
 */
export function carryWaitingRoots(base: object, draft: object, next: object): void {
  const waiting = waitingByState.get(draft) ?? waitingByState.get(base)
  if (waiting && next !== base) waitingByState.set(next, waiting)
}

function scan(state: AgentState, turn: Turn): Set<string> {
  const set = new Set<string>()
  for (const id of turn.traceRootIds) if (peekTraceNode(state.trace, id)?.parentId !== undefined) set.add(id)
  return set
}
