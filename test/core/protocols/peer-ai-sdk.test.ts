/**
 * weft's fold against the AI SDK's own (`readUIMessageStream` from `ai`): the
 * same chunks must give the same text, reasoning, tool calls and data. Every
 * difference is deliberate, asserted in the last block, and listed in docs/ui-message.md.
 */
import { getToolName, isToolUIPart, readUIMessageStream, type UIMessage, type UIMessageChunk } from 'ai'
import { describe, expect, it } from 'vitest'
import { uiMessageChunks } from '../../../mock/scenarios/ui-message'
import { foldStream } from '../../../src/umbrella/defaults'
import type { AgentState, Message, TraceStatus } from '../../../src/core/model/model'
import { messageIn } from '../../../src/core/model/message-table'
import { traceRecord } from '../../../src/core/model/trace-table'

type Chunk = Record<string, unknown> & { type: string }
const TURN = 'turn-1'

/** The AI SDK's fold: the last message `readUIMessageStream` yields, and the errors it reported. */
async function sdkFold(chunks: readonly Chunk[]): Promise<{ message: UIMessage | undefined; errors: unknown[] }> {
  const errors: unknown[] = []
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      // A copy: the SDK's fold writes into the chunks it reads, and the scenarios are shared by other tests.
      for (const chunk of chunks) controller.enqueue(structuredClone(chunk) as unknown as UIMessageChunk)
      controller.close()
    },
  })
  let message: UIMessage | undefined
  for await (const snapshot of readUIMessageStream({ stream, onError: (e) => errors.push(e) })) message = snapshot
  return { message, errors }
}

const weftFold = (chunks: readonly Chunk[]) => foldStream(chunks, { protocol: 'ui-message' })

interface ToolView {
  toolCallId: unknown
  name: unknown
  state: unknown
  input: unknown
  output: unknown
  errorText: unknown
}

/** What both folds are compared on. */
interface View {
  text: string[]
  reasoning: string[]
  tools: ToolView[]
  data: Array<{ type: string; data: unknown }>
  files: Array<{ url: unknown; mediaType: unknown }>
  sources: Array<{ id: unknown; url?: unknown; title?: unknown }>
  thinkingSteps: Array<{ label: unknown; status: unknown; detail: unknown }>
  suggestions: unknown
  notices: Array<{ text: unknown; level: unknown }>
  metadata: unknown
}

const STEP_STATUS: Record<string, TraceStatus> = { pending: 'start', in_progress: 'progress', completed: 'done' }

/** The AI SDK message, read the way weft maps the document's special data parts. */
function sdkView(message: UIMessage): View {
  const parts = message.parts
  const dataParts = parts.filter((p): p is Extract<typeof p, { data: unknown }> => p.type.startsWith('data-'))
  const special = new Set(['data-thinking-step', 'data-further-questions', 'data-terminal-info'])
  // Thinking steps carry their id inside `data`: each chunk is its own part in the AI SDK; weft keeps the latest per id.
  const steps = new Map<string, Record<string, unknown>>()
  for (const p of dataParts) if (p.type === 'data-thinking-step') steps.set(String((p.data as { id: string }).id), p.data as Record<string, unknown>)
  const questions = dataParts.filter((p) => p.type === 'data-further-questions').at(-1)
  return {
    text: parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])),
    reasoning: parts.flatMap((p) => (p.type === 'reasoning' ? [p.text] : [])),
    tools: parts.filter(isToolUIPart).map((p) => ({
      toolCallId: p.toolCallId, name: getToolName(p), state: p.state, input: p.input,
      output: 'output' in p ? p.output : undefined, errorText: 'errorText' in p ? p.errorText : undefined,
    })),
    data: dataParts.filter((p) => !special.has(p.type)).map((p) => ({ type: p.type, data: p.data })),
    files: parts.flatMap((p) => (p.type === 'file' ? [{ url: p.url, mediaType: p.mediaType }] : [])),
    sources: parts.flatMap((p): View['sources'] =>
      p.type === 'source-url' ? [{ id: p.sourceId, url: p.url, title: p.title }]
        : p.type === 'source-document' ? [{ id: p.sourceId, title: p.title }] : []),
    thinkingSteps: [...steps.values()].map((d) => ({ label: d.title, status: STEP_STATUS[String(d.status)], detail: d.items })),
    suggestions: (questions?.data as { questions?: unknown } | undefined)?.questions,
    notices: dataParts.filter((p) => p.type === 'data-terminal-info').map((p) => {
      const d = p.data as { text: unknown; type: unknown }
      return { text: d.text, level: d.type }
    }),
    metadata: { ...(message.metadata as object | undefined), ...(message.id ? { messageId: message.id } : {}) },
  }
}

