/**
 * A stock AI SDK route (`streamText(…).toUIMessageStreamResponse()`, no
 * resumable-stream GET handler) after a page left mid-answer: the resume request
 * meets a 404 (no such path) or a 405 (the path answers only POST). There is
 * nothing to resume, so the partial answer stays, the turn ends `aborted` with a
 * typed `resume_expired` problem, and no error reaches the stream or the host.
 */
import { convertToModelMessages, simulateReadableStream, streamText, validateUIMessages } from 'ai'
import { MockLanguageModelV3 } from 'ai/test'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RESUME_EXPIRED, type AgentClientOptions } from '../../../src/core/client'
import { AgentClient } from '../../helpers/built-in-client'
import { memoryStorage, resumeStorageKey } from '../../../src/core/resume/storage'
import { createAgentStore } from '../../../src/core/store/store'
import { messageList } from '../../../src/core/model/message-table'
import { uiMessageProtocol } from '../../../src/protocols/ui-message/protocol'
import { startWebServer, type WebServer } from '../../helpers/web-server'

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } }
const WORDS = Array.from({ length: 40 }, (_, i) => `word${i} `)

let server: WebServer
const seen: string[] = []

beforeAll(async () => {
  server = await startWebServer(async (request) => {
    const { pathname } = new URL(request.url)
    seen.push(`${request.method} ${pathname}`)
    if (pathname.startsWith('/405/') && request.method !== 'POST') return new Response('Method Not Allowed', { status: 405, headers: { allow: 'POST' } })
    if (!pathname.endsWith('/api/chat') || request.method !== 'POST') return new Response('Not Found', { status: 404 })
    const messages = await validateUIMessages({ messages: ((await request.json()) as { messages: unknown }).messages })
    const model = new MockLanguageModelV3({
      doStream: async () => ({
        stream: simulateReadableStream({
          chunkDelayInMs: 20,
          chunks: [
            { type: 'stream-start', warnings: [] },
            { type: 'text-start', id: 't' },
            ...WORDS.map((delta) => ({ type: 'text-delta' as const, id: 't', delta })),
            { type: 'text-end', id: 't' },
            { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
          ],
        }),
      }),
    })
    return streamText({ model, messages: await convertToModelMessages(messages) }).toUIMessageStreamResponse({ originalMessages: messages })
  })
})
afterAll(() => server.close())

const textOf = (store: ReturnType<typeof createAgentStore>, turnId: string) =>
  messageList(store.getState().messages).filter((m) => m.turnId === turnId && m.type === 'text').map((m) => String(m.props.content)).join('')

describe('a stock AI SDK route has no stream to resume', () => {
  for (const [route, status] of [['/404/api/chat', 404], ['/405/api/chat', 405]] as const) {
    it(`a ${status} on the resume request keeps the partial answer as an aborted turn with a typed problem, and no error`, async () => {
      const store = createAgentStore()
      const storage = memoryStorage()
      const errors: unknown[] = []
      const options: AgentClientOptions = {
        url: server.url + route, protocol: uiMessageProtocol, onError: (error) => errors.push(error),
        resume: { strategy: 'ai-sdk', conversationKey: `chat-${status}`, storage, resumeUrl: server.url + route },
      }
      const leaving = new AgentClient(store, options)
      const sending = leaving.send('Tell me a long story')
      await new Promise<void>((resolve) => {
        const off = store.subscribe(() => {
          if (/word3 /.test(messageList(store.getState().messages).map((m) => String(m.props.content ?? '')).join(''))) {
            off()
            resolve()
          }
        })
      })
      // The page goes: the request stops, the turn and its handle stay for the next page.
      leaving.dispose()
      await sending
      const turnId = store.getState().turnIds.at(-1)!
      const partial = textOf(store, turnId)
      expect(partial).toMatch(/^word0 word1 word2 word3 /)
      expect(store.getState().turns[turnId]!.status).toBe('streaming')
      expect(storage.getItem(resumeStorageKey(`chat-${status}`))).not.toBeNull()

      seen.length = 0
      const next = new AgentClient(store, options)
      expect(await next.attach()).toBe(true)
      const state = store.getState()
      expect(seen).toHaveLength(1)
      expect(seen[0]).toMatch(new RegExp(`^GET ${route}/[^/]+/stream$`))
      expect(state.status).toBe('aborted')
      expect(state.error).toBeUndefined()
      expect(errors).toEqual([])
      const turn = state.turns[turnId]!
      expect(turn.status).toBe('aborted')
      expect(turn.error).toBeUndefined()
      expect(turn.problems).toEqual([expect.objectContaining({ code: RESUME_EXPIRED, status, retryable: false })])
      // Every token that arrived stays, a space the decoder held back for the next event included.
      expect(textOf(store, turnId).startsWith(partial)).toBe(true)
      expect(textOf(store, turnId)).toMatch(/^(word\d+ )+$/)
      expect(messageList(state.messages).every((m) => m.status !== 'streaming')).toBe(true)
      expect(storage.getItem(resumeStorageKey(`chat-${status}`))).toBeNull()
      // Nothing is left to attach to, and no request leaves.
      expect(await next.attach()).toBe(false)
      expect(seen).toHaveLength(1)
    })
  }
})
