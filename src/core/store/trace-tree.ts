/**
 * Walking a turn's work timeline, which the fold builds and the selectors read.
 */
import type { AgentState, Turn } from '../model/model'
import { peekTraceNode } from '../model/trace-table'

/**
 * Every node of a turn, depth first, in timeline order. Rows are read without
 * drafting them, so a fold that only walks the tree copies nothing.
 *
 * @example
 * allNodeIds(state, state.turns['t1']) // ['search-1', 'tool-1', 'tool-2']
 */
export function allNodeIds(state: Pick<AgentState, 'trace'>, turn: Pick<Turn, 'traceRootIds'>): string[] {
  const out: string[] = []
  const seen = new Set<string>()
  const visit = (id: string) => {
    if (seen.has(id)) return // a cycle from bad parent ids must not hang the fold
    seen.add(id)
    out.push(id)
    for (const child of peekTraceNode(state.trace, id)?.childIds ?? []) visit(child)
  }
  for (const id of turn.traceRootIds) visit(id)
  return out
}
