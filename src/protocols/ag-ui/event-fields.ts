/**
 * The fields weft reads from each AG-UI event type (and from the messages a
 * snapshot or history carries). Anything else a known event carries is kept on
 * what the event made, as `extra`, so nothing the wire carries is dropped.
 *
 * Two fields of AG-UI's `BaseEvent` are decided here rather than per event:
 * - `rawEvent` (the upstream framework's own event this one was translated from;
 *   LangGraph's integration attaches one to nearly every event, token deltas
 *   included) is never copied into the store: the decoder hands it to the host's
 *   `onData` as a `raw` part, as it does with a `RAW` event's `event`.
 * - `timestamp` is kept in `extra` like any other field, except on the token events
 *   (`*_CONTENT`, `TOOL_CALL_ARGS`, a `*_CHUNK` that goes on with an open stream):
 *   each would overwrite the previous one's, at the cost of a write per token,
 *   and the end event's own `timestamp` follows.
 */
import { extrasOf } from '../../protocol-kit/index'
import type { AgUiEvent } from './stream-state'

const BASE = ['type', 'rawEvent']
/** What a text or reasoning message event reads (any of them can start the message). */
const MESSAGE = [...BASE, 'messageId', 'role', 'name', 'metadata', 'subagentRunId']
const MESSAGE_END = [...MESSAGE, 'content', 'text', 'delta']
/** `THINKING_TEXT_MESSAGE_*` carry no ids and no role. */
const THINKING = [...BASE, 'name', 'metadata', 'subagentRunId']
const TOOL_CALL = [...BASE, 'toolCallId', 'toolCallName', 'parentMessageId', 'subagentRunId']
const TOKEN = 'timestamp'

/**
 * The fields read per event type. Every type of `AG_UI_EVENT_TYPES` has an entry
 * (a test holds the two lists together).
 *
 * @example
 * AG_UI_EVENT_FIELDS.get('TOOL_CALL_END') // Set { 'type', 'rawEvent', 'toolCallId', 'subagentRunId' }
 */
export const AG_UI_EVENT_FIELDS: ReadonlyMap<string, ReadonlySet<string>> = new Map(Object.entries({
  RUN_STARTED: [...BASE, 'threadId', 'runId', 'parentRunId', 'input'],
  // A run's end names the thread its start put on the turn.
  RUN_FINISHED: [...BASE, 'threadId', 'runId', 'result', 'outcome', 'usage'],
  RUN_ERROR: [...BASE, 'runId', 'message', 'code', 'usage'],
  STEP_STARTED: [...BASE, 'stepName', 'subagentRunId'],
  STEP_FINISHED: [...BASE, 'stepName', 'subagentRunId'],
  TEXT_MESSAGE_START: MESSAGE,
  TEXT_MESSAGE_CONTENT: [...MESSAGE, 'delta', TOKEN],
  TEXT_MESSAGE_END: MESSAGE_END,
  TEXT_MESSAGE_CHUNK: [...MESSAGE, 'delta'],
  TOOL_CALL_START: TOOL_CALL,
  TOOL_CALL_ARGS: [...BASE, 'toolCallId', 'delta', 'subagentRunId', TOKEN],
  TOOL_CALL_END: [...BASE, 'toolCallId', 'subagentRunId'],
  TOOL_CALL_RESULT: [
    ...BASE, 'messageId', 'toolCallId', 'toolCallName', 'role', 'content', 'result', 'metadata', 'error',
    'ui_schema', 'uiSchema', 'tool_call_args', 'toolCallArgs', 'subagentRunId',
  ],
  TOOL_CALL_CHUNK: [...TOOL_CALL, 'delta'],
  REASONING_START: [...BASE, 'messageId', 'subagentRunId'],
  REASONING_END: [...BASE, 'messageId', 'subagentRunId'],
  REASONING_MESSAGE_START: MESSAGE,
  REASONING_MESSAGE_CONTENT: [...MESSAGE, 'delta', TOKEN],
  REASONING_MESSAGE_END: MESSAGE_END,
  REASONING_MESSAGE_CHUNK: [...MESSAGE, 'delta'],
  REASONING_ENCRYPTED_VALUE: [...BASE, 'subtype', 'entityId', 'encryptedValue', 'subagentRunId'],
  STATE_SNAPSHOT: [...BASE, 'snapshot', 'subagentRunId'],
  STATE_DELTA: [...BASE, 'delta', 'subagentRunId'],
  MESSAGES_SNAPSHOT: [...BASE, 'messages'],
  ACTIVITY_SNAPSHOT: [...BASE, 'messageId', 'activityType', 'content', 'replace', 'metadata', 'subagentRunId'],
  ACTIVITY_DELTA: [...BASE, 'messageId', 'activityType', 'patch', 'metadata', 'subagentRunId'],
  RAW: [...BASE, 'event', 'source'],
  CUSTOM: [...BASE, 'name', 'value', 'subagentRunId'],
  SUBAGENT_STARTED: [...BASE, 'subagentRunId', 'name', 'description', 'parentSubagentRunId', 'parentToolCallId', 'parentMessageId'],
  SUBAGENT_FINISHED: [...BASE, 'subagentRunId', 'result', 'outcome'],
  SUBAGENT_ERROR: [...BASE, 'subagentRunId', 'message', 'code'],
  THINKING_START: [...BASE, 'title', 'subagentRunId'],
  THINKING_END: [...BASE, 'subagentRunId'],
  THINKING_TEXT_MESSAGE_START: THINKING,
  THINKING_TEXT_MESSAGE_CONTENT: [...THINKING, 'delta', TOKEN],
  THINKING_TEXT_MESSAGE_END: [...THINKING, 'content', 'text', 'delta'],
}).map(([type, fields]) => [type, new Set(fields)]))

