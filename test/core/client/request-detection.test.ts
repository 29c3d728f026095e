/**
 * What a client sends before it knows the protocol, and after: a client with no
 * `protocol` posts the neutral `{input}` until an answer names its protocol, then
 * that protocol's own request (the AI SDK chat request here, from a real `ai`
 * route). And a name that cannot be resolved (a resume strategy, a protocol) is a
 * typed error on the turn: `send`, `attach`, `retry` and `stop` never throw or reject.
 */
import { convertToModelMessages, simulateReadableStream, streamText, validateUIMessages } from 'ai'
import { MockLanguageModelV3 } from 'ai/test'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { AgentClient } from '../../helpers/built-in-client'
import { createAgentStore } from '../../../src/core/store/store'
import { memoryStorage } from '../../../src/core/resume/storage'
import { toyProtocol } from '../../helpers/toy-protocol'
import { startWebServer, type WebServer } from '../../helpers/web-server'
import { messageIn } from '../../../src/core/model/message-table'

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } }

let server: WebServer
let replies = 0

beforeAll(async () => {
  // An AI SDK route that also takes a bare `{input}` (as a hand-written route might), so the first,
  // neutral request gets an answer whose stream names the protocol.
  server = await startWebServer(async (request) => {
    const body = (await request.json()) as { input?: string; messages?: unknown }
    const model = new MockLanguageModelV3({
      doStream: async () => ({
        stream: simulateReadableStream({
          chunkDelayInMs: null,
          chunks: [
            { type: 'stream-start', warnings: [] },
            { type: 'text-start', id: 't' },
            { type: 'text-delta', id: 't', delta: `answer ${++replies}` },
            { type: 'text-end', id: 't' },
            { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
          ],
        }),
      }),
    })
    if (typeof body.input === 'string') return streamText({ model, prompt: body.input }).toUIMessageStreamResponse()
    const messages = await validateUIMessages({ messages: body.messages })
    return streamText({ model, messages: await convertToModelMessages(messages) }).toUIMessageStreamResponse({ originalMessages: messages })
  })
})
afterAll(() => server.close())
beforeEach(() => {
  server.bodies.length = 0
})

describe('the request body before and after detection', () => {
  it('sends the neutral {input} first, then the AI SDK chat request once the answer named the protocol', async () => {
    const store = createAgentStore()
    const client = new AgentClient(store, { url: `${server.url}/api/chat`, conversationId: 'chat-7' })
    await client.send('hello')
    expect(server.bodies[0]).toEqual({ input: 'hello' })
    const first = store.getState()
    expect(first.status).toBe('done')
    expect(first.turns[first.turnIds[1]!]!.protocol).toBe('ui-message')

    await client.send('and then?')
    const second = server.bodies[1] as { id: string; trigger: string; messages: Array<{ role: string; parts: unknown[] }> }
    expect(second).toMatchObject({ id: 'chat-7', trigger: 'submit-message' })
    expect(second.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user'])
    expect(second.messages[2]!.parts).toEqual([{ type: 'text', text: 'and then?' }])
    expect(store.getState().status).toBe('done')
  })
})

describe('a name that cannot be resolved', () => {
  const resume = { strategy: 'no-such-strategy', conversationKey: 'c1', storage: memoryStorage() }

  it('send resolves, and the turn and the stream carry a validation error', async () => {
    const store = createAgentStore()
    const errors: string[] = []
    const client = new AgentClient(store, { url: `${server.url}/api/chat`, protocol: 'ui-message', resume, onError: (e) => errors.push(e.type) })
    await expect(client.send('hello')).resolves.toBeUndefined()
    const s = store.getState()
    const answer = s.turns[s.turnIds.at(-1)!]!
    expect(answer.status).toBe('error')
    expect(answer.error).toMatchObject({ type: 'validation', message: expect.stringContaining('no-such-strategy') })
    expect(s.status).toBe('error')
    expect(errors).toEqual(['validation'])
    // Nothing was sent.
    expect(server.bodies).toEqual([])
  })

  it('attach, retry and stop neither throw nor reject', async () => {
    const store = createAgentStore()
    const client = new AgentClient(store, { url: `${server.url}/api/chat`, resume })
    await expect(client.attach()).resolves.toBe(false)
    expect(store.getState()).toMatchObject({ status: 'error', error: { type: 'validation' } })
    await expect(client.retry()).resolves.toBeUndefined()
    expect(() => client.stop()).not.toThrow()
  })

  it('an unregistered protocol name ends the turn in a validation error, and send resolves', async () => {
    const store = createAgentStore()
    const client = new AgentClient(store, { url: `${server.url}/api/chat`, protocol: 'not-registered' })
    await expect(client.send('hello')).resolves.toBeUndefined()
    const s = store.getState()
    expect(s.turns[s.turnIds.at(-1)!]!.error).toMatchObject({ type: 'validation', message: expect.stringContaining('not-registered') })
  })

  it('a strategy named by a protocol given as a definition resolves without the registry', async () => {
    const store = createAgentStore()
    // The toy protocol is not registered; its strategy is called "toy-resume".
    const client = new AgentClient(store, {
      url: `${server.url}/api/chat`, protocol: toyProtocol, resume: { strategy: 'toy-resume', conversationKey: 'c2', storage: memoryStorage() },
    })
    await expect(client.attach()).resolves.toBe(false)
    expect(store.getState().status).toBe('idle')
  })
})
