/**
 * `mockFetch` records what a client sent; `recordStream` turns a live stream from
 * a real loopback server into a fixture that replays to the same state and holds no secrets.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AgentClient, createAgentStore, syncScheduler, type AgentClientOptions } from 'weft/core'
import { builtInProtocols } from 'weft/protocols'
import { fixtures, getFixture, mockFetch, recordStream, streamResponse, toFixture, type AgentFixture } from 'weft/testing'
import { scenarios } from '../../mock/scenarios/index'
import { buildFixtures, buildIndex, FIXTURE_DIR } from '../../scripts/fixtures'
import { startServer, type TestServer } from '../helpers/server'
import { content, runClient } from './support'
import type { AgentState } from 'weft/core'
import { messageRecord, toMessageTable } from '../../src/core/model/message-table'
import { toTraceTable, traceRecord } from '../../src/core/model/trace-table'

/** The state as it was after the n-th send: its first n user and assistant turns. */
function snapshotTurn(state: AgentState, n: number): AgentState {
  const keep = new Set(state.turnIds.slice(0, n * 2))
  const messages = Object.fromEntries(Object.entries(messageRecord(state.messages)).filter(([, m]) => keep.has(m.turnId)))
  const scoped = <T extends object>(record: Record<string, T>) => Object.fromEntries(Object.entries(record).filter(([id]) => [...keep].some((t) => id.startsWith(t))))
  return { ...state, turnIds: [...keep], turns: Object.fromEntries([...keep].map((id) => [id, state.turns[id]!])), messages: toMessageTable(messages), blocks: scoped(state.blocks), threads: scoped(state.threads), trace: toTraceTable(scoped(traceRecord(state.trace))) }
}

