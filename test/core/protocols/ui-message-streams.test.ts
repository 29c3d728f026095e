import { describe, expect, it } from 'vitest'
import { encodeFrame } from '../../../mock/scenario'
import { uiMessageChunks, uiMessageScenarios } from '../../../mock/scenarios/ui-message'
import { createUIMessageDecoder } from '../../../src/protocols/ui-message/decoder'
import { fold } from '../../../src/core/fold/fold'
import { foldStream } from '../../../src/umbrella/defaults'
import { emptyState, type AgentState, type Message } from '../../../src/core/model/model'
import type { Op } from '../../../src/core/model/ops'
import { messageIn } from '../../../src/core/model/message-table'
import { STREAM_TRUNCATED } from '../../../src/core/model/errors'
import { traceRecord } from '../../../src/core/model/trace-table'

type Chunk = Record<string, unknown>
const TURN = 'turn-1'

const messages = (state: AgentState): Message[] => state.turns[TURN]!.messageIds.map((id) => messageIn(state.messages, id)!)
const ofType = (state: AgentState, type: string) => messages(state).filter((m) => m.type === type)
const contents = (state: AgentState, type: string) => ofType(state, type).map((m) => m.props.content)
const rows = (state: AgentState, kind: string) => Object.values(traceRecord(state.trace)).filter((n) => n.kind === kind)

