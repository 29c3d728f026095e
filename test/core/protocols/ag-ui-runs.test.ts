import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { RunAgentInputSchema } from '@ag-ui/core/schemas'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { encodeFrame } from '../../../mock/scenario'
import { AgUiHistory } from '../../../src/protocols/ag-ui/history'
import { agUiRunsSource, type AgUiRunAccepted } from '../../../src/protocols/ag-ui/runs'
import { syncScheduler } from '../../../src/core/store/batcher'
import { AgentClient } from '../../helpers/built-in-client'
import { agUiInputMessageId } from '../../../src/protocols/ag-ui/index'
import type { AgentState } from '../../../src/core/model/model'
import { createAgentStore, type AgentStore } from '../../../src/core/store/store'
import { messageIn, messageList, messageRecord } from '../../../src/core/model/message-table'
import { STREAM_TRUNCATED } from '../../../src/core/model/errors'
import { traceRecord } from '../../../src/core/model/trace-table'

// ------------------------------------------------------------------ the back end of the document, on loopback

type Ev = Record<string, unknown>

interface Seen {
  method: string
  path: string
  headers: IncomingMessage['headers']
  body: string
}

const seen: Seen[] = []
let server: Server
let base = ''
/** What `POST /runs` answers next: a status and a body (or nothing). */
let runsAnswer: { status: number; body?: unknown } = { status: 202 }
/** Extra events streamed after the replay, per run. */
let liveEvents: (posted: Ev) => Ev[] = () => []
let lastPosted: Ev = {}
let historyFailures = 0
const schemaErrors: string[] = []

const HISTORY_TODAY = {
  scope: 'history_day', threadId: 'thread_1', day: '2026-03-16', hasMore: true,
  // Out of order on purpose: the kit sorts by seq.
  messages: [
    {
      id: 'tool_msg_0', seq: 3, role: 'tool', runId: 'run_0', toolCallId: 'call_0', content: 'Created todo 7', result: 'Created todo 7',
      tool_call_args: { title: 'Call mom' },
      ui_schema: {
        type: 'card',
        actions: [
          { type: 'navigation', label: 'Edit', path: '/todo/7/edit', params: { from: 'history' } },
          { type: 'navigation', label: 'Broken', path: '/todo/:id' },
        ],
      },
      metadata: { tool_agent_output: { id: 7, title: 'Call mom' } },
    },
    { id: 'user_0', seq: 1, role: 'user', runId: 'run_0', content: 'Remind me to call mom' },
    { id: 'asst_0', seq: 2, role: 'assistant', runId: 'run_0', content: 'Adding it.', toolCalls: [{ id: 'call_0', type: 'function', function: { name: 'todo.create', arguments: '{"title":"Call mom"}' } }] },
    { id: 'asst_0b', seq: 4, role: 'assistant', runId: 'run_0', content: 'Done: "Call mom" is on your list.' },
  ],
}
const HISTORY_BEFORE = {
  scope: 'history_day', threadId: 'thread_1', day: '2026-03-15', hasMore: false,
  messages: [
    { id: 'user_old', seq: 1, role: 'user', content: 'Hello' },
    { id: 'asst_old', seq: 2, role: 'assistant', run_id: 'run_old', content: 'Hi! How can I help?' },
  ],
}

