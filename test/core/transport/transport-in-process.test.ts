/**
 * `inProcessTransport`: an agent function in the page instead of a server. The
 * agent here is the AI SDK itself (`streamText` over its mock model, read as
 * `toUIMessageStream()`), so the approval round trip is the real one: a tool
 * that needs approval, `client.answer`, and a second request that reaches the
 * agent function carrying the approval. Also: events and raw strings fold as
 * `foldStream` folds them, a throwing agent is a typed error, and `stop()`
 * aborts the agent's signal and ends its iteration.
 */
import type { LanguageModelV3StreamPart } from '@ai-sdk/provider'
import { convertToModelMessages, simulateReadableStream, streamText, tool, validateUIMessages, type UIMessage } from 'ai'
import { MockLanguageModelV3 } from 'ai/test'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { syncScheduler } from '../../../src/core/store/batcher'
import { AgentClient, type AgentClientOptions } from '../../../src/core/client'
import { foldStream } from '../../../src/core/protocol/fold-stream'
import { messageIn } from '../../../src/core/model/message-table'
import type { AgentState, Message } from '../../../src/core/model/model'
import { createAgentStore, type AgentStore } from '../../../src/core/store/store'
import { AGENT_FAILED, inProcessTransport, type InProcessAgent, type InProcessRequest } from '../../../src/core/transport/in-process'
import { uiMessageProtocol } from '../../../src/protocols/ui-message/index'
import { fixtureSet as fixtures } from '../../../src/testing/fixtures/index'
import { encodeFrame } from '../../../src/testing/frames'
import { comparable } from '../../helpers/live-fold'

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } }

function clientFor(store: AgentStore, agent: InProcessAgent, extra: Partial<AgentClientOptions> = {}): AgentClient {
  return new AgentClient(store, {
    url: '/api/chat', protocols: [uiMessageProtocol], transport: inProcessTransport(agent), scheduler: syncScheduler, ...extra,
  })
}

function assistantTurns(state: AgentState): string[] {
  return state.turnIds.filter((id) => state.turns[id]?.role === 'assistant')
}

const messagesOf = (state: AgentState, turnId: string): Message[] => state.turns[turnId]!.messageIds.map((id) => messageIn(state.messages, id)!)
const textOf = (state: AgentState, turnId: string) =>
  messagesOf(state, turnId).filter((m) => m.type === 'text').map((m) => String(m.props.content)).join('')

describe('inProcessTransport: events from a function', () => {
  it('objects and raw strings fold as foldStream folds the same events', async () => {
    const fixture = fixtures['ui-message'].full
    const requests: InProcessRequest[] = []
    const store = createAgentStore()
    // Objects go as their JSON; a string ('[DONE]') is a frame's data as it is.
    await clientFor(store, async function* (request) {
      requests.push(request)
      for (const frame of fixture.frames) yield frame.data
    }).send()
    const state = store.getState()
    const [turnId] = assistantTurns(state)
    const recorded = foldStream(fixture.frames.map((frame) => encodeFrame(frame)).join(''), { turnId, protocols: [uiMessageProtocol] })
    expect(comparable(state)).toEqual(comparable(recorded))
    expect(requests).toHaveLength(1)
    expect(requests[0]).toMatchObject({ url: '/api/chat', method: 'POST', body: { input: '' } })
    expect(requests[0]!.headers.get('content-type')).toBe('application/json')
  })

  it('a synchronous iterable works too', async () => {
    const store = createAgentStore()
    await clientFor(store, () => fixtures['ui-message'].plain.frames.map((frame) => frame.data)).send()
    const state = store.getState()
    const [turnId] = assistantTurns(state)
    expect(state.turns[turnId!]!.status).toBe('done')
    expect(textOf(state, turnId!).length).toBeGreaterThan(0)
  })

  it('an agent that throws ends the turn in a typed, non-retryable error and keeps what arrived', async () => {
    const store = createAgentStore()
    const errors: unknown[] = []
    await clientFor(
      store,
      async function* () {
        yield { type: 'start' }
        yield { type: 'text-start', id: 't' }
        yield { type: 'text-delta', id: 't', delta: 'Half an ans' }
        throw new Error('the model is down')
      },
      { onError: (error) => errors.push(error) },
    ).send()
    const state = store.getState()
    const [turnId] = assistantTurns(state)
    expect(errors).toEqual([expect.objectContaining({ type: 'internal', code: AGENT_FAILED, retryable: false })])
    expect((errors[0] as { message: string }).message).toContain('the model is down')
    expect(state.turns[turnId!]!.status).toBe('error')
    expect(textOf(state, turnId!)).toBe('Half an ans')
  })

  it('an agent that throws before its first event is the same typed error', async () => {
    const store = createAgentStore()
    const errors: unknown[] = []
    await clientFor(store, () => { throw new Error('no agent today') }, { onError: (error) => errors.push(error) }).send('hi')
    expect(errors).toEqual([expect.objectContaining({ type: 'internal', code: AGENT_FAILED })])
  })

  it('stop() aborts the agent\'s signal and ends its iteration (its finally runs)', async () => {
    const store = createAgentStore()
    let signal: AbortSignal | undefined
    let cleanedUp = false
    let release: (() => void) | undefined
    const client = clientFor(store, async function* (_request, context) {
      signal = context.signal
      try {
        yield { type: 'start' }
        yield { type: 'text-start', id: 't' }
        yield { type: 'text-delta', id: 't', delta: 'Thinking about it' }
        // Waits for more until the client stops.
        await new Promise<void>((resolve) => {
          release = resolve
          context.signal.addEventListener('abort', () => resolve(), { once: true })
        })
        yield { type: 'text-delta', id: 't', delta: ' (never sent)' }
      } finally {
        cleanedUp = true
      }
    })
    const sending = client.send()
    await new Promise<void>((resolve) => {
      const check = () => (release ? resolve() : setTimeout(check, 1))
      check()
    })
    client.stop()
    await sending
    expect(signal?.aborted).toBe(true)
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(cleanedUp).toBe(true)
    const state = store.getState()
    const [turnId] = assistantTurns(state)
    expect(state.turns[turnId!]!.status).toBe('aborted')
    expect(textOf(state, turnId!)).toBe('Thinking about it')
  })
})

