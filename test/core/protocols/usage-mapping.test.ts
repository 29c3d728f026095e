/**
 * Each protocol's usage, as its wire reports it, in weft's names with the raw
 * record kept: the AI SDK's message metadata (as `toUIMessageStreamResponse`
 * sends it, from the `ai` package itself), AG-UI's `usage` on `RUN_FINISHED`,
 * LangGraph's `usage_metadata` on AI messages, Yao's `stream_end`; Vocion's
 * usage never reaches a browser and is dropped. Malformed usage is a typed
 * problem, never a throw, and never writes a prototype.
 */
import { simulateReadableStream, streamText } from 'ai'
import { MockLanguageModelV3 } from 'ai/test'
import { afterEach, describe, expect, it } from 'vitest'
import { foldStream } from '../../../src/umbrella/defaults'
import type { AgentState, Turn } from '../../../src/core/model/model'
import { encodeFrame, type FixtureFrame } from '../../../src/testing/frames'
import { fixtures } from '../../../src/testing/fixtures'
import { readUsage, sumUsage } from '../../../src/core/protocol/usage'

const assistant = (state: AgentState): Turn => state.turns[state.turnIds.find((id) => state.turns[id]!.role === 'assistant')!]!
const sse = (frames: readonly FixtureFrame[]) => frames.map((frame) => encodeFrame(frame)).join('')
const events = (list: readonly unknown[]) => sse(list.map((data) => ({ data })))
const problemsOf = (turn: Turn) => turn.problems.filter((p) => p.code === 'invalid_usage')

afterEach(() => {
  expect(({} as Record<string, unknown>).polluted).toBeUndefined()
})

/** The body a stock AI SDK route sends, with usage in the message metadata as the AI SDK's docs show. */
async function aiSdkBody(metadata: boolean): Promise<string> {
  const model = new MockLanguageModelV3({
    modelId: 'mock-model',
    doStream: async () => ({
      stream: simulateReadableStream({
        chunks: [
          { type: 'stream-start', warnings: [] },
          { type: 'text-start', id: 't' },
          { type: 'text-delta', id: 't', delta: 'Hello' },
          { type: 'text-end', id: 't' },
          {
            type: 'finish', finishReason: { unified: 'stop', raw: 'stop' },
            usage: { inputTokens: { total: 120, noCache: 100, cacheRead: 20, cacheWrite: 0 }, outputTokens: { total: 40, text: 32, reasoning: 8 } },
          },
        ],
      }),
    }),
  })
  const result = streamText({ model, prompt: 'Hi' })
  const response = result.toUIMessageStreamResponse(metadata ? {
    messageMetadata: ({ part }) => (part.type === 'start' ? { model: 'mock-model' } : part.type === 'finish' ? { totalUsage: part.totalUsage } : undefined),
  } : {})
  return response.text()
}