function weftView(state: AgentState): View {
  const turn = state.turns[TURN]!
  const messages = turn.messageIds.map((id) => messageIn(state.messages, id)!)
  const of = (type: string) => messages.filter((m) => m.type === type)
  const tool = (m: Message): ToolView => ({
    toolCallId: m.props.toolCallId, name: m.props.name, state: m.props.state, input: m.props.input,
    output: m.props.output, errorText: m.props.errorText,
  })
  return {
    text: of('text').map((m) => m.props.content as string),
    reasoning: of('reasoning').map((m) => m.props.content as string),
    tools: of('tool').map(tool),
    data: messages.filter((m) => m.type.startsWith('data-')).map((m) => ({ type: m.type, data: m.props.data })),
    files: of('file').map((m) => ({ url: m.props.url, mediaType: m.props.mediaType })),
    sources: turn.sources.map((s) => (s.kind === 'url' ? { id: s.id, url: s.url, title: s.title } : { id: s.id, title: s.title })),
    thinkingSteps: Object.values(traceRecord(state.trace)).filter((n) => n.kind === 'thinking').map((n) => ({ label: n.label, status: n.status, detail: n.detail })),
    suggestions: turn.suggestions,
    notices: of('notice').map((m) => ({ text: m.props.text, level: m.props.level })),
    metadata: turn.metadata,
  }
}

/** Where the AI SDK keeps `<think>` tags in the text, weft splits them out: apply that split to the AI SDK's view. */
function withThinkSplit(view: View): View {
  const text: string[] = []
  const reasoning = [...view.reasoning]
  for (const t of view.text) {
    const pieces = t.split(/<think>|<\/think>/)
    pieces.forEach((piece, i) => {
      const trimmed = piece.trim()
      if (trimmed) (i % 2 === 1 ? reasoning : text).push(trimmed)
    })
  }
  return { ...view, text, reasoning }
}

