/**
 * Picking a stream up again, compared whole: what `attach()` dispatches before
 * any byte arrives on a store that holds the turn but whose page lost its ledger
 * (the turn made active again, the cursor reset to the stored count), and what a `retry()` run carries over from the parked
 * one (the run id its request named, the last SSE id).
 */
import { describe, expect, it } from 'vitest'
import type { AgentClientOptions } from '../../../src/core/client/options'
import { messageIn } from '../../../src/core/model/message-table'
import type { AgentState } from '../../../src/core/model/model'
import type { HydratedTurn } from '../../../src/core/model/ops'
import { memoryStorage, resumeStorageKey } from '../../../src/core/resume/storage'
import type { ResumeStorage } from '../../../src/core/resume/types'
import { createAgentStore, type AgentStore } from '../../../src/core/store/store'
import { AgentClient } from '../../helpers/built-in-client'
import { ScriptedAgent } from '../../helpers/scripted-agent'

const URL = 'http://agent.invalid/api/chat'
const partial = [{ type: 'start', messageId: 'm1' }, { type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'partial' }]
const whole = [...partial, { type: 'text-delta', id: 't', delta: ' and the rest' }, { type: 'text-end', id: 't' }, { type: 'finish' }]
const textOf = (s: AgentState, turnId: string) =>
  s.turns[turnId]!.messageIds.map((id) => messageIn(s.messages, id)!).filter((m) => m.type === 'text').map((m) => String(m.props.content)).join('')

const options = (agent: ScriptedAgent, storage: ResumeStorage, extra: Partial<AgentClientOptions> = {}): AgentClientOptions => ({
  url: URL, protocol: 'ui-message', fetch: agent.fetch,
  resume: { conversationKey: 'a', storage, maxRetries: 1, backoff: { sleep: async () => true } },
  ...extra,
})

/** The store's turns as a page saved them, to hydrate a fresh store with. */
function saved(s: AgentState): HydratedTurn[] {
  return s.turnIds.map((id) => ({ turn: { ...s.turns[id]! }, messages: s.turns[id]!.messageIds.map((m) => ({ ...messageIn(s.messages, m)! })) }))
}

/** A page that sent `q`, read `frames`, lost the connection and could not reconnect: its turn waits, its handle stored. */
async function interrupted(agent: ScriptedAgent, storage: ResumeStorage, frames: readonly unknown[] = partial, extra: Partial<AgentClientOptions> = {}) {
  const first = createAgentStore()
  agent.next({ frames, then: 'drop' }, { status: 503 })
  await new AgentClient(first, options(agent, storage, extra)).send('q')
  const turnId = first.getState().turnIds[1]!
  expect(first.getState().turns[turnId]!.status).toBe('streaming')
  return { first, turnId }
}

/** The next page's store: the saved copy of `first`'s turns and cursor. */
function savedCopy(first: AgentStore) {
  const reloaded = createAgentStore()
  reloaded.getState().dispatch([{ op: 'hydrate', turns: saved(first.getState()), at: 'end' }, { op: 'cursor', cursor: { ...first.getState().cursor } }])
  return reloaded
}

describe('attach() to a turn the store holds, on a page that lost its ledger', () => {
  it('makes the turn active and resets the cursor to the stored count before any byte arrives', async () => {
    const agent = new ScriptedAgent()
    const storage = memoryStorage()
    const first = createAgentStore()
    agent.next({ frames: partial, then: 'drop' }, { status: 503 })
    await new AgentClient(first, options(agent, storage)).send('q')
    const turnId = first.getState().turnIds[1]!
    expect(first.getState().turns[turnId]!.status).toBe('streaming')

    const reloaded = createAgentStore()
    reloaded.getState().dispatch([
      { op: 'hydrate', turns: saved(first.getState()), at: 'end' },
      { op: 'cursor', cursor: { turnId: 'elsewhere', lastEventId: 'e9', streamId: 's1', sequence: 4 } },
    ])
    expect(reloaded.getState().activeTurnId).toBeUndefined()
    const reconnecting: AgentState[] = []
    reloaded.subscribe((s, prev) => {
      if (s.status === 'reconnecting' && prev.status !== 'reconnecting') reconnecting.push(s)
    })
    agent.next({ frames: whole, then: 'end', done: true })
    expect(await new AgentClient(reloaded, options(agent, storage)).attach()).toBe(true)

    expect(reconnecting).toHaveLength(1)
    expect(reconnecting[0]!.activeTurnId).toBe(turnId)
    expect(reconnecting[0]!.turns[turnId]).toMatchObject({ role: 'assistant', status: 'streaming' })
    expect(reconnecting[0]!.cursor).toStrictEqual({ turnId, protocol: 'ui-message', eventCount: 3, streamId: undefined, lastEventId: undefined, sequence: undefined })
    expect(reloaded.getState().turns[turnId]!.status).toBe('done')
    expect(agent.requests.map((r) => r.method)).toEqual(['POST', 'GET', 'GET'])
  })
})