describe('usage per protocol', () => {
  it('AI SDK: the totalUsage a route sends at finish, as a LanguageModelUsage; the metadata keeps it too', async () => {
    const body = await aiSdkBody(true)
    expect(body).toContain('"totalUsage"')
    const turn = assistant(foldStream(body, { protocol: 'ui-message' }))
    expect(turn.usage).toMatchObject({ inputTokens: 120, outputTokens: 40, totalTokens: 160, reasoningTokens: 8, cachedInputTokens: 20, model: 'mock-model' })
    expect(turn.usage?.raw).toEqual((turn.metadata as { totalUsage: unknown }).totalUsage)
    expect(problemsOf(turn)).toEqual([])
  })

  it('AI SDK: a route that sends no usage gives the turn none', async () => {
    const turn = assistant(foldStream(await aiSdkBody(false), { protocol: 'ui-message' }))
    expect(turn.usage).toBeUndefined()
  })

  it('AI SDK: loose counts in the metadata ({ totalTokens }) are read too', () => {
    const turn = assistant(foldStream(events([{ type: 'start' }, { type: 'finish', messageMetadata: { totalTokens: 42 } }]), { protocol: 'ui-message' }))
    expect(turn.usage).toEqual({ totalTokens: 42, raw: { totalTokens: 42 } })
  })

  it('AG-UI: a usage list per model on RUN_FINISHED is summed, kept per model and whole', () => {
    const usage = [
      { model: 'gpt-4o', inputTokens: 100, outputTokens: 30, cachedInputTokens: 40 },
      { model: 'gpt-4o-mini', inputTokens: 10, outputTokens: 5, reasoningTokens: 2 },
    ]
    const body = events([
      { type: 'RUN_STARTED', threadId: 'th', runId: 'r1' },
      { type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'Hi' },
      { type: 'TEXT_MESSAGE_END', messageId: 'm1' },
      { type: 'RUN_FINISHED', threadId: 'th', runId: 'r1', usage },
    ])
    const turn = assistant(foldStream(body, { protocol: 'ag-ui' }))
    expect(turn.usage).toEqual({
      inputTokens: 110, outputTokens: 35, cachedInputTokens: 40, reasoningTokens: 2, raw: usage,
      byModel: [
        { model: 'gpt-4o', inputTokens: 100, outputTokens: 30, cachedInputTokens: 40 },
        { model: 'gpt-4o-mini', inputTokens: 10, outputTokens: 5, reasoningTokens: 2 },
      ],
    })
  })

  it('LangGraph: usage_metadata on each AI message, summed over the run, with the details and the model', () => {
    const frames = structuredClone(fixtures.langgraph.agent.frames) as FixtureFrame[]
    // The recorded run's model reported no usage: give each AI message's last chunk what an OpenAI model reports.
    const last = new Map<string, Record<string, unknown>>()
    for (const frame of frames) {
      const chunk = frame.event === 'messages' && Array.isArray(frame.data) ? frame.data[0] as Record<string, unknown> : undefined
      if (chunk?.type === 'AIMessageChunk' || chunk?.type === 'ai') last.set(chunk.id as string, chunk)
    }
    expect(last.size).toBe(2)
    let n = 0
    for (const chunk of last.values()) {
      n += 1
      chunk.usage_metadata = { input_tokens: 100 * n, output_tokens: 10 * n, total_tokens: 110 * n, input_token_details: { cache_read: n }, output_token_details: { reasoning: 0 } }
      chunk.response_metadata = { model_name: 'gpt-4o-mini' }
    }
    const turn = assistant(foldStream(sse(frames), { protocol: 'langgraph' }))
    expect(turn.usage).toMatchObject({ inputTokens: 300, outputTokens: 30, totalTokens: 330, cachedInputTokens: 3, reasoningTokens: 0, model: 'gpt-4o-mini' })
    expect(turn.usage?.raw).toEqual([...last.values()].map((chunk) => chunk.usage_metadata))
    expect(problemsOf(turn)).toEqual([])
  })

  it('Yao: stream_end usage in the model API\'s names (the recorded fixture)', () => {
    const turn = assistant(foldStream(sse(fixtures.yao['simple-text'].frames as FixtureFrame[]), { protocol: 'yao' }))
    expect(turn.usage).toEqual({ inputTokens: 12, outputTokens: 24, totalTokens: 36, raw: { prompt_tokens: 12, completion_tokens: 24, total_tokens: 36 } })
  })

  it('Vocion: a usage event is the runtime\'s budget and is dropped, so the turn has none', () => {
    const turn = assistant(foldStream(events([{ type: 'response_delta', delta: 'Hi' }, { type: 'usage', model: 'm', inputTokens: 10, outputTokens: 3 }, { type: 'done', response: 'Hi' }]), { protocol: 'vocion' }))
    expect(turn.usage).toBeUndefined()
  })
})

