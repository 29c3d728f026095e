/**
 * AI SDK resume against its real backend: a stock route whose streams
 * `resumable-stream` keeps in a real Redis server, and `GET <api>/<chatId>/stream`
 * answering with `resumeExistingStream`. A reload in the middle of an answer
 * resumes with nothing duplicated and nothing lost.
 */
import type { LanguageModelV3StreamPart } from '@ai-sdk/provider'
import { convertToModelMessages, simulateReadableStream, streamText, UI_MESSAGE_STREAM_HEADERS, validateUIMessages } from 'ai'
import { MockLanguageModelV3 } from 'ai/test'
import { createClient } from 'redis'
import { createResumableStreamContext, type ResumableStreamContext } from 'resumable-stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AgentClient } from '../../helpers/built-in-client'
import { memoryStorage } from '../../../src/core/resume/storage'
import { createAgentStore, type AgentStore } from '../../../src/core/store/store'
import { startRedis, type RedisServer } from '../../helpers/redis'
import { startWebServer, type WebServer } from '../../helpers/web-server'
import { messageIn } from '../../../src/core/model/message-table'
import { createConversations, memoryConversations, type ConversationStorage } from '../../../src/core/conversations/index'

const WORDS = Array.from({ length: 60 }, (_, i) => `w${i} `)
const FULL = WORDS.join('')
const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } }

let redis: RedisServer
let server: WebServer
let context: ResumableStreamContext
const clients: Array<ReturnType<typeof createClient>> = []
const activeStream = new Map<string, string>()
const pending: Promise<unknown>[] = []
let streams = 0

beforeAll(async () => {
  redis = await startRedis()
  const publisher = createClient({ url: redis.url })
  const subscriber = createClient({ url: redis.url })
  clients.push(publisher, subscriber)
  await Promise.all([publisher.connect(), subscriber.connect()])
  context = createResumableStreamContext({ waitUntil: (promise) => void pending.push(promise), publisher, subscriber })
  server = await startWebServer(async (request) => {
    const url = new URL(request.url)
    const resume = /^\/api\/chat\/([^/]+)\/stream$/.exec(url.pathname)
    if (request.method === 'GET' && resume) {
      const streamId = activeStream.get(decodeURIComponent(resume[1]!))
      if (!streamId) return new Response(null, { status: 204 })
      const stream = await context.resumeExistingStream(streamId)
      if (!stream) return new Response(null, { status: 204 })
      return new Response(stream.pipeThrough(new TextEncoderStream()), { headers: UI_MESSAGE_STREAM_HEADERS })
    }
    const body = (await request.json()) as { id: string; messages: unknown }
    const messages = await validateUIMessages({ messages: body.messages })
    const chunks: LanguageModelV3StreamPart[] = [
      { type: 'stream-start', warnings: [] },
      { type: 'text-start', id: 't' },
      ...WORDS.map((delta): LanguageModelV3StreamPart => ({ type: 'text-delta', id: 't', delta })),
      { type: 'text-end', id: 't' },
      { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
    ]
    const model = new MockLanguageModelV3({ doStream: async () => ({ stream: simulateReadableStream({ chunks, chunkDelayInMs: 10 }) }) })
    const result = streamText({ model, messages: await convertToModelMessages(messages) })
    return result.toUIMessageStreamResponse({
      originalMessages: messages,
      async consumeSseStream({ stream }) {
        const streamId = `stream-${++streams}`
        await context.createNewResumableStream(streamId, () => stream)
        activeStream.set(body.id, streamId)
      },
    })
  })
}, 60_000)

afterAll(async () => {
  await Promise.allSettled(pending)
  await server?.close()
  await Promise.allSettled(clients.map((c) => c.quit()))
  await redis?.stop()
})

function answerText(store: AgentStore): string {
  const s = store.getState()
  const turn = s.turnIds.map((id) => s.turns[id]!).find((t) => t.role === 'assistant')
  return turn ? turn.messageIds.map((id) => messageIn(s.messages, id)!).filter((m) => m.type === 'text').map((m) => String(m.props.content)).join('') : ''
}

/** Resolves once the answer shows some text but not all of it. */
async function midAnswer(store: AgentStore): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const unsubscribe = store.subscribe(() => {
      const text = answerText(store)
      if (text.length > 0 && text.length < FULL.length) {
        unsubscribe()
        resolve()
      } else if (text === FULL) {
        unsubscribe()
        reject(new Error('the answer finished before the reload'))
      }
    })
  })
}

