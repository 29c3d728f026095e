/**
 * The graph on the timeline: each node that runs is a row in its lane; each
 * subgraph task is a lane of its own (a weft thread, and a `delegate` row in the
 * lane above). Events name their lane in the event name (`messages|research:<task>`),
 * and their node in the chunk's metadata (`langgraph_checkpoint_ns`).
 */
import type { Op } from '../../core/index'
import { nonEmpty, recordOf } from '../../protocol-kit/index'
import type { LangGraphStream, NodeRow } from './stream-state'

/**
 * An event's name read: its stream mode and the namespace of the subgraph it came from.
 *
 * @example
 * parseEventName('messages|research:b6') // { mode: 'messages', namespace: ['research:b6'] }
 */
export function parseEventName(name: string | undefined): { mode: string; namespace: string[] } {
  const [mode = 'message', ...namespace] = (name ?? 'message').split('|')
  return { mode, namespace }
}

/**
 * A namespace segment (`node:taskId`) read.
 *
 * @example
 * segmentOf('research:b6') // { node: 'research', taskId: 'b6' }
 */
export function segmentOf(segment: string): { node: string; taskId?: string } {
  const at = segment.indexOf(':')
  return at < 0 ? { node: segment } : { node: segment.slice(0, at), taskId: segment.slice(at + 1) || undefined }
}

/**
 * Open the lanes of a namespace that are not open yet, outermost first, and
 * return the lane's key ('' for the graph itself).
 *
 * @example
 * const lane = enterLane(stream, ['research:b6'], ops) // 'research:b6'
 */
export function enterLane(stream: LangGraphStream, namespace: readonly string[], ops: Op[]): string {
  let parent = ''
  for (let depth = 1; depth <= namespace.length; depth++) {
    const key = namespace.slice(0, depth).join('|')
    const known = stream.lanes.get(key)
    if (!known || !known.open) {
      const { node, taskId } = segmentOf(namespace[depth - 1] as string)
      const rowId = stream.scoped(`task:${taskId ?? key}`)
      const threadId = stream.scoped(`lane:${key}`)
      const above = stream.lanes.get(parent)
      stream.lanes.set(key, { key, name: node, threadId, rowId, open: true })
      stream.rows.set(rowId, { id: rowId, name: node, lane: parent, open: true })
      ops.push(
        { op: 'thread.open', turnId: stream.turnId, threadId, label: node },
        {
          op: 'trace.node', turnId: stream.turnId,
          node: {
            id: rowId, kind: 'delegate', label: node, status: 'start', actor: { id: key, kind: 'subagent', name: node },
            ...(above?.rowId ? { parentId: above.rowId } : {}),
          },
        },
      )
    }
    parent = key
  }
  return parent
}

/**
 * The node a chunk came from, read from its metadata: the last segment of
 * `langgraph_checkpoint_ns` (`agent:<taskId>`), else `langgraph_node`.
 *
 * @example
 * nodeOfMetadata({ langgraph_node: 'agent', langgraph_checkpoint_ns: 'agent:7f' }) // { node: 'agent', taskId: '7f' }
 */
export function nodeOfMetadata(metadata: unknown): { node: string; taskId?: string } | undefined {
  const record = recordOf(metadata)
  if (!record) return undefined
  const ns = nonEmpty(record.langgraph_checkpoint_ns) ?? nonEmpty(record.checkpoint_ns)
  const last = ns?.split('|').at(-1)
  const fromNs = last ? segmentOf(last) : undefined
  const node = nonEmpty(record.langgraph_node) ?? fromNs?.node
  if (!node) return undefined
  return { node, ...(fromNs?.node === node && fromNs.taskId ? { taskId: fromNs.taskId } : {}) }
}

/**
 * The row of a node's task in a lane, opened if it is not: by task id when the
 * wire gives one, else the node's open row in that lane.
 *
 * @example
 * const row = nodeRow(stream, '', 'agent', '7f', ops)
 */
export function nodeRow(stream: LangGraphStream, lane: string, node: string, taskId: string | undefined, ops: Op[]): NodeRow {
  const byTask = taskId ? stream.rows.get(stream.scoped(`task:${taskId}`)) : undefined
  if (byTask) return byTask
  if (!taskId) {
    for (const row of stream.rows.values()) if (row.open && row.lane === lane && row.name === node) return row
  }
  const id = taskId ? stream.scoped(`task:${taskId}`) : stream.fresh(`node-${node}`)
  const row: NodeRow = { id, name: node, lane, open: true }
  stream.rows.set(id, row)
  const parentId = stream.lanes.get(lane)?.rowId
  ops.push({ op: 'trace.node', turnId: stream.turnId, node: { id, kind: 'step', label: node, status: 'start', ...(parentId ? { parentId } : {}) } })
  return row
}

/**
 * A node finished (its `updates` entry or its task's result): its row is done.
 *
 * @example
 * finishNode(stream, '', 'agent', undefined, ops)
 */
export function finishNode(stream: LangGraphStream, lane: string, node: string, taskId: string | undefined, ops: Op[], error?: string): NodeRow {
  const row = nodeRow(stream, lane, node, taskId, ops)
  if (row.open) {
    row.open = false
    ops.push({ op: 'trace.node', turnId: stream.turnId, node: { id: row.id, status: error ? 'error' : 'done' } })
    if (error) ops.push({ op: 'trace.fail', turnId: stream.turnId, nodeId: row.id, message: error })
  }
  return row
}

/**
 * A superstep of a lane is over (its `values` frame): every row still open in
 * it is done; for the graph itself, every subgraph lane is over too.
 *
 * @example
 * closeStep(stream, '', ops)
 */
export function closeStep(stream: LangGraphStream, lane: string, ops: Op[]): void {
  const inside = (key: string) => lane === '' || key === lane || key.startsWith(`${lane}|`)
  for (const row of stream.rows.values()) {
    if (!row.open || !inside(row.lane)) continue
    row.open = false
    ops.push({ op: 'trace.node', turnId: stream.turnId, node: { id: row.id, status: 'done' } })
  }
  for (const open of stream.lanes.values()) {
    if (!open.open || open.key === lane || !inside(open.key) || open.key === '') continue
    open.open = false
    if (open.threadId) ops.push({ op: 'thread.close', threadId: open.threadId, status: 'done' })
  }
}