/** The events endpoint first replays run_0, which history already holds, then streams the new run. */
function replayOfRun0(): Ev[] {
  return [
    { type: 'RUN_STARTED', threadId: 'thread_1', runId: 'run_0' },
    { type: 'TEXT_MESSAGE_START', messageId: 'asst_0', role: 'assistant' },
    { type: 'TEXT_MESSAGE_END', messageId: 'asst_0', content: 'Adding it.' },
    { type: 'TOOL_CALL_START', toolCallId: 'call_0', toolCallName: 'todo.create', parentMessageId: 'asst_0' },
    { type: 'TOOL_CALL_ARGS', toolCallId: 'call_0', delta: '{"title":"Call mom"}' },
    { type: 'TOOL_CALL_END', toolCallId: 'call_0' },
    { type: 'TOOL_CALL_RESULT', messageId: 'tool_msg_0', toolCallId: 'call_0', content: 'Created todo 7', ui_schema: HISTORY_TODAY.messages[0]!.ui_schema },
    { type: 'TEXT_MESSAGE_START', messageId: 'asst_0b', role: 'assistant' },
    { type: 'TEXT_MESSAGE_END', messageId: 'asst_0b', content: 'Done: "Call mom" is on your list.' },
    { type: 'RUN_FINISHED', threadId: 'thread_1', runId: 'run_0' },
  ]
}

function newRun(posted: Ev): Ev[] {
  return [
    { type: 'RUN_STARTED', threadId: 'thread_1', runId: 'run_1' },
    // The server echoes the conversation it received, the kit's own user message included.
    { type: 'MESSAGES_SNAPSHOT', messages: posted.messages },
    { type: 'STEP_STARTED', stepName: 'act' },
    { type: 'TEXT_MESSAGE_START', messageId: 'asst_1', role: 'assistant' },
    { type: 'TEXT_MESSAGE_END', messageId: 'asst_1', content: 'Adding milk.' },
    { type: 'TOOL_CALL_START', toolCallId: 'call_1', toolCallName: 'todo.create', parentMessageId: 'asst_1' },
    { type: 'TOOL_CALL_START', toolCallId: 'call_2', toolCallName: 'calendar.search', parentMessageId: 'asst_1' },
    { type: 'TOOL_CALL_ARGS', toolCallId: 'call_1', delta: '{"title":' },
    { type: 'TOOL_CALL_ARGS', toolCallId: 'call_2', delta: '{"day":"today"}' },
    { type: 'TOOL_CALL_ARGS', toolCallId: 'call_1', delta: '"Buy milk"}' },
    { type: 'TOOL_CALL_END', toolCallId: 'call_2' },
    { type: 'TOOL_CALL_END', toolCallId: 'call_1' },
    { type: 'TOOL_CALL_RESULT', messageId: 'tool_msg_1', toolCallId: 'call_1', content: 'Created todo 8', ui_schema: { type: 'card', actions: [{ type: 'navigation', label: 'Open', path: '/todo/8' }] } },
    { type: 'TOOL_CALL_RESULT', messageId: 'tool_msg_2', toolCallId: 'call_2', content: '[]' },
    { type: 'STATE_SNAPSHOT', snapshot: { todos: [7] } },
    { type: 'STATE_DELTA', delta: [{ op: 'add', path: '/todos/-', value: 8 }] },
    { type: 'STEP_FINISHED', stepName: 'act' },
    { type: 'TEXT_MESSAGE_START', messageId: 'asst_1b', role: 'assistant' },
    { type: 'TEXT_MESSAGE_END', messageId: 'asst_1b', content: 'Milk is on your list.' },
    { type: 'RUN_FINISHED', threadId: 'thread_1', runId: 'run_1' },
  ]
}

/** When set, the events endpoint keeps the connection open after its last event, as a thread's event stream may. */
let keepOpen = false

function sse(res: ServerResponse, events: Ev[]): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
  const text = events.map((data, i) => encodeFrame({ id: `stream-1:${i + 1}`, event: String(data.type), data })).join('')
  if (keepOpen) res.write(text)
  else res.end(text)
}

function json(res: ServerResponse, status: number, body?: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' })
  res.end(body === undefined ? '' : JSON.stringify(body))
}

