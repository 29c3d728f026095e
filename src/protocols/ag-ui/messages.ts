/**
 * AG-UI messages (from `MESSAGES_SNAPSHOT`, `RUN_STARTED.input` and history)
 * read into weft messages: text, reasoning, activity, and one tool message per
 * tool call, keyed by its `toolCallId`, that its result merges into.
 */
import type { Message } from '../../core/index'
import { extrasOf, isRecord, isSafeKey, nonEmpty } from '../../protocol-kit/index'
import { messageExtras, TOOL_CALL_OBJECT_FIELDS } from './event-fields'
import { parseJson, readToolResult } from './tool-result'

/**
 * One weft message read from an AG-UI message.
 *
 * @example
 * const part: MessagePart = { id: 'm1', role: 'assistant', type: 'text', props: { content: 'Hi' } }
 */
export interface MessagePart {
  id: string
  role: Message['role']
  type: string
  props: Record<string, unknown>
  /** The sub-agent lane (`subagentRunId`) the message belongs to. */
  threadId?: string
  /** For a tool result: it completes the tool message of this call. */
  isResult?: boolean
}

/**
 * The weft messages of one AG-UI message, and what could not be read.
 *
 * @example
 * const { parts, problems }: ReadMessage = readAgUiMessage(raw)
 */
export interface ReadMessage {
  parts: MessagePart[]
  problems: string[]
}

/**
 * Read one AG-UI message. Snake-case fields of history records (`tool_calls`,
 * `tool_call_id`) are read too. What the message carries beyond the fields weft
 * reads (and beyond `alsoRead`, the fields the caller reads itself) is kept in
 * `props.extra`: of a tool call, in its tool message's `props.extra`; of a
 * `role: "tool"` result, in `props.resultExtra`.
 *
 * @example
 * readAgUiMessage({ id: 'a1', role: 'assistant', content: 'Checking', toolCalls: [
 *   { id: 'c1', type: 'function', function: { name: 'search', arguments: '{"q":"x"}' } },
 * ] }).parts.map((p) => p.type) // ['text', 'tool']
 */
export function readAgUiMessage(raw: unknown, alsoRead?: ReadonlySet<string>): ReadMessage {
  return keyable(readMessage(raw, alsoRead), isRecord(raw) ? nonEmpty(raw.id) : undefined)
}

/**
 * The parts whose ids can key the store: a message, tool call or lane named
 * `__proto__`, `constructor` or `prototype` is left out with a problem here, where
 * every path that reads messages (snapshots, `RUN_STARTED.input`, history) meets,
 * so each keeps the same messages and tells the same problem. The fold would
 * refuse such an id anyway, but a history page is one op, refused whole.
 */
function keyable(read: ReadMessage, messageId: string | undefined): ReadMessage {
  if (read.parts.every((part) => isSafeKey(part.id) && (part.threadId === undefined || isSafeKey(part.threadId)))) return read
  const parts: MessagePart[] = []
  const problems = [...read.problems]
  for (const part of read.parts) {
    const tool = part.type === 'tool'
    const left = !tool ? 'the message' : part.isResult ? 'the result' : 'the call'
    if (!isSafeKey(part.id)) {
      problems.push(`refused the ${tool ? 'tool call' : 'message'} id "${part.id}"${tool ? ` of message "${messageId}"` : ''}; ${left} was left out`)
    } else if (part.threadId !== undefined && !isSafeKey(part.threadId)) {
      problems.push(`refused the subagentRunId "${part.threadId}" of message "${messageId}"; ${left} was left out`)
    } else {
      parts.push(part)
    }
  }
  return { parts, problems }
}

function readMessage(raw: unknown, alsoRead?: ReadonlySet<string>): ReadMessage {
  if (!isRecord(raw)) return { parts: [], problems: ['a message must be an object'] }
  const id = nonEmpty(raw.id)
  const role = nonEmpty(raw.role)
  if (!id || !role) return { parts: [], problems: [`a message needs an id and a role (got ${JSON.stringify(raw.id)}, ${JSON.stringify(raw.role)})`] }
  const threadId = nonEmpty(raw.subagentRunId)
  const place = threadId ? { threadId } : {}
  const extra: Record<string, unknown> = {}
  if (typeof raw.name === 'string') extra.name = raw.name
  if (typeof raw.encryptedValue === 'string') extra.encryptedValue = raw.encryptedValue
  if (isRecord(raw.metadata)) extra.metadata = raw.metadata
  const unread = messageExtras(raw, role, alsoRead)
  if (unread && role !== 'tool') extra.extra = unread

  switch (role) {
    case 'user':
      return { parts: [{ id, role: 'user', type: 'text', props: { ...userContent(raw.content), ...extra }, ...place }], problems: [] }
    case 'system':
    case 'developer':
      return {
        parts: [{ id, role: 'system', type: 'text', props: { content: text(raw.content), ...(role === 'developer' ? { sourceRole: role } : {}), ...extra }, ...place }],
        problems: [],
      }
    case 'assistant':
      return assistantParts(id, raw, extra, place)
    case 'reasoning':
      return { parts: [{ id, role: 'assistant', type: 'reasoning', props: { content: text(raw.content), ...extra }, ...place }], problems: [] }
    case 'activity':
      return {
        parts: [{ id, role: 'assistant', type: 'activity', props: { activityType: nonEmpty(raw.activityType) ?? 'activity', content: raw.content ?? {}, ...extra }, ...place }],
        problems: [],
      }
    case 'tool':
      return toolResultPart(id, raw, place, unread)
    default:
      return {
        parts: [{ id, role: 'assistant', type: 'text', props: { content: text(raw.content), sourceRole: role, ...extra }, ...place }],
        problems: [`unknown message role "${role}"; kept as assistant text`],
      }
  }
}