describe('mockFetch', () => {
  it('answers by method and URL and records the request a send made', async () => {
    const fetch = mockFetch({ 'POST /api/agent': fixtures.vocion.plain! })
    const state = await runClient({ url: '/api/agent', protocol: 'vocion', fetch, headers: { 'x-tenant': 'acme' }, body: (input) => ({ q: input, mode: 'fast' }) }, 'Hello')
    expect(state.status).toBe('done')
    expect(fetch.calls).toHaveLength(1)
    const call = fetch.lastCall!
    expect(call.method).toBe('POST')
    expect(new URL(call.url).pathname).toBe('/api/agent')
    expect(call.headers['x-tenant']).toBe('acme')
    expect(call.json()).toEqual({ q: 'Hello', mode: 'fast' })
  })

  it('an unmatched request gets a 404 the client reports, and is listed', async () => {
    const fetch = mockFetch({ 'POST /api/agent': fixtures.vocion.plain! })
    const state = await runClient({ url: '/api/other', fetch }, 'Hi')
    expect(state.status).toBe('error')
    expect(state.error?.status).toBe(404)
    expect(fetch.unmatched.map((c) => new URL(c.url).pathname)).toEqual(['/api/other'])
  })

  it('a list of answers is served in order, the last one repeating', async () => {
    const fetch = mockFetch({ '/api/agent': [fixtures.vocion.plain!, fixtures.vocion['error-mid-stream']!] })
    const store = createAgentStore()
    const client = new AgentClient(store, { protocols: builtInProtocols, url: '/api/agent', protocol: 'vocion', fetch, scheduler: syncScheduler, body: (input) => ({ input }) })
    await client.send('one')
    expect(store.getState().status).toBe('done')
    await client.send('two')
    expect(store.getState().status).toBe('error')
    await client.send('three')
    expect(store.getState().status).toBe('error')
    expect(fetch.calls.map((c) => c.json<{ input: string }>().input)).toEqual(['one', 'two', 'three'])
  })

  it('records what answer and regenerate sent: the AI SDK chat requests of an approval and of a regenerate, exactly', async () => {
    const ui = (events: unknown[]) => toFixture(events, 'ui-message')
    const text = (id: string, delta: string) => [{ type: 'text-start', id }, { type: 'text-delta', id, delta }, { type: 'text-end', id }]
    const fetch = mockFetch({
      'POST /api/chat': [
        ui([
          { type: 'start', messageId: 'msg-1' }, { type: 'start-step' },
          { type: 'tool-input-available', toolCallId: 'call-1', toolName: 'deleteFile', input: { path: '/q3.pdf' } },
          { type: 'tool-approval-request', toolCallId: 'call-1', approvalId: 'approval-1' },
          { type: 'finish-step' }, { type: 'finish' },
        ]),
        ui([{ type: 'start', messageId: 'msg-1' }, { type: 'start-step' }, { type: 'tool-output-available', toolCallId: 'call-1', output: { deleted: true } }, ...text('t1', 'Deleted.'), { type: 'finish-step' }, { type: 'finish' }]),
        ui([{ type: 'start', messageId: 'msg-2' }, { type: 'start-step' }, ...text('t2', 'Deleted, again.'), { type: 'finish-step' }, { type: 'finish' }]),
      ],
    })
    const store = createAgentStore()
    const client = new AgentClient(store, { protocols: builtInProtocols, url: '/api/chat', protocol: 'ui-message', conversationId: 'chat-1', fetch, scheduler: syncScheduler })
    await client.send('Delete the Q3 report')
    const gate = Object.values(store.getState().gates)[0]!
    expect(gate.status).toBe('pending')
    expect(await client.answer(gate.id, { approved: true, reason: 'cleanup' })).toEqual({ ok: true })
    const answered = store.getState()
    const assistant = answered.turnIds.find((id) => answered.turns[id]!.role === 'assistant')!
    expect(await client.regenerate(assistant)).toEqual({ ok: true })

    expect(fetch.calls.map((c) => `${c.method} ${new URL(c.url).pathname} ${c.headers['content-type']}`)).toEqual(Array(3).fill('POST /api/chat application/json'))
    expect(fetch.unmatched).toEqual([])
    const userId = fetch.calls[0]!.json<{ messages: Array<{ id: string }> }>().messages[0]!.id
    expect(userId).toMatch(/^user-/)
    const question = { id: userId, role: 'user', parts: [{ type: 'text', text: 'Delete the Q3 report' }] }
    expect(fetch.calls[0]!.json()).toEqual({ id: 'chat-1', messages: [question], trigger: 'submit-message' })
    // The approval goes back on the tool part it answers, and the request names the answer it continues.
    expect(fetch.calls[1]!.json()).toEqual({
      id: 'chat-1',
      messages: [
        question,
        {
          id: 'msg-1', role: 'assistant',
          parts: [
            { type: 'step-start' },
            { type: 'tool-deleteFile', toolCallId: 'call-1', state: 'approval-responded', input: { path: '/q3.pdf' }, approval: { id: 'approval-1', approved: true, reason: 'cleanup' } },
          ],
        },
      ],
      trigger: 'submit-message',
      messageId: 'msg-1',
    })
    // A regenerate sends the conversation up to the question and names the answer it replaces.
    expect(fetch.calls[2]!.json()).toEqual({ id: 'chat-1', messages: [question], trigger: 'regenerate-message', messageId: 'msg-1' })
  })

  it('routes match wildcards, regular expressions and functions of the request', async () => {
    const fetch = mockFetch([
      { method: 'GET', url: /\/runs\/\w+\/events$/, answer: fixtures['ag-ui'].plain! },
      { url: '/threads/*/messages', answer: (request) => new Response(JSON.stringify({ path: new URL(request.url).pathname }), { headers: { 'content-type': 'application/json' } }) },
    ])
    const events = await fetch('https://agent.test/runs/r1/events')
    expect(events.headers.get('content-type')).toContain('text/event-stream')
    const json = await (await fetch('/threads/t-9/messages', { method: 'POST', body: '{}' })).json()
    expect(json).toEqual({ path: '/threads/t-9/messages' })
    expect((await fetch('/runs/r1/events', { method: 'POST' })).status).toBe(404)
  })
})

