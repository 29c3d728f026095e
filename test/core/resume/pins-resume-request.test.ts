/**
 * The exact request a reconnect is made with, for each built-in resume strategy:
 * the host's `credentials` and headers (an object, or a function read again for
 * each request) go with the resume GET as they go with the send, under the
 * strategy's own URL and `Last-Event-ID`. Both ways a resume starts are pinned: a
 * dropped connection mid-answer, and `attach()` after a reload with a stored handle.
 */
import { describe, expect, it } from 'vitest'
import { type AgentClientOptions } from '../../../src/core/client'
import { AgentClient } from '../../helpers/built-in-client'
import { memoryStorage, writeHandle } from '../../../src/core/resume/storage'
import type { ResumeHandle } from '../../../src/core/resume/types'
import { createAgentStore } from '../../../src/core/store/store'
import { fakeFetch, type Call } from '../../helpers/fake-fetch'

const API = 'http://agent.test/api/chat'
const VOCION_RESUME = 'http://agent.test/rpc/agent/stream/resume'

type Frame = { data: unknown; id?: string }

function sse(frames: Frame[]): Response {
  const text = frames.map((f) => `${f.id !== undefined ? `id: ${f.id}\n` : ''}data: ${JSON.stringify(f.data)}\n\n`).join('')
  return new Response(text, { status: 200, headers: { 'content-type': 'text/event-stream' } })
}

interface Case {
  strategy: 'ai-sdk' | 'sse' | 'yao' | 'vocion'
  protocol: 'ui-message' | 'yao' | 'vocion'
  resumeUrl?: string
  /** The start of an answer whose connection drops before its end. */
  partial: Frame[]
  /** The reconnect after the drop, and the one after a reload (a fresh store, from the start). */
  afterDrop: { url: string; lastEventId?: string }
  afterReload: { url: string }
  /** A handle as a page before the reload stored it. */
  stored: ResumeHandle
}

const cases: Case[] = [
  {
    strategy: 'ai-sdk', protocol: 'ui-message',
    partial: [
      { data: { type: 'start', messageId: 'msg-1' } },
      { data: { type: 'text-start', id: 't' } },
      { data: { type: 'text-delta', id: 't', delta: 'Hel' } },
    ],
    afterDrop: { url: `${API}/chat-1/stream` },
    afterReload: { url: `${API}/chat-1/stream` },
    stored: { strategy: 'ai-sdk', turnId: 'turn-old', protocol: 'ui-message', count: 3, url: API, chatId: 'chat-1' } as ResumeHandle,
  },
  {
    strategy: 'sse', protocol: 'ui-message',
    partial: [
      { id: 'e1', data: { type: 'start', messageId: 'msg-1' } },
      { id: 'e2', data: { type: 'text-start', id: 't' } },
      { id: 'e3', data: { type: 'text-delta', id: 't', delta: 'Hel' } },
    ],
    afterDrop: { url: API, lastEventId: 'e3' },
    afterReload: { url: API },
    stored: { strategy: 'sse', turnId: 'turn-old', protocol: 'ui-message', count: 3, url: API, lastEventId: 'e3' } as ResumeHandle,
  },
  {
    strategy: 'yao', protocol: 'yao',
    partial: [
      { data: { chunk_id: 'C1', type: 'event', props: { event: 'stream_start', data: { request_id: 'q1' } }, metadata: { sequence: 1 } } },
      { data: { chunk_id: 'C2', message_id: 'M1', type: 'text', props: { content: 'Hel' }, metadata: { sequence: 2 } } },
      { data: { chunk_id: 'C3', message_id: 'M1', type: 'text', props: { content: 'lo' }, delta: true, metadata: { sequence: 3 } } },
    ],
    afterDrop: { url: `${API}?since=3` },
    afterReload: { url: `${API}?since=0` },
    stored: { strategy: 'yao', turnId: 'turn-old', protocol: 'yao', count: 3, url: API, since: 3 } as ResumeHandle,
  },
  {
    strategy: 'vocion', protocol: 'vocion', resumeUrl: VOCION_RESUME,
    partial: [
      { data: { type: 'stream_meta', streamId: 'stream-1' } },
      { data: { type: 'answering' } },
      { data: { type: 'response_delta', delta: 'Hel' } },
    ],
    afterDrop: { url: `${VOCION_RESUME}?id=stream-1&after=2` },
    afterReload: { url: `${VOCION_RESUME}?id=stream-1&after=0` },
    stored: { strategy: 'vocion', turnId: 'turn-old', protocol: 'vocion', count: 2, streamId: 'stream-1' } as ResumeHandle,
  },
]

