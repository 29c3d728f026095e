/**
 * Keep what the wire carries: every field of a known UI message chunk that weft
 * does not model (provider metadata, `text-end` citations, tool metadata, approval
 * descriptors, ai 7's `custom` and `reasoning-file` parts, a server's own fields)
 * stays on what the chunk made, goes back to the server in the request, and comes
 * back from stored history. Data parts key their updates on the chunk's own `id`,
 * as the AI SDK's `createUIMessageStream` writer sends it.
 */
import {
  createUIMessageStream, createUIMessageStreamResponse, readUIMessageStream, validateUIMessages,
  type UIMessage as SdkMessage, type UIMessageChunk,
} from 'ai'
import { describe, expect, it } from 'vitest'
import { foldStream } from '../../../src/umbrella/defaults'
import { fold } from '../../../src/core/fold/fold'
import { historyOps } from '../../../src/core/history/merge'
import { emptyState, type AgentState, type Message } from '../../../src/core/model/model'
import { uiMessageHistory } from '../../../src/protocols/ui-message/history'
import { toUIMessages, type UIMessage } from '../../../src/protocols/ui-message/ui-messages'
import { messageIn } from '../../../src/core/model/message-table'
import { STREAM_TRUNCATED } from '../../../src/core/model/errors'
import { timeline } from '../../helpers/timeline'

type Chunk = Record<string, unknown> & { type: string }
const TURN = 'turn-1'

const run = (chunks: readonly Chunk[]): AgentState => foldStream(chunks, { protocol: 'ui-message' })
const messages = (state: AgentState): Message[] => state.turns[TURN]!.messageIds.map((id) => messageIn(state.messages, id)!)
const ofType = (state: AgentState, type: string) => messages(state).filter((m) => m.type === type)
// Most fragments here stop short of the stream's end; that rule has its own tests (truncated-stream.test.ts).
const codes = (state: AgentState) => state.turns[TURN]!.problems.map((p) => p.code).filter((code) => code !== STREAM_TRUNCATED)

async function sdkFold(chunks: readonly Chunk[]): Promise<SdkMessage> {
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk as unknown as UIMessageChunk)
      controller.close()
    },
  })
  let message: SdkMessage | undefined
  for await (const snapshot of readUIMessageStream({ stream })) message = snapshot
  return message!
}

/** What the request builder sends, stored as JSON, loaded as history, and built again. */
function reloaded(sent: UIMessage[]): UIMessage[] {
  const batch = uiMessageHistory(JSON.parse(JSON.stringify(sent)))
  expect(batch.problems).toEqual([])
  const state = fold(emptyState(), historyOps(batch, emptyState()))
  return toUIMessages(state, state.turnIds)
}

const PM = { acme: { requestId: 'r-1', cached: true } }
const PM2 = { acme: { requestId: 'r-2' } }

