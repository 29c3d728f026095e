/**
 * The work timeline the server draws with `trace_node` rows. A row for a tool
 * call a tool event already opened folds into that call's row, and a row that
 * knows both tenses of its label reads past tense once it is done.
 */
import type { Op, OpOf, TraceStatus } from '../../core/index'
import { idOf, isRecord } from '../../protocol-kit/index'
import type { ServerRow, ToolCall, VocionEvent, VocionStream } from './stream-state'

const TRACE_STATUSES: ReadonlySet<string> = new Set<TraceStatus>(['start', 'progress', 'done', 'error'])

/**
 * The server's timeline rows of one stream.
 *
 * @example
 * const rows = createTraceRows(stream)
 * rows.traceNode({ type: 'trace_node', id: 'n1', label: 'Searching', status: 'start' })
 */
export interface TraceRows {
  /** `extra` (the event's fields weft does not read) merges into the row's `extra`. */
  traceNode(event: VocionEvent, extra?: Record<string, unknown>): Op[]
  /** The latest open server row for a tool that no call has claimed yet. */
  unclaimedRowFor(tool: string): ServerRow | undefined
  /** The latest open server row for a tool. */
  latestOpenRow(tool: string): ServerRow | undefined
  /** Rows that know both tenses read past tense when the turn closes them. */
  pastTenseForOpen(): Op[]
}

/**
 * Make the timeline row handlers for one stream.
 *
 * @example
 * const rows = createTraceRows(createVocionStream({ turnId: 't1', scope: 't1' }))
 */
export function createTraceRows(stream: VocionStream): TraceRows {
  const { turnId, rows } = stream

  function unclaimedRowFor(tool: string): ServerRow | undefined {
    let found: ServerRow | undefined
    for (const row of rows.values()) if (row.tool === tool && row.open && !row.claimed) found = row
    return found
  }

  function latestOpenRow(tool: string): ServerRow | undefined {
    // As the rail's `failToolNode` matches: the row's tool, or its label naming the tool
    // (lower case, with `-` and `_` read as spaces: "Lookup invoice" for `lookup_invoice`).
    const spoken = tool.replace(/[-_]/g, ' ')
    let found: ServerRow | undefined
    for (const row of rows.values()) {
      if (row.open && (row.tool === tool || (row.label !== undefined && row.label.toLowerCase().includes(spoken)))) found = row
    }
    return found
  }

  /** The latest call of a tool whose timeline row is still ours to draw. */
  function callAwaitingRow(tool: string): ToolCall | undefined {
    const stack = stream.openTools.get(tool) ?? []
    for (let i = stack.length - 1; i >= 0; i--) if (!stack[i]!.rowFromServer) return stack[i]
    return undefined
  }

  function traceNode(event: VocionEvent, extra?: Record<string, unknown>): Op[] {
    const wireId = idOf(event.id)
    if (!wireId) return [stream.problem('trace_node without an id', event, 'missing_id')]
    const ops: Op[] = []
    const tool = idOf(event.tool)
    let row = rows.get(wireId)
    if (!row) {
      row = { nodeId: stream.scoped(`trace/${wireId}`), open: true, claimed: false }
      // The server drew a row for a call a tool event already opened: fold both into one row.
      const call = tool ? callAwaitingRow(tool) : undefined
      if (call) {
        call.rowFromServer = true
        row.nodeId = call.nodeId
        row.claimed = true
      }
      rows.set(wireId, row)
    }
    if (tool) row.tool = tool
    const labels = labelPair(event.labels) ?? row.labels
    if (labels) row.labels = labels

    const node: OpOf<'trace.node'>['node'] = { id: row.nodeId }
    const parentId = idOf(event.parentId)
    if (parentId) node.parentId = rows.get(parentId)?.nodeId ?? stream.scoped(`trace/${parentId}`)
    if (isRecord(event.actor)) node.actor = event.actor as unknown as NonNullable<typeof node.actor>
    if (idOf(event.kind)) node.kind = idOf(event.kind)
    if (event.status !== undefined) {
      if (typeof event.status === 'string' && TRACE_STATUSES.has(event.status)) {
        node.status = event.status as TraceStatus
        row.open = node.status === 'start' || node.status === 'progress'
      } else {
        ops.push(stream.problem(`trace_node "${wireId}" has an unknown status; the status was ignored`, event.status, 'invalid'))
      }
    }
    if (typeof event.label === 'string') node.label = event.label
    // Once both tenses are known, the label follows the status (a `done` that carries only the status reads past tense).
    if (labels && node.status && node.status !== 'error') node.label = node.status === 'done' ? labels.done : labels.running
    if (node.label !== undefined) row.label = node.label
    if (Array.isArray(event.citations)) node.citations = event.citations
    if (tool) node.tool = tool
    // As the rail's reducer (`node.detail ?? prev.detail`): a `null` keeps the earlier value, as an absent field does.
    for (const key of ['detail', 'args', 'result', 'resultDetail'] as const) if (event[key] !== undefined && event[key] !== null) node[key] = event[key]
    if (typeof event.confidence === 'number') node.confidence = event.confidence
    if (extra) node.extra = extra
    const delta = typeof event.delta === 'string' && event.delta !== '' ? event.delta : undefined
    ops.unshift({ op: 'trace.node', turnId, node, ...(delta ? { delta } : {}) })
    return ops
  }

  function pastTenseForOpen(): Op[] {
    const ops: Op[] = []
    for (const row of rows.values()) {
      if (row.open && row.labels) ops.push({ op: 'trace.node', turnId, node: { id: row.nodeId, label: row.labels.done } })
    }
    return ops
  }

  return { traceNode, unclaimedRowFor, latestOpenRow, pastTenseForOpen }
}

function labelPair(value: unknown): { running: string; done: string } | undefined {
  if (!isRecord(value) || typeof value.running !== 'string' || typeof value.done !== 'string') return undefined
  return { running: value.running, done: value.done }
}
