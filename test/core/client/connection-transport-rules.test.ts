/**
 * One connection, read through a transport the test scripts batch by batch: a
 * transport that yields more after a stop (nothing of it is folded), a send the
 * server answers 204 (read as an empty stream, not as a resume with nothing
 * left), and the URL the handle names through reconnects (the first request's,
 * never a resume request's).
 */
import { describe, expect, it } from 'vitest'
import type { AgentClientOptions } from '../../../src/core/client/options'
import { messageIn } from '../../../src/core/model/message-table'
import type { AgentState } from '../../../src/core/model/model'
import type { ResumeState, ResumeStrategy } from '../../../src/core/resume/types'
import { memoryStorage } from '../../../src/core/resume/storage'
import { createAgentStore } from '../../../src/core/store/store'
import type { SSEFrame } from '../../../src/core/transport/frames'
import type { StreamEndReason } from '../../../src/core/transport/open-stream'
import type { StreamTransport, TransportStream } from '../../../src/core/transport/transport'
import { aiSdkResume } from '../../../src/protocols/ui-message/index'
import { AgentClient } from '../../helpers/built-in-client'
import { ScriptedAgent } from '../../helpers/scripted-agent'

const URL = 'http://agent.invalid/api/chat'
const textOf = (s: AgentState, turnId: string) =>
  s.turns[turnId]!.messageIds.map((id) => messageIn(s.messages, id)!).filter((m) => m.type === 'text').map((m) => String(m.props.content)).join('')
const framesOf = (...chunks: unknown[]): SSEFrame[] => chunks.map((chunk) => ({ data: JSON.stringify(chunk) }))
const tick = () => new Promise((resolve) => setTimeout(resolve, 0))

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await tick()
  expect(check()).toBe(true)
}

/** A transport that ignores the abort: it yields `first`, waits for `release`, yields `second` and ends. */
function stubbornTransport(first: SSEFrame[], second: SSEFrame[]) {
  let release!: () => void
  const released = new Promise<void>((resolve) => (release = resolve))
  const opened: AbortSignal[] = []
  let endReason: StreamEndReason | undefined
  const transport: StreamTransport = {
    open: async (request) => {
      opened.push(request.signal!)
      const stream: TransportStream = {
        status: 200,
        headers: new Headers({ 'content-type': 'text/event-stream' }),
        batches: (async function* () {
          yield first
          await released
          yield second
          endReason = 'eof'
        })(),
        get endReason() {
          return endReason
        },
        settle: () => undefined,
      }
      return stream
    },
  }
  return { transport, release: () => release(), opened }
}

describe('a transport that goes on after a stop', () => {
  it('what it yields after the stop is not folded: the turn keeps what came before and ends aborted', async () => {
    const { transport, release, opened } = stubbornTransport(
      framesOf({ type: 'start', messageId: 'm1' }, { type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'before' }),
      framesOf({ type: 'text-delta', id: 't', delta: ' after' }, { type: 'text-end', id: 't' }, { type: 'finish' }),
    )
    const store = createAgentStore()
    const client = new AgentClient(store, { url: URL, protocol: 'ui-message', transport })
    const sending = client.send('q')
    await until(() => {
      const s = store.getState()
      return s.turnIds.length === 2 && textOf(s, s.turnIds[1]!) === 'before'
    })
    client.stop()
    expect(opened[0]!.aborted).toBe(true)
    release()
    await sending
    await tick()
    const s = store.getState()
    const turn = s.turns[s.turnIds[1]!]!
    expect(textOf(s, turn.id)).toBe('before')
    expect(turn.status).toBe('aborted')
    expect(turn.problems).toEqual([])
    expect(s.status).toBe('aborted')
    expect(client.busy).toBe(false)
  })
})

