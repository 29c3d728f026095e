import type { AgentState, TraceNode } from '../../src/core/model/model'
import { traceNodeIn } from '../../src/core/model/trace-table'
import { allNodeIds } from '../../src/core/store/trace-tree'

/**
 * Every timeline row of the state, turn by turn and depth first: the order a
 * test can rely on, since the table files rows by a hash of their id.
 */
export function timeline(state: AgentState): TraceNode[] {
  return Object.values(state.turns).flatMap((turn) => allNodeIds(state, turn).map((id) => traceNodeIn(state.trace, id)!))
}