/** Tools, data parts, an approval, a denial, failures and a dynamic tool, without `<think>` tags. */
const toolsAndData: Chunk[] = [
  { type: 'start', messageId: 'msg_edge', messageMetadata: { usage: { input: 3 } } },
  { type: 'start-step' },
  { type: 'tool-input-start', toolCallId: 'a', toolName: 'search' },
  { type: 'tool-input-start', toolCallId: 'b', toolName: 'lookup', dynamic: true },
  { type: 'tool-input-delta', toolCallId: 'a', inputTextDelta: '{"q":"ve' },
  { type: 'tool-input-delta', toolCallId: 'b', inputTextDelta: '{"id":[1,' },
  { type: 'tool-input-delta', toolCallId: 'a', inputTextDelta: 'ctors","k":3}' },
  { type: 'tool-input-delta', toolCallId: 'b', inputTextDelta: '2]}' },
  { type: 'tool-input-available', toolCallId: 'a', toolName: 'search', input: { q: 'vectors', k: 3 } },
  { type: 'tool-input-available', toolCallId: 'b', toolName: 'lookup', input: { id: [1, 2] }, dynamic: true },
  { type: 'tool-output-available', toolCallId: 'a', output: { hits: 0 }, preliminary: true },
  { type: 'tool-output-available', toolCallId: 'a', output: { hits: 2 } },
  { type: 'tool-output-error', toolCallId: 'b', errorText: 'not found' },
  { type: 'data-table', id: 'tbl', data: { rows: 0 } },
  { type: 'data-log', data: 'first' },
  { type: 'data-table', id: 'tbl', data: { rows: 2 } },
  { type: 'data-progress', data: 0.5, transient: true },
  { type: 'source-url', sourceId: 's1', url: 'https://example.com/a', title: 'A' },
  { type: 'finish-step' },
  { type: 'start-step' },
  { type: 'tool-input-start', toolCallId: 'c', toolName: 'delete_file' },
  { type: 'tool-input-delta', toolCallId: 'c', inputTextDelta: '{"path":"/tmp/x"}' },
  { type: 'tool-input-available', toolCallId: 'c', toolName: 'delete_file', input: { path: '/tmp/x' } },
  { type: 'tool-approval-request', approvalId: 'ap1', toolCallId: 'c' },
  { type: 'tool-output-denied', toolCallId: 'c' },
  { type: 'tool-input-start', toolCallId: 'd', toolName: 'send' },
  { type: 'tool-input-available', toolCallId: 'd', toolName: 'send', input: { to: 'x' } },
  { type: 'tool-approval-request', approvalId: 'ap2', toolCallId: 'd' },
  { type: 'tool-approval-response', approvalId: 'ap2', approved: true },
  { type: 'tool-output-available', toolCallId: 'd', output: 'sent' },
  { type: 'reasoning-start', id: 'r' },
  { type: 'reasoning-delta', id: 'r', delta: 'All done.' },
  { type: 'reasoning-end', id: 'r' },
  { type: 'file', url: 'data:text/plain;base64,SGk=', mediaType: 'text/plain' },
  { type: 'text-start', id: 't' },
  { type: 'text-delta', id: 't', delta: 'Found 2 hits; ' },
  { type: 'text-delta', id: 't', delta: 'the lookup failed.' },
  { type: 'text-end', id: 't' },
  { type: 'message-metadata', messageMetadata: { usage: { output: 9 } } },
  { type: 'finish-step' },
  { type: 'finish', finishReason: 'stop' },
]

describe('peer check: weft folds like the AI SDK', () => {
  it.each([
    ['plain', uiMessageChunks.plain],
    ['tools', uiMessageChunks.tools],
    ['reasoning', uiMessageChunks.reasoning],
    ['tools, data and approvals', toolsAndData],
  ])('%s', async (_name, chunks) => {
    const sdk = await sdkFold(chunks as Chunk[])
    expect(sdk.errors).toEqual([])
    const state = weftFold(chunks as Chunk[])
    expect(state.turns[TURN]!.problems).toEqual([])
    expect(weftView(state)).toEqual(sdkView(sdk.message!))
  })

  it('the full scenario, once `<think>` tags are split out', async () => {
    const sdk = await sdkFold(uiMessageChunks.full)
    expect(sdk.errors).toEqual([])
    expect(weftView(weftFold(uiMessageChunks.full))).toEqual(withThinkSplit(sdkView(sdk.message!)))
  })
})

