/**
 * `resume.historyUrl`: a stream cut mid-answer whose resume the server answers
 * 410 is rebuilt from the stored history the client fetches itself and reads
 * with the protocol's own history reader, over real loopback HTTP.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { syncScheduler } from '../../../src/core/store/batcher'
import { RESUME_EXPIRED, type ResumeOptions } from '../../../src/core/client'
import { AgentClient } from '../../helpers/built-in-client'
import type { AgentState, ProtocolName } from '../../../src/core/model/model'
import { memoryStorage, resumeStorageKey } from '../../../src/core/resume/storage'
import { createAgentStore } from '../../../src/core/store/store'
import { messageIn, messageList } from '../../../src/core/model/message-table'

const answer = 'The whole answer, as the server stored it.'

interface Case {
  /** The events sent before the connection drops, mid-answer. */
  events: unknown[]
  /** What the partial stream shows. */
  partial: string
  /** The conversation as the protocol's back end stores it. */
  history: unknown
}

const cases: Record<'ui-message' | 'yao' | 'vocion' | 'ag-ui', Case> = {
  'ui-message': {
    events: [
      { type: 'start', messageId: 'a1' },
      { type: 'start-step' },
      { type: 'text-start', id: 't1' },
      { type: 'text-delta', id: 't1', delta: 'The whole ' },
      { type: 'text-delta', id: 't1', delta: 'ans' },
    ],
    partial: 'The whole ans',
    history: [
      { id: 'q1', role: 'user', parts: [{ type: 'text', text: 'go' }] },
      { id: 'a1', role: 'assistant', parts: [{ type: 'step-start' }, { type: 'text', text: answer }] },
    ],
  },
  yao: {
    events: [
      { type: 'event', props: { event: 'stream_start', data: { request_id: 'R1' } } },
      { type: 'event', props: { event: 'message_start', data: { message_id: 'M1', type: 'text' } } },
      { type: 'text', message_id: 'M1', props: { content: 'The whole ' }, delta: true },
      { type: 'text', message_id: 'M1', props: { content: 'ans' }, delta: true },
    ],
    partial: 'The whole ans',
    history: [
      { message_id: 'U1', role: 'user', type: 'user_input', props: { content: 'go' }, sequence: 1 },
      { message_id: 'M1', role: 'assistant', request_id: 'R1', type: 'text', props: { content: answer }, sequence: 2 },
    ],
  },
  vocion: {
    events: [
      { type: 'stream_meta', streamId: 's1' },
      { type: 'answering' },
      { type: 'response_delta', delta: 'The whole ' },
      { type: 'response_delta', delta: 'ans' },
    ],
    partial: 'The whole ans',
    history: [
      { id: 'q1', role: 'user', content: 'go' },
      { id: 'a1', role: 'assistant', events: [{ type: 'response_delta', delta: answer }, { type: 'done', response: answer }] },
    ],
  },
  'ag-ui': {
    events: [
      { type: 'RUN_STARTED', threadId: 'th1', runId: 'r1' },
      { type: 'TEXT_MESSAGE_START', messageId: 'a1', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'a1', delta: 'The whole ' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'a1', delta: 'ans' },
    ],
    partial: 'The whole ans',
    history: { hasMore: false, messages: [{ id: 'q1', role: 'user', content: 'go' }, { id: 'a1', role: 'assistant', content: answer }] },
  },
}

interface Seen { method: string; path: string; headers: IncomingHttpHeaders }
let server: Server
let base = ''
let seen: Seen[] = []

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = req.url ?? ''
    seen.push({ method: req.method ?? 'GET', path, headers: req.headers })
    const [, route, protocol = ''] = path.split('?')[0]!.split('/')
    const found = cases[protocol as keyof typeof cases]
    if (route === 'stream' && found) {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
      const text = found.events.map((event, i) => `id: ${i + 1}\ndata: ${JSON.stringify(event)}\n\n`).join('')
      // Every event goes out, then the connection drops mid-answer.
      res.write(text, () => res.socket?.destroy())
      return
    }
    if (route === 'resume') {
      res.writeHead(410, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'gone' }))
      return
    }
    if (route === 'history' && found) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(found.history))
      return
    }
    if (route === 'not-history') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ chat: 'not a message list' }))
      return
    }
    if (route === 'html-history') {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><p>Sign in</p>')
      return
    }
    if (route === 'broken-history') {
      res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'database down' }))
      return
    }
    res.writeHead(404).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((resolve) => {
  server.closeAllConnections()
  server.close(() => resolve())
}))

const textOf = (state: AgentState, turnId: string): string =>
  (state.turns[turnId]?.messageIds ?? []).map((id) => messageIn(state.messages, id)).filter((m) => m?.type === 'text').map((m) => String(m?.props.content)).join('')

const lastAssistant = (state: AgentState): string => {
  const id = [...state.turnIds].reverse().find((t) => state.turns[t]?.role === 'assistant')
  if (!id) throw new Error('no assistant turn')
  return id
}

