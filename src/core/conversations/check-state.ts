/**
 * The deep check of a stored model: every field the components read has the type
 * the model gives it (`src/core/model/model.ts`), every list of ids names entries that
 * exist, and every id is safe as a key. A record that passes draws without a
 * crash; one that does not is quarantined by the conversation store, never drawn.
 */
import { isRecord, isSafeKey } from '../util/record'
import { isTurnTiming } from '../model/usage'

type Table = Record<string, unknown>
type Check = (value: Record<string, unknown>) => string | undefined

/**
 * The first problem of a stored model, or `undefined` when it is sound.
 * One pass per table with plain loops: a 5,000-message record is checked on every
 * load, so the check stays linear and allocates little per entry.
 *
 * @example
 * stateProblem(record.state) // 'turn "t1": sources[0] is not a source'
 */
export function stateProblem(state: unknown): string | undefined {
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
  const missingTurn = firstMissing(turnIds, turns)
  if (missingTurn !== undefined) return `turn "${missingTurn}" is missing`
  const tables = { messages, blocks, trace, gates }
  return eachEntry(turns, 'turn', (turn) => turnProblem(turn, tables))
    ?? eachEntry(messages, 'message', messageProblem)
    ?? eachEntry(blocks, 'block', blockProblem)
    ?? eachEntry(threads, 'thread', threadProblem)
    ?? eachEntry(trace, 'trace row', (node) => traceProblem(node, trace))
    ?? eachEntry(gates, 'gate', gateProblem)
    ?? treeProblem(state, turns)
    ?? cursorProblem(cursor)
    ?? queueProblem(state.queue)
}

/** Each entry is an object whose `id` is its key, then `check` it; the first problem names the entry. */
function eachEntry(table: Table, name: string, check: Check): string | undefined {
  for (const id of Object.keys(table)) {
    const entry = table[id]
    if (!isRecord(entry) || entry.id !== id) return `${name} "${id}" is damaged`
    const problem = check(entry)
    if (problem) return `${name} "${id}": ${problem}`
  }
  return undefined
}

const TURN_LISTS = ['messageIds', 'blockIds', 'traceRootIds', 'gateIds'] as const
const TURN_LIST_NAMES = { messageIds: 'message', blockIds: 'block', traceRootIds: 'traceRoot', gateIds: 'gate' } as const

function turnProblem(turn: Table, tables: { messages: Table; blocks: Table; trace: Table; gates: Table }): string | undefined {
  if (!oneOf(turn.role, ROLES)) return 'role is not user, assistant or system'
  if (!oneOf(turn.status, TURN_STATUSES)) return 'status is not a turn status'
  for (const field of TURN_LISTS) {
    const ids = turn[field]
    if (!isIdList(ids)) return `${field} is not a list of ids`
    const table = field === 'messageIds' ? tables.messages : field === 'blockIds' ? tables.blocks : field === 'traceRootIds' ? tables.trace : tables.gates
    const missing = firstMissing(ids, table)
    if (missing !== undefined) return `points at a missing ${TURN_LIST_NAMES[field]} "${missing}"`
  }
  if (!Array.isArray(turn.sources) || !isRecord(turn.metadata) || !Array.isArray(turn.problems)) return 'lacks sources, metadata or problems'
  for (let i = 0; i < turn.sources.length; i++) {
    const problem = sourceProblem(turn.sources[i])
    if (problem) return `sources[${i}] ${problem}`
  }
  for (let i = 0; i < turn.problems.length; i++) if (!isError(turn.problems[i])) return `problems[${i}] is not an error`
  if (turn.error !== undefined && !isError(turn.error)) return 'error is not an error'
  if (turn.suggestions !== undefined && !isStringList(turn.suggestions)) return 'suggestions is not a list of strings'
  if (turn.usage !== undefined && !isRecord(turn.usage)) return 'usage is not an object'
  if (turn.timing !== undefined && !isTurnTiming(turn.timing)) return 'timing is not a list of timed runs'
  return firstNot(turn, ['protocol', 'parentId', 'runId', 'threadId', 'finishReason'], isString, 'a string')
}

