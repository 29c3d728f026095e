/**
 * `STATE_DELTA` and `ACTIVITY_DELTA` patches that name something other than the
 * state's own JSON data (`/constructor`, `/toString`, `/__proto__`, an array's
 * `length`, any inherited member) are refused whole, with a `protocol` problem
 * on the turn: only JSON data reaches the store, which stays structured-cloneable.
 * Through `foldStream` and through the live client over a loopback AG-UI server.
 */
import { EventType, type BaseEvent } from '@ag-ui/core'
import { RunAgentInputSchema } from '@ag-ui/core/schemas'
import { EventEncoder } from '@ag-ui/encoder'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AgentClient } from '../../helpers/built-in-client'
import { foldStream } from '../../../src/umbrella/defaults'
import { messageList } from '../../../src/core/model/message-table'
import type { AgentState } from '../../../src/core/model/model'
import { createAgentStore } from '../../../src/core/store/store'
import { isJsonData } from '../../../src/core/util/json-data'
import { startWebServer, type WebServer } from '../../helpers/web-server'

type Ev = Record<string, unknown>

const RS: Ev = { type: 'RUN_STARTED', threadId: 'th', runId: 'r1' }
const RF: Ev = { type: 'RUN_FINISHED', threadId: 'th', runId: 'r1' }
const STATE = { a: { x: 1 }, list: [{ n: 1 }, 2], s: 'text' }
const snapshot: Ev = { type: 'STATE_SNAPSHOT', snapshot: STATE }
const delta = (...ops: unknown[]): Ev => ({ type: 'STATE_DELTA', delta: ops })

/** Members a plain object or array answers to without having them as data. */
const INHERITED = ['constructor', 'toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf', 'toLocaleString', '__proto__', '__defineGetter__', 'length', 'prototype']
const fold = (events: Ev[]) => foldStream([RS, ...events, RF], { protocol: 'ag-ui' })
const problems = (s: AgentState) => s.turns['turn-1']!.problems

function expectJsonState(s: AgentState): void {
  expect(() => structuredClone(s.agentState)).not.toThrow()
  expect(isJsonData(s.agentState)).toBe(true)
  expect(() => structuredClone(messageList(s.messages).map((m) => m.props))).not.toThrow()
}

describe('STATE_DELTA through foldStream', () => {
  it.each([
    ['/constructor'], ['/toString'], ['/__proto__'], ['/hasOwnProperty'], ['/a/constructor'], ['/a/valueOf'],
    ['/list/length'], ['/list/0/toString'], ['/s/length'], ['/list/constructor'],
  ])('copy and move from %s are refused whole: the state stays as it was, with a protocol problem', (from) => {
    for (const op of ['copy', 'move']) {
      // A valid operation first: refusing the patch must undo it too.
      const s = fold([snapshot, delta({ op: 'replace', path: '/s', value: 'changed' }, { op, from, path: '/stolen' })])
      expect(s.agentState).toEqual(STATE)
      expect(problems(s)).toEqual([expect.objectContaining({ type: 'protocol', code: 'agentState.patch', message: expect.stringContaining(`"${from}"`) })])
      expectJsonState(s)
    }
  })

  it.each([
    [{ op: 'replace', path: '/toString', value: 1 }],
    [{ op: 'remove', path: '/constructor' }],
    [{ op: 'remove', path: '/valueOf' }],
    [{ op: 'add', path: '/toString/x', value: 1 }],
    [{ op: 'add', path: '/constructor/prototype/x', value: 1 }],
    [{ op: 'add', path: '/a/hasOwnProperty/x', value: 1 }],
    [{ op: 'add', path: '/list/length', value: 0 }],
    [{ op: 'replace', path: '/list/length', value: 0 }],
    [{ op: 'test', path: '/constructor', value: {} }],
    [{ op: 'copy', from: '/a', path: '/toString/x' }],
    [{ op: 'move', from: '/a', path: '/a/inside' }],
    [{ op: '_get', path: '/a' }],
  ])('a patch whose path names no own data is refused whole: %j', (operation) => {
    const s = fold([snapshot, delta({ op: 'add', path: '/first', value: true }, operation)])
    expect(s.agentState).toEqual(STATE)
    expect(problems(s)).toEqual([expect.objectContaining({ type: 'protocol', code: 'agentState.patch' })])
    expectJsonState(s)
    // Nothing reached a prototype on the way.
    expect((Object.prototype.toString as unknown as Ev).x).toBeUndefined()
    expect(({} as Ev).x).toBeUndefined()
  })

  it('the own data of the state patches as before, new keys that shadow a member included', () => {
    const s = fold([snapshot, delta(
      { op: 'copy', from: '/a', path: '/b' },
      { op: 'move', from: '/list/0', path: '/first' },
      { op: 'add', path: '/toString', value: 'a key like any other' },
      { op: 'add', path: '/list/-', value: 3 },
      { op: 'test', path: '/b/x', value: 1 },
    )])
    expect(problems(s)).toEqual([])
    expect(s.agentState).toEqual({ a: { x: 1 }, b: { x: 1 }, first: { n: 1 }, list: [2, 3], s: 'text', toString: 'a key like any other' })
    expectJsonState(s)
  })

  it('any patch from any pointer: the state is JSON data, and either patched as fast-json-patch would or left as it was with one problem', () => {
    const pointer = fc.oneof(
      fc.constantFrom('', '/a', '/a/x', '/list', '/list/0', '/list/1', '/list/-', '/s', '/new'),
      fc.tuple(fc.constantFrom('', '/a', '/list', '/list/0', '/s'), fc.constantFrom(...INHERITED)).map(([at, name]) => `${at}/${name}`),
    )
    const operation = fc.record({
      op: fc.constantFrom('add', 'remove', 'replace', 'move', 'copy', 'test'),
      path: pointer, from: pointer, value: fc.jsonValue({ maxDepth: 2 }),
    })
    fc.assert(fc.property(fc.array(operation, { minLength: 1, maxLength: 3 }), (patch) => {
      const s = fold([snapshot, delta(...patch)])
      expectJsonState(s)
      const found = problems(s)
      if (found.length > 0) {
        expect(found).toEqual([expect.objectContaining({ type: 'protocol', code: 'agentState.patch' })])
        expect(s.agentState).toEqual(STATE)
      }
    }), { numRuns: 300 })
  })
})

