/**
 * The stored form of a conversation and the schema check every load runs.
 * A record that is not ours, is damaged, or was written by a newer weft is
 * reported for that conversation alone, and is never written over.
 */
import { weftError, type WeftError } from '../model/errors'
import { isRecord } from '../util/record'
import { ROOT_BRANCH } from '../store/branches'
import { emptyState, type AgentState, type Message, type TraceNode } from '../model/model'
import { messageRecord, toMessageTable } from '../model/message-table'
import { toTraceTable, traceRecord } from '../model/trace-table'
import { stateProblem } from './check-state'
import { plainData } from './plain-data'

/** Marks a record as weft's, so a stranger's data in the same database is recognised. */
export const CONVERSATION_FORMAT: ConversationSummaryRecord['format'] = 'weft.conversation'

/** The record version this weft writes and the newest it reads. */
export const CONVERSATION_VERSION = 1

/** Where a conversation's title came from: a host or user rename wins over the server, which wins over the first message. */
export type TitleSource = 'message' | 'server' | 'user'

/**
 * What a list of conversations shows without loading any of them.
 *
 * @example
 * const summary: ConversationSummaryRecord = { format: 'weft.conversation', version: 1, id: 'c1', title: 'Trip', titleSource: 'user', createdAt: 1, updatedAt: 2, revision: 3 }
 */
export interface ConversationSummaryRecord {
  /** Always `'weft.conversation'` (`CONVERSATION_FORMAT`): a record weft wrote. */
  format: 'weft.conversation'
  version: number
  id: string
  title: string
  titleSource?: TitleSource
  createdAt: number
  updatedAt: number
  /** Grows by one with each save; two tabs compare it to notice each other. */
  revision: number
}

/**
 * The model as a record keeps it: all of it but the stream's status and error,
 * which belong to a page. Messages and timeline rows are kept as one record by
 * id each, whatever buckets the store holds them in, so the stored form does not
 * follow the store's layout (and records written before the buckets read as ever).
 */
export type StoredState = Omit<AgentState, 'status' | 'error' | 'activeTurnId' | 'messages' | 'trace'> & {
  messages: Record<string, Message>
  trace: Record<string, TraceNode>
}

/**
 * One stored conversation: its summary plus its model.
 *
 * @example
 * const record = conversationRecord({ id: 'c1', title: 'Trip', createdAt: 1, updatedAt: 1, revision: 1 }, store.getState())
 */
export interface ConversationRecord extends ConversationSummaryRecord {
  state: StoredState
}

/**
 * A record for these fields and this model.
 *
 * @example
 * const record = conversationRecord({ id: 'c1', title: 'Trip', createdAt: 1, updatedAt: 1, revision: 1 }, emptyState())
 */
export function conversationRecord(
  fields: Omit<ConversationSummaryRecord, 'format' | 'version'>,
  state: AgentState,
): ConversationRecord {
  const stored: Record<string, unknown> = {}
  // Every data field of the model, so fields later versions of the model add are kept too.
  for (const [key, value] of Object.entries(state)) if (typeof value !== 'function' && !PAGE_ONLY.has(key)) stored[key] = value
  stored.messages = messageRecord(state.messages)
  stored.trace = traceRecord(state.trace)
  return { format: CONVERSATION_FORMAT, version: CONVERSATION_VERSION, ...fields, state: stored as StoredState }
}

/**
 * The summary part of a record (what the list reads).
 *
 * @example
 * const summary = summaryOf(record)
 */
export function summaryOf(record: ConversationSummaryRecord): ConversationSummaryRecord {
  const { format, version, id, title, titleSource, createdAt, updatedAt, revision } = record
  return { format, version, id, title, ...(titleSource ? { titleSource } : {}), createdAt, updatedAt, revision }
}

/** The `code` of the error a conversation shows when its record fails the schema check. */
export const CONVERSATION_CORRUPT = 'conversation_corrupt'
/** The `code` of the error for a record that is not weft's. */
export const CONVERSATION_FOREIGN = 'conversation_foreign'
/** The `code` of the error for a record written by a newer weft. */
export const CONVERSATION_NEWER = 'conversation_newer'

/** A schema check's answer. */
export type Checked<T> = { ok: true; value: T } | { ok: false; error: WeftError }

/**
 * Check a stored summary.
 *
 * @example
 * const checked = checkSummary(raw, 'c1'); if (!checked.ok) show(checked.error)
 */
export function checkSummary(raw: unknown, id: string): Checked<ConversationSummaryRecord> {
  try {
    return summaryChecked(raw, id)
  } catch (thrown) {
    return corrupt(id, `the summary could not be checked (${thrown instanceof Error ? thrown.message : 'unreadable'})`)
  }
}