describe('text and reasoning keep what their chunks carry', () => {
  it('providerMetadata: the latest wins, as in the AI SDK; text-end citations and unread fields are kept', () => {
    const state = run([
      { type: 'text-start', id: 't', providerMetadata: PM },
      { type: 'text-delta', id: 't', delta: 'Hi' },
      { type: 'text-delta', id: 't', delta: '!', providerMetadata: PM2, confidence: 0.5 },
      { type: 'text-end', id: 't', citations: [{ type: 'url', url: 'https://a.example' }], serverTag: 'x' },
    ])
    expect(ofType(state, 'text').map((m) => m.props)).toEqual([{
      content: 'Hi!', providerMetadata: PM2, citations: [{ type: 'url', url: 'https://a.example' }],
      extra: { confidence: 0.5, serverTag: 'x' },
    }])
    expect(codes(state)).toEqual([])
  })

  it('reasoning keeps its providerMetadata (a signature, say) from start, delta or end', () => {
    const state = run([
      { type: 'reasoning-start', id: 'r' },
      { type: 'reasoning-delta', id: 'r', delta: 'Thinking' },
      { type: 'reasoning-end', id: 'r', providerMetadata: { anthropic: { signature: 'sig' } } },
    ])
    expect(ofType(state, 'reasoning').map((m) => m.props)).toEqual([{ content: 'Thinking', providerMetadata: { anthropic: { signature: 'sig' } } }])
  })

  it('the same as the AI SDK’s own fold for text and reasoning providerMetadata', async () => {
    const chunks: Chunk[] = [
      { type: 'start', messageId: 'm1' },
      { type: 'text-start', id: 't', providerMetadata: PM },
      { type: 'text-delta', id: 't', delta: 'Hi', providerMetadata: PM2 },
      { type: 'text-end', id: 't' },
      { type: 'reasoning-start', id: 'r', providerMetadata: PM },
      { type: 'reasoning-delta', id: 'r', delta: 'Hm' },
      { type: 'reasoning-end', id: 'r' },
      { type: 'finish' },
    ]
    const sdk = await sdkFold(chunks)
    const [weft] = toUIMessages(run(chunks), [TURN])
    const view = (parts: ReadonlyArray<{ type: string }>) =>
      parts.filter((p) => p.type === 'text' || p.type === 'reasoning').map((p) => ({ type: p.type, providerMetadata: (p as { providerMetadata?: unknown }).providerMetadata }))
    expect(view(weft!.parts)).toEqual(view(sdk.parts))
    expect(view(weft!.parts)).toEqual([{ type: 'text', providerMetadata: PM2 }, { type: 'reasoning', providerMetadata: PM }])
    expect(reloaded([weft!])).toEqual([weft])
  })
})

describe('tool calls keep what their chunks carry', () => {
  const call: Chunk[] = [
    { type: 'start', messageId: 'm1' },
    { type: 'start-step' },
    { type: 'tool-input-start', toolCallId: 'c1', toolName: 'search', providerMetadata: PM, toolMetadata: { owner: 'crm' }, inputEncoding: 'json' },
    { type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: '{"q":"a"}' },
    { type: 'tool-input-available', toolCallId: 'c1', toolName: 'search', input: { q: 'a' }, providerMetadata: PM },
    { type: 'tool-output-available', toolCallId: 'c1', output: { hits: 1 }, providerMetadata: PM2, providerExecuted: true, costCents: 3 },
    { type: 'finish-step' },
    { type: 'finish' },
  ]

  it('call and result metadata, toolMetadata, the input encoding and unread fields are on the tool message', () => {
    const [tool] = ofType(run(call), 'tool')
    expect(tool!.props).toMatchObject({
      callProviderMetadata: PM, resultProviderMetadata: PM2, toolMetadata: { owner: 'crm' }, inputEncoding: 'json',
      providerExecuted: true, extra: { costCents: 3 },
    })
  })

  it('the request builder sends them as the AI SDK’s own fold has them, and the SDK accepts the message', async () => {
    const sdk = await sdkFold(call)
    const [weft] = toUIMessages(run(call), [TURN])
    const pick = (parts: ReadonlyArray<{ type: string }>) => parts.filter((p) => p.type === 'tool-search').map((p) => {
      const { callProviderMetadata, resultProviderMetadata, toolMetadata, providerExecuted, state } = p as Record<string, unknown>
      return { callProviderMetadata, resultProviderMetadata, toolMetadata, providerExecuted, state }
    })
    expect(pick(weft!.parts)).toEqual(pick(sdk.parts))
    expect(pick(weft!.parts)).toEqual([{ callProviderMetadata: PM, resultProviderMetadata: PM2, toolMetadata: { owner: 'crm' }, providerExecuted: true, state: 'output-available' }])
    const [valid] = await validateUIMessages({ messages: [weft] })
    expect(pick(valid!.parts)).toEqual(pick(weft!.parts))
    expect(reloaded([weft!])).toEqual([weft])
  })

  it('an approval keeps its descriptor, signature and schema input through the response, and sends them back', () => {
    const state = run([
      { type: 'tool-input-start', toolCallId: 'c1', toolName: 'delete' },
      { type: 'tool-input-available', toolCallId: 'c1', toolName: 'delete', input: { id: 7 } },
      {
        type: 'tool-approval-request', approvalId: 'a1', toolCallId: 'c1',
        approvalDescriptor: { risk: 'high' }, signature: 'sig-1', inputSchemaInput: { id: 7 }, isAutomatic: false,
      },
      { type: 'tool-approval-response', approvalId: 'a1', approved: true, reason: 'ok', providerExecuted: false },
    ])
    const [tool] = ofType(state, 'tool')
    expect(tool!.props.approval).toEqual({
      id: 'a1', approved: true, reason: 'ok', descriptor: { risk: 'high' }, signature: 'sig-1', inputSchemaInput: { id: 7 }, isAutomatic: false,
    })
    expect(tool!.props.extra).toEqual({ providerExecuted: false })
    const [message] = toUIMessages(state, [TURN])
    expect(message!.parts.find((p) => p.type === 'tool-delete')).toMatchObject({
      state: 'approval-responded',
      approval: { id: 'a1', approved: true, reason: 'ok', descriptor: { risk: 'high' }, signature: 'sig-1', inputSchemaInput: { id: 7 } },
    })
    expect(reloaded([message!])).toEqual([message])
  })

  it('a call still streaming is sent with its input text and encoding, so it can go on', () => {
    const state = run([
      { type: 'tool-input-start', toolCallId: 'c1', toolName: 'note', inputEncoding: 'text' },
      { type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: 'Dear ' },
    ])
    const [message] = toUIMessages(state, [TURN])
    expect(message!.parts.find((p) => p.type === 'tool-note')).toMatchObject({ state: 'input-streaming', rawInput: 'Dear ', inputEncoding: 'text' })
    expect(reloaded([message!])).toEqual([message])
  })
})