function resumable(store: AgentStore, key: string, storage: ReturnType<typeof memoryStorage>): AgentClient {
  return new AgentClient(store, {
    url: `${server.url}/api/chat`, protocol: 'ui-message', conversationId: key,
    resume: { strategy: 'ai-sdk', conversationKey: key, storage },
  })
}

describe('AI SDK resume on resumable-stream and Redis', () => {
  it('a reload mid-answer (fresh store) replays through GET and ends with the whole text once', async () => {
    const storage = memoryStorage()
    const first = createAgentStore()
    const before = resumable(first, 'chat-reload', storage)
    const sending = before.send('tell me')
    await midAnswer(first)
    const seen = answerText(first)
    before.dispose()
    await sending
    expect(seen.length).toBeGreaterThan(0)
    // The page reloads: a new store and client, and only the stored handle survives.
    const after = createAgentStore()
    const client = resumable(after, 'chat-reload', storage)
    expect(await client.attach()).toBe(true)
    expect(after.getState().status).toBe('done')
    expect(answerText(after)).toBe(FULL)
  })

  it('a remount over the same store adds only what is missing: 0 duplicated, 0 lost', async () => {
    const storage = memoryStorage()
    const store = createAgentStore()
    const before = resumable(store, 'chat-remount', storage)
    const sending = before.send('tell me')
    await midAnswer(store)
    const seen = answerText(store)
    before.dispose()
    await sending
    const client = resumable(store, 'chat-remount', storage)
    expect(await client.attach()).toBe(true)
    const text = answerText(store)
    expect(text.startsWith(seen)).toBe(true)
    expect(text).toBe(FULL)
    expect(store.getState().status).toBe('done')
    const s = store.getState()
    expect(s.turnIds.map((id) => s.turns[id]!.role)).toEqual(['user', 'assistant'])
  })

  it('a reload mid-answer into the saved conversation keeps the text shown before it and ends with the whole text once', async () => {
    const stored = memoryConversations()
    // The page's last save lands; the ones after it never do (the reload came first).
    let reloaded = false
    const pageStorage: ConversationStorage = {
      list: () => stored.list(),
      load: (id) => stored.load(id),
      save: async (record, options) => {
        if (!reloaded) await stored.save(record, options)
      },
      remove: (id) => stored.remove(id),
    }
    const selection = memoryStorage()
    const handles = memoryStorage()
    const page = createConversations({ storage: pageStorage, selection, saveOnHide: false })
    await page.ready()
    const id = page.selectedId as string
    const store = page.storeOf(id)!
    const before = resumable(store, id, handles)
    const sending = before.send('tell me')
    await midAnswer(store)
    await page.flush()
    const saved = answerText(store)
    // More arrives after the save: the stored handle counts further than the saved copy shows.
    await new Promise<void>((resolve) => {
      const unsubscribe = store.subscribe(() => {
        if (answerText(store).length > saved.length + 8) {
          unsubscribe()
          resolve()
        }
      })
    })
    reloaded = true
    before.dispose()
    await sending
    await page.dispose()
    expect(saved.length).toBeGreaterThan(0)

    const next = createConversations({ storage: stored, selection, saveOnHide: false })
    await next.ready()
    expect(next.selectedId).toBe(id)
    const restored = next.storeOf(id)!
    expect(answerText(restored)).toBe(saved)
    const turnId = restored.getState().turnIds[1]!
    expect(restored.getState().turns[turnId]!.status).toBe('streaming')
    const client = resumable(restored, id, handles)
    expect(await client.attach()).toBe(true)
    const s = restored.getState()
    expect(s.status).toBe('done')
    expect(answerText(restored)).toBe(FULL)
    expect(s.turns[turnId]!.messageIds.filter((m) => messageIn(s.messages, m)!.type === 'text')).toHaveLength(1)
    expect(s.turns[turnId]!.problems).toEqual([])
    await next.dispose()
  })
})
