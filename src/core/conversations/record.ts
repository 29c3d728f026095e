/**
 * The stored form of a conversation and the schema check every load runs.
 * A record that is not ours, is damaged, or was written by a newer weft is
 * reported for that conversation alone, and is never written over.
 */
import { weftError, type WeftError } from '../errors'
import { isRecord, isSafeKey } from '../util/record'
import { ROOT_BRANCH } from '../branches'
import { emptyState, type AgentState, type Message } from '../model'
import { messageRecord, toMessageTable } from '../message-table'

/** Marks a record as weft's, so a stranger's data in the same database is recognised. */
export const CONVERSATION_FORMAT = 'weft.conversation'

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
  format: typeof CONVERSATION_FORMAT
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
 * which belong to a page. Messages are kept as one record by id, whatever
 * buckets the store holds them in, so the stored form does not follow the
 * store's layout.
 */
export type StoredState = Omit<AgentState, 'status' | 'error' | 'activeTurnId' | 'messages'> & { messages: Record<string, Message> }

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
 * Check a stored record: the summary fields, then the model's shape and its
 * references (every listed turn, message, block, thread, row and gate exists,
 * and every id is safe to use as a key).
 *
 * @example
 * const checked = checkRecord(await storage.load('c1'), 'c1')
 * if (checked.ok) store.getState().reset(stateOf(checked.value))
 */
export function checkRecord(raw: unknown, id: string): Checked<ConversationRecord> {
  const summary = checkSummary(raw, id)
  if (!summary.ok) return summary
  const state = (raw as Record<string, unknown>).state
  const problem = stateProblem(state)
  if (problem) return corrupt(id, problem)
  return { ok: true, value: { ...summary.value, state: state as StoredState } }
}

/**
 * The model a record holds, ready for a store.
 *
 * @example
 * store.getState().reset(stateOf(record))
 */