describe('inProcessTransport: the AI SDK as the agent, with an approval', () => {
  const tools = {
    deleteFile: tool({
      description: 'Delete a file', inputSchema: z.object({ path: z.string() }), needsApproval: true,
      execute: async ({ path }) => ({ deleted: path }),
    }),
  }

  function reply(last: { role: string } | undefined): LanguageModelV3StreamPart[] {
    if (last?.role === 'tool') {
      return [
        { type: 'stream-start', warnings: [] },
        { type: 'text-start', id: 't' },
        { type: 'text-delta', id: 't', delta: 'Deleted it.' },
        { type: 'text-end', id: 't' },
        { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
      ]
    }
    return [
      { type: 'stream-start', warnings: [] },
      { type: 'tool-call', toolCallId: 'call-1', toolName: 'deleteFile', input: JSON.stringify({ path: '/tmp/report.txt' }) },
      { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage },
    ]
  }

  it('a tool-approval-request, client.answer, and the second request reaches the agent with the approval', async () => {
    const received: UIMessage[][] = []
    let ids = 0
    const agent: InProcessAgent = async function* (request, { signal }) {
      const body = request.body as { messages: unknown }
      const messages = await validateUIMessages({ messages: body.messages, tools: tools as Parameters<typeof validateUIMessages>[0]['tools'] })
      received.push(messages)
      const model = new MockLanguageModelV3({
        doStream: async ({ prompt }) => ({ stream: simulateReadableStream({ chunks: reply(prompt.at(-1)), chunkDelayInMs: null }) }),
      })
      const result = streamText({ model, messages: await convertToModelMessages(messages, { tools }), tools, abortSignal: signal })
      yield* result.toUIMessageStream({ originalMessages: messages, generateMessageId: () => `msg-${++ids}` })
    }
    const store = createAgentStore()
    const client = clientFor(store, agent, { protocol: 'ui-message', conversationId: 'chat-1' })
    await client.send('please delete the report')
    let state = store.getState()
    const [answer] = assistantTurns(state)
    const gate = Object.values(state.gates).find((g) => g.status === 'pending')!
    expect(gate.kind).toBe('tool-approval')

    expect(await client.answer(gate.id, { approved: true })).toEqual({ ok: true })
    state = store.getState()
    expect(received).toHaveLength(2)
    // The continuation carried the approval the way the SDK writes it, and the SDK ran the tool.
    const part = received[1]!.at(-1)!.parts.find((p) => p.type === 'tool-deleteFile') as Record<string, unknown>
    expect(part).toMatchObject({ state: 'approval-responded', approval: { approved: true } })
    expect(state.gates[gate.id]!.status).toBe('approved')
    expect(assistantTurns(state)).toEqual([answer])
    const toolMessage = messagesOf(state, answer!).find((m) => m.type === 'tool')!
    expect(toolMessage.props).toMatchObject({ state: 'output-available', output: { deleted: '/tmp/report.txt' } })
    expect(textOf(state, answer!)).toBe('Deleted it.')
    expect(state.turns[answer!]!.status).toBe('done')
  })
})