let keys = 0
async function cutAndResume(protocol: ProtocolName, resume: Partial<ResumeOptions>) {
  const key = `chat ${++keys}`
  seen = []
  const store = createAgentStore()
  const storage = memoryStorage()
  const errors: unknown[] = []
  const client = new AgentClient(store, {
    url: `${base}/stream/${protocol}`,
    protocol,
    scheduler: syncScheduler,
    headers: () => ({ authorization: 'Bearer t0ken' }),
    onError: (error) => errors.push(error),
    resume: {
      strategy: 'sse', conversationKey: key, storage, resumeUrl: `${base}/resume/${protocol}`,
      maxRetries: 2, backoff: { baseMs: 1, maxMs: 2 }, ...resume,
    },
  })
  await client.send('go')
  return { store, state: store.getState(), key, storage, errors, paths: seen.map((s) => `${s.method} ${s.path.split('?')[0]}`) }
}

describe('resume.historyUrl rebuilds an expired stream from the protocol\'s stored history', () => {
  for (const [protocol, { partial }] of Object.entries(cases) as Array<[ProtocolName, Case]>) {
    it(`${protocol}: cut mid-answer, resume 410, the stored history is fetched and read; the store ends with the full answer`, async () => {
      const r = await cutAndResume(protocol, { historyUrl: (key) => `${base}/history/${protocol}/${encodeURIComponent(key)}` })
      expect(r.paths).toEqual([`POST /stream/${protocol}`, `GET /resume/${protocol}`, `GET /history/${protocol}/${encodeURIComponent(r.key)}`])
      const historyRequest = seen[2]!
      // The client's own headers go with the history request.
      expect(historyRequest.headers.authorization).toBe('Bearer t0ken')
      expect(r.state.status).toBe('done')
      expect(r.state.error).toBeUndefined()
      expect(r.errors).toEqual([])
      // History is the whole conversation: the partial turn is gone, the stored answer is there, once.
      expect(r.state.turnIds).toHaveLength(2)
      expect(r.state.turns[r.state.turnIds[0]!]?.role).toBe('user')
      expect(textOf(r.state, lastAssistant(r.state))).toBe(answer)
      expect(messageList(r.state.messages).some((m) => m.props.content === partial)).toBe(false)
      expect(r.storage.getItem(resumeStorageKey(r.key))).toBeNull()
    })
  }

  it('a plain string URL is fetched as it is', async () => {
    const r = await cutAndResume('yao', { historyUrl: `${base}/history/yao` })
    expect(r.paths.at(-1)).toBe('GET /history/yao')
    expect(r.state.status).toBe('done')
    expect(textOf(r.state, lastAssistant(r.state))).toBe(answer)
  })

  it('history answering 500: the run ends in a typed error, the partial answer is kept', async () => {
    const r = await cutAndResume('ui-message', { historyUrl: `${base}/broken-history` })
    expect(r.paths).toEqual(['POST /stream/ui-message', 'GET /resume/ui-message', 'GET /broken-history'])
    expect(r.state.status).toBe('error')
    expect(r.state.error).toMatchObject({ status: 500 })
    expect(r.state.error?.code).not.toBe(RESUME_EXPIRED)
    expect(r.errors).toHaveLength(1)
    const turn = lastAssistant(r.state)
    expect(textOf(r.state, turn)).toBe(cases['ui-message'].partial)
    expect(r.state.turns[turn]?.status).toBe('error')
  })

  it('a document the reader refuses: a typed protocol error, the partial answer is kept', async () => {
    const r = await cutAndResume('ui-message', { historyUrl: `${base}/not-history` })
    expect(r.paths.at(-1)).toBe('GET /not-history')
    expect(r.state.status).toBe('error')
    expect(r.state.error).toMatchObject({ type: 'protocol', code: 'history', retryable: false })
    expect(r.state.error?.message).toMatch(/^history could not be read: /)
    expect(r.state.error?.retryable).toBe(false)
    const turn = lastAssistant(r.state)
    expect(textOf(r.state, turn)).toBe(cases['ui-message'].partial)
    expect(r.state.turnIds).toHaveLength(2)
  })

  it('a body that is not JSON: a typed protocol error, the partial answer is kept', async () => {
    const r = await cutAndResume('vocion', { historyUrl: `${base}/html-history` })
    expect(r.paths.at(-1)).toBe('GET /html-history')
    expect(r.state.status).toBe('error')
    expect(r.state.error?.type).toBe('protocol')
    expect(textOf(r.state, lastAssistant(r.state))).toBe(cases.vocion.partial)
  })

  it('loadHistory, when given, takes precedence and the URL is never fetched', async () => {
    const r = await cutAndResume('yao', {
      historyUrl: `${base}/history/yao`,
      loadHistory: () => [{ turn: { id: 'h', role: 'assistant' }, messages: [{ id: 'h/text', type: 'text', props: { content: 'from the loader' } }] }],
    })
    expect(r.paths).toEqual(['POST /stream/yao', 'GET /resume/yao'])
    expect(r.state.status).toBe('done')
    expect(textOf(r.state, 'h')).toBe('from the loader')
  })

  it('without loadHistory or historyUrl, a 410 keeps the partial answer as an aborted turn with a resume_expired problem, and no error', async () => {
    const r = await cutAndResume('yao', {})
    expect(r.paths).toEqual(['POST /stream/yao', 'GET /resume/yao'])
    expect(r.state.status).toBe('aborted')
    expect(r.state.error).toBeUndefined()
    expect(r.errors).toEqual([])
    const turn = r.state.turns[lastAssistant(r.state)]!
    expect(turn.status).toBe('aborted')
    expect(turn.problems).toEqual([expect.objectContaining({ code: RESUME_EXPIRED, status: 410 })])
    expect(textOf(r.state, lastAssistant(r.state))).toBe(cases.yao.partial)
  })
})
