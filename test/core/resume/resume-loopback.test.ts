/**
 * Every resume strategy against a real loopback server that cuts the connection
 * after event k: for each k the resumed state must equal the uninterrupted fold.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createResumeRoutes, flakyVocionResumeRoute } from '../../../mock/resume'
import { encodeFrame, type MockFrame, type Scenario } from '../../../mock/scenario'
import { findScenario, scenarios as registered } from '../../../mock/scenarios/index'
import { syncScheduler } from '../../../src/core/store/batcher'
import { RESUME_EXHAUSTED, RESUME_EXPIRED, type AgentClientOptions } from '../../../src/core/client'
import { AgentClient } from '../../helpers/built-in-client'
import { STREAM_TRUNCATED } from '../../../src/core/model/errors'
import { foldStream } from '../../../src/umbrella/defaults'
import type { AgentState, ProtocolName } from '../../../src/core/model/model'
import type { ResumeStrategyName } from '../../../src/core/resume/strategies/index'
import { memoryStorage, resumeStorageKey } from '../../../src/core/resume/storage'
import type { RequestBody, ResumeOptions } from '../../../src/core/client'
import { createAgentStore, type AgentStore } from '../../../src/core/store/store'
import { startServer, type TestServer } from '../../helpers/server'
import { messageIn } from '../../../src/core/model/message-table'
import { traceRecord } from '../../../src/core/model/trace-table'
import { conversationRecord, stateOf } from '../../../src/core/conversations/record'

/** Tokens that repeat, and a `done` without `response`: the answer is exactly what the deltas built. */
const vocionTokens: Scenario = {
  protocol: 'vocion',
  name: 'tokens',
  title: 'Repeating tokens, no final response',
  frames: [
    { data: { type: 'stream_meta', streamId: 'stream-tokens-1' } },
    { data: { type: 'thinking' } },
    ...['Look ', 'it ', 'up', '.', '.'].map((delta): MockFrame => ({ data: { type: 'thinking_delta', delta } })),
    { data: { type: 'trace_node', id: 'r1', actor: { id: 'lead', kind: 'lead', name: 'Lead' }, kind: 'reason', status: 'start', label: 'Thinking' } },
    { comment: 'keepalive' },
    { data: { type: 'answering' } },
    ...['la', 'la', 'la', ' ', 'la', 'la', ' ', 'land', '.', '.', '.'].map((delta): MockFrame => ({ data: { type: 'response_delta', delta } })),
    { data: { type: 'trace_node', id: 'r1', status: 'done', label: 'Thought' } },
    { data: { type: 'done' } },
  ],
}

/** Yao messages with a sequence but no chunk_id (so only the sequence tells a repeat) and no final text. */
function yaoFrames(messages: Array<Record<string, unknown>>): MockFrame[] {
  return messages.map((message, index) => ({ data: { ...message, metadata: { sequence: index + 1 } } }))
}
const yaoEvent = (event: string, data: Record<string, unknown> = {}) => ({ type: 'event', props: { event, data } })
const yaoTokens: Scenario = {
  protocol: 'yao',
  name: 'tokens',
  title: 'Repeating tokens without chunk ids or final text',
  frames: yaoFrames([
    yaoEvent('stream_start', { request_id: 'r1' }),
    yaoEvent('message_start', { message_id: 'M1', type: 'thinking' }),
    ...['Hm', 'm', 'm', '.'].map((content) => ({ type: 'thinking', message_id: 'M1', props: { content }, delta: true })),
    yaoEvent('message_end', { message_id: 'M1' }),
    yaoEvent('message_start', { message_id: 'M2', type: 'text' }),
    ...['la', 'la', ' ', 'la', 'la', 'la', ' ', 'do', '.'].map((content) => ({ type: 'text', message_id: 'M2', props: { content }, delta: true })),
    yaoEvent('message_end', { message_id: 'M2' }),
    yaoEvent('stream_end', { status: 'completed' }),
  ]),
}
/** The same without `stream_end`: only the server can say it is over. */
const yaoNoEnd: Scenario = { ...yaoTokens, name: 'no-end', frames: yaoTokens.frames.slice(0, -1) }