function handle(req: IncomingMessage, res: ServerResponse, body: string): void {
  const url = new URL(req.url ?? '/', 'http://local')
  seen.push({ method: req.method ?? 'GET', path: url.pathname + url.search, headers: req.headers, body })
  if (req.method === 'POST' && url.pathname === '/api/v1/agent/runs') {
    lastPosted = JSON.parse(body) as Ev
    // Every body must be a RunAgentInput by AG-UI's own schema.
    const checked = RunAgentInputSchema.safeParse(lastPosted)
    if (!checked.success) schemaErrors.push(checked.error.message)
    json(res, runsAnswer.status, runsAnswer.body)
    return
  }
  const events = /^\/api\/v1\/agent\/runs\/([^/]+)\/events$/.exec(url.pathname)
  if (req.method === 'GET' && events) {
    sse(res, [...replayOfRun0(), ...liveEvents(lastPosted)])
    return
  }
  if (req.method === 'GET' && url.pathname === '/api/v1/agent/history') {
    if (historyFailures > 0) {
      historyFailures -= 1
      json(res, 503, { error: { message: 'history is warming up' } })
      return
    }
    const before = url.searchParams.get('before')
    if (before === null) json(res, 200, HISTORY_TODAY)
    else if (before === '2026-03-16') json(res, 200, HISTORY_BEFORE)
    else json(res, 400, { message: `no history before ${before}` })
    return
  }
  json(res, 404, { message: 'not found' })
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => handle(req, res, Buffer.concat(chunks).toString('utf8')))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterEach(() => {
  // Whatever a test sent to /runs was a RunAgentInput by AG-UI's own schema.
  expect(schemaErrors).toEqual([])
})

afterAll(async () => {
  server.closeAllConnections()
  await new Promise<void>((resolve) => server.close(() => resolve()))
})

beforeEach(() => {
  seen.length = 0
  schemaErrors.length = 0
  runsAnswer = { status: 202, body: { taskId: 'task_1', threadId: 'thread_1', runId: 'run_1', created: true } }
  liveEvents = newRun
  historyFailures = 0
  keepOpen = false
})

// ------------------------------------------------------------------ helpers

const historyUrl = () => `${base}/api/v1/agent/history`
const source = (extra: Partial<Parameters<typeof agUiRunsSource>[0]> = {}) => agUiRunsSource({
  runsUrl: `${base}/api/v1/agent/runs`,
  eventsUrl: (threadId) => `${base}/api/v1/agent/runs/${encodeURIComponent(threadId)}/events`,
  historyUrl: historyUrl(),
  ...extra,
})
const clientFor = (store: AgentStore, runs = source()) => new AgentClient(store, { protocol: 'ag-ui', source: runs, scheduler: syncScheduler })
const contents = (s: AgentState, turnId: string) => s.turns[turnId]!.messageIds.map((id) => messageIn(s.messages, id)!.props.content ?? messageIn(s.messages, id)!.type)
const lastTurn = (s: AgentState) => s.turns[s.turnIds.at(-1)!]!

// ------------------------------------------------------------------ tests

