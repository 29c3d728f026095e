/**
 * One rule for the end of a stream, on both paths: the live client reads on to
 * the end of the body (a second run, text after an error, a straggler after the
 * end), so where the network cut the bytes never changes what is folded.
 */
import { describe, expect, it } from 'vitest'
import { AgentClient } from '../../helpers/built-in-client'
import { syncScheduler } from '../../../src/core/store/batcher'
import type { AgentState, ProtocolName } from '../../../src/core/model/model'
import { selectTurnMessages } from '../../../src/core/store/selectors'
import { createAgentStore } from '../../../src/core/store/store'
import { comparable, liveFold, perFrame, recordedFold } from '../../helpers/live-fold'
import { sse } from '../../helpers/yao'

const encoder = new TextEncoder()

/** Fold `text` whole, one frame per read and one byte per read; all three must equal foldStream. */
async function everySplit(text: string, protocol?: ProtocolName): Promise<AgentState> {
  const bytes = encoder.encode(text)
  const whole = await liveFold([bytes], { protocol })
  const recorded = recordedFold(text, whole.turnId, protocol)
  expect(comparable(whole.state), 'whole body').toEqual(comparable(recorded))
  const frames = await liveFold(perFrame(text), { protocol })
  expect(comparable(frames.state), 'one frame per read').toEqual(comparable(recordedFold(text, frames.turnId, protocol)))
  const bytewise = await liveFold([...bytes].map((b) => Uint8Array.of(b)), { protocol })
  expect(comparable(bytewise.state), 'one byte per read').toEqual(comparable(recordedFold(text, bytewise.turnId, protocol)))
  return whole.state
}

const textsOf = (state: AgentState): unknown[] =>
  state.turnIds.flatMap((id) => selectTurnMessages(state, id)).filter((m) => m.type === 'text').map((m) => m.props.content)

const problemCodes = (state: AgentState): unknown[] => state.turnIds.flatMap((id) => state.turns[id]!.problems.map((p) => p.code))