const custom = [vocionTokens, yaoTokens, yaoNoEnd]

let srv: TestServer
let resumeHealthy = true
beforeAll(async () => {
  srv = await startServer({
    scenarios: [...registered, ...custom],
    routes: [
      ...createResumeRoutes(),
      // A resume endpoint that is down (sockets die) until the test says otherwise.
      flakyVocionResumeRoute(() => resumeHealthy),
    ],
  })
})
afterAll(() => srv.close())

function scenario(protocol: string, name: string): Scenario {
  const found = findScenario(protocol, name, [...registered, ...custom])
  if (!found) throw new Error(`no scenario ${protocol}/${name}`)
  return found
}

/** The uninterrupted fold of a scenario. */
function uninterrupted(s: Scenario, protocol: ProtocolName): AgentState {
  return foldStream(s.frames.map((f) => encodeFrame(f)).join(''), { protocol, turnId: 'turn-1' })
}

/** A turn as the user sees it, with its turn id replaced, so two runs compare. */
function view(state: AgentState, turnId: string): unknown {
  const turn = state.turns[turnId]
  if (!turn) return undefined
  const byId = <T extends { id: string }>(list: T[]) => [...list].sort((a, b) => a.id.localeCompare(b.id))
  // The parent is the user turn each run makes afresh; timing is the live client's clock, which a fold has not.
  const { id: _id, parentId: _parent, timing: _timing, ...fields } = turn
  const shown = {
    turn: fields,
    messages: turn.messageIds.map((id) => messageIn(state.messages, id)),
    trace: byId(Object.values(traceRecord(state.trace)).filter((n) => n.turnId === turnId)),
    blocks: turn.blockIds.map((id) => state.blocks[id]),
    threads: byId(Object.values(state.threads).filter((t) => t.turnId === turnId)),
    gates: turn.gateIds.map((id) => state.gates[id]),
    agentState: state.agentState,
  }
  return JSON.parse(JSON.stringify(shown).split(turnId).join('TURN'))
}

function assistantTurn(store: AgentStore): string {
  const { turnIds, turns } = store.getState()
  const id = turnIds.find((t) => turns[t]?.role === 'assistant')
  if (!id) throw new Error('no assistant turn')
  return id
}

interface Run {
  store: AgentStore
  client: AgentClient
  statuses: string[]
  storage: ReturnType<typeof memoryStorage>
  key: string
  requests: string[]
}

let keys = 0
async function run(options: {
  url: string
  protocol: ProtocolName
  strategy: ResumeStrategyName
  resumeUrl?: string
  body?: (key: string) => RequestBody
  resume?: Partial<ResumeOptions>
  client?: Partial<AgentClientOptions>
}): Promise<Run> {
  const key = `conv-${++keys}`
  const store = createAgentStore()
  const storage = memoryStorage()
  const before = srv.requests.length
  const client = new AgentClient(store, {
    url: srv.url + options.url,
    protocol: options.protocol,
    scheduler: syncScheduler,
    ...(options.body ? { body: options.body(key) } : {}),
    resume: {
      strategy: options.strategy, conversationKey: key, storage, maxRetries: 4,
      backoff: { baseMs: 1, maxMs: 4 },
      ...(options.resumeUrl ? { resumeUrl: srv.url + options.resumeUrl } : {}),
      ...options.resume,
    },
    ...options.client,
  })
  const statuses: string[] = []
  store.subscribe((s, prev) => {
    if (s.status !== prev.status) statuses.push(s.status)
  })
  await client.send('go')
  return { store, client, statuses, storage, key, requests: srv.requests.slice(before).map((r) => r.path) }
}

/**
 * The cut points worth trying: every frame boundary of the scenario. A mutation run
 * (test/mutate-setup.ts) repeats these tests once per mutant, so there it tries the
 * first and last three and every third between, which only ever understates its score.
 */