describe('a send the server answers 204', () => {
  it('is read as a stream that ended with nothing in it, the way an empty 200 is', async () => {
    const stores = [204, 200].map(() => createAgentStore())
    const agents = [new ScriptedAgent().next({ status: 204 }), new ScriptedAgent().next({ frames: [], then: 'end' })]
    for (const [i, store] of stores.entries()) await new AgentClient(store, { url: URL, protocol: 'ui-message', fetch: agents[i]!.fetch }).send('q')
    const [noContent, empty] = stores.map((store) => {
      const s = store.getState()
      const turn = s.turns[s.turnIds[1]!]!
      const { turnId, ...cursor } = s.cursor
      return { turnId: turnId === turn.id, status: s.status, turn: { status: turn.status, messages: turn.messageIds.length, problems: turn.problems.map((p) => p.code ?? p.type) }, cursor }
    })
    expect(noContent).toEqual(empty)
    expect(noContent).toEqual({
      turnId: true, status: 'aborted', turn: { status: 'aborted', messages: 0, problems: ['truncated'] },
      cursor: { protocol: 'ui-message', eventCount: 0, lastEventId: undefined, sequence: undefined, streamId: undefined },
    })
  })
})

describe('the URL a handle names', () => {
  it('is the first request\'s, through every reconnect', async () => {
    const seen: Array<string | undefined> = []
    const inner = aiSdkResume()
    const strategy: ResumeStrategy = {
      ...inner,
      handle: (state: ResumeState) => {
        seen.push(state.streamUrl)
        return inner.handle(state as Parameters<typeof inner.handle>[0])
      },
    } as ResumeStrategy
    const agent = new ScriptedAgent()
    const partial = [{ type: 'start', messageId: 'm1' }, { type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'a' }]
    // Each reconnect replays the turn and brings one more delta before it drops again.
    agent.next(
      { frames: partial, then: 'drop' },
      { frames: [...partial, { type: 'text-delta', id: 't', delta: 'b' }], then: 'drop' },
      { frames: [...partial, { type: 'text-delta', id: 't', delta: 'b' }, { type: 'text-delta', id: 't', delta: 'c' }, { type: 'text-end', id: 't' }, { type: 'finish' }], then: 'end', done: true },
    )
    const store = createAgentStore()
    const options: AgentClientOptions = {
      url: URL, protocol: 'ui-message', fetch: agent.fetch,
      resume: { conversationKey: 'c1', storage: memoryStorage(), strategy, maxRetries: 2, backoff: { sleep: async () => true } },
    }
    await new AgentClient(store, options).send('q')
    expect(agent.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['POST ' + URL, `GET ${URL}/c1/stream`, `GET ${URL}/c1/stream`])
    const s = store.getState()
    expect(textOf(s, s.turnIds[1]!)).toBe('abc')
    expect(s.status).toBe('done')
    expect(seen.length).toBeGreaterThan(2)
    expect(new Set(seen)).toEqual(new Set([URL]))
  })
})