describe('files, sources, custom parts and data parts keep what their chunks carry', () => {
  const chunks: Chunk[] = [
    { type: 'start', messageId: 'm1' },
    { type: 'file', url: 'https://a.example/x.png', mediaType: 'image/png', providerMetadata: PM },
    { type: 'reasoning-file', url: 'https://a.example/sketch.png', mediaType: 'image/png', providerMetadata: PM2 },
    { type: 'custom', kind: 'acme.trace', providerMetadata: { acme: { spanId: 's1' } }, level: 2 },
    { type: 'source-url', sourceId: 's1', url: 'https://a.example', title: 'A', providerMetadata: PM },
    { type: 'source-document', sourceId: 'd1', mediaType: 'text/plain', title: 'Doc', providerMetadata: PM2, page: 4 },
    { type: 'data-weather', id: 'w1', data: { temp: 21 }, region: 'eu' },
    { type: 'finish' },
  ]

  it('each is folded with its provider metadata and unread fields', () => {
    const state = run(chunks)
    expect(codes(state)).toEqual([])
    expect(ofType(state, 'file').map((m) => m.props)).toEqual([{ url: 'https://a.example/x.png', mediaType: 'image/png', providerMetadata: PM }])
    expect(ofType(state, 'reasoning-file').map((m) => m.props)).toEqual([{ url: 'https://a.example/sketch.png', mediaType: 'image/png', providerMetadata: PM2 }])
    expect(ofType(state, 'custom').map((m) => m.props)).toEqual([{ kind: 'acme.trace', providerMetadata: { acme: { spanId: 's1' } }, extra: { level: 2 } }])
    expect(state.turns[TURN]!.sources).toEqual([
      { id: 's1', kind: 'url', url: 'https://a.example', title: 'A', providerMetadata: PM },
      { id: 'd1', kind: 'document', mediaType: 'text/plain', title: 'Doc', providerMetadata: PM2, extra: { page: 4 } },
    ])
    expect(ofType(state, 'data-weather').map((m) => m.props)).toEqual([{ id: 'w1', data: { temp: 21 }, extra: { region: 'eu' } }])
  })

  it('the request sends them as UIMessage parts, and stored history reads them back to the same request', () => {
    const state = run(chunks)
    const sent = toUIMessages(state, [TURN])
    expect(sent[0]!.parts).toEqual([
      { type: 'file', url: 'https://a.example/x.png', mediaType: 'image/png', providerMetadata: PM },
      { type: 'reasoning-file', url: 'https://a.example/sketch.png', mediaType: 'image/png', providerMetadata: PM2 },
      { type: 'custom', kind: 'acme.trace', providerMetadata: { acme: { spanId: 's1' } } },
      { type: 'data-weather', id: 'w1', data: { temp: 21 } },
      { type: 'source-url', sourceId: 's1', url: 'https://a.example', title: 'A', providerMetadata: PM },
      { type: 'source-document', sourceId: 'd1', mediaType: 'text/plain', title: 'Doc', providerMetadata: PM2 },
    ])
    expect(reloaded(sent)).toEqual(sent)
  })

  it('the file, source and data parts match the AI SDK’s fold (ai 6 has no custom or reasoning-file part)', async () => {
    const known = chunks.filter((c) => c.type !== 'custom' && c.type !== 'reasoning-file')
    const sdk = await sdkFold(known)
    const [weft] = toUIMessages(run(known), [TURN])
    const sorted = (parts: ReadonlyArray<{ type: string }>) =>
      JSON.parse(JSON.stringify(parts.filter((p) => p.type !== 'step-start'))).sort((a: { type: string }, b: { type: string }) => a.type.localeCompare(b.type)) as unknown
    expect(sorted(weft!.parts)).toEqual(sorted(sdk.parts.map((p) => (p.type === 'data-weather' ? { type: p.type, id: p.id, data: p.data } : p))))
  })

  it('a custom part needs its kind; without one it is a problem', () => {
    expect(codes(run([{ type: 'custom', providerMetadata: PM }]))).toEqual(['invalid'])
  })
})