describe('ACTIVITY_DELTA through foldStream', () => {
  it.each([['/constructor'], ['/toString'], ['/__proto__'], ['/steps/length']])('copy from %s is refused and the content stays as it was', (from) => {
    const s = fold([
      { type: 'ACTIVITY_SNAPSHOT', messageId: 'act', activityType: 'plan', content: { steps: ['a'] } },
      { type: 'ACTIVITY_DELTA', messageId: 'act', patch: [{ op: 'add', path: '/steps/-', value: 'b' }, { op: 'copy', from, path: '/f' }] },
    ])
    const activity = messageList(s.messages).find((m) => m.type === 'activity')!
    expect(activity.props.content).toEqual({ steps: ['a'] })
    expect(problems(s)).toEqual([expect.objectContaining({ type: 'protocol', code: 'activity_delta' })])
    expectJsonState(s)
  })
})

describe('STATE_DELTA through the live client', () => {
  let server: WebServer
  let answer: BaseEvent[] = []

  beforeAll(async () => {
    server = await startWebServer(async (request) => {
      const parsed = RunAgentInputSchema.safeParse(await request.json())
      if (!parsed.success) return new Response(parsed.error.message, { status: 422 })
      const encoder = new EventEncoder()
      return new Response(answer.map((event) => encoder.encodeSSE(event)).join(''), { headers: { 'content-type': encoder.getContentType() } })
    })
  })
  afterAll(() => server.close())

  it('a patch copying /constructor is refused; the store keeps the state, which the next request sends', async () => {
    const store = createAgentStore()
    const client = new AgentClient(store, { url: `${server.url}/agent`, protocol: 'ag-ui', conversationId: 'thread-1' })
    answer = [
      { type: EventType.RUN_STARTED, threadId: 'thread-1', runId: 'run-1' } as BaseEvent,
      { type: EventType.STATE_SNAPSHOT, snapshot: { count: 1 } } as BaseEvent,
      { type: EventType.STATE_DELTA, delta: [{ op: 'replace', path: '/count', value: 2 }, { op: 'copy', from: '/constructor', path: '/ctor' }] } as BaseEvent,
      { type: EventType.STATE_DELTA, delta: [{ op: 'move', from: '/toString', path: '/fn' }] } as BaseEvent,
      { type: EventType.STATE_DELTA, delta: [{ op: 'add', path: '/count', value: 3 }] } as BaseEvent,
      { type: EventType.RUN_FINISHED, threadId: 'thread-1', runId: 'run-1' } as BaseEvent,
    ]
    await client.send('hi')
    const s = store.getState()
    expect(s.agentState).toEqual({ count: 3 })
    expectJsonState(s)
    const turn = s.turns[s.turnIds[1]!]!
    expect(turn.problems).toEqual([
      expect.objectContaining({ type: 'protocol', code: 'agentState.patch', message: expect.stringContaining('"/constructor"') }),
      expect.objectContaining({ type: 'protocol', code: 'agentState.patch', message: expect.stringContaining('"/toString"') }),
    ])
    expect(turn.status).toBe('done')

    answer = [
      { type: EventType.RUN_STARTED, threadId: 'thread-1', runId: 'run-2' } as BaseEvent,
      { type: EventType.RUN_FINISHED, threadId: 'thread-1', runId: 'run-2' } as BaseEvent,
    ]
    await client.send('again')
    expect((server.bodies.at(-1) as Ev).state).toEqual({ count: 3 })
  })
})

describe('a patch in a later answer', () => {
  it('applies to the state an earlier answer left, on the live client', async () => {
    const bodies = [
      [{ type: 'RUN_STARTED', threadId: 'th', runId: 'r1' }, { type: 'STATE_SNAPSHOT', snapshot: { n: 1, log: ['a'] } }, { type: 'RUN_FINISHED', threadId: 'th', runId: 'r1' }],
      [{ type: 'RUN_STARTED', threadId: 'th', runId: 'r2' }, { type: 'STATE_DELTA', delta: [{ op: 'replace', path: '/n', value: 2 }, { op: 'add', path: '/log/-', value: 'b' }] }, { type: 'RUN_FINISHED', threadId: 'th', runId: 'r2' }],
    ]
    const sse = (events: object[]) => events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('')
    const fetchBodies: typeof fetch = async () => new Response(sse(bodies.shift()!), { headers: { 'content-type': 'text/event-stream' } })
    const store = createAgentStore()
    const client = new AgentClient(store, { url: '/agent', protocol: 'ag-ui', fetch: fetchBodies, idleTimeoutMs: 0 })
    await client.send('first')
    expect(store.getState().agentState).toEqual({ n: 1, log: ['a'] })
    await client.send('second')
    expect(store.getState().agentState).toEqual({ n: 2, log: ['a', 'b'] })
    expect(store.getState().turns[store.getState().turnIds.at(-1)!]!.problems).toEqual([])
  })
})
