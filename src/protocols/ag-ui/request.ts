/**
 * AG-UI's `RunAgentInput` built from the active path: user and assistant
 * messages with their tool calls, one `role: "tool"` message per tool result,
 * the client's tools, the shared state, and `resume` entries answering the
 * interrupts a run ended with. A message goes back with what it came with: its
 * `name`, `metadata` and `encryptedValue`, and the fields weft kept without
 * reading (`props.extra`; a tool result's `props.resultExtra`), as `@ag-ui/client`
 * sends back the messages it holds. The builder's own fields win over those.
 */
import type { AgentState, Message, RequestBody, RequestContext, Turn } from '../../core/index'
import { isRecord, isSafeKey, memoByTurn, messageIn, own } from '../../protocol-kit/index'

type AgUiMessage = Record<string, unknown> & { id: string; role: string }

/**
 * The AG-UI messages of the turns in `path`. Ids are the ones the stream gave,
 * so a server that echoes them in `MESSAGES_SNAPSHOT` updates them in place.
 *
 * @example
 * toAgUiMessages(state, state.turnIds) // [{ id: 'u1', role: 'user', content: 'Hi' }, ...]
 */
export function toAgUiMessages(state: AgentState, path: readonly string[]): AgUiMessage[] {
  const out: AgUiMessage[] = []
  for (const turnId of path) {
    const turn = own(state.turns, turnId)
    if (turn) out.push(...turnMessages(state, turn))
  }
  return out
}

/** One turn's AG-UI messages: a user message, or an answer's messages with their tool calls and results. */
function turnMessages(state: AgentState, turn: Turn): AgUiMessage[] {
  const out: AgUiMessage[] = []
  const messages = turn.messageIds.map((id) => messageIn(state.messages, id)).filter((m): m is Message => m !== undefined)
  if (turn.role === 'user') {
    const user = userMessage(turn.id, messages)
    if (user) out.push(user)
    return out
  }
  let assistant: AgUiMessage | undefined
  const results: AgUiMessage[] = []
  const flush = () => {
    if (assistant) out.push(assistant)
    out.push(...results)
    assistant = undefined
    results.length = 0
  }
  for (const message of messages) {
    if (message.role === 'system' && message.type === 'text') {
      flush()
      out.push(withKept(message.props, { id: message.id, role: 'system', content: text(message.props.content) }))
    } else if (message.type === 'text' && message.role !== 'user') {
      flush()
      assistant = withKept(message.props, { id: message.id, role: 'assistant', content: text(message.props.content) })
    } else if (message.type === 'tool') {
      const props = message.props
      const toolCallId = typeof props.toolCallId === 'string' ? props.toolCallId : message.id
      const parent = typeof props.parentMessageId === 'string' ? props.parentMessageId : undefined
      if (!assistant || (parent && assistant.id !== parent)) {
        flush()
        assistant = { id: parent ?? `${toolCallId}:call`, role: 'assistant' }
      }
      const calls = (assistant.toolCalls ??= []) as unknown[]
      calls.push({
        ...extraOf(props.extra, BUILT_CALL), ...(typeof props.encryptedValue === 'string' ? { encryptedValue: props.encryptedValue } : {}),
        id: toolCallId, type: 'function', function: { name: text(props.name) || 'tool', arguments: argumentsOf(props) },
      })
      const result = toolResult(message, toolCallId)
      if (result) results.push(result)
    }
  }
  flush()
  return out
}

const turnMessagesOf = memoByTurn(turnMessages)

/** `toAgUiMessages`, with each unchanged turn's messages reused. */
function pathMessages(state: AgentState, path: readonly string[]): AgUiMessage[] {
  const out: AgUiMessage[] = []
  for (const turnId of path) {
    const turn = own(state.turns, turnId)
    if (turn) for (const message of turnMessagesOf(state, turn)) out.push(message)
  }
  return out
}

/**
 * Build the `RunAgentInput` for a request. A turn that did not change since an
 * earlier request reuses the messages built then (see `memoByTurn`), so the body's
 * messages are shared: copy one before changing it.
 *
 * @example
 * agUiRequest(context) // { threadId, runId, messages, tools, context: [], state: {}, forwardedProps: {} }
 */