/** The two ways a host gives headers: an object, and a function read for each request (a token that changes). */
const headerStyles = [
  { name: 'headers as an object', make: () => ({ headers: { authorization: 'Bearer abc', 'x-tenant': 'acme' }, tokens: ['Bearer abc', 'Bearer abc'] }) },
  {
    name: 'headers as a function',
    make: () => {
      let n = 0
      return { headers: () => ({ authorization: `Bearer t${++n}`, 'x-tenant': 'acme' }), tokens: ['Bearer t1', 'Bearer t2'] }
    },
  },
] as const

/** A request as the fake fetch saw it, every field of its `RequestInit` kept, headers as a plain object. */
function seen(call: Call): Record<string, unknown> {
  const { headers, ...rest } = call.init
  return { url: call.url, ...rest, headers: Object.fromEntries(new Headers(headers).entries()) }
}

function resumeOptions(c: Case, storage = memoryStorage()): NonNullable<AgentClientOptions['resume']> {
  return {
    strategy: c.strategy, conversationKey: 'chat-1', storage,
    ...(c.resumeUrl ? { resumeUrl: c.resumeUrl } : {}),
    backoff: { sleep: async () => true, random: () => 0 },
  }
}

describe.each(cases)('the $strategy resume request', (c) => {
  describe.each(headerStyles)('$name', (style) => {
    it('after a dropped connection: a GET with the host\'s credentials and headers', async () => {
      const { headers, tokens } = style.make()
      const { fetch, calls } = fakeFetch(() => (calls.length === 1 ? sse(c.partial) : new Response(null, { status: 204 })))
      const store = createAgentStore()
      const client = new AgentClient(store, {
        url: API, protocol: c.protocol, conversationId: 'chat-1', credentials: 'include', headers, fetch, resume: resumeOptions(c),
      })
      await client.send('Hi')
      expect(calls).toHaveLength(2)
      expect(seen(calls[0]!)).toStrictEqual({
        url: API, method: 'POST', signal: expect.any(AbortSignal), credentials: 'include', body: expect.any(String),
        headers: { accept: 'text/event-stream', authorization: tokens[0], 'content-type': 'application/json', 'x-tenant': 'acme' },
      })
      expect(seen(calls[1]!)).toStrictEqual({
        url: c.afterDrop.url, method: 'GET', signal: expect.any(AbortSignal), credentials: 'include',
        headers: {
          accept: 'text/event-stream', authorization: tokens[1], 'x-tenant': 'acme',
          ...(c.afterDrop.lastEventId !== undefined ? { 'last-event-id': c.afterDrop.lastEventId } : {}),
        },
      })
      // The 204 said nothing more comes: the run is over, with no further reconnect.
      expect(client.busy).toBe(false)
      expect(store.getState().turns[store.getState().turnIds[1]!]!.status).not.toBe('streaming')
    })

    it('after a reload: attach() asks from the start with the host\'s credentials and headers', async () => {
      const { headers, tokens } = style.make()
      const storage = memoryStorage()
      writeHandle(storage, 'chat-1', c.stored)
      const { fetch, calls } = fakeFetch(() => new Response(null, { status: 204 }))
      const client = new AgentClient(createAgentStore(), {
        url: API, protocol: c.protocol, conversationId: 'chat-1', credentials: 'include', headers, fetch, resume: resumeOptions(c, storage),
      })
      expect(await client.attach()).toBe(true)
      expect(calls.map(seen)).toStrictEqual([{
        url: c.afterReload.url, method: 'GET', signal: expect.any(AbortSignal), credentials: 'include',
        headers: { accept: 'text/event-stream', authorization: tokens[0], 'x-tenant': 'acme' },
      }])
    })
  })

  it('without credentials or headers given, the resume GET carries none of its own', async () => {
    const { fetch, calls } = fakeFetch(() => (calls.length === 1 ? sse(c.partial) : new Response(null, { status: 204 })))
    const client = new AgentClient(createAgentStore(), { url: API, protocol: c.protocol, conversationId: 'chat-1', fetch, resume: resumeOptions(c) })
    await client.send('Hi')
    expect(seen(calls[1]!)).toStrictEqual({
      url: c.afterDrop.url, method: 'GET', signal: expect.any(AbortSignal),
      headers: { accept: 'text/event-stream', ...(c.afterDrop.lastEventId !== undefined ? { 'last-event-id': c.afterDrop.lastEventId } : {}) },
    })
  })
})