const cuts = (s: Scenario, from = 0) => {
  const all = Array.from({ length: s.frames.length + 1 - from }, (_, i) => i + from)
  if (process.env.WEFT_MUTATION_RUN !== '1') return all
  return all.filter((_, i) => i < 3 || i >= all.length - 3 || i % 3 === 0)
}

async function expectSame(r: Run, s: Scenario, protocol: ProtocolName, label: string): Promise<void> {
  expect(r.store.getState().status, label).toBe('done')
  expect(view(r.store.getState(), assistantTurn(r.store)), label).toEqual(view(uninterrupted(s, protocol), 'turn-1'))
  // A normal end clears the handle.
  expect(r.storage.getItem(resumeStorageKey(r.key)), label).toBeNull()
}

describe('Vocion: stream_meta, then ?id=<streamId>&after=<count>', () => {
  for (const name of ['tokens', 'answer', 'hitl']) {
    it(`${name}: a cut after any event k ≥ 1 resumes to the uninterrupted fold`, async () => {
      const s = scenario('vocion', name)
      for (const k of cuts(s, 1)) {
        const r = await run({ url: `/mock/stream/vocion/${name}?cut=${k}`, protocol: 'vocion', strategy: 'vocion', resumeUrl: `/mock/resume/vocion/${name}` })
        await expectSame(r, s, 'vocion', `cut=${k}`)
        if (k < s.frames.length) {
          const resumes = r.requests.filter((p) => p.startsWith(`/mock/resume/vocion/${name}`))
          expect(resumes, `cut=${k}`).toHaveLength(1)
          // stream_meta is not counted: the count asked for is the number of events after it that arrived.
          const arrived = s.frames.slice(0, k).filter((f) => f.data !== undefined).length - 1
          expect(resumes[0], `cut=${k}`).toContain(`after=${arrived}`)
        }
      }
    })
  }

  it('a server that replays from an older point than asked adds nothing twice', async () => {
    const s = scenario('vocion', 'answer')
    for (const older of [1, 2, 3, 7]) {
      for (const k of cuts(s, 1)) {
        const r = await run({
          url: `/mock/stream/vocion/answer?cut=${k}&chunk=random&seed=${k}`, protocol: 'vocion', strategy: 'vocion',
          resumeUrl: `/mock/resume/vocion/answer?older=${older}`,
        })
        await expectSame(r, s, 'vocion', `older=${older} cut=${k}`)
      }
    }
  }, 120_000)

  it('a cut before stream_meta cannot be resumed: a typed network error, nothing left stored', async () => {
    const r = await run({ url: '/mock/stream/vocion/tokens?cut=0', protocol: 'vocion', strategy: 'vocion', resumeUrl: '/mock/resume/vocion/tokens' })
    const state = r.store.getState()
    expect(state.status).toBe('error')
    expect(state.error?.type).toBe('network')
    expect(r.requests.some((p) => p.includes('/resume/'))).toBe(false)
    expect(r.storage.getItem(resumeStorageKey(r.key))).toBeNull()
  })

  it('the handle is stored while the stream is resumable, under the conversation key', async () => {
    const store = createAgentStore()
    const storage = memoryStorage()
    const seen: Array<string | null> = []
    const client = new AgentClient(store, {
      url: `${srv.url}/mock/stream/vocion/tokens?cut=6`, protocol: 'vocion', scheduler: syncScheduler,
      resume: {
        strategy: 'vocion', conversationKey: 'seen', storage, resumeUrl: `${srv.url}/mock/resume/vocion/tokens`,
        backoff: { baseMs: 1, sleep: async () => (seen.push(storage.getItem(resumeStorageKey('seen'))), true) },
      },
    })
    await client.send('go')
    expect(JSON.parse(seen[0]!)).toMatchObject({ v: 1, handle: { strategy: 'vocion', streamId: 'stream-tokens-1', count: 5 } })
    expect(storage.getItem(resumeStorageKey('seen'))).toBeNull()
  })
})