describe('malformed usage', () => {
  const hostile = '{"__proto__":{"polluted":1},"inputTokens":"many","outputTokens":-2,"totalTokens":1.5}'

  it('AI SDK: counts that are not token counts are problems; the rest stays, and nothing reaches a prototype', () => {
    const body = `data: {"type":"start"}\n\ndata: {"type":"finish","messageMetadata":{"totalUsage":${hostile}}}\n\n`
    const turn = assistant(foldStream(body, { protocol: 'ui-message' }))
    expect(problemsOf(turn).map((p) => p.message)).toEqual(['usage "inputTokens" is not a token count', 'usage "outputTokens" is not a token count', 'usage "totalTokens" is not a token count'])
    expect(problemsOf(turn)[0]).toMatchObject({ type: 'protocol', retryable: false })
    expect(turn.usage).toEqual({ raw: { inputTokens: 'many', outputTokens: -2, totalTokens: 1.5 } })
    expect(Object.getPrototypeOf(turn.usage!.raw)).toBe(Object.prototype)
  })

  it('AG-UI: a usage that is neither a record nor a list, and a list entry that is not a record, are problems', () => {
    const run = (usage: string) => assistant(foldStream(`data: {"type":"RUN_STARTED","threadId":"th","runId":"r1"}\n\ndata: {"type":"RUN_FINISHED","threadId":"th","runId":"r1","usage":${usage}}\n\n`, { protocol: 'ag-ui' }))
    expect(problemsOf(run('"lots"')).map((p) => p.message)).toEqual(['usage is not an object'])
    expect(run('"lots"').usage).toBeUndefined()
    const listed = run(`[7, ${hostile}]`)
    expect(problemsOf(listed).map((p) => p.message)).toEqual([
      'usage[0]: usage is not an object', 'usage[1]: usage "inputTokens" is not a token count',
      'usage[1]: usage "outputTokens" is not a token count', 'usage[1]: usage "totalTokens" is not a token count',
    ])
    expect(listed.status).toBe('done')
  })

  it('LangGraph: a usage_metadata that is not a record, or has a count that is not one, is a problem', () => {
    const meta = { langgraph_node: 'agent' }
    const frames: FixtureFrame[] = [
      { event: 'metadata', data: { run_id: 'r1' } },
      { event: 'messages', data: [{ type: 'AIMessageChunk', id: 'ai-1', content: 'Hi', usage_metadata: 'lots' }, meta] },
      { event: 'messages', data: [{ type: 'AIMessageChunk', id: 'ai-1', content: '!', usage_metadata: { input_tokens: 'x', output_tokens: 2 } }, meta] },
    ]
    const turn = assistant(foldStream(sse(frames), { protocol: 'langgraph' }))
    expect(problemsOf(turn).map((p) => p.message)).toEqual(['usage is not an object', 'usage "input_tokens" is not a token count'])
    expect(turn.usage).toMatchObject({ outputTokens: 2 })
  })

  it('Yao: a stream_end usage with a count that is not one is a problem, and the turn still ends', () => {
    const end = `{"chunk_id":"C1","type":"event","props":{"event":"stream_end","data":{"status":"completed","usage":${hostile.replace('inputTokens', 'prompt_tokens')}}}}`
    const turn = assistant(foldStream(`data: ${end}\n\n`, { protocol: 'yao' }))
    expect(problemsOf(turn).map((p) => p.message)).toEqual(['stream_end: usage "prompt_tokens" is not a token count'])
    expect(turn.status).toBe('done')
  })
})

describe('readUsage and sumUsage', () => {
  it('reads dotted paths through own properties only, the first present path winning', () => {
    const inherited = Object.create({ prompt_tokens: 99 }) as Record<string, unknown>
    expect(readUsage(inherited, { inputTokens: 'prompt_tokens' })).toEqual({ usage: { raw: inherited }, problems: [] })
    expect(readUsage({ a: { b: 3 }, c: 4 }, { inputTokens: ['x.y', 'a.b', 'c'], model: 'm' }).usage).toEqual({ inputTokens: 3, raw: { a: { b: 3 }, c: 4 } })
    expect(readUsage({ m: 5 }, { model: 'm' }).problems).toEqual(['usage "m" is not a model name'])
    expect(readUsage(null, {})).toEqual({ problems: ['usage is not an object'] })
  })

  it('sums only the counts given, keeping each entry without its record and the records in order', () => {
    expect(sumUsage([{ inputTokens: 1, model: 'a', raw: 'r1' }, { inputTokens: 2, outputTokens: 3, raw: 'r2' }])).toEqual({
      inputTokens: 3, outputTokens: 3, byModel: [{ inputTokens: 1, model: 'a' }, { inputTokens: 2, outputTokens: 3 }], raw: ['r1', 'r2'],
    })
  })
})

describe('usage from history', () => {
  it('AI SDK: a stored answer whose metadata holds its totalUsage has the usage a streamed one has; the metadata goes back unchanged', async () => {
    const { uiMessageProtocol } = await import('../../../src/protocols/ui-message/protocol')
    const { createAgentStore } = await import('../../../src/core/store/store')
    const { emptyState } = await import('../../../src/core/model/model')
    const metadata = { model: 'gpt-4o', totalUsage: { inputTokens: 30, outputTokens: 7, totalTokens: 37 } }
    const ops = uiMessageProtocol.history!([
      { id: 'q', role: 'user', parts: [{ type: 'text', text: 'Hi' }] },
      { id: 'a', role: 'assistant', metadata, parts: [{ type: 'text', text: 'Hello' }] },
    ], { state: emptyState() })
    const store = createAgentStore()
    store.getState().dispatch(ops)
    const state = store.getState()
    expect(state.turns.a!.usage).toEqual({ inputTokens: 30, outputTokens: 7, totalTokens: 37, model: 'gpt-4o', raw: metadata.totalUsage })
    expect(state.turns.q!.usage).toBeUndefined()
    expect(state.turns.a!.metadata).toMatchObject(metadata)
  })
})