export function agUiRequest(context: RequestContext): RequestBody {
  const body: Record<string, unknown> = {
    threadId: context.conversationId,
    runId: context.runId,
    messages: pathMessages(context.state, context.path),
    tools: context.tools.map((tool) => ({ name: tool.name, description: tool.description ?? '', ...(tool.parameters !== undefined ? { parameters: tool.parameters } : {}) })),
    // AG-UI's Context value is a string: JSON data that is not one goes as its JSON text.
    context: (context.context ?? []).map((entry) => ({ description: entry.description, value: typeof entry.value === 'string' ? entry.value : JSON.stringify(entry.value) })),
    state: context.state.agentState,
    forwardedProps: {},
  }
  const resume = context.answers.filter((answer) => answer.kind === 'interrupt' && answer.interruptId)
  if (resume.length > 0) {
    body.resume = resume.map((answer) => ({ interruptId: answer.interruptId, status: 'resolved', payload: answer.response }))
  }
  return body
}

function userMessage(turnId: string, messages: Message[]): AgUiMessage | undefined {
  const texts = messages.filter((m) => m.type === 'text')
  const files = messages.filter((m) => m.type === 'file' || m.type === 'image')
  const first = texts[0] ?? files[0]
  if (!first) return undefined
  const content = texts.map((m) => text(m.props.content)).join('\n')
  if (files.length === 0) return withKept(first.props, { id: first.id, role: 'user', content })
  const parts: unknown[] = content ? [{ type: 'text', text: content }] : []
  for (const file of files) {
    const url = text(file.props.url)
    const mimeType = text(file.props.mediaType) || 'application/octet-stream'
    const data = /^data:([^;,]+)?;base64,(.*)$/s.exec(url)
    const source = data ? { type: 'data', value: data[2], mimeType: data[1] ?? mimeType } : { type: 'url', value: url, mimeType }
    parts.push({ type: mimeType.startsWith('image/') ? 'image' : 'document', source })
  }
  return withKept(first.props, { id: first.id ?? `${turnId}:input`, role: 'user', content: parts })
}

/** The fields the builder writes itself, on a message and on a tool call: a kept field of the same name never replaces them. */
const BUILT_MESSAGE: ReadonlySet<string> = new Set(['id', 'role', 'content', 'toolCalls', 'toolCallId', 'error', 'name', 'metadata', 'encryptedValue'])
const BUILT_CALL: ReadonlySet<string> = new Set(['id', 'type', 'function', 'encryptedValue'])

/** Kept fields that may go back on a wire message or call (never one the builder writes). */
function extraOf(extra: unknown, built: ReadonlySet<string> = BUILT_MESSAGE): Record<string, unknown> {
  if (!isRecord(extra)) return {}
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(extra)) if (!built.has(key) && isSafeKey(key)) out[key] = extra[key]
  return out
}

/** A wire message with what its weft message kept: `name`, `metadata`, `encryptedValue`, then the unread fields under them. */
function withKept(props: Record<string, unknown>, built: AgUiMessage): AgUiMessage {
  return {
    ...extraOf(props.extra),
    ...(typeof props.name === 'string' ? { name: props.name } : {}),
    ...(isRecord(props.metadata) ? { metadata: props.metadata } : {}),
    ...(typeof props.encryptedValue === 'string' ? { encryptedValue: props.encryptedValue } : {}),
    ...built,
  }
}

function toolResult(message: Message, toolCallId: string): AgUiMessage | undefined {
  const props = message.props
  const id = typeof props.resultMessageId === 'string' ? props.resultMessageId : `${toolCallId}:result`
  // The result message's own fields: its metadata and what its event or stored message carried unread.
  const kept = { ...extraOf(props.resultExtra), ...(isRecord(props.metadata) ? { metadata: props.metadata } : {}) }
  if (props.state === 'output-available') return { ...kept, id, role: 'tool', toolCallId, content: asContent(props.output) }
  if (props.state === 'output-error') {
    const error = text(props.errorText) || 'the tool failed'
    return { ...kept, id, role: 'tool', toolCallId, content: error, error }
  }
  if (props.state === 'output-denied') return { ...kept, id, role: 'tool', toolCallId, content: 'The user denied this tool call.', error: 'denied' }
  return undefined
}

function argumentsOf(props: Record<string, unknown>): string {
  if (typeof props.inputText === 'string' && props.inputText !== '') return props.inputText
  return props.input === undefined ? '{}' : JSON.stringify(props.input)
}

function asContent(output: unknown): string {
  if (typeof output === 'string') return output
  if (isRecord(output) && typeof output.content === 'string' && Object.keys(output).length === 1) return output.content
  return JSON.stringify(output ?? null)
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : ''
}