describe('a connection lost before its batch was drawn', () => {
  it('resumes from what was read, though no frame has come to commit it yet', async () => {
    const store = createAgentStore()
    const storage = memoryStorage()
    const seen: Array<string | null> = []
    const statuses: string[] = []
    store.subscribe((state, previous) => {
      if (state.status !== previous.status) statuses.push(state.status)
    })
    const client = new AgentClient(store, {
      url: `${srv.url}/mock/stream/vocion/tokens?cut=6`, protocol: 'vocion',
      // Frames that come late (a page under load): the connection is lost before the first.
      scheduler: (flush) => {
        const timer = setTimeout(flush, 250)
        return () => clearTimeout(timer)
      },
      resume: {
        strategy: 'vocion', conversationKey: 'unframed', storage, resumeUrl: `${srv.url}/mock/resume/vocion/tokens`,
        backoff: { baseMs: 1, sleep: async () => (seen.push(storage.getItem(resumeStorageKey('unframed'))), true) },
      },
    })
    await client.send('go')
    expect(statuses).toContain('reconnecting')
    expect(JSON.parse(seen[0]!)).toMatchObject({ handle: { strategy: 'vocion', streamId: 'stream-tokens-1', count: 5 } })
    expect(store.getState().status).toBe('done')
  })
})

describe('standard SSE: Last-Event-ID', () => {
  const cases: Array<[string, string]> = [['ag-ui', 'run'], ['ag-ui', 'subagents'], ['ag-ui', 'interrupt'], ['yao', 'tokens'], ['vocion', 'answer']]
  for (const [protocol, name] of cases) {
    it(`${protocol}/${name}: every connection cut after k events still ends in the uninterrupted fold`, async () => {
      const s = scenario(protocol, name)
      for (const k of cuts(s, 1)) {
        // The same URL serves the reconnects, so each one is cut after k events too.
        const r = await run({ url: `/mock/sse/${protocol}/${name}?cut=${k}`, protocol: protocol as ProtocolName, strategy: 'sse', resume: { maxRetries: 2 } })
        await expectSame(r, s, protocol as ProtocolName, `cut=${k}`)
      }
    })
  }

  it('sends the last id it folded as Last-Event-ID', async () => {
    const before = srv.requests.length
    const r = await run({ url: '/mock/sse/ag-ui/run?cut=5', protocol: 'ag-ui', strategy: 'sse', resume: { maxRetries: 2 } })
    await expectSame(r, scenario('ag-ui', 'run'), 'ag-ui', 'cut=5')
    const ids = srv.requests.slice(before).map((q) => q.headers['last-event-id'])
    expect(ids.slice(0, 3)).toEqual([undefined, 'run_1:0005', 'run_1:0010'])
  })

  it('a server that replays from an older id adds nothing twice', async () => {
    const s = scenario('ag-ui', 'run')
    for (const k of cuts(s, 1)) {
      const r = await run({ url: `/mock/sse/ag-ui/run?cut=${k}`, protocol: 'ag-ui', strategy: 'sse', resumeUrl: `/mock/sse/ag-ui/run?older=3` })
      await expectSame(r, s, 'ag-ui', `older=3 cut=${k}`)
    }
  })

  it('honours the server\'s retry: as the least delay', async () => {
    const delays: number[] = []
    const r = await run({
      url: '/mock/sse/ag-ui/run?cut=4&retry=2500', protocol: 'ag-ui', strategy: 'sse',
      resume: { backoff: { baseMs: 1, maxMs: 4, sleep: async (ms) => (delays.push(ms), true) } },
    })
    await expectSame(r, scenario('ag-ui', 'run'), 'ag-ui', 'retry')
    expect(delays.length).toBeGreaterThan(0)
    expect(delays.every((ms) => ms >= 2500)).toBe(true)
  })

  it('a 204 ends the resume: the turn closes with what arrived, cut off since its end never came', async () => {
    const s = scenario('yao', 'no-end')
    // Every event arrives, then the socket dies; the reconnect after the last id gets a 204.
    const r = await run({ url: `/mock/sse/yao/no-end?cut=${s.frames.length}`, protocol: 'yao', strategy: 'sse' })
    // The uninterrupted fold of a stream without stream_end is cut off too: the same turn, `aborted`.
    expect(view(r.store.getState(), assistantTurn(r.store))).toEqual(view(uninterrupted(s, 'yao'), 'turn-1'))
    expect(r.store.getState().status).toBe('aborted')
    expect(r.store.getState().turns[assistantTurn(r.store)]!.problems.map((p) => p.code)).toEqual([STREAM_TRUNCATED])
    expect(r.storage.getItem(resumeStorageKey(r.key))).toBeNull()
    expect(r.requests).toHaveLength(2)
  })
})