describe('retry() carries over what the parked run knew', () => {
  it("the run id the first request named: a stop during the retry tells the host's source to cancel that run", async () => {
    const agent = new ScriptedAgent()
    const storage = memoryStorage()
    const cancels: unknown[] = []
    const store = createAgentStore()
    const client = new AgentClient(store, options(agent, storage, {
      url: undefined,
      source: { open: async () => ({ url: URL, runId: 'run-7' }), cancel: (context) => void cancels.push(context) },
    }))
    agent.next({ frames: partial, then: 'drop' }, { status: 503 })
    await client.send('q')
    expect(store.getState().status).toBe('error')
    // The resume request names no run: the one the first request named still counts.
    agent.next({ frames: partial, then: 'open' })
    const retrying = client.retry()
    for (let i = 0; i < 50 && store.getState().status !== 'streaming'; i++) await new Promise((resolve) => setTimeout(resolve, 0))
    expect(store.getState().status).toBe('streaming')
    expect(agent.requests).toHaveLength(3)
    client.stop()
    await retrying
    await new Promise((resolve) => setTimeout(resolve, 0))
    const turnId = store.getState().turnIds[1]!
    expect(cancels).toEqual([{ turnId, runId: 'run-7', fetch: agent.fetch }])
    expect(store.getState().turns[turnId]!.status).toBe('aborted')
  })

  it('the last SSE id: a replay whose frames carry none keeps it on the cursor', async () => {
    const encoder = new TextEncoder()
    const bodies: Array<{ text: string; then: 'end' | 'drop' } | number> = [
      { text: 'id: e1\ndata: {"type":"start","messageId":"m1"}\n\nid: e2\ndata: {"type":"text-start","id":"t"}\n\n', then: 'drop' },
      503,
      { text: 'data: {"type":"start","messageId":"m1"}\n\ndata: {"type":"text-start","id":"t"}\n\ndata: {"type":"text-delta","id":"t","delta":"x"}\n\n', then: 'drop' },
    ]
    const fetchScripted = (async () => {
      const next = bodies.shift()
      if (next === undefined) throw new Error('unscripted request')
      if (typeof next === 'number') return new Response('', { status: next })
      return new Response(new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(encoder.encode(next.text))
          setTimeout(() => controller.error(new TypeError('network error: connection reset')), 5)
        },
      }), { headers: { 'content-type': 'text/event-stream' } })
    }) as typeof fetch
    const store = createAgentStore()
    const client = new AgentClient(store, {
      url: URL, protocol: 'ui-message', fetch: fetchScripted,
      resume: { conversationKey: 'a', storage: memoryStorage(), maxRetries: 1, backoff: { sleep: async () => true } },
    })
    await client.send('q')
    expect(store.getState().cursor.lastEventId).toBe('e2')
    expect(store.getState().status).toBe('error')
    bodies.push(503)
    await client.retry()
    expect(store.getState().cursor.lastEventId).toBe('e2')
    expect(textOf(store.getState(), store.getState().turnIds[1]!)).toBe('x')
  })
})