function sourceProblem(source: unknown): string | undefined {
  if (!isRecord(source) || typeof source.id !== 'string') return 'is not a source'
  if (source.kind !== 'url' && source.kind !== 'document') return 'has a kind that is not url or document'
  if (source.citationIndex !== undefined && typeof source.citationIndex !== 'number') return 'has a citationIndex that is not a number'
  if (source.extra !== undefined && !isRecord(source.extra)) return 'has an extra that is not an object'
  if (source.place !== undefined && (!isRecord(source.place) || firstNot(source.place, ['after', 'blockId'], isString, 'a string'))) return 'has a place that is not one'
  const field = firstNot(source, ['url', 'title', 'mediaType', 'filename', 'snippet'], isString, 'a string')
  return field ? `has ${field}` : undefined
}

function messageProblem(message: Table): string | undefined {
  if (typeof message.turnId !== 'string' || typeof message.type !== 'string') return 'lacks its turnId or type'
  if (!oneOf(message.role, MESSAGE_ROLES)) return 'role is not user, assistant, system or tool'
  if (!isRecord(message.props) || !oneOf(message.status, MESSAGE_STATUSES)) return 'lacks props or status'
  return firstNot(message, ['blockId', 'threadId'], isString, 'a string')
}

function blockProblem(block: Table): string | undefined {
  if (!isIdList(block.messageIds) || !isIdList(block.threadIds)) return 'lacks its messageIds or threadIds'
  if (typeof block.turnId !== 'string' || typeof block.kind !== 'string') return 'lacks its turnId or kind'
  if (!oneOf(block.status, SPAN_STATUSES)) return 'status is not open, done or error'
  return firstNot(block, ['label'], isString, 'a string')
}

function threadProblem(thread: Table): string | undefined {
  if (!isIdList(thread.messageIds) || typeof thread.turnId !== 'string') return 'lacks its messageIds or turnId'
  if (!oneOf(thread.status, SPAN_STATUSES)) return 'status is not open, done or error'
  if (thread.extra !== undefined && !isRecord(thread.extra)) return 'extra is not an object'
  return firstNot(thread, ['blockId', 'label'], isString, 'a string')
}

function traceProblem(node: Table, trace: Table): string | undefined {
  if (!isIdList(node.childIds) || typeof node.text !== 'string' || typeof node.label !== 'string') return 'lacks its childIds, text or label'
  const missing = firstMissing(node.childIds, trace)
  if (missing !== undefined) return `points at a missing row "${missing}"`
  if (typeof node.turnId !== 'string' || typeof node.kind !== 'string' || !oneOf(node.status, TRACE_STATUSES)) return 'lacks its turnId, kind or status'
  if (!Array.isArray(node.citations)) return 'citations is not a list'
  if (node.confidence !== undefined && typeof node.confidence !== 'number') return 'confidence is not a number'
  if (node.extra !== undefined && !isRecord(node.extra)) return 'extra is not an object'
  if (node.actor !== undefined && (!isRecord(node.actor) || typeof node.actor.id !== 'string' || firstNot(node.actor, ['kind', 'name'], isString, 'a string'))) {
    return 'actor is not one'
  }
  return firstNot(node, ['parentId', 'tool'], isString, 'a string')
}

function gateProblem(gate: Table): string | undefined {
  if (typeof gate.turnId !== 'string' || typeof gate.kind !== 'string' || typeof gate.question !== 'string') return 'lacks its turnId, kind or question'
  if (!oneOf(gate.status, GATE_STATUSES)) return 'status is not a gate status'
  if (gate.extra !== undefined && !isRecord(gate.extra)) return 'extra is not an object'
  return firstNot(gate, ['toolCallId', 'url'], isString, 'a string')
}

