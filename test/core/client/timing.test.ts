/**
 * A turn's timing through the live client: the stamps are read from the
 * client's clock when the request goes, when the first token is decoded and
 * when the turn finishes (a fake clock the stream itself moves, so every stamp
 * is exact); they survive a saved conversation's reload, a continuation adds a
 * run, and a run picked up after a reload stamps nothing it did not see.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { AgentClient } from '../../helpers/built-in-client'
import { checkRecord, createConversations, memoryConversations, type Conversations } from '../../../src/core/conversations/index'
import { memoryStorage, resumeStorageKey } from '../../../src/core/resume/storage'
import { syncScheduler } from '../../../src/core/store/batcher'
import { createAgentStore, type AgentStore } from '../../../src/core/store/store'
import { usageFigures } from '../../../src/core/model/usage-figures'
import type { Turn } from '../../../src/core/model/model'

/** One frame of a recorded UI message stream and the time it arrives at. */
type Timed = { at: number; event: unknown }

const clock = { now: 0 }
const read = () => clock.now

/**
 * A fetch whose body moves the clock to each frame's time as the frame is read.
 * With `hold`, the body stays open after the frames (until the request is aborted).
 */
function timedFetch(answers: (request: Request) => { frames: readonly Timed[]; hold?: boolean }): typeof fetch {
  return async (input, init) => {
    const request = new Request(new URL(String(input instanceof Request ? input.url : input), 'http://agent.test'), { method: init?.method, body: init?.body as BodyInit | undefined })
    const { frames, hold } = answers(request)
    const signal = init?.signal
    let at = 0
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (at < frames.length) {
          const frame = frames[at++]!
          clock.now = frame.at
          controller.enqueue(new TextEncoder().encode(`data: ${typeof frame.event === 'string' ? frame.event : JSON.stringify(frame.event)}\n\n`))
          return
        }
        if (!hold) return controller.close()
        return new Promise<void>((resolve) => {
          signal?.addEventListener('abort', () => {
            controller.error(new DOMException('aborted', 'AbortError'))
            resolve()
          })
        })
      },
    }, { highWaterMark: 0 })
    return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream', 'x-vercel-ai-ui-message-stream': 'v1' } })
  }
}

const totalUsage = { inputTokens: 20, inputTokenDetails: { cacheReadTokens: 5 }, outputTokens: 10, outputTokenDetails: { reasoningTokens: 2 }, totalTokens: 30 }

/** An answer "Hello" whose first token arrives at +300 ms and whose finish at +800 ms. */
const answer = (from: number, last = true): Timed[] => [
  { at: from + 100, event: { type: 'start', messageId: 'msg-1' } },
  { at: from + 150, event: { type: 'start-step' } },
  { at: from + 200, event: { type: 'text-start', id: 'a' } },
  { at: from + 300, event: { type: 'text-delta', id: 'a', delta: 'Hel' } },
  { at: from + 500, event: { type: 'text-delta', id: 'a', delta: 'lo' } },
  { at: from + 600, event: { type: 'text-end', id: 'a' } },
  { at: from + 700, event: { type: 'finish-step' } },
  ...(last ? [
    { at: from + 800, event: { type: 'finish', messageMetadata: { totalUsage } } },
    { at: from + 900, event: '[DONE]' },
  ] : []),
]

const assistant = (store: AgentStore): Turn => {
  const state = store.getState()
  return state.turns[state.turnIds.find((id) => state.turns[id]!.role === 'assistant')!]!
}

const open: Conversations[] = []
afterEach(async () => {
  for (const c of open.splice(0)) await c.dispose()
})

