/**
 * The work timeline's folding rules: `delta` appends to `text`; `extra` merges
 * key by key; every other field is latest-wins and an absent field keeps its value; a child that
 * arrives before its parent nests once the parent comes; a finished turn
 * closes every open row; a tool error fails its row.
 */
import type { AgentState, TraceNode, Turn } from '../model/model'
import type { OpOf } from '../model/ops'
import { allNodeIds } from '../store/trace-tree'
import { isRecord, mergedRecord, own } from '../util/record'
import { peekTraceNode, putTraceNode, traceNodeIn } from '../model/trace-table'
import { waitingRoots } from './waiting-roots'

/** Fields a `trace.node` op may not overwrite from the wire. */
const STRUCTURAL: ReadonlySet<string> = new Set(['id', 'turnId', 'childIds'])

/**
 * Upsert one node.
 *
 * @example
 * upsertTraceNode(draft, turn, { op: 'trace.node', turnId: 't1', node: { id: 'n1', label: 'Searching…', status: 'start' } })
 */
export function upsertTraceNode(state: AgentState, turn: Turn, op: OpOf<'trace.node'>): void {
  const { node: patch, delta } = op
  let node = traceNodeIn(state.trace, patch.id)
  const created = !node
  if (!node) {
    node = {
      id: patch.id, turnId: turn.id, kind: 'step', status: 'start', label: '', text: '', citations: [], childIds: [],
    }
    putTraceNode(state.trace, node)
  }
  const previousParent = node.parentId
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined || STRUCTURAL.has(key)) continue
    if (key === 'extra') {
      // What the protocol sent beyond weft's fields merges: a later event adds to it, never blanks it.
      if (isRecord(value)) node.extra = mergedRecord(node.extra, value)
      continue
    }
    ;(node as unknown as Record<string, unknown>)[key] = value
  }
  if (delta) node.text += delta
  if (created) {
    placeNode(state, turn, node)
    adoptWaitingChildren(state, turn, node)
  } else if (node.parentId !== previousParent) {
    // A row lives in the turn that made it, whichever turn a later op names: it moves
    // there, and that turn's waiting rows are the ones kept up to date.
    const home = own(state.turns, node.turnId) ?? turn
    unplaceNode(state, home, node.id, previousParent)
    placeNode(state, home, node)
  }
}

/**
 * Close a tool's row as failed, with the message visible in its text. Names a
 * node, or else takes the latest open node of that tool; creates one if none.
 *
 * @example
 * failToolNode(draft, turn, { op: 'trace.fail', turnId: 't1', tool: 'search', message: 'timed out' })
 */
export function failToolNode(state: AgentState, turn: Turn, op: OpOf<'trace.fail'>): void {
  let node = op.nodeId ? traceNodeIn(state.trace, op.nodeId) : undefined
  if (!node && op.tool) {
    const ids = allNodeIds(state, turn)
    for (let i = ids.length - 1; i >= 0; i--) {
      // Looked at without drafting: only the row found is written.
      const candidate = peekTraceNode(state.trace, ids[i] as string)
      if (candidate && candidate.tool === op.tool && isOpen(candidate)) {
        node = traceNodeIn(state.trace, ids[i] as string)
        break
      }
    }
  }
  if (!node) {
    const id = op.nodeId ?? `${turn.id}:tool-error:${turn.traceRootIds.length}`
    upsertTraceNode(state, turn, {
      op: 'trace.node', turnId: turn.id, node: { id, kind: 'tool', label: op.tool ?? 'Tool', tool: op.tool },
    })
    node = traceNodeIn(state.trace, id) as TraceNode
  }
  node.status = 'error'
  node.resultDetail = op.message
  if (!node.text.includes(op.message)) node.text = node.text ? `${node.text}\n${op.message}` : op.message
}

/**
 * Close every row of a turn that is still running.
 *
 * @example
 * finalizeTrace(draft, turn) // no spinner stays after the turn lands
 */
export function finalizeTrace(state: AgentState, turn: Turn): void {
  for (const id of allNodeIds(state, turn)) {
    // Only the rows still open are drafted (and their buckets copied); the others are only looked at.
    const seen = peekTraceNode(state.trace, id)
    if (seen && isOpen(seen)) (traceNodeIn(state.trace, id) as TraceNode).status = 'done'
  }
}

/**
 * True while a row still runs.
 *
 * @example
 * isOpen({ status: 'progress' } as TraceNode) // true
 */
export function isOpen(node: Pick<TraceNode, 'status'>): boolean {
  return node.status === 'start' || node.status === 'progress'
}

function placeNode(state: AgentState, turn: Turn, node: TraceNode): void {
  const parent = node.parentId && node.parentId !== node.id ? traceNodeIn(state.trace, node.parentId) : undefined
  if (parent && !createsCycle(state, node.id, parent.id)) {
    parent.childIds.push(node.id)
    return
  }
  turn.traceRootIds.push(node.id) // shown at the top until its parent arrives
  if (node.parentId !== undefined) waitingRoots(state, turn).add(node.id)
}

function unplaceNode(state: AgentState, turn: Turn, id: string, parentId: string | undefined): void {
  const parent = parentId ? traceNodeIn(state.trace, parentId) : undefined
  const list = parent && parent.childIds.includes(id) ? parent.childIds : turn.traceRootIds
  const at = list.indexOf(id)
  if (at >= 0) list.splice(at, 1)
  if (list === turn.traceRootIds) waitingRoots(state, turn).delete(id)
}

function adoptWaitingChildren(state: AgentState, turn: Turn, parent: TraceNode): void {
  const waiting = waitingRoots(state, turn)
  let any = false
  for (const id of waiting) if (id !== parent.id && peekTraceNode(state.trace, id)?.parentId === parent.id) any = true
  if (!any) return
  // In the order of the roots, so the tree does not depend on where batches began.
  const adopted = turn.traceRootIds.filter((id) => waiting.has(id) && id !== parent.id && peekTraceNode(state.trace, id)?.parentId === parent.id)
  const moved = new Set(adopted)
  turn.traceRootIds = turn.traceRootIds.filter((id) => !moved.has(id))
  for (const id of adopted) waiting.delete(id)
  parent.childIds.push(...adopted)
}

function createsCycle(state: AgentState, childId: string, parentId: string): boolean {
  let cursor: string | undefined = parentId
  for (let hops = 0; cursor && hops < 10_000; hops++) {
    if (cursor === childId) return true
    cursor = peekTraceNode(state.trace, cursor)?.parentId
  }
  return false
}
