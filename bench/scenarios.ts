/**
 * The bench's streams: each scenario is SSE text a real server of its protocol
 * would send, sized by its number of deltas.
 */
import type { ProtocolName } from '../src/core/model/model'

/** One stream to measure. */
export interface Scenario {
  name: string
  protocol: ProtocolName
  /** The peer that reads the same bytes, if there is one. */
  peer?: 'ai' | 'ag-ui'
  /** SSE text with `deltas` deltas in it. */
  sse(deltas: number): string
  /** Response headers a server of the protocol sends. */
  headers: Record<string, string>
}

const sse = (events: readonly unknown[], done = false) =>
  events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('') + (done ? 'data: [DONE]\n\n' : '')

/** Tool input JSON cut into `deltas` pieces of similar size. */
export function inputPieces(deltas: number, seed = 0): string[] {
  const items = Array.from({ length: Math.max(1, Math.ceil(deltas / 3)) }, (_, i) => ({ id: i + seed, title: `Item ${i}`, done: i % 3 === 0 }))
  const text = JSON.stringify({ query: 'plan the week', items })
  const size = Math.max(1, Math.ceil(text.length / deltas))
  const pieces: string[] = []
  for (let at = 0; at < text.length && pieces.length < deltas; at += size) {
    pieces.push(pieces.length === deltas - 1 ? text.slice(at) : text.slice(at, at + size))
  }
  return pieces
}

function uiText(deltas: number): string {
  const events: unknown[] = [{ type: 'start', messageId: 'm1' }, { type: 'start-step' }, { type: 'text-start', id: 't1' }]
  for (let i = 0; i < deltas; i++) events.push({ type: 'text-delta', id: 't1', delta: `token ${i} ` })
  events.push({ type: 'text-end', id: 't1' }, { type: 'finish-step' }, { type: 'finish' })
  return sse(events, true)
}

function uiTools(deltas: number, perTool: number): string {
  const events: unknown[] = [{ type: 'start', messageId: 'm1' }, { type: 'start-step' }]
  for (let t = 0; t < Math.max(1, Math.round(deltas / perTool)); t++) {
    const id = `call-${t}`
    const pieces = inputPieces(perTool, t)
    events.push({ type: 'tool-input-start', toolCallId: id, toolName: 'plan' })
    for (const piece of pieces) events.push({ type: 'tool-input-delta', toolCallId: id, inputTextDelta: piece })
    events.push({ type: 'tool-input-available', toolCallId: id, toolName: 'plan', input: JSON.parse(pieces.join('')) })
  }
  events.push({ type: 'finish-step' }, { type: 'finish' })
  return sse(events, true)
}

function agText(deltas: number): string {
  const events: unknown[] = [
    { type: 'RUN_STARTED', threadId: 'th1', runId: 'r1' },
    { type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' },
  ]
  for (let i = 0; i < deltas; i++) events.push({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: `token ${i} ` })
  events.push({ type: 'TEXT_MESSAGE_END', messageId: 'm1' }, { type: 'RUN_FINISHED', threadId: 'th1', runId: 'r1' })
  return sse(events)
}

function agTools(deltas: number, perTool: number): string {
  const events: unknown[] = [{ type: 'RUN_STARTED', threadId: 'th1', runId: 'r1' }]
  for (let t = 0; t < Math.max(1, Math.round(deltas / perTool)); t++) {
    const id = `call-${t}`
    events.push({ type: 'TOOL_CALL_START', toolCallId: id, toolCallName: 'plan' })
    for (const piece of inputPieces(perTool, t)) events.push({ type: 'TOOL_CALL_ARGS', toolCallId: id, delta: piece })
    events.push({ type: 'TOOL_CALL_END', toolCallId: id })
  }
  events.push({ type: 'RUN_FINISHED', threadId: 'th1', runId: 'r1' })
  return sse(events)
}

function yao(deltas: number, threads = 8): string {
  const events: unknown[] = []
  let chunk = 0
  const emit = (event: Record<string, unknown>) => {
    chunk += 1
    events.push({ chunk_id: `C${chunk}`, ...event, metadata: { sequence: chunk, timestamp: 1_700_000_000_000 + chunk } })
  }
  emit({ type: 'event', props: { event: 'stream_start', data: { request_id: 'bench' } } })
  emit({ type: 'event', props: { event: 'block_start', data: { block_id: 'B1', type: 'mixed', label: 'Parallel work' } } })
  for (let t = 1; t <= threads; t++) emit({ type: 'event', props: { event: 'message_start', data: { message_id: `M${t}`, type: 'text', thread_id: `T${t}` } } })
  for (let i = 0; i < deltas; i++) {
    const t = (i % threads) + 1
    emit({ message_id: `M${t}`, block_id: 'B1', thread_id: `T${t}`, type: 'text', delta: true, props: { content: `token ${i} ` } })
  }
  for (let t = 1; t <= threads; t++) emit({ type: 'event', props: { event: 'message_end', data: { message_id: `M${t}`, status: 'completed' } } })
  emit({ type: 'event', props: { event: 'block_end', data: { block_id: 'B1' } } })
  emit({ type: 'event', props: { event: 'stream_end', data: { status: 'completed' } } })
  return sse(events)
}

/**
 * `calls` tool calls of `perTool` argument deltas each (UI message stream or AG-UI),
 * for the linearity of tool calls: the timeline and the turn's lists grow by one
 * entry per call.
 */
export function toolCalls(protocol: 'ui-message' | 'ag-ui', calls: number, perTool = 5): string {
  return protocol === 'ui-message' ? uiTools(calls * perTool, perTool) : agTools(calls * perTool, perTool)
}

const UI_HEADERS = { 'content-type': 'text/event-stream', 'x-vercel-ai-ui-message-stream': 'v1' }
const SSE_HEADERS = { 'content-type': 'text/event-stream' }

/** Every scenario the performance targets name. */
export const scenarios: readonly Scenario[] = [
  { name: 'UI stream, long text', protocol: 'ui-message', peer: 'ai', sse: uiText, headers: UI_HEADERS },
  { name: 'UI stream, tools × 50 input deltas', protocol: 'ui-message', peer: 'ai', sse: (n) => uiTools(n, 50), headers: UI_HEADERS },
  { name: 'UI stream, one tool, long input', protocol: 'ui-message', peer: 'ai', sse: (n) => uiTools(n, n), headers: UI_HEADERS },
  { name: 'AG-UI, long text', protocol: 'ag-ui', peer: 'ag-ui', sse: agText, headers: SSE_HEADERS },
  { name: 'AG-UI, tools × 50 argument deltas', protocol: 'ag-ui', peer: 'ag-ui', sse: (n) => agTools(n, 50), headers: SSE_HEADERS },
  { name: 'AG-UI, one tool, long arguments', protocol: 'ag-ui', peer: 'ag-ui', sse: (n) => agTools(n, n), headers: SSE_HEADERS },
  { name: 'Yao, text over 8 threads', protocol: 'yao', sse: (n) => yao(n), headers: SSE_HEADERS },
]
