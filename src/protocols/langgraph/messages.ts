/**
 * Messages of one stream: AI chunks (text, reasoning, tool-call pieces) as they
 * stream, whole messages from `updates` for what was not streamed, and tool
 * results. An AI message keeps its LangGraph id; its reasoning is `<id>/reasoning`
 * and each tool call `<id>/<callId>`, so a call id a model reuses never merges two calls.
 */
import type { Op, TokenUsage } from '../../core/index'
import { MAX_PATH_SEGMENTS, nonEmpty, StreamedInput } from '../../protocol-kit/index'
import { callPieces, contentText, sideReasoning, toolResultProps, usageOf, wholeCalls, type WholeCall } from './lc-messages'
import type { AiMessage, LangGraphStream, NodeRow, ToolCall } from './stream-state'

type NodeRowLike = Pick<NodeRow, 'id'> | undefined

/** Arguments nested deeper than this would not fit in a path under `props.input`. */
const MAX_INPUT_DEPTH = MAX_PATH_SEGMENTS - 1

/**
 * One AI message chunk (a `messages` tuple): its text, reasoning and tool-call pieces.
 *
 * @example
 * aiChunk(stream, { type: 'ai', id: 'run-1', content: 'Hi' }, '', row, ops)
 */
export function aiChunk(stream: LangGraphStream, chunk: Record<string, unknown>, lane: string, row: NodeRowLike, ops: Op[]): void {
  const id = nonEmpty(chunk.id) ?? lastAiOf(stream, lane) ?? stream.fresh('ai')
  const ai = aiOf(stream, id, lane, row)
  const { text, reasoning } = contentText(chunk.content)
  const thinking = reasoning + sideReasoning(chunk)
  if (thinking) appendPart(stream, ai, 'reasoning', thinking, ops)
  if (text) appendPart(stream, ai, 'text', text, ops)
  for (const piece of callPieces(chunk)) {
    let call = ai.calls.get(piece.key)
    if (!call) {
      call = openCall(stream, ai, piece.id ?? stream.fresh('call'), piece.name ?? 'tool', ops)
      ai.calls.set(piece.key, call)
    } else if (piece.name && call.name === 'tool') {
      call.name = piece.name
      ops.push({ op: 'message.delta', ...stream.place(call.messageId, 'tool', lane), action: 'set', path: 'name', value: piece.name })
    }
    if (piece.args && !call.complete) {
      call.input.append(piece.args)
      call.unsent += piece.args
      stream.pending.add(call)
    }
  }
  usage(stream, ai, chunk, ops)
}

/**
 * A whole message a node returned (an `updates` entry, a `messages/complete`):
 * an AI message not streamed is added whole; one that streamed gets its calls' parsed arguments.
 *
 * @example
 * wholeMessage(stream, { type: 'ai', id: 'run-1', content: 'Hi', tool_calls: [] }, '', row, ops)
 */
export function wholeAi(stream: LangGraphStream, message: Record<string, unknown>, lane: string, row: NodeRowLike, ops: Op[]): void {
  const id = nonEmpty(message.id)
  const known = id ? stream.ai.get(id) : undefined
  const ai = known ?? aiOf(stream, id ?? stream.fresh('ai'), lane, row)
  if (!known) {
    const { text, reasoning } = contentText(message.content)
    const thinking = reasoning + sideReasoning(message)
    if (thinking) appendPart(stream, ai, 'reasoning', thinking, ops)
    if (text) appendPart(stream, ai, 'text', text, ops)
    usage(stream, ai, message, ops)
  }
  for (const whole of wholeCalls(message)) {
    let call = [...ai.calls.values()].find((c) => c.id === whole.id)
    if (!call) {
      call = openCall(stream, ai, whole.id, whole.name, ops)
      ai.calls.set(`=${whole.id}`, call)
    }
    completeCall(stream, call, ops, whole)
  }
  if (Array.isArray(message.invalid_tool_calls)) {
    for (const bad of message.invalid_tool_calls) {
      ops.push(stream.problem(`the model made a tool call whose arguments are not valid JSON`, bad, 'tool_arguments'))
    }
  }
  for (const kind of ['text', 'reasoning'] as const) if (ai[kind]) ops.push({ op: 'message.finish', messageId: partId(ai.id, kind), status: 'done' })
}