/** A small deterministic random source, so failures can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0
    return state / 2 ** 32
  }
}

function randomCuts(text: string, next: () => number, maxPiece = 7): string[] {
  const pieces: string[] = []
  for (let at = 0; at < text.length;) {
    const size = 1 + Math.floor(next() * maxPiece)
    pieces.push(text.slice(at, at + size))
    at += size
  }
  return pieces
}

// The three complete examples of the protocol document, byte for byte.
const PLAIN = `data: {"type":"start","messageId":"msg_abc123"}

data: {"type":"start-step"}

data: {"type":"data-thinking-step","data":{"id":"thinking-1","title":"正在理解您的请求","status":"in_progress","items":["Processing: 什么是向量数据库？"]}}

data: {"type":"data-thinking-step","data":{"id":"thinking-1","title":"正在理解您的请求","status":"completed","items":["Processing: 什么是向量数据库？"]}}

data: {"type":"text-start","id":"text_xyz789"}

data: {"type":"text-delta","id":"text_xyz789","delta":"向量数据库是"}

data: {"type":"text-delta","id":"text_xyz789","delta":"一种专为存储和检索"}

data: {"type":"text-delta","id":"text_xyz789","delta":"高维向量而设计的数据库..."}

data: {"type":"text-end","id":"text_xyz789"}

data: {"type":"finish-step"}

data: {"type":"finish"}

data: [DONE]

`

const TOOLS = `data: {"type":"start","messageId":"msg_abc123"}

data: {"type":"start-step"}

data: {"type":"data-thinking-step","data":{"id":"thinking-1","title":"正在理解您的请求","status":"in_progress","items":["Processing: 搜索最新 AI 论文"]}}

data: {"type":"data-thinking-step","data":{"id":"thinking-1","title":"正在理解您的请求","status":"completed","items":["Processing: 搜索最新 AI 论文"]}}

data: {"type":"data-thinking-step","data":{"id":"thinking-2","title":"查询个人知识库中","status":"in_progress","items":["Query: 最新 AI 论文"]}}

data: {"type":"tool-input-start","toolCallId":"call_xxx","toolName":"search_knowledge_base"}

data: {"type":"tool-input-available","toolCallId":"call_xxx","toolName":"search_knowledge_base","input":{"query":"最新 AI 论文"}}

data: {"type":"data-thinking-step","data":{"id":"thinking-2","title":"Searching knowledge base","status":"completed","items":["Query: 最新 AI 论文","Found relevant information (2048 chars)"]}}

data: {"type":"tool-output-available","toolCallId":"call_xxx","output":{"status":"completed","result_length":2048}}

data: {"type":"data-terminal-info","data":{"text":"知识库搜索已完成","type":"success"}}

data: {"type":"text-start","id":"text_xyz789"}

data: {"type":"text-delta","id":"text_xyz789","delta":"根据知识库中的内容..."}

data: {"type":"text-end","id":"text_xyz789"}

data: {"type":"finish-step"}

data: {"type":"finish"}

data: [DONE]

`

const REASONING = `data: {"type":"start","messageId":"msg_abc123"}

data: {"type":"start-step"}

data: {"type":"reasoning-start","id":"reasoning_r01"}

data: {"type":"reasoning-delta","id":"reasoning_r01","delta":"让我先分析这个问题..."}

data: {"type":"reasoning-delta","id":"reasoning_r01","delta":"需要考虑以下几个方面..."}

data: {"type":"reasoning-end","id":"reasoning_r01"}

data: {"type":"text-start","id":"text_xyz789"}

data: {"type":"text-delta","id":"text_xyz789","delta":"综合分析后，结论是..."}

data: {"type":"text-end","id":"text_xyz789"}

data: {"type":"finish-step"}

data: {"type":"finish"}

data: [DONE]

`

describe('the document’s complete examples, as SSE text', () => {
  it('plain answer', () => {
    const state = foldStream(PLAIN)
    const turn = state.turns[TURN]!
    expect(turn).toMatchObject({ status: 'done', protocol: 'ui-message', metadata: { messageId: 'msg_abc123' }, problems: [] })
    expect(messages(state)).toMatchObject([{ type: 'text', status: 'done', props: { content: '向量数据库是一种专为存储和检索高维向量而设计的数据库...' } }])
    expect(turn.blockIds.map((id) => state.blocks[id])).toMatchObject([{ kind: 'step', status: 'done', messageIds: turn.messageIds }])
    expect(rows(state, 'thinking')).toMatchObject([{ label: '正在理解您的请求', status: 'done', detail: ['Processing: 什么是向量数据库？'] }])
  })

  it('with a tool call', () => {
    const state = foldStream(TOOLS)
    const turn = state.turns[TURN]!
    expect(turn).toMatchObject({ status: 'done', problems: [] })
    expect(messages(state).map((m) => m.type)).toEqual(['tool', 'notice', 'text'])
    expect(ofType(state, 'tool')[0]!.props).toMatchObject({
      toolCallId: 'call_xxx', name: 'search_knowledge_base', state: 'output-available',
      input: { query: '最新 AI 论文' }, output: { status: 'completed', result_length: 2048 },
    })
    expect(ofType(state, 'notice')[0]!.props).toEqual({ text: '知识库搜索已完成', level: 'success' })
    expect(contents(state, 'text')).toEqual(['根据知识库中的内容...'])
    expect(rows(state, 'tool')).toMatchObject([{ tool: 'search_knowledge_base', status: 'done', args: { query: '最新 AI 论文' }, result: { result_length: 2048 } }])
    expect(rows(state, 'thinking').map((n) => [n.label, n.status, n.detail])).toEqual([
      ['正在理解您的请求', 'done', ['Processing: 搜索最新 AI 论文']],
      ['Searching knowledge base', 'done', ['Query: 最新 AI 论文', 'Found relevant information (2048 chars)']],
    ])
    // The step's row holds the thinking steps and the tool call, in order.
    const step = traceRecord(state.trace)[turn.traceRootIds[0]!]!
    expect(step.childIds.map((id) => traceRecord(state.trace)[id]!.kind)).toEqual(['thinking', 'thinking', 'tool'])
  })

  it('with reasoning', () => {
    const state = foldStream(REASONING)
    expect(state.turns[TURN]).toMatchObject({ status: 'done', problems: [] })
    expect(messages(state).map((m) => [m.type, m.props.content, m.status])).toEqual([
      ['reasoning', '让我先分析这个问题...需要考虑以下几个方面...', 'done'],
      ['text', '综合分析后，结论是...', 'done'],
    ])
    expect(rows(state, 'reason')).toMatchObject([{ status: 'done' }])
  })

  it('the mock scenarios are the same streams', () => {
    const asText = (name: string) => uiMessageScenarios.find((s) => s.name === name)!.frames.map((f) => encodeFrame(f)).join('')
    expect(foldStream(asText('plain'))).toEqual(foldStream(PLAIN))
    expect(foldStream(asText('tools'))).toEqual(foldStream(TOOLS))
    expect(foldStream(asText('reasoning'))).toEqual(foldStream(REASONING))
    expect(uiMessageScenarios.every((s) => s.headers?.['x-vercel-ai-ui-message-stream'] === 'v1')).toBe(true)
  })

  it('the full scenario folds without a problem', () => {
    const state = foldStream(uiMessageScenarios.find((s) => s.name === 'full')!.frames.map((f) => encodeFrame(f)).join(''))
    const turn = state.turns[TURN]!
    expect(turn).toMatchObject({ status: 'done', finishReason: 'stop', problems: [], suggestions: ['What about tomorrow?', 'Compare with last week'] })
    expect(messages(state).map((m) => m.type)).toEqual(['reasoning', 'text', 'tool', 'tool', 'data-weather', 'tool', 'file', 'text', 'notice'])
    expect(turn.sources.map((s) => s.id)).toEqual(['src_1', 'doc_1'])
    expect(Object.values(state.gates)).toMatchObject([{ kind: 'tool-approval', toolCallId: 'call_mail', status: 'approved' }])
    expect(ofType(state, 'tool').find((m) => m.props.toolCallId === 'call_mail')!.props.input).toEqual({
      to: 'ana@example.com', subject: 'Weather', body: 'SF 17°C, Tokyo 24°C',
    })
  })
})

describe('tool input cut anywhere', () => {
  const INPUTS = [
    '{"query":"最新 AI 论文","filters":{"year":[2024,2025],"open":true,"score":-1.5e2},"note":"a \\"quoted\\" \\u00e9 \\\\ line\\nbreak"}',
    '{"to":"ana@example.com","cc":[],"meta":{},"n":0,"x":null}',
  ]
  const call = (pieces: readonly string[], id = 'c1'): Chunk[] => [
    { type: 'tool-input-start', toolCallId: id, toolName: 'search' },
    ...pieces.map((inputTextDelta) => ({ type: 'tool-input-delta', toolCallId: id, inputTextDelta })),
  ]
  const inputOf = (state: AgentState, id = 'c1') => ofType(state, 'tool').find((m) => m.props.toolCallId === id)!.props

  it.each(INPUTS)('two deltas split at every index give the same input: %s', (json) => {
    const expected = JSON.parse(json)
    for (let at = 0; at <= json.length; at++) {
      const props = inputOf(foldStream(call([json.slice(0, at), json.slice(at)]), { protocol: 'ui-message' }))
      expect(props.input, `cut at ${at}`).toEqual(expected)
      expect(props.inputText).toBe(json)
    }
  })

  it.each(INPUTS)('random multi-splits give the same input: %s', (json) => {
    const next = random(json.length)
    for (let round = 0; round < 50; round++) {
      const pieces = randomCuts(json, next)
      const state = foldStream(call(pieces), { protocol: 'ui-message' })
      expect(inputOf(state).input, JSON.stringify(pieces)).toEqual(JSON.parse(json))
      // Cut anywhere, the stream stops short of its end: only that is reported.
      expect(state.turns[TURN]!.problems.map((p) => p.code)).toEqual([STREAM_TRUNCATED])
    }
  })

  it('the input shown mid-stream is always a prefix of the final one', () => {
    const json = INPUTS[0] as string
    const decoder = createUIMessageDecoder({ turnId: TURN, scope: TURN })
    let state = fold(emptyState(), [{ op: 'turn.open', turnId: TURN, role: 'assistant' }, ...decoder.decode(call([])[0]!, {})])
    for (const piece of randomCuts(json, random(3), 4)) {
      // Each piece is its own network read, whose end writes the input so far.
      state = fold(state, [...decoder.decode({ type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: piece }, {}), ...decoder.flush!()])
      const input = inputOf(state).input as Record<string, unknown> | undefined
      const query = input?.query
      if (typeof query === 'string') expect('最新 AI 论文'.startsWith(query)).toBe(true)
    }
    expect(inputOf(state).input).toEqual(JSON.parse(json))
  })

  it('parallel calls streaming interleaved keep their inputs apart', () => {
    const [a, b] = INPUTS as [string, string]
    const next = random(11)
    const piecesA = randomCuts(a, next)
    const piecesB = randomCuts(b, next)
    const chunks: Chunk[] = [
      { type: 'start-step' },
      { type: 'tool-input-start', toolCallId: 'A', toolName: 'search' },
      { type: 'tool-input-start', toolCallId: 'B', toolName: 'mail' },
    ]
    for (let i = 0; i < Math.max(piecesA.length, piecesB.length); i++) {
      if (piecesA[i]) chunks.push({ type: 'tool-input-delta', toolCallId: 'A', inputTextDelta: piecesA[i] })
      if (piecesB[i]) chunks.push({ type: 'tool-input-delta', toolCallId: 'B', inputTextDelta: piecesB[i] })
    }
    chunks.push(
      { type: 'tool-output-available', toolCallId: 'B', output: 'sent' },
      { type: 'tool-output-error', toolCallId: 'A', errorText: 'index offline' },
      { type: 'finish-step' },
    )
    const state = foldStream(chunks, { protocol: 'ui-message' })
    expect(inputOf(state, 'A')).toMatchObject({ name: 'search', input: JSON.parse(a), state: 'output-error', errorText: 'index offline' })
    expect(inputOf(state, 'B')).toMatchObject({ name: 'mail', input: JSON.parse(b), state: 'output-available', output: 'sent' })
    expect(rows(state, 'tool').map((n) => [n.tool, n.status])).toEqual([['search', 'error'], ['mail', 'done']])
  })

  it('the full scenario’s parallel calls are right after every chunk', () => {
    const decoder = createUIMessageDecoder({ turnId: TURN, scope: TURN })
    let state = fold(emptyState(), [{ op: 'turn.open', turnId: TURN, role: 'assistant' }])
    const expected = { call_sf: 'San Francisco', call_tk: 'Tokyo' } as const
    for (const chunk of uiMessageChunks.full) {
      state = fold(state, decoder.decode(chunk, {}))
      for (const [id, city] of Object.entries(expected)) {
        const tool = ofType(state, 'tool').find((m) => m.props.toolCallId === id)
        const shown = (tool?.props.input as { city?: string } | undefined)?.city
        if (shown !== undefined) expect(city.startsWith(shown)).toBe(true)
      }
    }
    expect(inputOf(state, 'call_sf').input).toEqual({ city: 'San Francisco', unit: 'celsius' })
    expect(inputOf(state, 'call_tk').input).toEqual({ city: 'Tokyo', unit: 'celsius' })
  })
})

describe('<think> cut anywhere', () => {
  const SOURCE = '<think>\nFirst, the units.\n</think>\n\nIt is 17 °C.'
  const REASONING_TEXT = 'First, the units.'
  const ANSWER = 'It is 17 °C.'
  const textPart = (pieces: readonly string[]): Chunk[] => [
    { type: 'text-start', id: 't' }, ...pieces.map((delta) => ({ type: 'text-delta', id: 't', delta })), { type: 'text-end', id: 't' },
  ]

  /** Folds chunk by chunk and checks that no text message ever shows tag text. */
  function foldWatching(chunks: readonly Chunk[]): AgentState {
    const decoder = createUIMessageDecoder({ turnId: TURN, scope: TURN })
    let state = fold(emptyState(), [{ op: 'turn.open', turnId: TURN, role: 'assistant' }])
    for (const chunk of chunks) {
      state = fold(state, decoder.decode(chunk, {}))
      for (const content of contents(state, 'text')) expect(content, JSON.stringify(chunks)).not.toMatch(/[<>]/)
    }
    return fold(state, decoder.end('done'))
  }

  it('split in two at every index', () => {
    for (let at = 0; at <= SOURCE.length; at++) {
      const state = foldWatching(textPart([SOURCE.slice(0, at), SOURCE.slice(at)]))
      expect(messages(state).map((m) => [m.type, m.props.content]), `cut at ${at}`).toEqual([['reasoning', REASONING_TEXT], ['text', ANSWER]])
    }
  })

  it('the tags themselves split at every position, one character per delta', () => {
    const state = foldWatching(textPart([...SOURCE]))
    expect(messages(state).map((m) => [m.type, m.props.content])).toEqual([['reasoning', REASONING_TEXT], ['text', ANSWER]])
  })

  it('random multi-splits of a text with two think blocks and a stray closing tag', () => {
    const source = 'Plan A.</think>Intro <think>aside one</think> middle <think>aside two</think>end'
    const expected = [['reasoning', 'Plan A.'], ['text', 'Intro'], ['reasoning', 'aside one'], ['text', 'middle'], ['reasoning', 'aside two'], ['text', 'end']]
    const next = random(5)
    for (let round = 0; round < 80; round++) {
      const pieces = randomCuts(source, next, 9)
      const state = foldWatching(textPart(pieces))
      expect(messages(state).map((m) => [m.type, m.props.content]), JSON.stringify(pieces)).toEqual(expected)
    }
  })

  it('text without tags comes out exactly as it went in, whatever the cuts', () => {
    const source = '  Leading spaces, a < sign, a <b>tag</b>, trailing spaces  \n'
    const next = random(9)
    for (let round = 0; round < 40; round++) {
      const state = foldStream(textPart(randomCuts(source, next)), { protocol: 'ui-message' })
      expect(contents(state, 'text')).toEqual([source])
    }
  })
})