describe('AI SDK style: GET <api>/<chatId>/stream replays from the start', () => {
  const cases: Array<[string, string]> = [['ui-message', 'full'], ['ui-message', 'tools'], ['yao', 'tokens'], ['vocion', 'tokens']]
  for (const [protocol, name] of cases) {
    it(`${protocol}/${name}: a cut after any event k skips the replayed prefix and adds the rest`, async () => {
      const s = scenario(protocol, name)
      for (const k of cuts(s)) {
        const r = await run({
          url: `/mock/ai/${protocol}/${name}?cut=${k}`, protocol: protocol as ProtocolName, strategy: 'ai-sdk',
          resumeUrl: `/mock/ai/${protocol}/${name}?chunk=random&seed=${k}`, body: (key) => ({ id: key }),
        })
        await expectSame(r, s, protocol as ProtocolName, `cut=${k}`)
        if (k === 1) expect(r.requests[1], `cut=${k}`).toMatch(new RegExp(`^/mock/ai/${protocol}/${name}/${r.key}/stream`))
      }
    })
  }

  it('a replay that differs from what was shown is reported, never silently dropped', async () => {
    // The chat's stream is not the one the client saw: its replay does not match the ledger.
    const r = await run({
      url: '/mock/ai/vocion/tokens?cut=6', protocol: 'vocion', strategy: 'ai-sdk',
      resumeUrl: '/mock/ai/vocion/answer', body: (key) => ({ id: key }),
    })
    const state = r.store.getState()
    expect(state.status).toBe('done')
    const problems = state.turns[assistantTurn(r.store)]!.problems.filter((p) => p.code === 'resume_mismatch')
    expect(problems).toHaveLength(1)
    expect(problems[0]!.message).toContain('event 1')
  })
})

describe('Yao tasks: ?since=<sequence>, then read_complete', () => {
  for (const name of ['tokens', 'one-block', 'concurrent-threads', 'sequential-blocks']) {
    it(`${name}: a cut after any event k resumes to the uninterrupted fold`, async () => {
      const s = scenario('yao', name)
      for (const k of cuts(s)) {
        const r = await run({ url: `/mock/stream/yao/${name}?cut=${k}`, protocol: 'yao', strategy: 'yao', resumeUrl: `/mock/resume/yao/${name}` })
        await expectSame(r, s, 'yao', `cut=${k}`)
      }
    })
  }

  it('asks since the highest sequence folded, and drops what an older replay repeats', async () => {
    const s = scenario('yao', 'tokens')
    for (const k of cuts(s)) {
      const r = await run({ url: `/mock/stream/yao/tokens?cut=${k}`, protocol: 'yao', strategy: 'yao', resumeUrl: '/mock/resume/yao/tokens?older=4' })
      await expectSame(r, s, 'yao', `older=4 cut=${k}`)
      if (k < s.frames.length) expect(r.requests[1], `cut=${k}`).toContain(`since=${k}`)
    }
  })

  it('read_complete with live: false ends a stream that never sends stream_end, as complete', async () => {
    const s = scenario('yao', 'no-end')
    const r = await run({ url: '/mock/stream/yao/no-end?cut=5', protocol: 'yao', strategy: 'yao', resumeUrl: '/mock/resume/yao/no-end' })
    // The server said the task is over: the answer is whole, though stream_end never came.
    await expectSame(r, scenario('yao', 'tokens'), 'yao', 'no-end')
    expect(r.requests).toHaveLength(2)
  })

  it('live events after read_complete are folded too', async () => {
    const s = scenario('yao', 'tokens')
    const r = await run({ url: '/mock/stream/yao/tokens?cut=4', protocol: 'yao', strategy: 'yao', resumeUrl: '/mock/resume/yao/tokens?buffered=3' })
    await expectSame(r, s, 'yao', 'buffered')
  })
})