/** A chunk that goes on with an open stream is a token event: its `timestamp` is read (and not kept). */
const CONTINUING: ReadonlyMap<string, ReadonlySet<string>> = new Map(
  ['TEXT_MESSAGE_CHUNK', 'REASONING_MESSAGE_CHUNK', 'TOOL_CALL_CHUNK'].map((type) => [type, new Set([...AG_UI_EVENT_FIELDS.get(type) ?? [], TOKEN])]),
)

/**
 * What an event carries beyond the fields weft reads for its type, or
 * `undefined` (always, for an event without any: nothing is allocated).
 * `continuing` marks a `*_CHUNK` that goes on with an open stream.
 *
 * @example
 * eventExtras({ type: 'TOOL_CALL_END', toolCallId: 'c1', costCents: 3 }, 'TOOL_CALL_END') // { costCents: 3 }
 */
export function eventExtras(e: AgUiEvent, type: string, continuing = false): Record<string, unknown> | undefined {
  const read = (continuing ? CONTINUING.get(type) : undefined) ?? AG_UI_EVENT_FIELDS.get(type)
  return read ? extrasOf(e, read) : undefined
}

const MESSAGE_BASE = ['id', 'role', 'name', 'encryptedValue', 'metadata', 'subagentRunId']

/**
 * The fields weft reads from a stored AG-UI message, by role (an unknown role reads
 * as a user or system message does). A tool call inside `toolCalls` reads
 * `TOOL_CALL_OBJECT_FIELDS`.
 *
 * @example
 * AG_UI_MESSAGE_FIELDS.get('activity')?.has('activityType') // true
 */
export const AG_UI_MESSAGE_FIELDS: ReadonlyMap<string, ReadonlySet<string>> = new Map(Object.entries({
  user: [...MESSAGE_BASE, 'content'],
  system: [...MESSAGE_BASE, 'content'],
  developer: [...MESSAGE_BASE, 'content'],
  assistant: [...MESSAGE_BASE, 'content', 'toolCalls', 'tool_calls'],
  reasoning: [...MESSAGE_BASE, 'content'],
  activity: [...MESSAGE_BASE, 'activityType', 'content'],
  tool: [
    'id', 'role', 'subagentRunId', 'toolCallId', 'tool_call_id', 'toolName', 'tool_name', 'name', 'content', 'result', 'metadata', 'error',
    'ui_schema', 'uiSchema', 'tool_call_args', 'toolCallArgs',
  ],
}).map(([role, fields]) => [role, new Set(fields)]))

/**
 * The fields weft reads from one entry of an assistant message's `toolCalls`
 * (`name` and `arguments` too, for servers that leave out the `function` wrapper).
 *
 * @example
 * TOOL_CALL_OBJECT_FIELDS.has('function') // true
 */
export const TOOL_CALL_OBJECT_FIELDS: ReadonlySet<string> = new Set(['id', 'type', 'function', 'encryptedValue', 'name', 'arguments'])

/**
 * What a stored message carries beyond the fields weft reads for its role (and
 * beyond `alsoRead`, the fields its reader uses, such as history's `seq`).
 *
 * @example
 * messageExtras({ id: 'u1', role: 'user', content: 'Hi', createdAt: '2026-03-16' }) // { createdAt: '2026-03-16' }
 */
export function messageExtras(raw: Record<string, unknown>, role: string, alsoRead?: ReadonlySet<string>): Record<string, unknown> | undefined {
  const extra = extrasOf(raw, AG_UI_MESSAGE_FIELDS.get(role) ?? (AG_UI_MESSAGE_FIELDS.get('user') as ReadonlySet<string>))
  if (!extra || !alsoRead) return extra
  for (const key of alsoRead) delete extra[key]
  return Object.keys(extra).length > 0 ? extra : undefined
}
