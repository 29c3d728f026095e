/**
 * The store's timeline rows, by id, in buckets as the messages are
 * (`bucket-table.ts`): a commit that adds or changes a row copies the bucket list
 * and one bucket, not every row of the conversation. Stored conversations keep
 * the rows as one record by id (`traceRecord`), the shape they always had.
 */
import type { TraceNode } from './model'
import { isRecord } from '../util/record'
import { deleteEntry, entryIn, entryList, entryPeek, putEntry, toBucketTable } from './bucket-table'

/**
 * Timeline rows by id, in buckets keyed by a hash of the id. Read it with
 * `traceNodeIn` (or `useTraceNode`), list it with `traceList`, and never index it
 * with an id directly.
 *
 * @example
 * traceNodeIn(state.trace, 'tool:c1')?.status
 */
export type TraceTable = { [bucket: `${number}`]: Record<string, TraceNode> }

/**
 * The row with this id, or undefined. Never an inherited property.
 *
 * @example
 * traceNodeIn(store.getState().trace, 'tool:c1')?.label // 'search'
 */
export function traceNodeIn(table: TraceTable, id: string): TraceNode | undefined {
  return entryIn(table, id)
}

/**
 * The row with this id, read without drafting it (for the fold's scans that only look).
 *
 * @example
 * peekTraceNode(draft.trace, 'n1')?.parentId
 */
export function peekTraceNode(table: TraceTable, id: string): TraceNode | undefined {
  return entryPeek(table, id)
}

/**
 * Put a row in a table you may change (a fold's draft, or a table you just made).
 *
 * @example
 * putTraceNode(draft.trace, row)
 */
export function putTraceNode(table: TraceTable, node: TraceNode): void {
  putEntry(table, node.id, node)
}

/**
 * Take a row out of a table you may change.
 *
 * @example
 * deleteTraceNode(draft.trace, 'n1')
 */
export function deleteTraceNode(table: TraceTable, id: string): void {
  deleteEntry(table, id)
}

const listed = new WeakMap<TraceTable, readonly TraceNode[]>()

/**
 * Every row of the table, in no particular order (a turn's `traceRootIds` and
 * the rows' `childIds` give the order). The list is made once per table.
 *
 * @example
 * traceList(state.trace).filter((n) => n.status === 'error')
 */
export function traceList(table: TraceTable): readonly TraceNode[] {
  let list = listed.get(table)
  if (!list) listed.set(table, (list = entryList(table)))
  return list
}

const flattened = new WeakMap<TraceTable, Readonly<Record<string, TraceNode>>>()

/**
 * The table as one record by id, for inspection, tests and storage. Made once
 * per table; the fold never reads it.
 *
 * @example
 * Object.keys(traceRecord(state.trace)) // ['step-1', 'tool:c1']
 */
export function traceRecord(table: TraceTable): Readonly<Record<string, TraceNode>> {
  let record = flattened.get(table)
  if (!record) {
    const out: Record<string, TraceNode> = {}
    for (const node of traceList(table)) out[node.id] = node
    flattened.set(table, (record = out))
  }
  return record
}

/**
 * A table from rows: a list, a record by id (what stored conversations keep, and
 * the state's shape before buckets), or a table whose rows may sit in the wrong
 * bucket. Entries that are not rows (a record with a string `id` and `turnId`) are left out.
 *
 * @example
 * const table = toTraceTable({ n1: { id: 'n1', turnId: 't1', kind: 'step', status: 'done', label: 'Search', text: '', citations: [], childIds: [] } })
 */
export function toTraceTable(nodes: Iterable<TraceNode> | Readonly<Record<string, unknown>>): TraceTable {
  return toBucketTable(nodes, isRowLike)
}

function isRowLike(value: unknown): value is TraceNode {
  return isRecord(value) && typeof value.id === 'string' && typeof value.turnId === 'string' && Array.isArray(value.childIds)
}