describe('reconnects are bounded, typed, and retryable', () => {
  it('gives up after maxRetries with resume_exhausted, keeps the handle, and retry() finishes the turn', async () => {
    const s = scenario('vocion', 'tokens')
    resumeHealthy = false
    const delays: number[] = []
    try {
      const r = await run({
        url: '/mock/stream/vocion/tokens?cut=8', protocol: 'vocion', strategy: 'vocion', resumeUrl: '/mock/flaky/vocion/tokens',
        resume: { maxRetries: 3, backoff: { baseMs: 100, maxMs: 400, random: () => 1, sleep: async (ms) => (delays.push(ms), true) } },
      })
      const state = r.store.getState()
      expect(state.status).toBe('error')
      expect(state.error).toMatchObject({ type: 'network', code: RESUME_EXHAUSTED, retryable: true })
      expect(r.requests.filter((p) => p.startsWith('/mock/flaky/'))).toHaveLength(3)
      // Exponential, capped: the delays asked for, not time measured.
      expect(delays).toEqual([100, 200, 400])
      // The turn is not over: it waits for retry(), and the handle survives for a reload.
      expect(state.turns[assistantTurn(r.store)]!.status).toBe('streaming')
      expect(r.statuses).toContain('reconnecting')
      expect(r.storage.getItem(resumeStorageKey(r.key))).not.toBeNull()

      resumeHealthy = true
      await r.client.retry()
      await expectSame(r, s, 'vocion', 'after retry')
    } finally {
      resumeHealthy = true
    }
  })

  it('a retryable HTTP failure on reconnect counts as a failed attempt', async () => {
    const r = await run({
      url: '/mock/stream/vocion/tokens?cut=8', protocol: 'vocion', strategy: 'vocion', resumeUrl: '/mock/stream/vocion/tokens?status=503',
      resume: { maxRetries: 2 },
    })
    expect(r.store.getState().error).toMatchObject({ code: RESUME_EXHAUSTED })
    expect(r.requests.filter((p) => p.includes('status=503'))).toHaveLength(2)
  })

  it('stop() after giving up aborts the turn and forgets the handle', async () => {
    resumeHealthy = false
    try {
      const r = await run({
        url: '/mock/stream/vocion/tokens?cut=8', protocol: 'vocion', strategy: 'vocion', resumeUrl: '/mock/flaky/vocion/tokens', resume: { maxRetries: 1 },
      })
      expect(r.storage.getItem(resumeStorageKey(r.key))).not.toBeNull()
      r.client.stop()
      expect(r.store.getState().status).toBe('aborted')
      expect(r.store.getState().turns[assistantTurn(r.store)]!.status).toBe('aborted')
      expect(r.storage.getItem(resumeStorageKey(r.key))).toBeNull()
    } finally {
      resumeHealthy = true
    }
  })
})

