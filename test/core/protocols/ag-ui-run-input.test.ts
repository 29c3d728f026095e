/**
 * The whole `RunAgentInput` weft sends, pinned field by field: `threadId`, `runId`,
 * `state` (the store's current `agentState`), `messages`, `tools`, `context`,
 * `forwardedProps` and `resume`. Each body is checked with `@ag-ui/core`'s own
 * `RunAgentInputSchema` and compared whole, so dropping or changing any field
 * fails here. Through the live client over a loopback AG-UI server, with a plain
 * `url` and with the runs source.
 */
import { EventType, type BaseEvent } from '@ag-ui/core'
import { RunAgentInputSchema } from '@ag-ui/core/schemas'
import { EventEncoder } from '@ag-ui/encoder'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { AgentClient } from '../../helpers/built-in-client'
import type { AgentState } from '../../../src/core/model/model'
import { createAgentStore, type AgentStore } from '../../../src/core/store/store'
import { agUiRunsSource } from '../../../src/protocols/ag-ui/runs'
import { startWebServer, type WebServer } from '../../helpers/web-server'

/** Every id the kit makes, in order, so a test can name the run id a request was given. */
const ids = vi.hoisted(() => ({ issued: [] as string[] }))
vi.mock('../../../src/core/model/ids', () => ({
  newId: (prefix: string) => {
    const id = `${prefix}-${ids.issued.length + 1}`
    ids.issued.push(id)
    return id
  },
}))

type Ev = Record<string, unknown>

let server: WebServer
let store: AgentStore
/** The bodies received, after the schema accepted each one. */
const bodies: Ev[] = []
/** The run ids the kit had made when each body was received (the last is that request's). */
const runIdsAt: string[][] = []
/** What the server answers, one list of events per request. */
let answers: BaseEvent[][] = []

const sse = (events: BaseEvent[]) => {
  const encoder = new EventEncoder()
  return new Response(events.map((event) => encoder.encodeSSE(event)).join(''), { headers: { 'content-type': encoder.getContentType() } })
}

beforeAll(async () => {
  server = await startWebServer(async (request) => {
    const path = new URL(request.url).pathname
    if (request.method === 'GET' && path === '/runs/thread-9/events') return sse(answers.shift() ?? [])
    const body = await request.json() as Ev
    const parsed = RunAgentInputSchema.safeParse(body)
    if (!parsed.success) return new Response(parsed.error.message, { status: 422 })
    bodies.push(body)
    runIdsAt.push(ids.issued.filter((id) => id.startsWith('run-')))
    if (path === '/runs') return Response.json({ taskId: 'task-1', threadId: 'thread-9', runId: body.runId, created: false }, { status: 202 })
    return sse(answers.shift() ?? [])
  })
})
afterAll(() => server.close())
beforeEach(() => {
  store = createAgentStore()
  bodies.length = 0
  runIdsAt.length = 0
  answers = []
})

const ev = (type: EventType, fields: Ev = {}) => ({ type, ...fields }) as BaseEvent
const run = (runId: string, ...events: BaseEvent[]) => [ev(EventType.RUN_STARTED, { threadId: 'thread-1', runId }), ...events]
const finished = (runId: string, fields: Ev = {}) => ev(EventType.RUN_FINISHED, { threadId: 'thread-1', runId, ...fields })
/** The id of the user message of the `n`th user turn. */
const question = (s: AgentState, n: number) => s.turns[s.turnIds.filter((id) => s.turns[id]!.role === 'user')[n]!]!.messageIds[0]!
/** The run id the kit made for request `n`. */
const runIdOf = (n: number) => runIdsAt[n]!.at(-1)!

const getLocation = {
  description: 'The user\'s city',
  parameters: { type: 'object', properties: { precise: { type: 'boolean' } } },
  execute: async () => ({ city: 'Paris' }),
}