describe('the end of a stream: the live client and foldStream agree for every split', () => {
  it('AG-UI: RUN_FINISHED then a second RUN_STARTED on the same connection shows both runs', async () => {
    const text = sse([
      { type: 'RUN_STARTED', threadId: 't', runId: 'r1' },
      { type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'one' },
      { type: 'TEXT_MESSAGE_END', messageId: 'm1' },
      { type: 'RUN_FINISHED', threadId: 't', runId: 'r1' },
      { type: 'RUN_STARTED', threadId: 't', runId: 'r2' },
      { type: 'TEXT_MESSAGE_START', messageId: 'm2', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm2', delta: 'two' },
      { type: 'TEXT_MESSAGE_END', messageId: 'm2' },
      { type: 'RUN_FINISHED', threadId: 't', runId: 'r2' },
    ])
    const state = await everySplit(text, 'ag-ui')
    expect(textsOf(state)).toEqual(['one', 'two'])
    expect(state.status).toBe('done')
  })

  it('AG-UI: an event after RUN_FINISHED without a new run is an after_end problem, not folded', async () => {
    const text = sse([
      { type: 'RUN_STARTED', threadId: 't', runId: 'r1' },
      { type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'one' },
      { type: 'TEXT_MESSAGE_END', messageId: 'm1' },
      { type: 'RUN_FINISHED', threadId: 't', runId: 'r1' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: ' more' },
    ])
    const state = await everySplit(text, 'ag-ui')
    expect(textsOf(state)).toEqual(['one'])
    expect(problemCodes(state)).toEqual(['after_end'])
  })

  it('UI message stream: text after an error chunk is folded, as the AI SDK does', async () => {
    const text = sse([
      { type: 'start' },
      { type: 'text-start', id: 'a' },
      { type: 'text-delta', id: 'a', delta: 'Hel' },
      { type: 'error', errorText: 'rate limited' },
      { type: 'text-delta', id: 'a', delta: 'lo' },
      { type: 'text-end', id: 'a' },
    ])
    const state = await everySplit(text, 'ui-message')
    expect(textsOf(state)).toEqual(['Hello'])
    const turn = state.turns[state.turnIds[0]!]!
    expect(turn.status).toBe('error')
    expect(turn.error?.message).toBe('rate limited')
  })

  it('UI message stream: a frame after [DONE] is an after_end problem on both paths', async () => {
    const text = `${sse([{ type: 'start' }, { type: 'text-start', id: 'a' }, { type: 'text-delta', id: 'a', delta: 'Hi' }, { type: 'text-end', id: 'a' }, { type: 'finish' }])}data: [DONE]\n\n${sse([{ type: 'text-delta', id: 'a', delta: '!' }])}`
    const state = await everySplit(text, 'ui-message')
    expect(textsOf(state)).toEqual(['Hi'])
    expect(problemCodes(state)).toEqual(['after_end'])
    expect(state.status).toBe('done')
  })

  it('Yao: a chunk after stream_end is reported as after_end on both paths', async () => {
    const text = sse([
      { type: 'event', props: { event: 'stream_start', data: { request_id: 'q1' } } },
      { chunk_id: 'C1', message_id: 'M1', type: 'text', props: { content: 'Hello' }, delta: true },
      { type: 'event', props: { event: 'stream_end', data: { status: 'completed' } } },
      { chunk_id: 'C2', message_id: 'M1', type: 'text', props: { content: ' late' }, delta: true },
    ])
    const state = await everySplit(text, 'yao')
    expect(textsOf(state)).toEqual(['Hello'])
    expect(problemCodes(state)).toEqual(['after_end'])
  })

  it('Yao: a second stream_start on the same connection is a new request with its own ids', async () => {
    const request = (id: string, words: string[]) => [
      { type: 'event', props: { event: 'stream_start', data: { request_id: id } } },
      ...words.map((content, i) => ({ chunk_id: `C${i + 1}`, message_id: 'M1', type: 'text', props: { content }, delta: true })),
      { type: 'event', props: { event: 'stream_end', data: { status: 'completed' } } },
    ]
    const text = sse([...request('q1', ['Hel', 'lo']), ...request('q2', ['Bye', '!'])])
    const state = await everySplit(text, 'yao')
    expect(textsOf(state)).toEqual(['Hello', 'Bye!'])
    expect(problemCodes(state)).toEqual([])
    expect(state.turns[state.turnIds[0]!]!.status).toBe('done')
  })

  it('Yao: a new request_id without a stream_end between still starts a new id scope', async () => {
    const text = sse([
      { type: 'event', props: { event: 'stream_start', data: { request_id: 'q1' } } },
      { chunk_id: 'C1', message_id: 'M1', type: 'text', props: { content: 'first' } },
      { type: 'event', props: { event: 'stream_start', data: { request_id: 'q2' } } },
      { chunk_id: 'C1', message_id: 'M1', type: 'text', props: { content: 'second' } },
    ])
    const state = await everySplit(text, 'yao')
    expect(textsOf(state)).toEqual(['first', 'second'])
  })

  it('Vocion: the after_end problem is recorded by the client too', async () => {
    const text = sse([
      { type: 'response_delta', delta: 'Done.' },
      { type: 'done' },
      { type: 'response_delta', delta: ' Again?' },
    ])
    const state = await everySplit(text, 'vocion')
    expect(problemCodes(state)).toEqual(['after_end'])
  })

  it('a server that holds the connection open after the end is let go after the grace period', async () => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode(sse([{ type: 'response_delta', delta: 'Hi' }, { type: 'done' }])))
        // and never closes
      },
    })
    const store = createAgentStore()
    const client = new AgentClient(store, {
      url: '/agent', protocol: 'vocion', scheduler: syncScheduler, idleTimeoutMs: 0, endGraceMs: 20,
      fetch: async () => new Response(body, { headers: { 'content-type': 'text/event-stream' } }),
    })
    await client.send()
    expect(store.getState().status).toBe('done')
    expect(textsOf(store.getState())).toEqual(['Hi'])
  })
})

describe('openStream past [DONE]', () => {
  it('with readPastDone delivers [DONE] and what follows it, and still ends as done', async () => {
    const { openStream } = await import('../../../src/core/transport/open-stream')
    const { piecesFetch } = await import('../../helpers/live-fold')
    const stream = await openStream({
      url: '/x', readPastDone: true, fetch: piecesFetch([encoder.encode('data: a\n\ndata: [DONE]\n\ndata: b\n\n')]),
    })
    const seen: string[] = []
    for await (const frame of stream.frames) seen.push(frame.data)
    expect(seen).toEqual(['a', '[DONE]', 'b'])
    expect(stream.endReason).toBe('done')
  })

  it('without it stops at [DONE]', async () => {
    const { openStream } = await import('../../../src/core/transport/open-stream')
    const { piecesFetch } = await import('../../helpers/live-fold')
    const stream = await openStream({ url: '/x', fetch: piecesFetch([encoder.encode('data: a\n\ndata: [DONE]\n\ndata: b\n\n')]) })
    const seen: string[] = []
    for await (const frame of stream.frames) seen.push(frame.data)
    expect(seen).toEqual(['a'])
    expect(stream.endReason).toBe('done')
  })
})
