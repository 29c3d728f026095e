/**
 * `maxSteps` bounds the requests the client makes on its own, at any value: a
 * stock AI SDK route whose model keeps calling a client tool gets exactly
 * 1 + maxSteps requests, and the turn says why it stopped; a chain that ends by
 * itself within the bound goes to its end without that problem.
 */
import type { LanguageModelV3Prompt, LanguageModelV3StreamPart } from '@ai-sdk/provider'
import { convertToModelMessages, simulateReadableStream, streamText, tool, validateUIMessages } from 'ai'
import { MockLanguageModelV3 } from 'ai/test'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { AgentClient } from '../../helpers/built-in-client'
import { createAgentStore } from '../../../src/core/store/store'
import { startWebServer, type WebServer } from '../../helpers/web-server'
import { messageIn } from '../../../src/core/model/message-table'

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } }
const tools = { getLocation: tool({ description: "The user's city", inputSchema: z.object({}), outputSchema: z.object({ city: z.string() }) }) }

/** How many tool calls the model makes before it answers in words. */
let callsBeforeAnswer = Infinity
let calls = 0

function reply(prompt: LanguageModelV3Prompt): LanguageModelV3StreamPart[] {
  const results = prompt.filter((m) => m.role === 'tool').length
  if (results >= callsBeforeAnswer) {
    return [
      { type: 'stream-start', warnings: [] },
      { type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: `after ${results} lookups` }, { type: 'text-end', id: 't' },
      { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
    ]
  }
  return [
    { type: 'stream-start', warnings: [] },
    { type: 'tool-call', toolCallId: `call-${++calls}`, toolName: 'getLocation', input: '{}' },
    { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage },
  ]
}

let server: WebServer
beforeAll(async () => {
  server = await startWebServer(async (request) => {
    const body = (await request.json()) as { messages: unknown }
    const messages = await validateUIMessages({ messages: body.messages, tools: tools as Parameters<typeof validateUIMessages>[0]['tools'] })
    const model = new MockLanguageModelV3({ doStream: async ({ prompt }) => ({ stream: simulateReadableStream({ chunks: reply(prompt), chunkDelayInMs: null }) }) })
    return streamText({ model, messages: await convertToModelMessages(messages, { tools }), tools }).toUIMessageStreamResponse({ originalMessages: messages })
  })
})
afterAll(() => server.close())
beforeEach(() => {
  server.bodies.length = 0
  callsBeforeAnswer = Infinity
})

function run(maxSteps: number | undefined) {
  const store = createAgentStore()
  let executed = 0
  const client = new AgentClient(store, {
    url: `${server.url}/api/chat`, protocol: 'ui-message', conversationId: 'chat-steps',
    ...(maxSteps !== undefined ? { maxSteps } : {}),
    tools: { getLocation: { execute: async () => ({ city: `Lyon ${++executed}` }) } },
  })
  const problems = () => {
    const s = store.getState()
    return s.turns[s.turnIds[1]!]!.problems.map((p) => p.code)
  }
  return { client, store, problems, executed: () => executed }
}

describe('maxSteps', () => {
  for (const maxSteps of [1, 2, 3]) {
    it(`at ${maxSteps}: 1 + ${maxSteps} requests, then the turn says it stopped`, async () => {
      const { client, store, problems, executed } = run(maxSteps)
      await client.send('where am I?')
      expect(server.bodies).toHaveLength(1 + maxSteps)
      // The last answer's call ran too; only its follow-up was not sent.
      expect(executed()).toBe(1 + maxSteps)
      expect(problems()).toContain('max_steps')
      expect(store.getState().status).toBe('done')
    })
  }

  it('by default at 5', async () => {
    const { client, problems } = run(undefined)
    await client.send('where am I?')
    expect(server.bodies).toHaveLength(6)
    expect(problems()).toContain('max_steps')
  })

  it('a chain that ends within the bound reaches its answer without the problem', async () => {
    callsBeforeAnswer = 2
    const { client, store, problems } = run(3)
    await client.send('where am I?')
    expect(server.bodies).toHaveLength(3)
    expect(problems()).not.toContain('max_steps')
    const s = store.getState()
    const texts = s.turns[s.turnIds[1]!]!.messageIds.map((id) => messageIn(s.messages, id)!).filter((m) => m.type === 'text').map((m) => m.props.content)
    expect(texts.join('')).toBe('after 2 lookups')
  })
})