describe('what keeps and what clears the handle', () => {
  it('dispose() detaches: the request stops, the turn and the handle stay, and attach() finishes the turn', async () => {
    const s = scenario('vocion', 'answer')
    const store = createAgentStore()
    const storage = memoryStorage()
    const options: AgentClientOptions = {
      url: `${srv.url}/mock/stream/vocion/answer?delay=15`, protocol: 'vocion', scheduler: syncScheduler,
      resume: { strategy: 'vocion', conversationKey: 'kept', storage, resumeUrl: `${srv.url}/mock/resume/vocion/answer`, backoff: { baseMs: 1 } },
    }
    const client = new AgentClient(store, options)
    const sending = client.send('go')
    await new Promise<void>((resolve) => {
      const off = store.subscribe((state) => {
        if (state.cursor.eventCount >= 5) {
          off()
          resolve()
        }
      })
    })
    client.dispose()
    await sending
    const turnId = assistantTurn(store)
    expect(store.getState().turns[turnId]!.status).toBe('streaming')
    expect(storage.getItem(resumeStorageKey('kept'))).not.toBeNull()

    // Another conversation's send leaves this one's handle alone.
    const other = new AgentClient(createAgentStore(), { ...options, url: `${srv.url}/mock/stream/vocion/hitl`, resume: { ...options.resume!, conversationKey: 'other' } })
    await other.send('hi')
    expect(storage.getItem(resumeStorageKey('kept'))).not.toBeNull()

    // The same client, same store: only what is missing is asked for.
    const before = srv.requests.length
    expect(await client.attach()).toBe(true)
    const count = srv.requests.slice(before).map((r) => r.path)
    expect(count).toHaveLength(1)
    expect(count[0]).not.toContain('after=0')
    expect(store.getState().status).toBe('done')
    expect(view(store.getState(), turnId)).toEqual(view(uninterrupted(s, 'vocion'), 'turn-1'))
    expect(storage.getItem(resumeStorageKey('kept'))).toBeNull()
    // Nothing left to attach to.
    expect(await client.attach()).toBe(false)
  })

  it('switching conversations on one client keeps the detached stream resumable', async () => {
    const store = createAgentStore()
    const storage = memoryStorage()
    const base = { protocol: 'vocion' as const, scheduler: syncScheduler }
    const resume = { strategy: 'vocion' as const, storage, resumeUrl: `${srv.url}/mock/resume/vocion/answer`, backoff: { baseMs: 1 } }
    const client = new AgentClient(store, { ...base, url: `${srv.url}/mock/stream/vocion/answer?delay=15`, resume: { ...resume, conversationKey: 'a' } })
    const sending = client.send('go')
    await new Promise<void>((resolve) => {
      const off = store.subscribe((state) => {
        if (state.cursor.eventCount >= 3) {
          off()
          resolve()
        }
      })
    })
    client.dispose()
    await sending
    client.setOptions({ ...base, url: `${srv.url}/mock/stream/vocion/hitl`, resume: { ...resume, conversationKey: 'b' } })
    await client.send('hi')
    expect(storage.getItem(resumeStorageKey('a'))).not.toBeNull()
    expect(storage.getItem(resumeStorageKey('b'))).toBeNull()
  })
})

describe('an expired handle falls back to history', () => {
  it('404 without a loader: nothing to resume, so the partial answer ends aborted with a typed resume_expired problem and no error', async () => {
    const r = await run({ url: '/mock/stream/vocion/tokens?cut=8', protocol: 'vocion', strategy: 'vocion', resumeUrl: '/mock/resume/vocion/tokens?expired=1' })
    const state = r.store.getState()
    expect(state.status).toBe('aborted')
    expect(state.error).toBeUndefined()
    const turn = state.turns[assistantTurn(r.store)]!
    expect(turn.status).toBe('aborted')
    expect(turn.error).toBeUndefined()
    expect(turn.problems).toEqual([expect.objectContaining({ code: RESUME_EXPIRED, status: 404, retryable: false })])
    expect(r.storage.getItem(resumeStorageKey(r.key))).toBeNull()
  })

  it('404 with loadHistory: the conversation is rebuilt from what the loader returns', async () => {
    const calls: unknown[] = []
    const r = await run({
      url: '/mock/stream/vocion/tokens?cut=8', protocol: 'vocion', strategy: 'vocion', resumeUrl: '/mock/resume/vocion/tokens?expired=1',
      resume: {
        loadHistory: async (context) => {
          calls.push({ key: context.conversationKey, reason: context.reason, streamId: (context.handle as { streamId?: string } | undefined)?.streamId })
          return [
            { turn: { id: 'h-user', role: 'user' }, messages: [{ id: 'h-user/text', role: 'user', type: 'text', props: { content: 'go' } }] },
            { turn: { id: 'h-answer', role: 'assistant' }, messages: [{ id: 'h-answer/text', type: 'text', props: { content: 'lalala lala land...' } }] },
          ]
        },
      },
    })
    const state = r.store.getState()
    expect(calls).toEqual([{ key: r.key, reason: 'expired', streamId: 'stream-tokens-1' }])
    expect(state.status).toBe('done')
    expect(state.turnIds).toEqual(['h-user', 'h-answer'])
    expect(messageIn(state.messages, 'h-answer/text')!.props.content).toBe('lalala lala land...')
    expect(r.storage.getItem(resumeStorageKey(r.key))).toBeNull()
  })
})