/** Branches (the tree of turns) name turns that exist; a record from before branches has none. */
function treeProblem(state: Table, turns: Table): string | undefined {
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
  return undefined
}

function cursorProblem(cursor: Table): string | undefined {
  if (cursor.eventCount !== undefined && typeof cursor.eventCount !== 'number') return 'cursor.eventCount is not a number'
  if (cursor.sequence !== undefined && typeof cursor.sequence !== 'number') return 'cursor.sequence is not a number'
  const field = firstNot(cursor, ['protocol', 'streamId', 'lastEventId', 'turnId'], isString, 'a string')
  return field ? `cursor.${field}` : undefined
}

/** A `WeftError` as the model keeps it. */
function isError(value: unknown): boolean {
  if (!isRecord(value) || typeof value.type !== 'string' || typeof value.message !== 'string') return false
  if (value.retryable !== undefined && typeof value.retryable !== 'boolean') return false
  if (value.status !== undefined && typeof value.status !== 'number') return false
  if (value.retryAfterMs !== undefined && typeof value.retryAfterMs !== 'number') return false
  return firstNot(value, ['code', 'detail'], isString, 'a string') === undefined
}

/** The first optional field that is present and fails `test`, as "<field> that is not <what>". */
function firstNot(record: Table, fields: readonly string[], test: (value: unknown) => boolean, what: string): string | undefined {
  for (const field of fields) {
    const value = record[field]
    if (value !== undefined && !test(value)) return `${field} that is not ${what}`
  }
  return undefined
}

function firstMissing(ids: readonly string[], table: Table): string | undefined {
  for (let i = 0; i < ids.length; i++) if (!Object.hasOwn(table, ids[i] as string)) return ids[i]
  return undefined
}

const ROLES: ReadonlySet<unknown> = new Set(['user', 'assistant', 'system'])
const MESSAGE_ROLES: ReadonlySet<unknown> = new Set(['user', 'assistant', 'system', 'tool'])
const TURN_STATUSES: ReadonlySet<unknown> = new Set(['streaming', 'done', 'error', 'aborted'])
const MESSAGE_STATUSES: ReadonlySet<unknown> = new Set(['streaming', 'done', 'error'])
const SPAN_STATUSES: ReadonlySet<unknown> = new Set(['open', 'done', 'error'])
const TRACE_STATUSES: ReadonlySet<unknown> = new Set(['start', 'progress', 'done', 'error'])
const GATE_STATUSES: ReadonlySet<unknown> = new Set(['pending', 'approved', 'rejected', 'answered'])

function oneOf(value: unknown, allowed: ReadonlySet<unknown>): boolean {
  return allowed.has(value)
}

function isString(value: unknown): boolean {
  return typeof value === 'string'
}

function isStringList(value: unknown): boolean {
  if (!Array.isArray(value)) return false
  for (let i = 0; i < value.length; i++) if (typeof value[i] !== 'string') return false
  return true
}

function isIdList(value: unknown): value is string[] {
  if (!Array.isArray(value)) return false
  for (let i = 0; i < value.length; i++) {
    const id: unknown = value[i]
    if (typeof id !== 'string' || !isSafeKey(id)) return false
  }
  return true
}

/** A queue is absent, or a list of messages with a safe string id and string text. */
function queueProblem(queue: unknown): string | undefined {
  if (queue === undefined) return undefined
  if (!Array.isArray(queue)) return 'queue is not a list'
  for (const [i, queued] of queue.entries()) {
    if (!isRecord(queued) || typeof queued.id !== 'string' || !isSafeKey(queued.id) || typeof queued.text !== 'string') return `queue[${i}] is not a queued message`
    if (queued.files !== undefined && !(typeof queued.files === 'number' && Number.isInteger(queued.files) && queued.files > 0)) return `queue[${i}]: files is not a count`
  }
  return undefined
}
