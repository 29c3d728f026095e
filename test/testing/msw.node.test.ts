/**
 * The MSW handlers under `setupServer`: the client's real `fetch` is intercepted,
 * and what it folds is what the fixture folds to.
 */
import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { AgentClient, builtInProtocols, createAgentStore, memoryStorage, syncScheduler } from 'weft'
import { fixtures } from 'weft/testing'
import { agentHandlers, fixtureHandlers, type AgentReplyContext } from 'weft/testing/msw'
import type { AgentClientOptions, AgentState } from 'weft/core'
import { content, referenceFold, runClient } from './support'
import { messageIn, messageList } from '../../src/core/model/message-table'

const server = setupServer(...fixtureHandlers({ prefix: 'http://agent.test/mock' }))
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterEach(() => server.resetHandlers())
afterAll(() => server.close())

describe('agentHandlers', () => {
  it('streams a shipped scenario to a client that uses the global fetch', async () => {
    server.use(...agentHandlers({ url: 'http://agent.test/api/chat', protocol: 'ui-message', scenario: 'reasoning', chunking: 'random', seed: 9 }))
    const state = await runClient({ url: 'http://agent.test/api/chat', protocol: 'ui-message' })
    expect(state.status).toBe('done')
    expect(content(state)).toEqual(content(referenceFold(fixtures['ui-message'].reasoning!), 'turn-1'))
  })

  it('streams bare events, a host fixture, a cut and an error status', async () => {
    server.use(...agentHandlers({ url: 'http://agent.test/a', protocol: 'vocion', events: [{ type: 'response_delta', delta: 'Hi' }, { type: 'done' }] }))
    const events = await runClient({ url: 'http://agent.test/a' })
    expect(messageList(events.messages).map((m) => m.props.content)).toEqual(['Hi'])

    server.use(...agentHandlers({ url: 'http://agent.test/b', scenario: fixtures.yao['simple-text']!, cutAt: 1 }))
    const cut = await runClient({ url: 'http://agent.test/b' })
    expect(cut.error?.type).toBe('network')

    server.use(...agentHandlers({ url: 'http://agent.test/c', scenario: 'plain', status: 429 }))
    const limited = await runClient({ url: 'http://agent.test/c' })
    expect(limited.error?.status).toBe(429)
  })

  it.each([
    { protocol: 'vocion' as const, strategy: 'vocion', resumeUrl: 'http://agent.test/api/resume' },
    { protocol: 'yao' as const, strategy: 'yao', resumeUrl: 'http://agent.test/api/resume' },
    { protocol: 'ui-message' as const, strategy: 'ai-sdk' },
    { protocol: 'ag-ui' as const, strategy: 'sse' },
  ])('a $protocol stream cut at frame 9 on the host’s endpoint resumes ($strategy)', async ({ protocol, strategy, resumeUrl }) => {
    server.use(...agentHandlers({ url: 'http://agent.test/api/chat', protocol, scenario: 'long-answer', cutAt: 9, chunking: 'random', seed: 8, resumeUrl }))
    const state = await runClient({
      url: 'http://agent.test/api/chat',
      protocol,
      resume: { strategy, resumeUrl, conversationKey: `host-${protocol}`, storage: memoryStorage(), backoff: { baseMs: 1, maxMs: 5 } },
    })
    expect(state.status).toBe('done')
    expect(content(state)).toEqual(content(referenceFold(fixtures[protocol]['long-answer']!), 'turn-1'))
    expect(Object.values(state.turns).flatMap((turn) => turn.problems)).toEqual([])
  })

  it('an unknown scenario name fails when the handlers are made, naming the choices', () => {
    expect(() => agentHandlers({ url: '/x', protocol: 'ag-ui', scenario: 'nope' })).toThrow(/ag-ui has: .*interrupt/)
  })
})