describe('without a resume strategy nothing changes', () => {
  it('a cut stream ends the turn with what arrived, as before', async () => {
    const store = createAgentStore()
    const client = new AgentClient(store, { url: `${srv.url}/mock/stream/yao/tokens?cut=5`, protocol: 'yao', scheduler: syncScheduler })
    await client.send('go')
    expect(store.getState().status).toBe('error')
    expect(store.getState().error?.type).toBe('network')
  })
})

describe('a reload into the saved copy of the conversation', () => {
  // The page saved its store and reloaded while the stream ran on: the new page has that
  // copy and the stored handle, but no ledger and no decoder. Every strategy replays from
  // the start, so the new decoder is shown what the copy holds before anything is folded.
  const cases: Array<[ProtocolName, string, ResumeStrategyName, string, string]> = [
    ['ui-message', 'full', 'ai-sdk', '/mock/ai/ui-message/full', '/mock/ai/ui-message/full?chunk=random&seed=3'],
    ['ui-message', 'tools', 'ai-sdk', '/mock/ai/ui-message/tools', '/mock/ai/ui-message/tools'],
    ['ag-ui', 'run', 'sse', '/mock/sse/ag-ui/run', '/mock/sse/ag-ui/run'],
    ['yao', 'tokens', 'yao', '/mock/stream/yao/tokens', '/mock/resume/yao/tokens'],
    ['vocion', 'tokens', 'vocion', '/mock/stream/vocion/tokens', '/mock/resume/vocion/tokens'],
  ]
  for (const [protocol, name, strategy, url, resumeUrl] of cases) {
    it(`${protocol}/${name}: a reload after any event k ends in the uninterrupted fold, with no part started again`, async () => {
      const s = scenario(protocol, name)
      let reloads = 0
      for (const k of cuts(s, 1)) {
        // No reconnect on the first page: the turn waits, its handle stored.
        const r = await run({ url: `${url}?cut=${k}`, protocol, strategy, resumeUrl, body: (key) => ({ id: key }), resume: { maxRetries: 0 } })
        const turnId = assistantTurn(r.store)
        if (r.store.getState().turns[turnId]!.status !== 'streaming') continue
        reloads += 1
        const record = structuredClone(conversationRecord({ id: r.key, title: 'saved', createdAt: 1, updatedAt: 1, revision: 1 }, r.store.getState()))
        const restored = createAgentStore({ initialState: stateOf(record) })
        const shownBefore = view(restored.getState(), turnId)
        const client = new AgentClient(restored, {
          url: srv.url + url, protocol, scheduler: syncScheduler, ...(strategy === 'ai-sdk' ? { body: { id: r.key } } : {}),
          resume: { strategy, conversationKey: r.key, storage: r.storage, maxRetries: 2, backoff: { baseMs: 1, maxMs: 4 }, resumeUrl: srv.url + resumeUrl },
        })
        expect(await client.attach(), `cut=${k}`).toBe(true)
        expect(shownBefore, `cut=${k}`).toEqual(view(r.store.getState(), turnId))
        expect(restored.getState().status, `cut=${k}`).toBe('done')
        expect(view(restored.getState(), turnId), `cut=${k}`).toEqual(view(uninterrupted(s, protocol), 'turn-1'))
        expect(r.storage.getItem(resumeStorageKey(r.key)), `cut=${k}`).toBeNull()
      }
      expect(reloads).toBeGreaterThan(0)
    })
  }
})
