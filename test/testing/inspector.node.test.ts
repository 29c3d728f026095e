/**
 * The inspector's tap in the client and `createInspector`: what a run tells it
 * (the request as sent, each frame with the ops folded from it, the end), its
 * bounds, and a recording of a turn streamed from a real loopback server that
 * replays through `mockFetch` to the same turn.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AgentClient, applyOps, createAgentStore, emptyState, inProcessTransport, syncScheduler, type AgentClientOptions, type Op } from 'weft/core'
import { builtInProtocols } from 'weft/protocols'
import { createInspector, runCount, type ClientInspector, type TapFrame, type TapRequest, type TapRunEnd } from 'weft/inspector'
import { fixtures, mockFetch, type AgentFixture } from 'weft/testing'
import { startServer, type TestServer } from '../helpers/server'
import { content, runClient } from './support'
import { messageRecord } from '../../src/core/model/message-table'

let server: TestServer
beforeAll(async () => {
  server = await startServer()
})
afterAll(() => server.close())

const live = (protocol: string, name: string, query = '') => `${server.url}/mock/stream/${protocol}/${name}${query}`

async function send(options: AgentClientOptions, input = 'Go') {
  const store = createAgentStore()
  const client = new AgentClient(store, { protocols: builtInProtocols, scheduler: syncScheduler, ...options })
  await client.send(input)
  return { store, client }
}

describe('the client’s inspector option', () => {
  it('is told the request as sent (secret header values redacted), every frame with the ops it became, and the end', async () => {
    const requests: TapRequest[] = []
    const frames: TapFrame[] = []
    const ends: TapRunEnd[] = []
    let tick = 1000
    const tap: ClientInspector = { request: (r) => requests.push(r), frame: (f) => frames.push(f), end: (e) => ends.push(e) }
    const { store } = await send({
      url: live('ui-message', 'plain', '?api_key=s3cret'), protocol: 'ui-message', inspector: tap, clock: () => (tick += 5),
      headers: { authorization: 'Bearer s3cret', 'x-tenant': 'acme' },
    })
    const turnId = store.getState().turnIds.at(-1)!
    expect(requests).toHaveLength(1)
    const [request] = requests
    expect(request).toMatchObject({ turnId, kind: 'request', trigger: 'submit', method: 'POST' })
    expect(request!.headers).toMatchObject({ authorization: '[redacted]', 'x-tenant': 'acme', 'content-type': 'application/json' })
    expect(JSON.stringify(request!.headers)).not.toContain('s3cret')
    expect(JSON.parse(request!.body as string)).toMatchObject({ messages: [expect.objectContaining({ role: 'user' })] })
    expect(request!.store).toBe(store)

    // Every frame of the fixture, in order, with its exact data, [DONE] included.
    const fixture = fixtures['ui-message'].plain!
    expect(frames.map((f) => f.frame.data)).toEqual(fixture.frames.map((f) => (typeof f.data === 'string' ? f.data : JSON.stringify(f.data))))
    expect(frames.every((f) => f.turnId === turnId)).toBe(true)
    expect(frames.at(-1)!.ops).toEqual([])
    // Arrival times come from the client's clock, in order.
    const times = frames.map((f) => f.at)
    expect(times).toEqual([...times].sort((a, b) => a - b))
    expect(times[0]).toBeGreaterThan(request!.at)

    // The ops reported per frame are what the turn was folded from: folded on their own, they give its messages.
    const opened = structuredClone(emptyState())
    applyOps(opened, [{ op: 'turn.open', turnId, role: 'assistant', protocol: 'ui-message' } as Op, ...frames.flatMap((f) => f.ops)])
    const text = (state: typeof opened) => Object.values(messageRecord(state.messages)).filter((m) => m.turnId === turnId).map((m) => m.props.content).filter((c) => typeof c === 'string').join('|')
    expect(text(opened)).toBe(text(store.getState()))

    expect(ends).toEqual([{ turnId, outcome: 'done', at: expect.any(Number) }])
  })

  it('names a reconnect, and a failed request ends in its error', async () => {
    const requests: TapRequest[] = []
    const ends: TapRunEnd[] = []
    const tap: ClientInspector = { request: (r) => requests.push(r), end: (e) => ends.push(e) }
    // The first connection drops after 4 frames; Vocion's resume asks for the rest.
    const { store } = await send({
      url: live('vocion', 'answer', '?cut=4'), protocol: 'vocion', inspector: tap,
      resume: { conversationKey: 'inspect-reconnect', resumeUrl: `${server.url}/mock/resume/vocion/answer`, storage: memory(), backoff: { baseMs: 1, maxMs: 5 } },
    })
    expect(requests.map((r) => r.kind)).toEqual(['request', 'reconnect'])
    expect(requests[1]!.trigger).toBe('submit')
    // One end for the run, however many connections it took, in the turn's own final status.
    expect(ends).toHaveLength(1)
    const turn = store.getState().turns[ends[0]!.turnId]!
    expect(['done', 'aborted']).toContain(turn.status)
    expect(ends[0]!.outcome).toBe(turn.status)
    expect(requests[1]!.url).toContain('after=')

    const failed: TapRunEnd[] = []
    await send({ url: live('vocion', 'answer', '?status=500'), protocol: 'vocion', inspector: { end: (e) => failed.push(e) } })
    expect(failed).toHaveLength(1)
    expect(failed[0]).toMatchObject({ outcome: 'error', error: { status: 500 } })
  })
})

describe('an attach', () => {
  it('is told as an attach, from the stored handle, after a page lost its stream', async () => {
    const storage = memory()
    const resume = { conversationKey: 'inspect-attach', resumeUrl: `${server.url}/mock/resume/vocion/answer`, storage, maxRetries: 0, backoff: { baseMs: 1, maxMs: 2 } }
    // The first page's stream drops and it gives up at once: its handle stays stored.
    await send({ url: live('vocion', 'answer', '?cut=3'), protocol: 'vocion', resume })
    const requests: TapRequest[] = []
    const client = new AgentClient(createAgentStore(), { protocols: builtInProtocols, scheduler: syncScheduler, url: live('vocion', 'answer'), protocol: 'vocion', resume, inspector: { request: (r) => requests.push(r) } })
    expect(await client.attach()).toBe(true)
    expect(requests.map((r) => r.kind)).toEqual(['attach'])
    expect(requests[0]!.trigger).toBeUndefined()
    expect(requests[0]!.url).toContain('/mock/resume/vocion/answer')
  })
})

describe('the inspector option on another transport', () => {
  it('is told the request and each frame of an in-process agent, as for HTTP', async () => {
    const inspector = createInspector()
    const { store } = await send({
      url: '/agent', protocol: 'ui-message', inspector, body: { q: 'hi' },
      transport: inProcessTransport(async function* () {
        yield { type: 'start' }
        yield { type: 'text-start', id: 't1' }
        yield { type: 'text-delta', id: 't1', delta: 'Hi from the page' }
        yield { type: 'text-end', id: 't1' }
        yield { type: 'finish' }
      }),
    })
    const turn = inspector.getSnapshot().turns.at(-1)!
    expect(turn.turnId).toBe(store.getState().turnIds.at(-1))
    expect(turn.requests).toMatchObject([{ kind: 'request', url: '/agent', method: 'POST', body: '{"q":"hi"}' }])
    expect(turn.frames.map((f) => JSON.parse(f.data).type)).toEqual(['start', 'text-start', 'text-delta', 'text-end', 'finish'])
    expect(turn.frames[2]!.ops).toEqual([expect.objectContaining({ op: 'message.delta', value: 'Hi from the page' })])
    expect(turn.ends).toMatchObject([{ outcome: 'done' }])
  })
})

describe('createInspector', () => {
  it('keeps each turn’s request, frames and end, and what the store says of it', async () => {
    const inspector = createInspector()
    const { store } = await send({ url: live('ui-message', 'tools'), protocol: 'ui-message', inspector })
    const turnId = store.getState().turnIds.at(-1)!
    const turn = inspector.getSnapshot().turns.find((t) => t.turnId === turnId)!
    expect(turn.protocol).toBe('ui-message')
    expect(turn.status).toBe('done')
    expect(turn.requests[0]).toMatchObject({ index: 0, kind: 'request', method: 'POST', url: live('ui-message', 'tools') })
    expect(turn.frames.length).toBe(fixtures['ui-message'].tools!.frames.length)
    expect(turn.frames.map((f) => f.index)).toEqual(turn.frames.map((_, i) => i))
    expect(turn.frames.every((f) => f.offsetMs >= 0 && f.request === 0)).toBe(true)
    expect(turn.droppedFrames).toBe(0)
    expect(turn.ends).toEqual([{ outcome: 'done', at: expect.any(Number) }])
    expect(turn.timing?.runs).toHaveLength(1)
    // The same object while nothing changes, as useSyncExternalStore needs.
    expect(inspector.getSnapshot()).toBe(inspector.getSnapshot())
  })

  it('keeps at most the frame limit per turn and counts what it dropped; forgets the oldest turn past the turn limit', async () => {
    const inspector = createInspector({ maxFramesPerTurn: 3, maxTurns: 1 })
    const notices: number[] = []
    inspector.subscribe(() => notices.push(1))
    const { client, store } = await send({ url: live('ui-message', 'plain'), protocol: 'ui-message', inspector })
    await new Promise((resolve) => setTimeout(resolve, 0))
    const [turn] = inspector.getSnapshot().turns
    expect(turn!.frames).toHaveLength(3)
    expect(turn!.droppedFrames).toBe(fixtures['ui-message'].plain!.frames.length - 3)
    expect(inspector.recording(turn!.turnId)!.end).toBe('drop')
    expect(notices.length).toBeGreaterThan(0)
    await client.send('Again')
    const snapshot = inspector.getSnapshot()
    expect(snapshot.turns.map((t) => t.turnId)).toEqual([store.getState().turnIds.at(-1)])
    expect(snapshot.droppedTurns).toBe(1)
  })

  it.each([
    ['ui-message', 'tools'],
    ['vocion', 'answer'],
    ['ag-ui', 'run'],
    ['yao', 'long-answer'],
  ])('a recording of a %s/%s turn from a real server replays through mockFetch to the same turn', async (protocol, name) => {
    const inspector = createInspector()
    const { store } = await send({ url: live(protocol, name, '?chunk=random&seed=3&api_key=s3cret'), protocol: protocol as AgentClientOptions['protocol'], inspector, headers: { authorization: 'Bearer s3cret' } })
    const state = store.getState()
    const turnId = state.turnIds.at(-1)!
    const fixture = inspector.recording(turnId, { name: 'saved' })!
    expect(fixture).toMatchObject({ protocol, name: 'saved' })
    expect(fixture.request!.url).not.toContain('s3cret')
    expect(JSON.stringify(fixture)).not.toContain('s3cret')
    // What a host saves and checks in: plain JSON.
    const saved = JSON.parse(JSON.stringify(fixture)) as AgentFixture
    const replayed = await runClient({ url: '/replay', protocol: saved.protocol, fetch: mockFetch({ '/replay': saved }) }, 'Go')
    expect(content(replayed)).toEqual(content(state, turnId))
  })
})

describe('a turn with a continuation', () => {
  it('is one recording per run: each its own request\'s stream, ending at its own [DONE], and the second replays to the answer', async () => {
    const inspector = createInspector()
    const store = createAgentStore()
    const client = new AgentClient(store, {
      protocols: builtInProtocols, scheduler: syncScheduler, url: `${server.url}/mock/loop/ui-message`, protocol: 'ui-message', inspector,
      tools: { getLocation: { description: 'The user\'s city', execute: async () => ({ city: 'Lyon' }) } },
    })
    await client.send('where am I?')
    const turn = inspector.getSnapshot().turns.at(-1)!
    expect(turn.requests.map((r) => r.kind)).toEqual(['request', 'request'])
    expect(runCount(turn)).toBe(2)
    const [first, second] = [inspector.recording(turn.turnId)!, inspector.recording(turn.turnId, { run: 1 })!]
    expect(first.frames).toHaveLength(turn.frames.filter((f) => f.request === 0).length)
    expect(second.frames).toHaveLength(turn.frames.filter((f) => f.request === 1).length)
    expect(second.name).toBe(`${first.name}-run-2`)
    for (const fixture of [first, second]) {
      const done = fixture.frames.map((f, i) => (f.data === '[DONE]' ? i : -1)).filter((i) => i >= 0)
      expect(done).toEqual([fixture.frames.length - 1])
    }
    expect(JSON.stringify(first.frames)).toContain('getLocation')
    expect(JSON.stringify(second.frames)).not.toContain('getLocation')
    const replayed = await runClient({ url: '/replay', protocol: 'ui-message', fetch: mockFetch({ '/replay': JSON.parse(JSON.stringify(second)) as AgentFixture }) }, 'Go')
    const text = Object.values(messageRecord(replayed.messages)).filter((m) => m.type === 'text' && m.role === 'assistant').map((m) => String(m.props.content)).join('')
    expect(text).toBe('You are in Lyon.')
  })
})

function memory() {
  const map = new Map<string, string>()
  return { getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v), removeItem: (k: string) => void map.delete(k) }
}