/**
 * A tool message: the result of its call (this stream's, or one an earlier stream of the turn made).
 *
 * @example
 * toolMessage(stream, { type: 'tool', tool_call_id: 'call_1', content: 'sunny', id: 'r1' }, '', ops)
 */
export function toolMessage(stream: LangGraphStream, message: Record<string, unknown>, lane: string, ops: Op[]): void {
  const resultId = nonEmpty(message.id)
  if (resultId && stream.results.has(resultId)) return
  if (resultId) stream.results.add(resultId)
  const callId = nonEmpty(message.tool_call_id)
  if (!callId) {
    ops.push(stream.problem('a tool message without "tool_call_id"', message, 'missing_id'))
    return
  }
  let call = stream.calls.get(callId)
  let callLane = call?.lane ?? lane
  if (!call) {
    const prior = stream.context.priorToolCall?.(callId)
    const name = nonEmpty(message.name) ?? prior?.name ?? 'tool'
    call = {
      id: callId, messageId: prior?.messageId ?? `${resultId ?? stream.fresh('tool')}/${callId}`, name, lane, input: new StreamedInput(MAX_INPUT_DEPTH),
      unsent: '', resulted: false, complete: true,
    }
    stream.calls.set(callId, call)
    callLane = lane
    if (!prior) ops.push({ op: 'message.delta', ...stream.place(call.messageId, 'tool', lane), action: 'set', path: '', value: { toolCallId: callId, name } })
  }
  if (!call.complete) completeCall(stream, call, ops)
  call.resulted = true
  const props = toolResultProps(message)
  const failed = props.state === 'output-error'
  ops.push(
    {
      op: 'message.delta', ...stream.place(call.messageId, 'tool', callLane), action: 'merge', path: '',
      value: { ...props, ...(resultId ? { resultMessageId: resultId } : {}) },
    },
    { op: 'message.finish', messageId: call.messageId, status: failed ? 'error' : 'done' },
    {
      op: 'trace.node', turnId: stream.turnId,
      node: { id: `tool:${call.messageId}`, kind: 'tool', label: call.name, tool: call.name, status: failed ? 'error' : 'done', result: props.output, ...(failed ? { resultDetail: props.errorText } : {}) },
    },
  )
}

/**
 * Write what the calls' arguments gained since the last flush: their text
 * always, their value so far once it grew enough to be worth a copy (always when `force`).
 *
 * @example
 * const ops = flushCalls(stream, false)
 */
export function flushCalls(stream: LangGraphStream, force: boolean): Op[] {
  const ops: Op[] = []
  for (const call of stream.pending) {
    writeText(stream, call, ops)
    if (!force && !call.input.parsed().snapshotDue) continue
    ops.push({ op: 'message.delta', ...stream.place(call.messageId, 'tool', call.lane), action: 'set', path: 'input', value: call.input.parsed().snapshot({ maxDepth: MAX_INPUT_DEPTH }) })
    stream.pending.delete(call)
  }
  return ops
}

/**
 * Every call whose arguments are still streaming is complete (the stream ended): its arguments are parsed from their text.
 *
 * @example
 * completeOpenCalls(stream, ops)
 */
export function completeOpenCalls(stream: LangGraphStream, ops: Op[]): void {
  for (const call of stream.calls.values()) if (!call.complete) completeCall(stream, call, ops)
}

/**
 * The id of an AI message's text or reasoning part.
 *
 * @example
 * partId('run-1', 'reasoning') // 'run-1/reasoning'
 */
export function partId(aiId: string, kind: 'text' | 'reasoning'): string {
  return kind === 'text' ? aiId : `${aiId}/reasoning`
}

function aiOf(stream: LangGraphStream, id: string, lane: string, row: NodeRowLike): AiMessage {
  let ai = stream.ai.get(id)
  if (!ai) {
    ai = { id, lane, ...(row ? { rowId: row.id } : {}), text: false, reasoning: false, calls: new Map() }
    stream.ai.set(id, ai)
  }
  return ai
}

function lastAiOf(stream: LangGraphStream, lane: string): string | undefined {
  let last: string | undefined
  for (const ai of stream.ai.values()) if (ai.lane === lane) last = ai.id
  return last
}

function appendPart(stream: LangGraphStream, ai: AiMessage, kind: 'text' | 'reasoning', value: string, ops: Op[]): void {
  ai[kind] = true
  ops.push({ op: 'message.delta', ...stream.place(partId(ai.id, kind), kind, ai.lane), action: 'append', path: 'content', value })
}

