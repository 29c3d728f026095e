/**
 * The body of a LangGraph run request, from the active path. The server keeps
 * the thread's state, so a request sends only what is new: the user's message
 * (`input`), or the answers to interrupts (`command: { resume }`). Edits and
 * regenerations fork the thread at a checkpoint the stream recorded on the turns.
 */
import type { AgentState, Gate, GateAnswerEntry, Message, RequestBody, RequestContext, Turn } from '../../core/index'
import { isRecord, messageIn, nonEmpty, own } from '../../protocol-kit/index'

/**
 * The stream modes weft asks for by default: the state (`values`), the tokens
 * (`messages-tuple`), what each node returned (`updates`) and the host's own
 * data (`custom`).
 *
 * @example
 * LANGGRAPH_STREAM_MODES // ['values', 'messages-tuple', 'updates', 'custom']
 */
export const LANGGRAPH_STREAM_MODES: readonly string[] = ['values', 'messages-tuple', 'updates', 'custom']

/**
 * Build the body of `POST /threads/{id}/runs` (or `/runs/stream`) for a request.
 * A source adds `assistant_id` and its own fields.
 *
 * - a new message: `input: { messages: [the user's message] }`, forked from the
 *   checkpoint the previous answer ended at (so a message sent on another branch
 *   goes on from that branch, and an edit forks before the message it replaces);
 *   after an answer the person stopped (a steer), its partial text goes first as an
 *   assistant message, since the cancelled run never wrote it to the thread;
 * - a regenerate: `input: null` from the checkpoint where the question was asked;
 * - answers to interrupts: `command: { resume }` (one answer as it is, several by interrupt id);
 * - client tool results: `input: { messages: [tool messages] }`.
 *
 * @example
 * langGraphRequest(context) // { input: { messages: [{ id: 'u1', role: 'user', content: 'Hi' }] }, stream_mode: [...], stream_subgraphs: true }
 */
export function langGraphRequest(context: RequestContext): RequestBody {
  const { state, path, trigger } = context
  const body: Record<string, unknown> = {}
  if (trigger === 'continue') {
    if (context.answers.length > 0) body.command = { resume: resumeValue(state, context.answers) }
    else body.input = { messages: toolResults(state, own(state.turns, context.turnId)) }
  } else if (trigger === 'regenerate') {
    body.input = null
    const replaced = context.replacing ? own(state.turns, context.replacing) : undefined
    const from = checkpointOf(replaced, 'forkCheckpointId')
    if (from) body.checkpoint = { checkpoint_id: from, checkpoint_ns: '' }
  } else {
    const question = own(state.turns, path.at(-1) ?? '')
    const message = question ? userMessage(state, question) : undefined
    const before = question?.parentId ? own(state.turns, question.parentId) : undefined
    const interrupted = before?.role === 'assistant' && before.status === 'aborted' ? partialAnswer(state, before) : undefined
    body.input = { messages: message ? (interrupted ? [interrupted, message] : [message]) : [] }
    const from = question ? forkPoint(state, question) : undefined
    if (from) body.checkpoint = { checkpoint_id: from, checkpoint_ns: '' }
  }
  body.stream_mode = [...LANGGRAPH_STREAM_MODES]
  body.stream_subgraphs = true
  return body
}

function checkpointOf(turn: Turn | undefined, key: 'checkpointId' | 'forkCheckpointId' | 'inputCheckpointId'): string | undefined {
  return turn ? nonEmpty(turn.metadata[key]) : undefined
}

/**
 * Where a new user message goes on from: the checkpoint the answer before it
 * ended at; for a first message that replaces another (an edit), the
 * checkpoint before the replaced one was taken in.
 */
function forkPoint(state: AgentState, question: Turn): string | undefined {
  const before = question.parentId ? own(state.turns, question.parentId) : undefined
  if (before) return checkpointOf(before, 'checkpointId')
  const siblings = state.branches[ROOT_KEY] ?? []
  for (const id of siblings) {
    if (id === question.id) continue
    for (const answerId of state.branches[id] ?? []) {
      const from = checkpointOf(own(state.turns, answerId), 'inputCheckpointId')
      if (from) return from
    }
  }
  return undefined
}

/** The key `state.branches` files root turns under. */
const ROOT_KEY = ''

function userMessage(state: AgentState, turn: Turn): Record<string, unknown> | undefined {
  const messages = turn.messageIds.map((id) => messageIn(state.messages, id)).filter((m): m is Message => m !== undefined)
  const texts = messages.filter((m) => m.type === 'text').map((m) => (typeof m.props.content === 'string' ? m.props.content : ''))
  const files = messages.filter((m) => m.type === 'file' || m.type === 'image')
  const first = messages[0]
  if (!first) return undefined
  const text = texts.join('\n')
  if (files.length === 0) return { id: first.id, role: 'user', content: text }
  const content: unknown[] = text ? [{ type: 'text', text }] : []
  for (const file of files) {
    const url = typeof file.props.url === 'string' ? file.props.url : ''
    const mediaType = typeof file.props.mediaType === 'string' ? file.props.mediaType : 'application/octet-stream'
    content.push(mediaType.startsWith('image/') ? { type: 'image_url', image_url: { url } } : { type: 'file', url, mime_type: mediaType })
  }
  return { id: first.id, role: 'user', content }
}

/** A stopped answer's text as an AI message, when it said anything. */
function partialAnswer(state: AgentState, turn: Turn): Record<string, unknown> | undefined {
  const text = turn.messageIds.map((id) => messageIn(state.messages, id)).filter((m): m is Message => m?.type === 'text' && m.role !== 'user')
    .map((m) => (typeof m.props.content === 'string' ? m.props.content : '')).join('')
  return text ? { role: 'assistant', content: text } : undefined
}

/** One answer goes as it is (`Command({ resume: value })`); several go by interrupt id. */
function resumeValue(state: AgentState, answers: readonly GateAnswerEntry[]): unknown {
  const idOf = (answer: GateAnswerEntry) => {
    const gate: Gate | undefined = own(state.gates, answer.gateId)
    return (isRecord(gate?.extra) ? nonEmpty(gate.extra.interruptId) : undefined) ?? answer.interruptId ?? answer.gateId
  }
  if (answers.length === 1) return (answers[0] as GateAnswerEntry).response
  return Object.fromEntries(answers.map((answer) => [idOf(answer), answer.response]))
}

/** The results of the turn's client tools, as LangChain tool messages. */
function toolResults(state: AgentState, turn: Turn | undefined): Array<Record<string, unknown>> {
  if (!turn) return []
  const out: Array<Record<string, unknown>> = []
  for (const id of turn.messageIds) {
    const message = messageIn(state.messages, id)
    if (message?.type !== 'tool') continue
    const props = message.props
    const callId = nonEmpty(props.toolCallId)
    if (!callId || nonEmpty(props.resultMessageId)) continue
    if (props.state === 'output-available') out.push({ role: 'tool', tool_call_id: callId, content: typeof props.output === 'string' ? props.output : JSON.stringify(props.output ?? null) })
    else if (props.state === 'output-error') out.push({ role: 'tool', tool_call_id: callId, content: nonEmpty(props.errorText) ?? 'the tool failed', status: 'error' })
  }
  return out
}