describe('peer check: the deliberate differences', () => {
  it('`<think>` tags: the AI SDK shows them in the text; weft makes them reasoning', async () => {
    const chunks: Chunk[] = [{ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: '<think>hmm</think>Hi' }, { type: 'text-end', id: 't' }]
    expect(sdkView((await sdkFold(chunks)).message!).text).toEqual(['<think>hmm</think>Hi'])
    expect(weftView(weftFold(chunks))).toMatchObject({ text: ['Hi'], reasoning: ['hmm'] })
  })

  it('content before its start: the AI SDK reports an error and stops; weft starts the part', async () => {
    const chunks: Chunk[] = [{ type: 'text-delta', id: 't', delta: 'early' }, { type: 'text-start', id: 'u' }, { type: 'text-delta', id: 'u', delta: 'later' }]
    const sdk = await sdkFold(chunks)
    expect(sdk.errors).toHaveLength(1)
    expect(sdk.message?.parts.filter((p) => p.type === 'text') ?? []).toEqual([])
    expect(weftView(weftFold(chunks)).text).toEqual(['early', 'later'])
  })

  it('a result before its call: the AI SDK reports an error; weft creates the call', async () => {
    const chunks: Chunk[] = [{ type: 'tool-output-available', toolCallId: 'x', output: 1 }]
    expect((await sdkFold(chunks)).errors).toHaveLength(1)
    expect(weftView(weftFold(chunks)).tools).toMatchObject([{ toolCallId: 'x', state: 'output-available', output: 1 }])
  })

  it('tool-input-error: the AI SDK keeps the bad input as rawInput; weft keeps it as input', async () => {
    const chunks: Chunk[] = [
      { type: 'tool-input-start', toolCallId: 'a', toolName: 'search' },
      { type: 'tool-input-error', toolCallId: 'a', toolName: 'search', input: { bad: true }, errorText: 'schema' },
    ]
    const sdkTool = sdkView((await sdkFold(chunks)).message!).tools[0]!
    const weftTool = weftView(weftFold(chunks)).tools[0]!
    expect(sdkTool).toMatchObject({ state: 'output-error', input: undefined, errorText: 'schema' })
    expect(weftTool).toMatchObject({ state: 'output-error', input: { bad: true }, errorText: 'schema' })
  })

  it('an error chunk: the AI SDK reports it and the message goes on; weft ends the turn as an error', async () => {
    const chunks: Chunk[] = [{ type: 'error', errorText: 'boom', errorType: 'llm' }]
    expect((await sdkFold(chunks)).errors).toHaveLength(1)
    expect(weftFold(chunks).turns[TURN]).toMatchObject({ status: 'error', error: { type: 'llm', message: 'boom' } })
  })

  it('reset-step, tool-approval-response, interrupt and abort: the AI SDK ignores them; weft reads them', async () => {
    const chunks: Chunk[] = [
      { type: 'start-step' },
      { type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'dropped' }, { type: 'text-end', id: 't' },
      { type: 'reset-step' },
      { type: 'tool-input-available', toolCallId: 'a', toolName: 'send', input: {} },
      { type: 'tool-approval-request', approvalId: 'ap', toolCallId: 'a' },
      { type: 'tool-approval-response', approvalId: 'ap', approved: false },
      { type: 'interrupt', interrupt: { action_requests: [] }, payload: {} },
      { type: 'abort' },
    ]
    const sdk = sdkView((await sdkFold(chunks)).message!)
    expect(sdk.text).toEqual(['dropped'])
    expect(sdk.tools[0]!.state).toBe('approval-requested')
    const state = weftFold(chunks)
    expect(weftView(state).text).toEqual([])
    expect(weftView(state).tools[0]!.state).toBe('approval-responded')
    expect(Object.values(state.gates).map((g) => [g.kind, g.status])).toEqual([['tool-approval', 'rejected'], ['interrupt', 'pending']])
    expect(state.turns[TURN]!.status).toBe('aborted')
  })

  it('a second start with another messageId: the AI SDK starts over; weft keeps one turn', async () => {
    const chunks: Chunk[] = [
      { type: 'start', messageId: 'm1' }, { type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'one' }, { type: 'text-end', id: 't' },
      { type: 'start', messageId: 'm2' }, { type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'two' }, { type: 'text-end', id: 't' },
    ]
    const sdk = (await sdkFold(chunks)).message!
    expect([sdk.id, sdkView(sdk).text]).toEqual(['m2', ['two']])
    const view = weftView(weftFold(chunks))
    expect([view.metadata, view.text]).toEqual([{ messageId: 'm2' }, ['one', 'two']])
  })

  it('sources and steps: parts in the AI SDK; the turn’s sources and step blocks in weft', async () => {
    const chunks: Chunk[] = [{ type: 'start-step' }, { type: 'source-url', sourceId: 's', url: 'https://e.x' }, { type: 'finish-step' }]
    const parts = (await sdkFold(chunks)).message!.parts.map((p) => p.type)
    expect(parts).toEqual(['step-start', 'source-url'])
    const state = weftFold(chunks)
    expect(state.turns[TURN]!.messageIds).toEqual([])
    expect(state.turns[TURN]!.sources).toMatchObject([{ id: 's', url: 'https://e.x' }])
    expect(state.turns[TURN]!.blockIds.map((id) => state.blocks[id]!.kind)).toEqual(['step'])
  })
})