describe('agentHandlers with a reply', () => {
  const text = (id: string, words: string[]) => [{ type: 'text-start', id }, ...words.map((delta) => ({ type: 'text-delta', id, delta })), { type: 'text-end', id }]
  const assistantTexts = (state: AgentState) =>
    state.turnIds.filter((id) => state.turns[id]!.role === 'assistant').map((id) =>
      state.turns[id]!.messageIds.map((m) => messageIn(state.messages, m)!).filter((m) => m.type === 'text').map((m) => String(m.props.content)).join(''))

  it('answers a gate’s answer with its continuation: each reply is built from the body the client sent', async () => {
    const seen: Array<{ call: number; trigger: unknown; lastRole: unknown; lastState: unknown }> = []
    server.use(...agentHandlers({
      url: 'http://agent.test/api/loop', protocol: 'ui-message', chunking: 'random', seed: 4,
      reply: ({ body, call }: AgentReplyContext) => {
        const { trigger, messages } = body as { trigger: string; messages: Array<{ role: string; parts: Array<{ type: string; state?: string }> }> }
        const last = messages.at(-1)!
        const tool = last.parts.find((p) => p.type === 'tool-deleteFile')
        seen.push({ call, trigger, lastRole: last.role, lastState: tool?.state })
        if (tool?.state === 'approval-responded') {
          return [{ type: 'start', messageId: 'msg-1' }, { type: 'tool-output-available', toolCallId: 'call-1', output: { deleted: true } }, ...text('t2', ['Done: ', 'deleted.']), { type: 'finish' }]
        }
        return [
          { type: 'start', messageId: 'msg-1' },
          { type: 'tool-input-available', toolCallId: 'call-1', toolName: 'deleteFile', input: { path: '/q3.pdf' } },
          { type: 'tool-approval-request', toolCallId: 'call-1', approvalId: 'approval-1' },
          { type: 'finish' },
        ]
      },
    }))
    const store = createAgentStore()
    const client = new AgentClient(store, { protocols: builtInProtocols, url: 'http://agent.test/api/loop', protocol: 'ui-message', scheduler: syncScheduler })
    await client.send('delete the report')
    const gate = Object.values(store.getState().gates)[0]!
    expect(gate.status).toBe('pending')
    expect(await client.answer(gate.id, { approved: true })).toEqual({ ok: true })
    const state = store.getState()
    expect(state.status).toBe('done')
    expect(state.gates[gate.id]!.status).toBe('approved')
    expect(assistantTexts(state)).toEqual(['Done: deleted.'])
    expect(seen).toEqual([
      { call: 1, trigger: 'submit-message', lastRole: 'user', lastState: undefined },
      { call: 2, trigger: 'submit-message', lastRole: 'assistant', lastState: 'approval-responded' },
    ])
  })

  it('frames bare events for the protocol, passes a Response through, and leaves the request to the next handler when it returns nothing', async () => {
    server.use(
      ...agentHandlers({
        url: 'http://agent.test/api/r', protocol: 'ui-message',
        reply: ({ call }) => (call === 1 ? undefined : call === 2 ? new Response('teapot', { status: 418 }) : [{ type: 'start' }, ...text('t', ['Hi']), { type: 'finish' }]),
      }),
      http.post('http://agent.test/api/r', () => HttpResponse.json({ from: 'the next handler' }, { status: 409 })),
    )
    expect((await fetch('http://agent.test/api/r', { method: 'POST', body: '{}' })).status).toBe(409)
    expect(await (await fetch('http://agent.test/api/r', { method: 'POST', body: '{}' })).text()).toBe('teapot')
    const third = await fetch('http://agent.test/api/r', { method: 'POST', body: 'not json' })
    expect(third.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1')
    expect((await third.text()).endsWith('data: {"type":"finish"}\n\ndata: [DONE]\n\n')).toBe(true)
  })

  it('gives the reply the URL pattern’s parameters, and undefined for a body that is not JSON', async () => {
    const got: Array<Pick<AgentReplyContext, 'body' | 'params'>> = []
    server.use(...agentHandlers({
      url: 'http://agent.test/api/chats/:chatId', protocol: 'vocion',
      reply: ({ body, params }) => {
        got.push({ body, params })
        return [{ type: 'response_delta', delta: 'ok' }, { type: 'done' }]
      },
    }))
    await fetch('http://agent.test/api/chats/c-7', { method: 'POST', body: 'plain words' }).then((r) => r.text())
    await fetch('http://agent.test/api/chats/c-8', { method: 'POST', body: '{"q":1}' }).then((r) => r.text())
    expect(got).toEqual([{ body: undefined, params: { chatId: 'c-7' } }, { body: { q: 1 }, params: { chatId: 'c-8' } }])
  })
})

describe('fixtureHandlers', () => {
  it('resumes a cut Vocion stream through its resume route, ending in the uninterrupted fold', async () => {
    const state = await runClient({
      url: 'http://agent.test/mock/stream/vocion/answer?cut=7',
      protocol: 'vocion',
      resume: { strategy: 'vocion', conversationKey: 'msw-resume', resumeUrl: 'http://agent.test/mock/resume/vocion/answer', storage: memoryStorage(), backoff: { baseMs: 1, maxMs: 5 } },
    })
    expect(state.status).toBe('done')
    expect(content(state)).toEqual(content(referenceFold(fixtures.vocion.answer!), 'turn-1'))
    expect((await fetch('http://agent.test/mock/resume/vocion/answer?id=other')).status).toBe(404)
  })

  /** The long answer's text: each protocol's long-answer fixture streams it in word-sized deltas. */
  const LONG_TEXT = (fixtures.vocion['long-answer']!.frames.at(-1)!.data as { response: string }).response
  const assistantText = (state: AgentState) =>
    messageList(state.messages).filter((m) => m.role === 'assistant' && m.type === 'text').map((m) => String(m.props.content)).join('')
  const base = 'http://agent.test/mock'
  const cases: Array<{ protocol: 'vocion' | 'yao' | 'ui-message' | 'ag-ui'; resume: Omit<NonNullable<AgentClientOptions['resume']>, 'conversationKey' | 'storage'>; reconnect: (request: Request) => string }> = [
    { protocol: 'vocion', resume: { strategy: 'vocion', resumeUrl: `${base}/resume/vocion/long-answer` }, reconnect: (r) => `GET ${new URL(r.url).pathname}?after=${new URL(r.url).searchParams.get('after')}` },
    { protocol: 'yao', resume: { strategy: 'yao', resumeUrl: `${base}/resume/yao/long-answer` }, reconnect: (r) => `GET ${new URL(r.url).pathname}?since=${new URL(r.url).searchParams.get('since')}` },
    { protocol: 'ui-message', resume: { strategy: 'ai-sdk' }, reconnect: (r) => `GET ${new URL(r.url).pathname}` },
    { protocol: 'ag-ui', resume: { strategy: 'sse' }, reconnect: (r) => `GET ${new URL(r.url).pathname} Last-Event-ID: ${r.headers.get('last-event-id')}` },
  ]
  /** The reconnect asks for what came after a point inside the 9 frames received (the client may sit a frame behind). */
  const reconnects: Record<string, RegExp> = {
    vocion: /^GET \/mock\/resume\/vocion\/long-answer\?after=[1-8]$/,
    yao: /^GET \/mock\/resume\/yao\/long-answer\?since=[1-9]$/,
    'ui-message': /^GET \/mock\/stream\/ui-message\/long-answer\/resume-ui-message\/stream$/,
    'ag-ui': /^GET \/mock\/stream\/ag-ui\/long-answer Last-Event-ID: run_long:000[1-9]$/,
  }

  it.each(cases)('a $protocol stream cut at frame 9 resumes through its route: the exact long answer, nothing twice', async ({ protocol, resume, reconnect }) => {
    const requests: Request[] = []
    const record = ({ request }: { request: Request }) => void requests.push(request.clone())
    server.events.on('request:start', record)
    try {
      const state = await runClient({
        url: `${base}/stream/${protocol}/long-answer?cut=9&chunk=random&seed=5`,
        protocol,
        resume: { ...resume, conversationKey: `resume-${protocol}`, storage: memoryStorage(), backoff: { baseMs: 1, maxMs: 5 } },
      })
      expect(state.status).toBe('done')
      expect(assistantText(state)).toBe(LONG_TEXT)
      expect(assistantText(state).split('Paragraph 1:').length - 1).toBe(1)
      expect(assistantText(state).split('Paragraph 40:').length - 1).toBe(1)
      expect(Object.values(state.turns).flatMap((turn) => turn.problems)).toEqual([])
      expect(content(state)).toEqual(content(referenceFold(fixtures[protocol]['long-answer']!), 'turn-1'))
      expect(requests.map((r) => r.method)).toEqual(['POST', 'GET'])
      expect(reconnect(requests[1]!)).toMatch(reconnects[protocol]!)
    } finally {
      server.events.removeListener('request:start', record)
    }
  })

  it('the resume routes refuse what they cannot resume: an unknown id, an unknown event id, a chat that never started', async () => {
    expect((await fetch(`${base}/resume/vocion/answer?id=other`)).status).toBe(404)
    expect((await fetch(`${base}/stream/ag-ui/long-answer`, { headers: { 'last-event-id': 'run_other:0001' } })).status).toBe(404)
    expect((await fetch(`${base}/stream/ui-message/long-answer/never-started/stream`)).status).toBe(204)
    const last = fixtures['ag-ui'].plain!.frames.at(-1)!.id!
    expect((await fetch(`${base}/stream/ag-ui/plain`, { headers: { 'last-event-id': last } })).status).toBe(204)
    // A stream that ran to its end has nothing to resume.
    await runClient({ url: `${base}/stream/ui-message/plain`, protocol: 'ui-message', conversationId: 'finished-chat' })
    expect((await fetch(`${base}/stream/ui-message/plain/finished-chat/stream`)).status).toBe(204)
    const yao = await (await fetch(`${base}/resume/yao/long-answer?since=${fixtures.yao['long-answer']!.frames.length}`)).text()
    expect(yao).toBe('event: read_complete\ndata: {"last_seq":' + fixtures.yao['long-answer']!.frames.length + ',"live":false}\n\n')
  })

  it('lists every fixture and streams each by URL with the mock server’s query options', async () => {
    const list = (await (await fetch('http://agent.test/mock/scenarios')).json()) as Array<{ protocol: string; name: string; url: string }>
    expect(list.length).toBe(Object.values(fixtures).reduce((n, byName) => n + Object.keys(byName).length, 0))
    const state = await runClient({ url: 'http://agent.test/mock/stream/vocion/answer?chunk=random&seed=3&crlf=1', protocol: 'vocion' })
    expect(content(state)).toEqual(content(referenceFold(fixtures.vocion.answer!), 'turn-1'))
    const cut = await runClient({ url: 'http://agent.test/mock/stream/vocion/answer?cut=4' })
    expect(cut.error?.type).toBe('network')
    expect((await fetch('http://agent.test/mock/stream/vocion/nope')).status).toBe(404)
    expect((await fetch('http://agent.test/mock/stream/vocion/plain?status=503', { method: 'POST' })).status).toBe(503)
  })
})