describe('timing through the live client', () => {
  it('stamps the request, the first token (not the empty text opened before it) and the finish, read from the client\'s clock', async () => {
    clock.now = 1000
    const store = createAgentStore()
    const client = new AgentClient(store, { url: '/api/chat', protocol: 'ui-message', fetch: timedFetch(() => ({ frames: answer(1000) })), scheduler: syncScheduler, clock: read })
    await client.send('Hi')
    const turn = assistant(store)
    expect(turn.status).toBe('done')
    expect(turn.timing).toEqual({ runs: [{ startedAt: 1000, firstTokenAt: 1300, endedAt: 1800 }] })
    expect(usageFigures(turn)).toEqual({
      inputTokens: 20, outputTokens: 10, totalTokens: 30, reasoningTokens: 2, cachedInputTokens: 5,
      firstTokenMs: 300, totalMs: 800, tokensPerSecond: 20,
    })
    // The person's own turn is not timed.
    expect(store.getState().turns[store.getState().turnIds[0]!]!.timing).toBeUndefined()
  })

  it('a stopped answer ends when it was stopped, and its figures use that end', async () => {
    clock.now = 5000
    const store = createAgentStore()
    const client = new AgentClient(store, { url: '/api/chat', protocol: 'ui-message', fetch: timedFetch(() => ({ frames: answer(5000, false), hold: true })), scheduler: syncScheduler, clock: read })
    const sending = client.send('Hi')
    for (let i = 0; i < 200 && assistant(store)?.timing?.runs[0]?.firstTokenAt === undefined; i++) await new Promise((r) => setTimeout(r, 2))
    await new Promise((r) => setTimeout(r, 10))
    clock.now = 6500
    client.stop()
    await sending
    const turn = assistant(store)
    expect(turn.status).toBe('aborted')
    expect(turn.timing).toEqual({ runs: [{ startedAt: 5000, firstTokenAt: 5300, endedAt: 6500 }] })
    expect(usageFigures(turn)).toEqual({ firstTokenMs: 300, totalMs: 1500 })
  })

  it('a client tool\'s continuation adds a run: the time to first token is the first run\'s, the total leaves out the wait between runs', async () => {
    clock.now = 0
    const store = createAgentStore()
    let calls = 0
    const fetch = timedFetch(() => {
      calls += 1
      if (calls === 1) {
        return {
          frames: [
            { at: 100, event: { type: 'start', messageId: 'msg-1' } },
            { at: 400, event: { type: 'tool-input-available', toolCallId: 'c1', toolName: 'locate', input: {} } },
            { at: 500, event: { type: 'finish' } },
            { at: 600, event: '[DONE]' },
          ],
        }
      }
      return { frames: answer(10_000) }
    })
    const client = new AgentClient(store, {
      url: '/api/chat', protocol: 'ui-message', fetch, scheduler: syncScheduler, clock: read,
      // The tool takes its time: the next request leaves at 10 s.
      tools: { locate: { execute: async () => { await new Promise((r) => setTimeout(r, 20)); clock.now = 10_000; return { city: 'Paris' } } } },
    })
    await client.send('Where am I?')
    for (let i = 0; i < 200 && (assistant(store).status !== 'done' || calls < 2); i++) await new Promise((r) => setTimeout(r, 2))
    const turn = assistant(store)
    expect(calls).toBe(2)
    expect(turn.timing?.runs).toEqual([
      { startedAt: 0, firstTokenAt: 400, endedAt: 500 },
      { startedAt: 10_000, firstTokenAt: 10_300, endedAt: 10_800 },
    ])
    const figures = usageFigures(turn)
    expect(figures.firstTokenMs).toBe(400)
    expect(figures.totalMs).toBe(500 + 800)
    // Output tokens over the streaming time of both runs (100 ms and 500 ms).
    expect(figures.tokensPerSecond).toBeCloseTo(10 / 0.6)
  })

  it('survives a saved conversation\'s reload, and a saved timing that is not one is refused on load', async () => {
    clock.now = 2000
    const storage = memoryConversations()
    const first = createConversations({ storage, selection: memoryStorage(), saveOnHide: false })
    open.push(first)
    await first.ready()
    const id = first.selectedId as string
    const store = first.storeOf(id)!
    const client = new AgentClient(store, { url: '/api/chat', protocol: 'ui-message', fetch: timedFetch(() => ({ frames: answer(2000) })), scheduler: syncScheduler, clock: read })
    await client.send('Hi')
    await first.flush()
    const saved = assistant(store)

    const second = createConversations({ storage, selection: memoryStorage(), saveOnHide: false })
    open.push(second)
    await second.ready()
    await second.select(id)
    const reloaded = assistant(second.storeOf(id)!)
    expect(reloaded.timing).toEqual({ runs: [{ startedAt: 2000, firstTokenAt: 2300, endedAt: 2800 }] })
    expect(usageFigures(reloaded)).toEqual(usageFigures(saved))

    // What was saved is checked on load: a timing that is not one quarantines the record, never reaches a component.
    const record = storage.records.get(id) as { state: { turns: Record<string, Turn> } }
    expect(checkRecord(record, id).ok).toBe(true)
    const withTiming = (timing: unknown) => ({ ...record, state: { ...record.state, turns: { ...record.state.turns, [reloaded.id]: { ...reloaded, timing } } } })
    for (const timing of [{ runs: [{ startedAt: '2000' }] }, { runs: 'soon' }, { runs: [{ startedAt: 1, endedAt: 'later' }] }]) {
      const checked = checkRecord(withTiming(timing), id)
      expect(checked.ok).toBe(false)
      expect(checked.ok ? '' : checked.error.message).toMatch(/timing is not a list of timed runs/)
    }
  })

  it('a run picked up after a reload (attach) stamps nothing it did not see: the end stays unknown, so no total time', async () => {
    clock.now = 3000
    const store = createAgentStore()
    const storage = memoryStorage()
    const fetch = timedFetch((request) => (request.method === 'POST' ? { frames: answer(3000, false), hold: true } : { frames: answer(3000) }))
    const options = {
      url: 'http://agent.test/api/chat', protocol: 'ui-message', fetch, scheduler: syncScheduler, clock: read,
      resume: { strategy: 'ai-sdk' as const, conversationKey: 'timing', storage, resumeUrl: 'http://agent.test/api/chat' },
    }
    const leaving = new AgentClient(store, options)
    const sending = leaving.send('Hi')
    for (let i = 0; i < 200 && assistant(store)?.timing?.runs[0]?.firstTokenAt === undefined; i++) await new Promise((r) => setTimeout(r, 2))
    await new Promise((r) => setTimeout(r, 10))
    leaving.dispose()
    await sending
    expect(storage.getItem(resumeStorageKey('timing'))).not.toBeNull()
    expect(assistant(store).timing).toEqual({ runs: [{ startedAt: 3000, firstTokenAt: 3300 }] })

    clock.now = 9000
    const next = new AgentClient(store, options)
    expect(await next.attach()).toBe(true)
    const turn = assistant(store)
    expect(turn.status).toBe('done')
    expect(turn.timing).toEqual({ runs: [{ startedAt: 3000, firstTokenAt: 3300 }] })
    expect(usageFigures(turn)).toMatchObject({ firstTokenMs: 300, outputTokens: 10 })
    expect(usageFigures(turn).totalMs).toBeUndefined()
    expect(usageFigures(turn).tokensPerSecond).toBeUndefined()
  })
})