describe('data parts key on the chunk’s own id', () => {
  it('a real server’s repeated data-thinking-step (createUIMessageStream) is one timeline row, updated in place', async () => {
    const stream = createUIMessageStream({
      execute({ writer }) {
        writer.write({ type: 'start', messageId: 'm1' })
        writer.write({ type: 'start-step' })
        writer.write({ type: 'data-thinking-step', id: 'step-1', data: { title: 'Searching the knowledge base', status: 'in_progress' } })
        writer.write({ type: 'data-thinking-step', id: 'step-1', data: { title: 'Searched the knowledge base', status: 'completed', items: ['2 hits'] } })
        writer.write({ type: 'data-thinking-step', id: 'step-2', data: { title: 'Writing', status: 'in_progress' } })
        writer.write({ type: 'finish-step' })
        writer.write({ type: 'finish' })
      },
    })
    const body = await createUIMessageStreamResponse({ stream }).text()
    expect(body).toContain('"id":"step-1"')
    const state = foldStream(body, { protocol: 'ui-message' })
    const rows = timeline(state).filter((n) => n.kind === 'thinking')
    expect(rows.map((n) => ({ label: n.label, status: n.status, detail: n.detail }))).toEqual([
      { label: 'Searched the knowledge base', status: 'done', detail: ['2 hits'] },
      // Still open when the turn finished, so the finish closed it.
      { label: 'Writing', status: 'done', detail: undefined },
    ])
    expect(codes(state)).toEqual([])
  })

  it('without a chunk id, the protocol document’s data.id keys the row', () => {
    const state = run([
      { type: 'data-thinking-step', data: { id: 'thinking-1', title: 'Reading', status: 'in_progress' } },
      { type: 'data-thinking-step', data: { id: 'thinking-1', title: 'Read', status: 'completed' } },
    ])
    expect(timeline(state).filter((n) => n.kind === 'thinking').map((n) => [n.label, n.status])).toEqual([['Read', 'done']])
  })

  it('a thinking step without a title or status still shows as a row', () => {
    const state = run([{ type: 'data-thinking-step', id: 's', data: {} }])
    const rows = timeline(state).filter((n) => n.kind === 'thinking')
    expect(rows).toHaveLength(1)
    expect(codes(state)).toEqual([])
  })

  it('a terminal-info without its type shows as info', () => {
    const state = run([{ type: 'data-terminal-info', id: 'n', data: { text: 'Indexed' } }])
    expect(ofType(state, 'notice').map((m) => m.props)).toEqual([{ text: 'Indexed', level: 'info' }])
  })
})