describe('RunAgentInput over a plain url', () => {
  it('each request carries the current agentState as state, with the whole path, tools, resume and the empty defaults', async () => {
    answers = [
      [
        ...run('r1',
          ev(EventType.STATE_SNAPSHOT, { snapshot: { visits: [1], city: null } }),
          ev(EventType.STATE_DELTA, { delta: [{ op: 'add', path: '/visits/-', value: 2 }] }),
          ev(EventType.TOOL_CALL_START, { toolCallId: 'call-1', toolCallName: 'getLocation', parentMessageId: 'a1' }),
          ev(EventType.TOOL_CALL_ARGS, { toolCallId: 'call-1', delta: '{"precise":true}' }),
          ev(EventType.TOOL_CALL_END, { toolCallId: 'call-1' })),
        finished('r1'),
      ],
      [
        ...run('r2',
          ev(EventType.STATE_DELTA, { delta: [{ op: 'replace', path: '/city', value: 'Paris' }] }),
          ev(EventType.TEXT_MESSAGE_START, { messageId: 'a2', role: 'assistant' }),
          ev(EventType.TEXT_MESSAGE_CONTENT, { messageId: 'a2', delta: 'You are in Paris.' }),
          ev(EventType.TEXT_MESSAGE_END, { messageId: 'a2' })),
        finished('r2', { outcome: { type: 'interrupt', interrupts: [{ id: 'int-1', reason: 'confirmation', message: 'Save it?' }] } }),
      ],
      [...run('r3', ev(EventType.STATE_SNAPSHOT, { snapshot: { saved: true } })), finished('r3')],
      [...run('r4'), finished('r4')],
    ]
    const client = new AgentClient(store, { url: `${server.url}/agent`, protocol: 'ag-ui', conversationId: 'thread-1', tools: { getLocation } })
    await client.send('where am I?')
    let s = store.getState()
    expect(s.error).toBeUndefined()
    const tools = [{ name: 'getLocation', description: 'The user\'s city', parameters: getLocation.parameters }]
    const asked = { id: question(s, 0), role: 'user', content: 'where am I?' }
    const called = { id: 'a1', role: 'assistant', toolCalls: [{ id: 'call-1', type: 'function', function: { name: 'getLocation', arguments: '{"precise":true}' } }] }
    const result = { id: 'call-1:result', role: 'tool', toolCallId: 'call-1', content: '{"city":"Paris"}' }

    // The first request: nothing in the state yet.
    expect(bodies[0]).toEqual({
      threadId: 'thread-1', runId: runIdOf(0), messages: [asked], tools, context: [], state: {}, forwardedProps: {},
    })
    // The frontend tool ran; its result goes back with the state the first run left.
    expect(bodies[1]).toEqual({
      threadId: 'thread-1', runId: runIdOf(1), messages: [asked, called, result], tools, context: [], state: { visits: [1, 2], city: null }, forwardedProps: {},
    })

    // Answering the interrupt resumes it, with the state the second run left.
    s = store.getState()
    expect(s.agentState).toEqual({ visits: [1, 2], city: 'Paris' })
    const gate = Object.values(s.gates)[0]!
    expect(await client.answer(gate.id, { approved: true })).toEqual({ ok: true })
    const answered = { id: 'a2', role: 'assistant', content: 'You are in Paris.' }
    expect(bodies[2]).toEqual({
      threadId: 'thread-1', runId: runIdOf(2), messages: [asked, called, result, answered], tools, context: [],
      state: { visits: [1, 2], city: 'Paris' }, forwardedProps: {},
      resume: [{ interruptId: 'int-1', status: 'resolved', payload: { approved: true } }],
    })

    // A new question sends the state as it is now, and no resume.
    s = store.getState()
    expect(s.agentState).toEqual({ saved: true })
    await client.send('thanks')
    s = store.getState()
    expect(bodies[3]).toEqual({
      threadId: 'thread-1', runId: runIdOf(3),
      messages: [asked, called, result, answered, { id: question(s, 1), role: 'user', content: 'thanks' }],
      tools, context: [], state: { saved: true }, forwardedProps: {},
    })
    // Every run id is the one the kit made for that request, and each is new.
    expect(new Set(bodies.map((b) => b.runId)).size).toBe(4)
  })

  it('the state sent is the store\'s own agentState, whatever a host set', async () => {
    answers = [[...run('r1'), finished('r1')]]
    store.getState().dispatch([{ op: 'agentState.set', value: { draft: { title: 'x', tags: ['a'] }, n: 0 } }])
    const client = new AgentClient(store, { url: `${server.url}/agent`, protocol: 'ag-ui', conversationId: 'thread-1' })
    await client.send('hi')
    expect(bodies[0]).toEqual({
      threadId: 'thread-1', runId: runIdOf(0), messages: [{ id: question(store.getState(), 0), role: 'user', content: 'hi' }],
      tools: [], context: [], state: { draft: { title: 'x', tags: ['a'] }, n: 0 }, forwardedProps: {},
    })
  })
})

describe('RunAgentInput through the runs source', () => {
  it('POST /runs carries the current agentState as state; the source\'s fields replace the defaults; a send\'s own win', async () => {
    answers = [
      [...run('r1', ev(EventType.STATE_SNAPSHOT, { snapshot: { step: 1 } }), ev(EventType.STATE_DELTA, { delta: [{ op: 'add', path: '/done', value: ['a'] }] })), finished('r1')],
      [...run('r2'), finished('r2')],
      [...run('r3'), finished('r3')],
    ]
    const source = agUiRunsSource({
      runsUrl: `${server.url}/runs`, eventsUrl: (threadId) => `${server.url}/runs/${threadId}/events`,
      threadId: 'thread-9', context: [{ description: 'page', value: '/todo' }], forwardedProps: { locale: 'fr' },
    })
    const client = new AgentClient(store, { protocol: 'ag-ui', source })
    await client.send('one')
    let s = store.getState()
    const first = { id: question(s, 0), role: 'user', content: 'one' }
    expect(bodies[0]).toEqual({
      threadId: 'thread-9', runId: runIdOf(0), messages: [first], tools: [],
      context: [{ description: 'page', value: '/todo' }], state: {}, forwardedProps: { locale: 'fr' },
    })
    expect(s.agentState).toEqual({ step: 1, done: ['a'] })

    await client.send('two')
    s = store.getState()
    const second = { id: question(s, 1), role: 'user', content: 'two' }
    expect(bodies[1]).toEqual({
      threadId: 'thread-9', runId: runIdOf(1), messages: [first, second], tools: [],
      context: [{ description: 'page', value: '/todo' }], state: { step: 1, done: ['a'] }, forwardedProps: { locale: 'fr' },
    })

    await client.send({ text: 'three', state: { override: true }, forwardedProps: { locale: 'de' }, context: [] })
    s = store.getState()
    expect(bodies[2]).toEqual({
      threadId: 'thread-9', runId: runIdOf(2), messages: [first, second, { id: question(s, 2), role: 'user', content: 'three' }], tools: [],
      context: [], state: { override: true }, forwardedProps: { locale: 'de' },
    })
  })
})