describe('recordStream', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startServer()
    server.server.on('request', () => {})
  })
  afterAll(() => server.close())

  const live = (protocol: string, name: string, query = '') => `${server.url}/mock/stream/${protocol}/${name}${query}`

  it.each(scenarios.map((s) => [`${s.protocol}/${s.name}`, s.protocol, s.name] as const))(
    '%s: record a live run, replay it, get the same state',
    async (_label, protocol, name) => {
      const recorder = recordStream({ url: live(protocol, name, '?chunk=random&seed=5'), protocol: protocol as AgentClientOptions['protocol'] })
      const liveState = await runClient(recorder.options, 'Go')
      const fixture = recorder.last()!
      expect(fixture.frames.length).toBeGreaterThan(0)
      // What a host would check in: plain JSON.
      const copied = JSON.parse(JSON.stringify(fixture)) as AgentFixture
      const replayed = await runClient({ url: '/replay', protocol: copied.protocol, fetch: mockFetch({ '/replay': copied }) }, 'Go')
      expect(content(replayed)).toEqual(content(liveState))
    },
  )

  it('records through a client it is given, and stop() puts the client’s fetch back', async () => {
    const store = createAgentStore()
    const client = new AgentClient(store, { protocols: builtInProtocols, url: live('yao', 'concurrent-threads', '?chunk=random&seed=2'), scheduler: syncScheduler })
    const recorder = recordStream(client, { name: 'threads' })
    await client.send('Brief me')
    recorder.stop()
    await client.send('Again')
    expect(recorder.recordings).toHaveLength(1)
    const fixture = recorder.last()!
    expect(fixture).toMatchObject({ name: 'threads', protocol: 'yao' })
    const replayed = await runClient({ url: '/r', fetch: mockFetch({ '/r': fixture }) }, 'Brief me')
    const live1 = snapshotTurn(store.getState(), 1)
    expect(content(replayed)).toEqual(content(live1))
  })

  it('detects the protocol when the client did not name it, and keeps the frame ids and event names', async () => {
    const recorder = recordStream({ url: live('ag-ui', 'run') })
    await runClient(recorder.options)
    const fixture = recorder.last()!
    expect(fixture.protocol).toBe('ag-ui')
    expect(fixture.frames[0]).toMatchObject({ id: 'run_1:0001', event: 'RUN_STARTED' })
  })

  it('records a dropped connection as such, and the replay drops too', async () => {
    const recorder = recordStream({ url: live('vocion', 'answer', '?cut=6'), protocol: 'vocion' })
    const liveState = await runClient(recorder.options)
    const fixture = recorder.last()!
    expect(fixture.end).toBe('drop')
    expect(fixture.frames.filter((f) => f.comment === undefined)).toHaveLength(6)
    const replayed = await runClient({ url: '/r', protocol: 'vocion', fetch: mockFetch({ '/r': fixture }) })
    expect(replayed.error?.type).toBe('network')
    expect(content(replayed)).toEqual(content(liveState))
  })

  it('records the wait before each frame, which a recorded pace replays', async () => {
    const recorder = recordStream({ url: live('vocion', 'plain', '?delay=25'), protocol: 'vocion' })
    await runClient(recorder.options)
    const fixture = recorder.last()!
    expect(fixture.frames.some((f) => (f.delayMs ?? 0) > 0)).toBe(true)
    const replayed = await runClient({ url: '/r', protocol: 'vocion', fetch: async () => streamResponse(fixture, { pace: 'recorded' }) })
    expect(replayed.status).toBe('done')
  })

  it('never records secrets from headers, cookies or the query string', async () => {
    const secret = 'sk-live-9f8e7d6c5b4a'
    const secretServer = await startServer({
      routes: [{
        method: 'POST', path: '/secret/stream',
        handler: ({ res }) => {
          res.writeHead(200, {
            'content-type': 'text/event-stream', 'set-cookie': `session=${secret}; HttpOnly`, 'x-api-key': secret,
            'x-session-token': secret, 'x-vercel-ai-ui-message-stream': 'v1', 'x-request-id': 'req-1',
          })
          res.end(fixtures['ui-message'].plain!.frames.map((f) => `data: ${typeof f.data === 'string' ? f.data : JSON.stringify(f.data)}\n\n`).join(''))
        },
      }],
    })
    try {
      const recorder = recordStream({
        url: `http://user:${secret}@${secretServer.url.slice('http://'.length)}/secret/stream?api_key=${secret}&access_token=${secret}&lang=en`,
        headers: { authorization: `Bearer ${secret}`, cookie: `sid=${secret}`, 'x-api-key': secret },
        keepHeaders: ['x-api-key', 'set-cookie', 'x-request-id'],
      })
      const state = await runClient({ ...recorder.options, url: `${secretServer.url}/secret/stream?api_key=${secret}&access_token=${secret}&lang=en` })
      expect(state.status).toBe('done')
      // The server did receive the credentials: the recorder passed them on, it only left them out of the fixture.
      expect(secretServer.requests[0]!.headers.authorization).toBe(`Bearer ${secret}`)
      const fixture = recorder.last()!
      const saved = JSON.stringify(recorder.recordings)
      expect(saved).not.toContain(secret)
      expect(saved).not.toContain('Bearer')
      expect(fixture.headers).toEqual({ 'x-vercel-ai-ui-message-stream': 'v1', 'x-request-id': 'req-1' })
      expect(fixture.request?.url).toBe(`${secretServer.url}/secret/stream?lang=en`)
      expect(fixture.protocol).toBe('ui-message')
    } finally {
      await secretServer.close()
    }
  })
})

describe('fixtures', () => {
  it('are the mock server’s scenarios, and the files are up to date (npx tsx scripts/fixtures.ts)', () => {
    const built = buildFixtures()
    for (const [key, text] of built) expect(readFileSync(join(FIXTURE_DIR, `${key}.json`), 'utf8'), key).toBe(text)
    expect(readFileSync(join(FIXTURE_DIR, 'index.ts'), 'utf8')).toBe(buildIndex([...built.keys()]))
    for (const s of scenarios) expect(getFixture(s.protocol as AgentFixture['protocol'], s.name).frames).toEqual(s.frames)
  })

  it('an unknown fixture names the ones there are', () => {
    expect(() => getFixture('yao', 'nope')).toThrow(/yao has: .*simple-text/)
    expect(() => getFixture('yao', '__proto__')).toThrow(/no fixture/)
  })
})