describe('what a connection folds', () => {
  const ask = (output: unknown) => [
    { type: 'start', messageId: 'm2' }, { type: 'tool-output-available', toolCallId: 'c1', output },
    { type: 'text-start', id: 't2' }, { type: 'text-delta', id: 't2', delta: 'done' }, { type: 'text-end', id: 't2' }, { type: 'finish' },
  ]
  const toolsOf = (s: AgentState, turnId: string) => s.turns[turnId]!.messageIds.map((id) => messageIn(s.messages, id)!).filter((m) => m.type === 'tool')

  it("a continuation's result for a call an earlier stream of the turn made lands on that call's message", async () => {
    const agent = new ScriptedAgent()
    agent.next(
      { frames: [{ type: 'start', messageId: 'm1' }, { type: 'tool-input-available', toolCallId: 'c1', toolName: 'locate', input: {} }, { type: 'finish' }], then: 'end', done: true },
      { frames: ask({ city: 'Paris' }), then: 'end', done: true },
    )
    const store = createAgentStore()
    await new AgentClient(store, { url: URL, protocol: 'ui-message', fetch: agent.fetch, tools: { locate: { execute: () => ({ city: 'Lyon' }) } } }).send('where?')
    const s = store.getState()
    const turnId = s.turnIds[1]!
    expect(agent.posts).toHaveLength(2)
    const tools = toolsOf(s, turnId)
    expect(tools).toHaveLength(1)
    expect(tools[0]!.props).toMatchObject({ toolCallId: 'c1', name: 'locate', state: 'output-available', output: { city: 'Paris' } })
    expect(s.turns[turnId]!.problems).toEqual([])
    expect(s.turns[turnId]!.status).toBe('done')
  })

  it('a result for a call no stream of the turn made: the call is started under the name "tool" and reported as repaired', async () => {
    const agent = new ScriptedAgent()
    agent.next({ frames: ask(1), then: 'end', done: true })
    const store = createAgentStore()
    await new AgentClient(store, { url: URL, protocol: 'ui-message', fetch: agent.fetch }).send('where?')
    const s = store.getState()
    const turnId = s.turnIds[1]!
    const tools = toolsOf(s, turnId)
    expect(tools).toHaveLength(1)
    expect(tools[0]!.props).toMatchObject({ toolCallId: 'c1', name: 'tool', output: 1 })
    expect(s.turns[turnId]!.problems.map((p) => p.code)).toEqual(['repaired'])
    expect(s.turns[turnId]!.status).toBe('done')
  })

  it('a turn replayed into a fresh store is the active turn while it streams', async () => {
    const agent = new ScriptedAgent()
    const storage = memoryStorage()
    const resume = { conversationKey: 'a', storage, maxRetries: 1, backoff: { sleep: async () => true } }
    const partial = [{ type: 'start', messageId: 'm1' }, { type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'partial' }]
    agent.next({ frames: partial, then: 'drop' }, { status: 503 })
    await new AgentClient(createAgentStore(), { url: URL, protocol: 'ui-message', fetch: agent.fetch, resume }).send('q')
    const fresh = createAgentStore()
    agent.next({ frames: partial, then: 'open' })
    const client = new AgentClient(fresh, { url: URL, protocol: 'ui-message', fetch: agent.fetch, resume })
    const attaching = client.attach()
    await until(() => fresh.getState().turnIds.length === 1 && textOf(fresh.getState(), fresh.getState().turnIds[0]!) === 'partial')
    const s = fresh.getState()
    expect(s.activeTurnId).toBe(s.turnIds[0])
    expect(s.turns[s.turnIds[0]!]).toMatchObject({ role: 'assistant', status: 'streaming', protocol: 'ui-message' })
    client.stop()
    await attaching
  })

  it('a resumable first response with an empty body is a lost connection: the client reconnects', async () => {
    const agent = new ScriptedAgent()
    agent.next({ frames: [], then: 'end' })
    const store = createAgentStore()
    await new AgentClient(store, {
      url: URL, protocol: 'ui-message', fetch: agent.fetch,
      resume: { conversationKey: 'c1', storage: memoryStorage(), maxRetries: 1, backoff: { sleep: async () => true } },
    }).send('q')
    const s = store.getState()
    expect(agent.requests.map((r) => r.method)).toEqual(['POST', 'GET'])
    expect(s.turns[s.turnIds[1]!]!.status).toBe('done')
    expect(textOf(s, s.turnIds[1]!)).toBe('answer 1')
  })
})

describe('a body held open after the protocol ended', () => {
  it('without endGraceMs the default grace closes it: the turn is done and the client idle, though the server never closes', async () => {
    const agent = new ScriptedAgent()
    const whole = [{ type: 'start', messageId: 'm1' }, { type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'all' }, { type: 'text-end', id: 't' }, { type: 'finish' }]
    agent.next({ frames: whole, then: 'open' })
    const store = createAgentStore()
    const client = new AgentClient(store, { url: URL, protocol: 'ui-message', fetch: agent.fetch })
    const started = Date.now()
    await client.send('q')
    const s = store.getState()
    expect(s.turns[s.turnIds[1]!]!.status).toBe('done')
    expect(textOf(s, s.turnIds[1]!)).toBe('all')
    expect(client.busy).toBe(false)
    expect(Date.now() - started).toBeLessThan(5000)
    agent.closeAll()
  })
})