describe('attach() into a saved copy of the store re-reads the stream from its start', () => {
  const agUiPartial = [
    { type: 'RUN_STARTED', threadId: 'th', runId: 'r1' },
    { type: 'RAW', event: { note: 'once' } },
    { type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' },
    { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'partial' },
  ]
  const agUiWhole = [...agUiPartial, { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: ' and the rest' }, { type: 'TEXT_MESSAGE_END', messageId: 'm1' }, { type: 'RUN_FINISHED', threadId: 'th', runId: 'r1' }]

  it('asks for the whole turn, adds only what follows what the copy shows, and the host hears each data part once', async () => {
    const agent = new ScriptedAgent()
    const storage = memoryStorage()
    const heard: unknown[] = []
    const agUi = { protocol: 'ag-ui', onData: (part) => void heard.push(part.data) } satisfies Partial<AgentClientOptions>
    const { first, turnId } = await interrupted(agent, storage, agUiPartial, agUi)
    expect(heard).toHaveLength(1)

    const reloaded = savedCopy(first)
    agent.next({ frames: agUiWhole, then: 'end' })
    expect(await new AgentClient(reloaded, options(agent, storage, agUi)).attach()).toBe(true)
    const s = reloaded.getState()
    expect(textOf(s, turnId)).toBe('partial and the rest')
    expect(s.turns[turnId]).toMatchObject({ status: 'done', problems: [] })
    expect(s.cursor.eventCount).toBe(agUiWhole.length)
    expect(heard).toHaveLength(1)
    // The re-read names no event to start after.
    expect(agent.requests.at(-1)!.method).toBe('GET')
  })

  it('a turn the copy shows further than the stream goes: nothing is added, nothing repeated', async () => {
    const agent = new ScriptedAgent()
    const storage = memoryStorage()
    const { first, turnId } = await interrupted(agent, storage)
    const reloaded = savedCopy(first)
    // The replay ends cleanly after two of the three events the copy shows.
    agent.next({ frames: partial.slice(0, 2), then: 'end', done: true })
    expect(await new AgentClient(reloaded, options(agent, storage)).attach()).toBe(true)
    expect(textOf(reloaded.getState(), turnId)).toBe('partial')
  })
})

describe("attach() to a continuation's stream after a reload", () => {
  it("writes into the continuation's messages: the first run's answer stays as it was", async () => {
    const agent = new ScriptedAgent()
    const storage = memoryStorage()
    const tools = { lookup: { execute: async () => ({ found: 1 }) } }
    const first = createAgentStore()
    agent.next(
      {
        frames: [
          { type: 'start', messageId: 'm1' }, { type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'Looking it up.' }, { type: 'text-end', id: 't' },
          { type: 'tool-input-available', toolCallId: 'c1', toolName: 'lookup', input: {} }, { type: 'finish' },
        ],
        then: 'end', done: true,
      },
      // The continuation after the tool's result uses the same part id, and drops.
      { frames: partial, then: 'drop' },
      { status: 503 },
    )
    const client = new AgentClient(first, options(agent, storage, { tools }))
    await client.send('q')
    for (let i = 0; i < 50 && agent.requests.length < 3; i++) await new Promise((resolve) => setTimeout(resolve, 0))
    await new Promise((resolve) => setTimeout(resolve, 10))
    const turnId = first.getState().turnIds[1]!
    expect(first.getState().turns[turnId]!.status).toBe('streaming')
    expect(textOf(first.getState(), turnId)).toBe('Looking it up.partial')
    expect(JSON.parse(storage.getItem(resumeStorageKey('a')) ?? 'null')?.handle?.scope).toBeTypeOf('string')

    const reloaded = savedCopy(first)
    agent.next({ frames: whole, then: 'end', done: true })
    expect(await new AgentClient(reloaded, options(agent, storage, { tools })).attach()).toBe(true)
    const s = reloaded.getState()
    expect(textOf(s, turnId)).toBe('Looking it up.partial and the rest')
    expect(s.turns[turnId]).toMatchObject({ status: 'done', problems: [] })
  })
})

describe('attach() into a saved copy, over a stream whose events carry ids', () => {
  it('asks with no Last-Event-ID, and the ids of the events it primes move the cursor on', async () => {
    const encoder = new TextEncoder()
    const body = 'id: e1\ndata: {"type":"start","messageId":"m1"}\n\nid: e2\ndata: {"type":"text-start","id":"t"}\n\nid: e3\ndata: {"type":"text-delta","id":"t","delta":"partial"}\n\n'
    const replies: Array<string | number> = [body, 503, body, 503]
    const lastIds: Array<string | null> = []
    const fetchScripted = (async (_url: unknown, init?: RequestInit) => {
      lastIds.push(new Headers(init?.headers).get('last-event-id'))
      const next = replies.shift()
      if (next === undefined) throw new Error('unscripted request')
      if (typeof next === 'number') return new Response('', { status: next })
      return new Response(new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(encoder.encode(next))
          setTimeout(() => controller.error(new TypeError('network error: connection reset')), 5)
        },
      }), { headers: { 'content-type': 'text/event-stream' } })
    }) as typeof fetch
    const storage = memoryStorage()
    const first = createAgentStore()
    const resume = { strategy: 'sse' as const, conversationKey: 'ids', storage, maxRetries: 1, backoff: { sleep: async () => true } }
    await new AgentClient(first, { url: URL, protocol: 'ui-message', fetch: fetchScripted, resume }).send('q')
    const turnId = first.getState().turnIds[1]!
    expect(first.getState().cursor).toMatchObject({ lastEventId: 'e3', eventCount: 3 })

    const reloaded = savedCopy(first)
    reloaded.getState().dispatch([{ op: 'cursor', cursor: { lastEventId: undefined } }])
    expect(await new AgentClient(reloaded, { url: URL, protocol: 'ui-message', fetch: fetchScripted, resume }).attach()).toBe(true)
    // The first page's reconnect named the last id; the re-read after the reload names none.
    expect(lastIds).toEqual([null, 'e3', null, 'e3'])
    expect(reloaded.getState().cursor).toMatchObject({ lastEventId: 'e3', eventCount: 3 })
    expect(textOf(reloaded.getState(), turnId)).toBe('partial')
    expect(reloaded.getState().turns[turnId]!.problems).toEqual([])
  })
})