/**
 * The props of a tool message for one AG-UI tool call (`{id, function: {name, arguments}}`).
 *
 * @example
 * toolCallProps({ id: 'c1', function: { name: 'search', arguments: '{"q":"x"}' } }, 'a1')
 * // { toolCallId: 'c1', name: 'search', inputText: '{"q":"x"}', input: { q: 'x' }, state: 'input-available', parentMessageId: 'a1' }
 */
export function toolCallProps(call: Record<string, unknown>, parentMessageId?: string): Record<string, unknown> | undefined {
  const toolCallId = nonEmpty(call.id)
  if (!toolCallId) return undefined
  const fn = isRecord(call.function) ? call.function : call
  const name = nonEmpty(fn.name) ?? 'tool'
  const args = fn.arguments
  const props: Record<string, unknown> = { toolCallId, name, state: 'input-available' }
  if (typeof args === 'string') {
    props.inputText = args
    const parsed = args.trim() === '' ? { ok: true as const, value: {} } : parseJson(args)
    if (parsed.ok) props.input = parsed.value
  } else if (args !== undefined) {
    props.input = args
    props.inputText = JSON.stringify(args)
  }
  if (parentMessageId) props.parentMessageId = parentMessageId
  if (typeof call.encryptedValue === 'string') props.encryptedValue = call.encryptedValue
  // A call's own fields weft does not read (its `metadata`, a server's additions) go back on the call in a request.
  const unread = extrasOf(call, TOOL_CALL_OBJECT_FIELDS)
  if (unread) props.extra = unread
  return props
}

function assistantParts(id: string, raw: Record<string, unknown>, extra: Record<string, unknown>, place: { threadId?: string }): ReadMessage {
  const parts: MessagePart[] = []
  const problems: string[] = []
  const content = text(raw.content)
  const calls = Array.isArray(raw.toolCalls) ? raw.toolCalls : Array.isArray(raw.tool_calls) ? raw.tool_calls : []
  // A message that only carries tool calls has no bubble of its own.
  if (content !== '' || calls.length === 0) parts.push({ id, role: 'assistant', type: 'text', props: { content, ...extra }, ...place })
  for (const call of calls) {
    const props = isRecord(call) ? toolCallProps(call, id) : undefined
    if (props) parts.push({ id: props.toolCallId as string, role: 'assistant', type: 'tool', props, ...place })
    else problems.push(`a tool call of message "${id}" has no id`)
  }
  return { parts, problems }
}

function toolResultPart(id: string, raw: Record<string, unknown>, place: { threadId?: string }, unread?: Record<string, unknown>): ReadMessage {
  const toolCallId = nonEmpty(raw.toolCallId) ?? nonEmpty(raw.tool_call_id)
  const { props, refused } = readToolResult(raw)
  const name = nonEmpty(raw.toolName) ?? nonEmpty(raw.tool_name) ?? nonEmpty(raw.name)
  const problems = refused.map((reason) => `navigation action refused: ${reason}`)
  if (!toolCallId) problems.push(`the tool message "${id}" names no toolCallId; kept under its own id`)
  return {
    parts: [{
      id: toolCallId ?? id, role: 'assistant', type: 'tool', isResult: true,
      props: { ...props, toolCallId: toolCallId ?? id, resultMessageId: id, ...(name ? { name } : {}), ...(unread ? { resultExtra: unread } : {}) },
      ...place,
    }],
    problems,
  }
}

function userContent(content: unknown): Record<string, unknown> {
  if (!Array.isArray(content)) return { content: text(content) }
  const texts = content
    .filter((part) => isRecord(part) && part.type === 'text' && typeof part.text === 'string')
    .map((part) => (part as { text: string }).text)
  return { content: texts.join('\n'), parts: content }
}

function text(content: unknown): string {
  if (typeof content === 'string') return content
  if (Array.isArray(content)) return userContent(content).content as string
  return ''
}