export function stateOf(record: ConversationRecord): AgentState {
  const state: AgentState = { ...emptyState(), ...record.state, messages: toMessageTable(record.state.messages) }
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

// One pass per table with plain loops: a 5,000-message record is checked on every
// load, so the check stays linear and allocates no array or closure per entry.
function stateProblem(state: unknown): string | undefined {
  if (!isRecord(state)) return 'state is missing'
  const { turnIds, turns, blocks, threads, messages, trace, gates, agentState, cursor } = state
  if (!isRecord(turns) || !isRecord(blocks) || !isRecord(threads) || !isRecord(messages) || !isRecord(trace) || !isRecord(gates)) {
    return 'state lacks one of turns, blocks, threads, messages, trace, gates'
  }
  if (!isRecord(agentState) || !isRecord(cursor)) return 'state lacks agentState or cursor'
  if (!isIdList(turnIds)) return 'turnIds is not a list of ids'
  for (const table of [turns, blocks, threads, messages, trace, gates]) {
    for (const key of Object.keys(table)) if (!isSafeKey(key)) return `the id "${key}" is not allowed`
  }
  for (let i = 0; i < turnIds.length; i++) if (!Object.hasOwn(turns, turnIds[i] as string)) return `turn "${turnIds[i]}" is missing`
  for (const turnId of Object.keys(turns)) {
    const problem = turnProblem(turnId, turns[turnId], { messages, blocks, trace, gates })
    if (problem) return problem
  }
  for (const messageId of Object.keys(messages)) {
    const message = messages[messageId]
    if (!isRecord(message) || message.id !== messageId || typeof message.turnId !== 'string' || typeof message.type !== 'string') {
      return `message "${messageId}" is damaged`
    }
    if (!isRecord(message.props) || !MESSAGE_STATUSES.has(message.status as string)) return `message "${messageId}" lacks props or status`
  }
  for (const blockId of Object.keys(blocks)) {
    const block = blocks[blockId]
    if (!isRecord(block) || block.id !== blockId || !isIdList(block.messageIds) || !isIdList(block.threadIds)) return `block "${blockId}" is damaged`
  }
  for (const threadId of Object.keys(threads)) {
    const thread = threads[threadId]
    if (!isRecord(thread) || thread.id !== threadId || !isIdList(thread.messageIds)) return `thread "${threadId}" is damaged`
  }
  for (const nodeId of Object.keys(trace)) {
    const node = trace[nodeId]
    if (!isRecord(node) || node.id !== nodeId || !isIdList(node.childIds) || typeof node.text !== 'string') return `trace row "${nodeId}" is damaged`
    const missing = firstMissing(node.childIds, trace)
    if (missing !== undefined) return `trace row "${nodeId}" points at a missing row "${missing}"`
  }
  for (const gateId of Object.keys(gates)) {
    const gate = gates[gateId]
    if (!isRecord(gate) || gate.id !== gateId || typeof gate.turnId !== 'string') return `gate "${gateId}" is damaged`
  }
  // Branches (the tree of turns) name turns that exist; a record from before branches has none.
  if (state.branches !== undefined) {
    const branches = state.branches
    if (!isRecord(branches)) return 'branches is not a table'
    for (const parent of Object.keys(branches)) {
      if (parent !== '' && !isSafeKey(parent)) return `the id "${parent}" is not allowed`
      const children = branches[parent]
      if (!isIdList(children)) return `branches of "${parent}" is not a list of ids`
      const missing = firstMissing(children, turns)
      if (missing !== undefined) return `branches of "${parent}" point at a missing turn "${missing}"`
    }
  }
  if (state.selected !== undefined) {
    const selected = state.selected
    if (!isRecord(selected)) return 'selected is not a table'
    for (const parent of Object.keys(selected)) {
      if (parent !== '' && !isSafeKey(parent)) return `the id "${parent}" is not allowed`
      const child = selected[parent]
      if (typeof child !== 'string' || !Object.hasOwn(turns, child)) return `the selected branch of "${parent}" is missing`
    }
  }
  if (cursor.eventCount !== undefined && typeof cursor.eventCount !== 'number') return 'cursor.eventCount is not a number'
  return undefined
}

const TURN_LISTS = ['messageIds', 'blockIds', 'traceRootIds', 'gateIds'] as const
const TURN_LIST_NAMES = { messageIds: 'message', blockIds: 'block', traceRootIds: 'traceRoot', gateIds: 'gate' } as const

function turnProblem(turnId: string, turn: unknown, tables: { messages: Record<string, unknown>; blocks: Record<string, unknown>; trace: Record<string, unknown>; gates: Record<string, unknown> }): string | undefined {
  if (!isRecord(turn) || turn.id !== turnId) return `turn "${turnId}" is damaged`
  if (turn.role !== 'user' && turn.role !== 'assistant' && turn.role !== 'system') return `turn "${turnId}" has no role`
  if (!TURN_STATUSES.has(turn.status as string)) return `turn "${turnId}" has no status`
  for (const field of TURN_LISTS) {
    const ids = turn[field]
    if (!isIdList(ids)) return `turn "${turnId}" has no ${field}`
    const table = field === 'messageIds' ? tables.messages : field === 'blockIds' ? tables.blocks : field === 'traceRootIds' ? tables.trace : tables.gates
    const missing = firstMissing(ids, table)
    if (missing !== undefined) return `turn "${turnId}" points at a missing ${TURN_LIST_NAMES[field]} "${missing}"`
  }
  if (!Array.isArray(turn.sources) || !isRecord(turn.metadata) || !Array.isArray(turn.problems)) return `turn "${turnId}" lacks sources, metadata or problems`
  return undefined
}

function firstMissing(ids: readonly string[], table: Record<string, unknown>): string | undefined {
  for (let i = 0; i < ids.length; i++) if (!Object.hasOwn(table, ids[i] as string)) return ids[i]
  return undefined
}

const PAGE_ONLY: ReadonlySet<string> = new Set(['status', 'error', 'activeTurnId'])
const TURN_STATUSES: ReadonlySet<string> = new Set(['streaming', 'done', 'error', 'aborted'])
const MESSAGE_STATUSES: ReadonlySet<string> = new Set(['streaming', 'done', 'error'])

function isIdList(value: unknown): value is string[] {
  if (!Array.isArray(value)) return false
  for (let i = 0; i < value.length; i++) {
    const id: unknown = value[i]
    if (typeof id !== 'string' || !isSafeKey(id)) return false
  }
  return true
}

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