describe('AG-UI history, then runs and events, on a real server', () => {
  it('ends the turn at the live run\'s RUN_FINISHED even when the events stream stays open, not at a replayed run\'s', async () => {
    keepOpen = true
    const store = createAgentStore()
    const client = new AgentClient(store, { protocol: 'ag-ui', source: source(), scheduler: syncScheduler, idleTimeoutMs: 60_000 })
    await client.send('Is milk on my list?')
    const state = store.getState()
    expect(state.status).toBe('done')
    const turn = lastTurn(state)
    expect(turn.status).toBe('done')
    expect(turn.runId).toBe('run_1')
    expect(messageList(state.messages).some((m) => m.props.content === 'Milk is on your list.')).toBe(true)
  })

  it('pages history by day, then streams a new run without repeating the replayed one', async () => {
    const store = createAgentStore()
    const history = new AgUiHistory(store, { historyUrl: historyUrl() })

    await history.loadOlder()
    let s = store.getState()
    expect(s.turnIds).toEqual(['ag-ui-user:user_0', 'ag-ui-run:run_0'])
    expect(contents(s, 'ag-ui-run:run_0')).toEqual(['Adding it.', 'tool', 'Done: "Call mom" is on your list.'])
    expect(s.turns['ag-ui-run:run_0']).toMatchObject({ runId: 'run_0', threadId: 'thread_1', status: 'done', protocol: 'ag-ui' })
    expect(messageIn(s.messages, 'call_0')).toMatchObject({
      type: 'tool',
      props: {
        toolCallId: 'call_0', name: 'todo.create', input: { title: 'Call mom' }, output: 'Created todo 7', state: 'output-available',
        uiSchema: { type: 'card' }, actions: [{ type: 'navigation', label: 'Edit', path: '/todo/7/edit', params: { from: 'history' } }],
        metadata: { tool_agent_output: { id: 7, title: 'Call mom' } },
      },
    })
    expect(s.turns['ag-ui-run:run_0']!.problems.map((p) => p.code)).toEqual(['history'])
    expect(history.status).toMatchObject({ hasMore: true, loading: false, day: '2026-03-16', pages: 1 })

    await history.loadOlder()
    s = store.getState()
    expect(s.turnIds).toEqual(['ag-ui-user:user_old', 'ag-ui-run:run_old', 'ag-ui-user:user_0', 'ag-ui-run:run_0'])
    expect(history.status).toMatchObject({ hasMore: false, day: '2026-03-15', pages: 2 })
    expect(seen.map((r) => r.path)).toEqual(['/api/v1/agent/history', '/api/v1/agent/history?before=2026-03-16'])
    await history.loadOlder()
    expect(seen).toHaveLength(2)

    const accepted: AgUiRunAccepted[] = []
    const client = clientFor(store, source({ headers: { authorization: 'Bearer token' }, forwardedProps: { locale: 'zh-CN' }, onAccepted: (a) => accepted.push(a) }))
    await client.send('Add milk to my list')
    s = store.getState()

    // The requests: POST /runs with the RunAgentInput, then GET the thread's events.
    const [post, get] = seen.slice(2)
    expect(post).toMatchObject({ method: 'POST', path: '/api/v1/agent/runs' })
    expect(post!.headers['content-type']).toBe('application/json')
    expect(post!.headers.authorization).toBe('Bearer token')
    const live = lastTurn(s)
    const posted = JSON.parse(post!.body) as Ev
    // AG-UI's request builder made it: the whole active path (history included), the new question last.
    const question = s.turnIds.at(-2)!
    expect(posted).toEqual({
      threadId: expect.any(String), runId: expect.any(String),
      messages: [
        { id: 'user_old', role: 'user', content: 'Hello' },
        { id: 'asst_old', role: 'assistant', content: 'Hi! How can I help?' },
        { id: 'user_0', role: 'user', content: 'Remind me to call mom' },
        { id: 'asst_0', role: 'assistant', content: 'Adding it.', toolCalls: [{ id: 'call_0', type: 'function', function: { name: 'todo.create', arguments: '{"title":"Call mom"}' } }] },
        // The stored result's metadata goes back with it, as @ag-ui/client sends the messages it holds.
        { id: 'tool_msg_0', role: 'tool', toolCallId: 'call_0', content: 'Created todo 7', metadata: { tool_agent_output: { id: 7, title: 'Call mom' } } },
        { id: 'asst_0b', role: 'assistant', content: 'Done: "Call mom" is on your list.' },
        { id: s.turns[question]!.messageIds[0], role: 'user', content: 'Add milk to my list' },
      ],
      tools: [], context: [], state: {}, forwardedProps: { locale: 'zh-CN' },
    })
    expect(schemaErrors).toEqual([])
    expect(get).toMatchObject({ method: 'GET', path: '/api/v1/agent/runs/thread_1/events' })
    expect(get!.headers.authorization).toBe('Bearer token')
    expect(accepted).toEqual([{ taskId: 'task_1', threadId: 'thread_1', runId: 'run_1', created: true }])

    // The live turn: this run only, with the 202's ids and task.
    expect(live).toMatchObject({ role: 'assistant', status: 'done', runId: 'run_1', threadId: 'thread_1', protocol: 'ag-ui', metadata: { taskId: 'task_1', created: true } })
    expect(contents(s, live.id)).toEqual(['Adding milk.', 'tool', 'tool', 'Milk is on your list.'])
    expect(messageIn(s.messages, 'call_1')!.props).toMatchObject({ input: { title: 'Buy milk' }, output: 'Created todo 8', actions: [{ type: 'navigation', label: 'Open', path: '/todo/8', params: {} }] })
    expect(messageIn(s.messages, 'call_2')!.props).toMatchObject({ input: { day: 'today' }, output: [], state: 'output-available' })
    expect(s.agentState).toEqual({ todos: [7, 8] })
    expect(s.status).toBe('done')

    // The replayed run_0 added nothing: every message once, where history put it, unchanged.
    expect(s.turnIds).toHaveLength(6)
    // Nor did it add timeline rows or a run id to the live turn.
    expect(live.runId).toBe('run_1')
    const rows = Object.values(traceRecord(s.trace)).filter((n) => n.turnId === live.id)
    expect(rows.map((n) => n.tool).filter(Boolean).sort()).toEqual(['calendar.search', 'todo.create'])
    expect(rows.some((n) => JSON.stringify(n.args ?? {}).includes('Call mom'))).toBe(false)
    expect(contents(s, 'ag-ui-run:run_0')).toEqual(['Adding it.', 'tool', 'Done: "Call mom" is on your list.'])
    expect(messageIn(s.messages, 'call_0')!.props).toMatchObject({ output: 'Created todo 7', state: 'output-available', actions: [{ path: '/todo/7/edit' }] })
    expect(messageIn(s.messages, 'call_0')!.turnId).toBe('ag-ui-run:run_0')
    // The echo of the user message is not a second bubble.
    // In the transcript's order: the older day's page was loaded second but sits first.
    const inOrder = s.turnIds.flatMap((t) => s.turns[t]!.messageIds).map((id) => messageIn(s.messages, id)!)
    const users = inOrder.filter((m) => m.role === 'user').map((m) => m.props.content)
    expect(users).toEqual(['Hello', 'Remind me to call mom', 'Add milk to my list'])
    expect(messageList(s.messages).filter((m) => m.role === 'user')).toHaveLength(3)
    expect(Object.keys(messageRecord(s.messages))).toHaveLength(11)
  })

  it('a second send continues the thread the server named', async () => {
    const store = createAgentStore()
    const runs = source()
    const client = clientFor(store, runs)
    await client.send('first')
    expect(runs.threadId).toBe('thread_1')
    const firstPost = JSON.parse(seen[0]!.body) as Ev
    expect(firstPost.threadId).not.toBe('thread_1')
    await client.send({ text: 'second', state: { mode: 'x' }, forwardedProps: { a: 1 } })
    const second = JSON.parse(seen[2]!.body) as Ev
    expect(second).toMatchObject({ threadId: 'thread_1', state: { mode: 'x' }, forwardedProps: { a: 1 } })
  })

  it('buildInput shapes the body; an empty 202 keeps the ids the request sent', async () => {
    runsAnswer = { status: 202 }
    liveEvents = () => []
    const store = createAgentStore()
    const client = clientFor(store, source({
      threadId: 'mine',
      buildInput: (defaults, { input }) => ({ ...defaults, runId: 'run_custom', context: [{ description: 'input', value: JSON.stringify(input) }] }),
    }))
    await client.send('hi')
    const body = JSON.parse(seen[0]!.body) as Ev
    expect(body).toMatchObject({ threadId: 'mine', runId: 'run_custom', context: [{ description: 'input', value: '"hi"' }] })
    expect(seen[1]!.path).toBe('/api/v1/agent/runs/mine/events')
    // This stream only replayed run_0: that earlier run's ids and status do not overwrite the live turn's.
    const live = lastTurn(store.getState())
    expect(live.threadId).toBe('mine')
    expect(live.runId).toBe('run_custom')
    expect(live.metadata.taskId).toBeUndefined()
    // The run the request named never finished on this stream: the answer is cut off, not done.
    expect(live.status).toBe('aborted')
    expect(live.problems.map((p) => p.code)).toContain(STREAM_TRUNCATED)
  })

  it('a refused run is a typed error on the turn and no events are requested', async () => {
    runsAnswer = { status: 429, body: { error: { message: 'too many runs', code: 'busy' } } }
    const store = createAgentStore()
    await clientFor(store).send('hi')
    const s = store.getState()
    expect(s.status).toBe('error')
    expect(lastTurn(s).error).toMatchObject({ type: 'rate_limit', status: 429, code: 'busy' })
    expect(seen.map((r) => r.method)).toEqual(['POST'])
  })

  it('a failed history page is reported on the status and retried by the next call', async () => {
    historyFailures = 1
    const store = createAgentStore()
    const history = new AgUiHistory(store, { historyUrl: historyUrl() })
    const statuses: boolean[] = []
    history.subscribe(() => statuses.push(history.status.loading))
    await history.loadFirst()
    expect(history.status.error).toMatchObject({ type: 'internal', status: 503 })
    expect(history.status.pages).toBe(0)
    await history.loadFirst()
    expect(history.status.error).toBeUndefined()
    expect(history.status.pages).toBe(1)
    // Once loaded, loadFirst does nothing more.
    await history.loadFirst()
    expect(seen).toHaveLength(2)
    expect(statuses).toEqual([true, false, true, false])
  })

  it('loads a page once when asked twice at the same time', async () => {
    const store = createAgentStore()
    const history = new AgUiHistory(store, { historyUrl: historyUrl() })
    await Promise.all([history.loadFirst(), history.loadFirst(), history.loadOlder()])
    expect(seen).toHaveLength(1)
    expect(store.getState().turnIds).toHaveLength(2)
  })

  it('the body is AG-UI\'s RunAgentInput from the request builder: the path, the client\'s tools, the host\'s body last', async () => {
    liveEvents = (posted) => [
      { type: 'RUN_STARTED', threadId: 'thread_1', runId: 'run_1' },
      { type: 'TEXT_MESSAGE_START', messageId: `said_${(posted.messages as unknown[]).length}`, role: 'assistant' },
      { type: 'TEXT_MESSAGE_END', messageId: `said_${(posted.messages as unknown[]).length}`, content: 'Noted.' },
      { type: 'RUN_FINISHED', threadId: 'thread_1', runId: 'run_1' },
    ]
    const store = createAgentStore()
    const built: unknown[] = []
    const client = new AgentClient(store, {
      protocol: 'ag-ui', scheduler: syncScheduler,
      source: source({ tools: [{ name: 'server.side', description: 'declared by the source', parameters: {} }], context: [{ description: 'tz', value: 'UTC' }] }),
      tools: { pickDate: { description: 'Pick a date', parameters: { type: 'object' }, execute: () => '2026-12-01' } },
      body: (_input, { built: value, trigger }) => {
        built.push(value)
        return { ...(value as Ev), forwardedProps: { trigger } }
      },
    })
    await client.send('first')
    await client.send('second')
    const posts = seen.filter((r) => r.method === 'POST').map((r) => JSON.parse(r.body) as Ev)
    expect(posts).toHaveLength(2)
    const s = store.getState()
    const [q1, a1, q2] = s.turnIds
    expect(posts[1]).toEqual({
      threadId: 'thread_1', runId: expect.any(String),
      messages: [
        { id: s.turns[q1!]!.messageIds[0], role: 'user', content: 'first' },
        // The events stream replays the thread's earlier run first; with no history loaded it is part of this answer.
        { id: 'asst_0', role: 'assistant', content: 'Adding it.', toolCalls: [{ id: 'call_0', type: 'function', function: { name: 'todo.create', arguments: '{"title":"Call mom"}' } }] },
        { id: 'tool_msg_0', role: 'tool', toolCallId: 'call_0', content: 'Created todo 7' },
        { id: 'asst_0b', role: 'assistant', content: 'Done: "Call mom" is on your list.' },
        { id: 'said_1', role: 'assistant', content: 'Noted.' },
        { id: s.turns[q2!]!.messageIds[0], role: 'user', content: 'second' },
      ],
      tools: [
        { name: 'pickDate', description: 'Pick a date', parameters: { type: 'object' } },
        { name: 'server.side', description: 'declared by the source', parameters: {} },
      ],
      context: [{ description: 'tz', value: 'UTC' }],
      state: {},
      forwardedProps: { trigger: 'submit' },
    })
    expect(s.turns[a1!]!.runId).toBe('run_1')
    // The host's body function was handed the built value, the source's fields in it.
    expect(built[1]).toMatchObject({ threadId: 'thread_1', context: [{ description: 'tz', value: 'UTC' }], forwardedProps: {} })
    expect(posts[0]!.runId).not.toBe(posts[1]!.runId)
  })

  it('send({ content }) sends AG-UI content parts as the user message', async () => {
    liveEvents = () => []
    const store = createAgentStore()
    await clientFor(store).send({ text: 'look', content: [{ type: 'text', text: 'look' }, { type: 'image', source: { type: 'url', value: 'https://example.com/a.png' } }] })
    const posted = JSON.parse(seen[0]!.body) as Ev
    expect(posted.messages).toEqual([{
      id: store.getState().turns[store.getState().turnIds[0]!]!.messageIds[0],
      role: 'user', content: [{ type: 'text', text: 'look' }, { type: 'image', source: { type: 'url', value: 'https://example.com/a.png' } }],
    }])
  })

  it('an interrupt answered through the runs source is resumed in the next RunAgentInput', async () => {
    liveEvents = (posted) => (posted.resume
      ? [
        { type: 'RUN_STARTED', threadId: 'thread_1', runId: 'run_1' },
        { type: 'TEXT_MESSAGE_START', messageId: 'sent', role: 'assistant' },
        { type: 'TEXT_MESSAGE_END', messageId: 'sent', content: 'Sent.' },
        { type: 'RUN_FINISHED', threadId: 'thread_1', runId: 'run_1' },
      ]
      : [
        { type: 'RUN_STARTED', threadId: 'thread_1', runId: 'run_1' },
        { type: 'RUN_FINISHED', threadId: 'thread_1', runId: 'run_1', outcome: { type: 'interrupt', interrupts: [{ id: 'int_7', reason: 'confirmation', message: 'Send it?' }] } },
      ])
    const store = createAgentStore()
    const client = clientFor(store)
    await client.send('send the mail')
    const gate = Object.values(store.getState().gates)[0]!
    expect(gate).toMatchObject({ id: 'int_7', status: 'pending' })
    expect(await client.answer(gate.id, { approved: true, reason: 'fine' })).toEqual({ ok: true })
    const posts = seen.filter((r) => r.method === 'POST').map((r) => JSON.parse(r.body) as Ev)
    expect(posts).toHaveLength(2)
    expect(posts[1]!.resume).toEqual([{ interruptId: 'int_7', status: 'resolved', payload: { approved: true, reason: 'fine' } }])
    expect(posts[1]!.threadId).toBe('thread_1')
    const s = store.getState()
    expect(s.gates.int_7!.status).toBe('approved')
    expect(contents(s, s.turnIds[1]!)).toContain('Sent.')
  })
})
