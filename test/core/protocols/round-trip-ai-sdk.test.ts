/**
 * Exact round trip against a stock AI SDK route: any `UIMessage[]` the SDK's
 * `validateUIMessages` accepts and a model can go on from (each tool call
 * settled), loaded into a store through the AI SDK history
 * reader, goes back in the next chat request exactly as it came (parts in their
 * order, sources where they stood, data parts, tool states and approvals,
 * files), followed by the new question. The route passes what it receives
 * through `validateUIMessages` and `convertToModelMessages` and answers with
 * `streamText` over the SDK's mock model.
 */
import type { LanguageModelV3StreamPart } from '@ai-sdk/provider'
import { convertToModelMessages, simulateReadableStream, streamText, validateUIMessages, type UIMessage } from 'ai'
import { MockLanguageModelV3 } from 'ai/test'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AgentClient } from '../../helpers/built-in-client'
import { historyOps } from '../../../src/core/history/merge'
import { createAgentStore } from '../../../src/core/store/store'
import { uiMessageHistory, type UIMessageLike } from '../../../src/protocols/ui-message/history'
import { settledUiMessages } from '../../helpers/ui-message-arbitraries'
import { startWebServer, type WebServer } from '../../helpers/web-server'
import { messageIn } from '../../../src/core/model/message-table'

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } }

function reply(text: string): LanguageModelV3StreamPart[] {
  return [
    { type: 'stream-start', warnings: [] },
    { type: 'text-start', id: 't' },
    { type: 'text-delta', id: 't', delta: text },
    { type: 'text-end', id: 't' },
    { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
  ]
}

let server: WebServer
/** What the route read, and whether the SDK took it. */
const seen: Array<{ messages: unknown; modelMessages?: number; error?: string }> = []

beforeAll(async () => {
  server = await startWebServer(async (request) => {
    const body = (await request.json()) as { messages: unknown }
    const record: (typeof seen)[number] = { messages: body.messages }
    seen.push(record)
    try {
      const messages = await validateUIMessages<UIMessage>({ messages: body.messages })
      const modelMessages = await convertToModelMessages(messages, { ignoreIncompleteToolCalls: true })
      record.modelMessages = modelMessages.length
      const model = new MockLanguageModelV3({
        // The model takes every file by URL, so the SDK downloads nothing.
        supportedUrls: { '*/*': [/^/] },
        doStream: async () => ({ stream: simulateReadableStream({ chunks: reply(`read ${messages.length} messages`), chunkDelayInMs: null }) }),
      })
      return streamText({ model, messages: modelMessages }).toUIMessageStreamResponse({ originalMessages: messages })
    } catch (thrown) {
      record.error = thrown instanceof Error ? thrown.message : String(thrown)
      return new Response(record.error, { status: 400 })
    }
  })
})
afterAll(() => server.close())

describe('AI SDK route: a loaded conversation goes back exactly', () => {
  it('any valid UIMessage[] from history is sent back unchanged, and the SDK takes it', async () => {
    await fc.assert(fc.asyncProperty(settledUiMessages, async (generated) => {
      const history = JSON.parse(JSON.stringify(await validateUIMessages({ messages: generated }))) as UIMessageLike[]
      const store = createAgentStore()
      store.getState().dispatch(historyOps(uiMessageHistory(history), store.getState()))
      seen.length = 0
      const client = new AgentClient(store, { url: `${server.url}/api/chat`, protocol: 'ui-message', conversationId: 'chat-rt' })
      await client.send('and now?')
      expect(seen).toHaveLength(1)
      const sent = seen[0]!.messages as UIMessageLike[]
      expect(sent.slice(0, -1)).toEqual(history)
      expect(sent.at(-1)).toEqual({ id: expect.any(String), role: 'user', parts: [{ type: 'text', text: 'and now?' }] })
      expect(seen[0]!.error).toBeUndefined()
      const s = store.getState()
      expect(s.status).toBe('done')
      const answer = s.turns[s.turnIds.at(-1)!]!
      const said = answer.messageIds.map((id) => messageIn(s.messages, id)!).filter((m) => m.type === 'text').map((m) => m.props.content).join('')
      expect(said).toBe(`read ${history.length + 1} messages`)
    }), { numRuns: 40 })
  })
})
