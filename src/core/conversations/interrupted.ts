/**
 * A conversation saved while it streamed comes back with turns still marked
 * streaming. When nothing can resume them (a plain stream, or no resume handle),
 * they end as aborted so the page does not show a spinner forever.
 */
import { own } from '../util/record'
import type { Op } from '../model/ops'
import type { AgentStore } from '../store/store'

/**
 * End the turns a previous page left streaming; returns how many there were.
 *
 * @example
 * if (!(await client.attach())) settleInterrupted(store)
 */
export function settleInterrupted(store: AgentStore): number {
  const state = store.getState()
  const ops: Op[] = []
  for (const turnId of state.turnIds) {
    if (own(state.turns, turnId)?.status === 'streaming') ops.push({ op: 'turn.finish', turnId, status: 'aborted' })
  }
  if (ops.length > 0) state.dispatch(ops)
  return ops.length
}