function summaryChecked(raw: unknown, id: string): Checked<ConversationSummaryRecord> {
  const head = checkHead(raw, id)
  if (!head.ok) return head
  const value = head.value
  const problem = firstProblem([
    typeof value.title === 'string' || 'title is not a string',
    value.titleSource === undefined || value.titleSource === 'message' || value.titleSource === 'server' || value.titleSource === 'user' || 'titleSource is not known',
    isTime(value.createdAt) || 'createdAt is not a time',
    isTime(value.updatedAt) || 'updatedAt is not a time',
    (Number.isSafeInteger(value.revision) && (value.revision as number) >= 0) || 'revision is not a count',
  ])
  if (problem) return corrupt(id, problem)
  return { ok: true, value: summaryOf(value as unknown as ConversationSummaryRecord) }
}

/**
 * Check a stored record: the summary fields, then that the model is JSON data
 * throughout, then every field the components read against the model's types, and
 * the references (every listed turn, message, block, thread, row and gate exists,
 * and every id is safe to use as a key). Never throws.
 *
 * @example
 * const checked = checkRecord(await storage.load('c1'), 'c1')
 * if (checked.ok) store.getState().reset(stateOf(checked.value))
 */
export function checkRecord(raw: unknown, id: string): Checked<ConversationRecord> {
  try {
    const summary = checkSummary(raw, id)
    if (!summary.ok) return summary
    const state = (raw as Record<string, unknown>).state
    // Only JSON data is saved, so anything else was written by something other than this store.
    const [notData] = plainData(state, 'state').dropped
    if (notData !== undefined) return corrupt(id, `${notData} is not JSON data`)
    const problem = stateProblem(state)
    if (problem) return corrupt(id, problem)
    return { ok: true, value: { ...summary.value, state: state as StoredState } }
  } catch (thrown) {
    // Whatever a storage hands back, a load never throws: a value that breaks the check is damaged.
    return corrupt(id, `the record could not be checked (${thrown instanceof Error ? thrown.message : 'unreadable'})`)
  }
}

/**
 * The title a damaged record or summary still carries, when it is a readable string.
 *
 * @example
 * readableTitle({ title: 'Trip', revision: 'x' }) // 'Trip'
 */
export function readableTitle(raw: unknown): string | undefined {
  try {
    const title = isRecord(raw) ? raw.title : undefined
    return typeof title === 'string' && title.trim() !== '' ? title : undefined
  } catch {
    return undefined
  }
}

/**
 * The model a record holds, ready for a store.
 *
 * @example
 * store.getState().reset(stateOf(record))
 */
export function stateOf(record: ConversationRecord): AgentState {
  const state: AgentState = {
    ...emptyState(), ...record.state, messages: toMessageTable(record.state.messages), trace: toTraceTable(record.state.trace ?? {}),
  }
  return record.state.branches === undefined ? asOneChain(state) : state
}

/**
 * A record from before branches holds one path and no tree: each turn's parent is
 * the turn before it. Without the links, regenerating an answer would start the
 * new path at that answer's question and drop the turns above it.
 */
function asOneChain(state: AgentState): AgentState {
  const turns: AgentState['turns'] = { ...state.turns }
  const branches: AgentState['branches'] = {}
  const selected: AgentState['selected'] = {}
  state.turnIds.forEach((id, i) => {
    const parent = i === 0 ? undefined : state.turnIds[i - 1]!
    const { parentId: _old, ...turn } = state.turns[id]!
    turns[id] = parent === undefined ? turn : { ...turn, parentId: parent }
    branches[parent ?? ROOT_BRANCH] = [id]
    selected[parent ?? ROOT_BRANCH] = id
  })
  return { ...state, turns, branches, selected }
}

function checkHead(raw: unknown, id: string): Checked<Record<string, unknown>> {
  if (!isRecord(raw)) return corrupt(id, `the record is ${raw === null ? 'null' : typeof raw}, not an object`)
  if (raw.format !== CONVERSATION_FORMAT) {
    return {
      ok: false,
      error: weftError('validation', `conversation "${id}" was not written by weft (format ${JSON.stringify(raw.format) ?? 'missing'})`, {
        code: CONVERSATION_FOREIGN, retryable: false,
      }),
    }
  }
  if (!Number.isSafeInteger(raw.version) || (raw.version as number) < 1) return corrupt(id, 'version is not a positive integer')
  if ((raw.version as number) > CONVERSATION_VERSION) {
    return {
      ok: false,
      error: weftError('validation', `conversation "${id}" was saved by a newer weft (record version ${String(raw.version)}, this one reads up to ${CONVERSATION_VERSION}); it is left as it is`, {
        code: CONVERSATION_NEWER, retryable: false,
      }),
    }
  }
  if (raw.id !== id) return corrupt(id, `the record names the id ${JSON.stringify(raw.id)}`)
  return { ok: true, value: raw }
}

const PAGE_ONLY: ReadonlySet<string> = new Set(['status', 'error', 'activeTurnId'])

function isTime(value: unknown): boolean {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0
}

function firstProblem(checks: Array<true | string>): string | undefined {
  return checks.find((check): check is string => check !== true)
}

function corrupt(id: string, problem: string): { ok: false; error: WeftError } {
  return {
    ok: false,
    error: weftError('validation', `conversation "${id}" cannot be read: ${problem}; it is left as it is`, { code: CONVERSATION_CORRUPT, retryable: false }),
  }
}
