/**
 * Where a turn stands among its siblings, and a way to switch.
 */
import { useCallback } from 'react'
import { selectBranch, siblingAt } from '../core/store/branches'
import { useActingClient } from './client-slots'
import { useAgentStore } from './provider'
import { useAgentSelector } from './selectors'

/**
 * What `useBranch` returns.
 *
 * @example
 * const { index, count, select } = useBranch(turnId) // "‹ index + 1 / count ›"
 */
export interface BranchHandle {
  /** The turn's place among its siblings, from 0. */
  index: number
  count: number
  /** Show the sibling at `index` (clamped) and the branch below it; a run in flight is stopped first. */
  select(index: number): void
}

/**
 * The branch a turn is on (regenerated answers, edited questions). Re-renders
 * only when the turn's siblings change. `select` goes through the client that
 * streams into the store (`client.selectBranch`), which stops a run in flight.
 *
 * @example
 * function Picker({ turnId }: { turnId: string }) {
 *   const { index, count, select } = useBranch(turnId)
 *   return count > 1 ? <button onClick={() => select(index + 1)}>{index + 1} / {count}</button> : null
 * }
 */
export function useBranch(turnId: string): BranchHandle {
  const store = useAgentStore()
  const info = useAgentSelector((state) => selectBranch(state, turnId))
  const client = useActingClient(store)
  const select = useCallback((index: number) => {
    // The client stops the answer streaming into the branch being left.
    if (client) {
      client.selectBranch(turnId, index)
      return
    }
    const target = siblingAt(store.getState(), turnId, index)
    if (target) store.getState().dispatch([{ op: 'branch.select', turnId: target }])
  }, [client, store, turnId])
  return { index: info.index, count: info.count, select }
}