function openCall(stream: LangGraphStream, ai: AiMessage, id: string, name: string, ops: Op[]): ToolCall {
  const call: ToolCall = {
    id, messageId: `${ai.id}/${id}`, name, lane: ai.lane, ...(ai.rowId ? { rowId: ai.rowId } : {}),
    input: new StreamedInput(MAX_INPUT_DEPTH), unsent: '', resulted: false, complete: false,
  }
  stream.calls.set(id, call)
  ops.push(
    { op: 'message.delta', ...stream.place(call.messageId, 'tool', ai.lane), action: 'set', path: '', value: { toolCallId: id, name, inputText: '', state: 'input-streaming' } },
    { op: 'trace.node', turnId: stream.turnId, node: { id: `tool:${call.messageId}`, kind: 'tool', label: name, tool: name, status: 'start', ...(ai.rowId ? { parentId: ai.rowId } : {}) } },
  )
  return call
}

/** The call's arguments are whole: the server's parsed `args` when given, else the streamed text parsed. */
function completeCall(stream: LangGraphStream, call: ToolCall, ops: Op[], whole?: WholeCall): void {
  if (call.complete) return
  call.complete = true
  writeText(stream, call, ops)
  stream.pending.delete(call)
  const at = stream.place(call.messageId, 'tool', call.lane)
  let args: unknown = whole?.args
  if (args === undefined) {
    const text = call.input.text
    const ended = text.trim() === '' ? undefined : call.input.end()
    if (ended && !ended.complete) {
      ops.push(stream.problem(`the arguments of tool call "${call.id}" are not valid JSON`, text.slice(0, 200), 'tool_arguments'))
      args = call.input.parsed().snapshot({ maxDepth: MAX_INPUT_DEPTH })
    } else args = ended?.value ?? {}
  }
  ops.push({ op: 'message.delta', ...at, action: 'set', path: 'input', value: args })
  if (!call.resulted) ops.push({ op: 'message.delta', ...at, action: 'set', path: 'state', value: 'input-available' })
  ops.push({ op: 'trace.node', turnId: stream.turnId, node: { id: `tool:${call.messageId}`, args, ...(call.resulted ? {} : { status: 'progress' as const }) } })
}

function writeText(stream: LangGraphStream, call: ToolCall, ops: Op[]): void {
  if (call.unsent === '') return
  ops.push({ op: 'message.delta', ...stream.place(call.messageId, 'tool', call.lane), action: 'append', path: 'inputText', value: call.unsent })
  call.unsent = ''
}

/**
 * Usage per AI message (its chunks' counts added up, as LangChain adds chunks);
 * the turn holds the sum over the messages of the stream, every record as it
 * came in `raw`, and the model when the messages name one.
 */
function usage(stream: LangGraphStream, ai: AiMessage, chunk: Record<string, unknown>, ops: Op[]): void {
  const read = usageOf(chunk)
  if (!read) return
  for (const problem of read.problems) ops.push(stream.problem(problem, chunk.usage_metadata, 'invalid_usage'))
  if (!read.usage) return
  const known = stream.usage.get(ai.id) ?? { raw: [] }
  for (const name of COUNTS) {
    const value = read.usage[name]
    if (typeof value === 'number') known[name] = ((known[name] as number | undefined) ?? 0) + value
  }
  if (read.usage.model) known.model = read.usage.model
  ;(known.raw as unknown[]).push(read.usage.raw)
  stream.usage.set(ai.id, known)
  const total: TokenUsage = {}
  const raw: unknown[] = []
  const models = new Set<string>()
  for (const entry of stream.usage.values()) {
    for (const name of COUNTS) {
      const value = entry[name]
      if (typeof value === 'number') total[name] = (total[name] ?? 0) + value
    }
    if (entry.model) models.add(entry.model)
    raw.push(...(entry.raw as unknown[]))
  }
  // One model for every message: the turn's; several: each message's counts, to price apart.
  if (models.size === 1) total.model = [...models][0]
  else if (models.size > 1) total.byModel = [...stream.usage.values()].map(({ raw: _raw, ...entry }) => entry)
  total.raw = raw
  ops.push({ op: 'turn.update', turnId: stream.turnId, usage: total })
}

const COUNTS = ['inputTokens', 'outputTokens', 'totalTokens', 'reasoningTokens', 'cachedInputTokens'] as const
