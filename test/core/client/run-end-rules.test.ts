/**
 * How a run ends, exactly, against a scripted fetch: done (and `onFinish`), a
 * failed request, a connection lost without a resume strategy, and with one: a
 * resume the server no longer has (404, 405, 410), one with nothing left (204),
 * a reconnect budget spent (parked, then `retry()`), a resume request refused
 * outright; plus what a run hands its transport and a host listener that throws.
 */
import { describe, expect, it } from 'vitest'
import type { AgentClientOptions } from '../../../src/core/client/options'
import { messageIn } from '../../../src/core/model/message-table'
import type { AgentState } from '../../../src/core/model/model'
import { RESUME_EXPIRED } from '../../../src/core/index'
import type { WeftError } from '../../../src/core/model/errors'
import { aiSdkResume } from '../../../src/protocols/ui-message/index'
import { memoryStorage } from '../../../src/core/resume/storage'
import { createAgentStore } from '../../../src/core/store/store'
import { httpSseTransport } from '../../../src/core/transport/transport'
import { AgentClient } from '../../helpers/built-in-client'
import { answer, ScriptedAgent } from '../../helpers/scripted-agent'

const URL = 'http://agent.invalid/api/chat'
const partial = [{ type: 'start', messageId: 'm1' }, { type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'partial' }]
const textOf = (s: AgentState, turnId: string) => s.turns[turnId]!.messageIds.map((id) => messageIn(s.messages, id)!).filter((m) => m.type === 'text').map((m) => String(m.props.content)).join('')

function setup(extra: Partial<AgentClientOptions> = {}, resumable = true) {
  const store = createAgentStore()
  const agent = new ScriptedAgent()
  const finished: string[] = []
  const errors: unknown[] = []
  const storage = memoryStorage()
  const client = new AgentClient(store, {
    url: URL, protocol: 'ui-message', fetch: agent.fetch, conversationId: 'c1',
    onFinish: (turnId) => void finished.push(turnId), onError: (e) => void errors.push(e),
    ...(resumable ? { resume: { conversationKey: 'c1', storage, maxRetries: 1, backoff: { sleep: async () => true } } } : {}),
    ...extra,
  })
  const answerTurn = () => store.getState().turns[store.getState().turnIds[1]!]!
  return { store, agent, client, finished, errors, storage, answerTurn }
}

describe('a run that ends well', () => {
  it('done: the turn and the stream say so, and onFinish hears the turn once', async () => {
    const { store, client, finished, answerTurn } = setup({}, false)
    await client.send('q')
    expect(answerTurn().status).toBe('done')
    expect(store.getState().status).toBe('done')
    expect(finished).toEqual([store.getState().turnIds[1]])
    expect(client.busy).toBe(false)
  })

  it('an error the agent sends: the turn ends in it, the stream shows it, onFinish is not called', async () => {
    const { store, agent, client, finished, answerTurn } = setup({}, false)
    agent.next({ frames: [{ type: 'start', messageId: 'm1' }, { type: 'error', errorText: 'model overloaded' }], then: 'end', done: true })
    await client.send('q')
    expect(answerTurn().status).toBe('error')
    expect(store.getState().status).toBe('error')
    expect(store.getState().error).toEqual(answerTurn().error)
    expect(finished).toEqual([])
  })
})

describe('a run that fails', () => {
  it('a refused request: the turn and the stream carry the HTTP error', async () => {
    const { store, agent, client, errors, answerTurn } = setup({}, false)
    agent.next({ status: 429, body: 'slow down' })
    await client.send('q')
    const error = store.getState().error
    expect(error).toMatchObject({ status: 429, message: 'HTTP 429', detail: 'slow down' })
    expect(answerTurn().status).toBe('error')
    expect(answerTurn().error).toEqual(error)
    expect(store.getState().status).toBe('error')
    expect(errors).toHaveLength(1)
  })

  it('a lost connection without a resume strategy fails with a network error and keeps the text', async () => {
    const { store, agent, client, answerTurn } = setup({}, false)
    agent.next({ frames: partial, then: 'drop' })
    await client.send('q')
    expect(store.getState().status).toBe('error')
    expect(store.getState().error).toMatchObject({ type: 'network' })
    expect(answerTurn().status).toBe('error')
    expect(textOf(store.getState(), store.getState().turnIds[1]!)).toBe('partial')
    expect(agent.requests).toHaveLength(1)
  })
})

describe('a lost connection with a resume strategy', () => {
  for (const status of [404, 405, 410]) {
    it(`a resume answered ${status}: the stream is gone, so the turn is interrupted with the text it has`, async () => {
      const { store, agent, client, finished, answerTurn } = setup()
      agent.next({ frames: partial, then: 'drop' }, { status })
      await client.send('q')
      const s = store.getState()
      expect(agent.requests.map((r) => `${r.method} ${r.url}`)).toEqual([`POST ${URL}`, `GET ${URL}/c1/stream`])
      expect(answerTurn().status).toBe('aborted')
      expect(answerTurn().problems).toEqual([{ type: 'validation', message: `HTTP ${status}`, retryable: false, status, code: 'resume_expired' }])
      expect(s.status).toBe('aborted')
      expect(textOf(s, s.turnIds[1]!)).toBe('partial')
      expect(finished).toEqual([])
      expect(client.busy).toBe(false)
      // The handle went with the stream: there is nothing to attach to.
      expect(await client.attach()).toBe(false)
    })
  }

  it('a resume with nothing left (204): the answer stopped short, so the turn is interrupted with what arrived', async () => {
    const { store, agent, client, answerTurn } = setup({
      fetch: (async (input: RequestInfo | URL, init?: RequestInit) => {
        if ((init?.method ?? 'GET') === 'GET') return new Response(null, { status: 204 })
        return agent.fetch(input, init)
      }) as typeof fetch,
    })
    agent.next({ frames: partial, then: 'drop' })
    await client.send('q')
    const s = store.getState()
    expect(client.busy).toBe(false)
    expect(answerTurn().status).toBe('aborted')
    expect(answerTurn().problems.map((p) => p.code)).toEqual(['truncated'])
    expect(textOf(s, s.turnIds[1]!)).toBe('partial')
    expect(s.status).toBe('aborted')
  })

  it('a spent reconnect budget parks the run with its turn open; retry() goes on to the end', async () => {
    const { store, agent, client, answerTurn } = setup()
    agent.next({ frames: partial, then: 'drop' }, { status: 503 })
    await client.send('q')
    let s = store.getState()
    expect(s.status).toBe('error')
    expect(s.error).toEqual({
      type: 'network', message: 'The connection was lost and one reconnect failed: HTTP 503', retryable: true, code: 'resume_exhausted', status: 503,
    })
    expect(answerTurn().status).toBe('streaming')
    expect(client.busy).toBe(false)

    agent.next({
      frames: [...partial, { type: 'text-delta', id: 't', delta: ' and the rest' }, { type: 'text-end', id: 't' }, { type: 'finish' }],
      then: 'end', done: true,
    })
    await client.retry()
    s = store.getState()
    expect(agent.requests.map((r) => r.method)).toEqual(['POST', 'GET', 'GET'])
    expect(answerTurn().status).toBe('done')
    expect(textOf(s, s.turnIds[1]!)).toBe('partial and the rest')
    expect(s.status).toBe('done')
  })

  it('a resume request refused outright (400) parks at once with that error', async () => {
    const { store, agent, client, answerTurn } = setup()
    agent.next({ frames: partial, then: 'drop' }, { status: 400, body: 'bad' })
    await client.send('q')
    expect(agent.requests).toHaveLength(2)
    expect(store.getState().status).toBe('error')
    expect(store.getState().error).toMatchObject({ type: 'validation', message: 'HTTP 400', retryable: false, status: 400 })
    expect(answerTurn().status).toBe('streaming')
  })

  it('a stop while parked aborts the turn and forgets the handle', async () => {
    const { store, agent, client, answerTurn } = setup()
    agent.next({ frames: partial, then: 'drop' }, { status: 503 })
    await client.send('q')
    client.stop()
    expect(answerTurn().status).toBe('aborted')
    expect(store.getState().status).toBe('aborted')
    expect(await client.attach()).toBe(false)
  })
})

describe('what a run hands on', () => {
  it('its transport gets the request with the signal, the client fetch, the idle timeout and readPastDone', async () => {
    const seen: Array<Record<string, unknown>> = []
    const agent = new ScriptedAgent()
    const store = createAgentStore()
    const client = new AgentClient(store, {
      url: URL, protocol: 'ui-message', fetch: agent.fetch, idleTimeoutMs: 1234, conversationId: 'c1',
      transport: {
        open: (request, hooks) => {
          seen.push({ url: request.url, method: request.method, fetch: request.fetch, idle: request.idleTimeoutMs, readPastDone: request.readPastDone, signal: request.signal instanceof AbortSignal, onRetry: typeof hooks?.onRetry })
          return httpSseTransport.open(request, hooks)
        },
      },
    })
    await client.send('q')
    expect(seen).toEqual([{ url: URL, method: 'POST', fetch: agent.fetch, idle: 1234, readPastDone: true, signal: true, onRetry: 'function' }])
    expect(store.getState().status).toBe('done')
  })

  it('a host listener that throws on a batch: the turn records it as a problem and the run goes on', async () => {
    const { store, agent, client, answerTurn } = setup({}, false)
    agent.next(answer('fine'))
    let thrown = false
    store.subscribe((s) => {
      if (!thrown && s.status === 'streaming') {
        thrown = true
        throw new Error('listener broke')
      }
    })
    await client.send('q')
    expect(answerTurn().problems.filter((p) => p.message === 'listener broke').map((p) => p.type)).toEqual(['unknown'])
    expect(textOf(store.getState(), store.getState().turnIds[1]!)).toBe('fine')
  })
})

describe('a parked run and the next send', () => {
  const options = (agent: ScriptedAgent, storage: ReturnType<typeof memoryStorage>, key: string): AgentClientOptions => ({
    url: URL, protocol: 'ui-message', fetch: agent.fetch, resume: { conversationKey: key, storage, maxRetries: 1, backoff: { sleep: async () => true } },
  })

  it('a send in the same conversation ends the parked run: its turn is aborted', async () => {
    const agent = new ScriptedAgent()
    const storage = memoryStorage()
    const store = createAgentStore()
    const client = new AgentClient(store, options(agent, storage, 'a'))
    agent.next({ frames: partial, then: 'drop' }, { status: 503 })
    await client.send('q')
    const parked = store.getState().turnIds[1]!
    expect(store.getState().turns[parked]!.status).toBe('streaming')
    await client.send('again')
    expect(store.getState().turns[parked]!.status).toBe('aborted')
  })

  it('a send in another conversation leaves the parked run of the first resumable there', async () => {
    const agent = new ScriptedAgent()
    const storage = memoryStorage()
    const client = new AgentClient(createAgentStore(), options(agent, storage, 'a'))
    agent.next({ frames: partial, then: 'drop' }, { status: 503 })
    await client.send('q')
    client.setOptions(options(agent, storage, 'b'))
    await client.send('other')
    const elsewhere = new AgentClient(createAgentStore(), options(agent, storage, 'a'))
    agent.next({ frames: [...partial, { type: 'text-end', id: 't' }, { type: 'finish' }], then: 'end', done: true })
    expect(await elsewhere.attach()).toBe(true)
    expect(elsewhere.store.getState().status).toBe('done')
  })
})

describe('while a run streams', () => {
  it('a client tool starts as soon as its call is complete, before the stream ends', async () => {
    const agent = new ScriptedAgent()
    const store = createAgentStore()
    const started: string[] = []
    const client = new AgentClient(store, {
      url: URL, protocol: 'ui-message', fetch: agent.fetch, tools: { locate: { execute: () => { started.push(store.getState().status); return { city: 'Lyon' } } } },
    })
    agent.next({ frames: [{ type: 'start', messageId: 'm1' }, { type: 'tool-input-available', toolCallId: 'c1', toolName: 'locate', input: {} }], then: 'open' })
    const sending = client.send('where?')
    for (let i = 0; i < 200 && started.length === 0; i++) await new Promise((r) => setTimeout(r, 5))
    expect(started).toEqual(['streaming'])
    agent.closeAll(true)
    await sending
  })

  it('without a protocol named, the one the stream is read as is recorded on the turn and the cursor', async () => {
    const agent = new ScriptedAgent()
    const store = createAgentStore()
    const client = new AgentClient(store, { url: URL, fetch: agent.fetch })
    await client.send('q')
    const s = store.getState()
    expect(s.turns[s.turnIds[1]!]!.protocol).toBe('ui-message')
    expect(s.cursor.protocol).toBe('ui-message')
    expect(textOf(s, s.turnIds[1]!)).toBe('answer 1')
  })
})

describe('attach and retry with a stored handle', () => {
  const resumable = (agent: ScriptedAgent, storage: ReturnType<typeof memoryStorage>): AgentClientOptions => ({
    url: URL, protocol: 'ui-message', fetch: agent.fetch, resume: { conversationKey: 'a', storage, maxRetries: 1, backoff: { sleep: async () => true } },
  })
  const whole = [...partial, { type: 'text-delta', id: 't', delta: ' and the rest' }, { type: 'text-end', id: 't' }, { type: 'finish' }]

  async function parkedIn(agent: ScriptedAgent, storage: ReturnType<typeof memoryStorage>) {
    const store = createAgentStore()
    agent.next({ frames: partial, then: 'drop' }, { status: 503 })
    await new AgentClient(store, resumable(agent, storage)).send('q')
    return store
  }

  it('retry() on a new client with no run of its own attaches to the stored handle and replays the turn', async () => {
    const agent = new ScriptedAgent()
    const storage = memoryStorage()
    await parkedIn(agent, storage)
    const fresh = new AgentClient(createAgentStore(), resumable(agent, storage))
    agent.next({ frames: whole, then: 'end', done: true })
    await fresh.retry()
    const s = fresh.store.getState()
    expect(agent.requests.map((r) => r.method)).toEqual(['POST', 'GET', 'GET'])
    expect(s.turnIds).toHaveLength(1)
    expect(textOf(s, s.turnIds[0]!)).toBe('partial and the rest')
    expect(s.status).toBe('done')
  })

  it('attach() to a handle whose turn the store shows ended: false, and the handle goes', async () => {
    const agent = new ScriptedAgent()
    const storage = memoryStorage()
    const store = await parkedIn(agent, storage)
    const turnId = store.getState().turnIds[1]!
    store.getState().dispatch([{ op: 'turn.finish', turnId, status: 'done' }])
    expect(await new AgentClient(store, resumable(agent, storage)).attach()).toBe(false)
    expect(agent.requests).toHaveLength(2)
    expect(await new AgentClient(createAgentStore(), resumable(agent, storage)).attach()).toBe(false)
    expect(agent.requests).toHaveLength(2)
  })

  it('attach() with a resume that cannot bind (no strategy, no protocol): the stream shows the error, onError hears it, nothing is asked', async () => {
    const agent = new ScriptedAgent()
    const store = createAgentStore()
    const errors: WeftError[] = []
    const client = new AgentClient(store, { url: URL, fetch: agent.fetch, onError: (e) => void errors.push(e), resume: { conversationKey: 'a', storage: memoryStorage() } })
    expect(await client.attach()).toBe(false)
    expect(errors.map((e) => [e.type, e.message])).toEqual([['validation', 'resume needs a strategy: name one, or give the client a protocol that has one']])
    expect(store.getState().status).toBe('error')
    expect(store.getState().error).toEqual(errors[0])
    expect(agent.requests).toHaveLength(0)
  })

  it('attach() into a fresh store with a strategy that cannot replay a turn from its start: the run ends at once, the handle goes, nothing is asked', async () => {
    const agent = new ScriptedAgent()
    const storage = memoryStorage()
    await parkedIn(agent, storage)
    const strategy = { ...aiSdkResume(), replaysFromStart: false }
    const store = createAgentStore()
    const errors: WeftError[] = []
    const options: AgentClientOptions = { ...resumable(agent, storage), onError: (e) => void errors.push(e) }
    const client = new AgentClient(store, { ...options, resume: { ...options.resume!, strategy } })
    expect(await client.attach()).toBe(true)
    expect(agent.requests).toHaveLength(2)
    expect(errors.map((e) => [e.code, e.message, e.retryable])).toEqual([[RESUME_EXPIRED, 'this stream cannot be replayed from its start', false]])
    expect(store.getState().status).toBe('error')
    expect(client.busy).toBe(false)
    // The handle went: a second attach finds nothing.
    expect(await new AgentClient(createAgentStore(), resumable(agent, storage)).attach()).toBe(false)
    expect(agent.requests).toHaveLength(2)
  })

  it('attach() on the store that holds the streaming turn asks only for the rest, into the same turn', async () => {
    const agent = new ScriptedAgent()
    const storage = memoryStorage()
    const store = await parkedIn(agent, storage)
    const turnId = store.getState().turnIds[1]!
    agent.next({ frames: whole, then: 'end', done: true })
    expect(await new AgentClient(store, resumable(agent, storage)).attach()).toBe(true)
    const s = store.getState()
    expect(s.turnIds).toEqual([s.turnIds[0], turnId])
    expect(textOf(s, turnId)).toBe('partial and the rest')
    expect(s.turns[turnId]!.status).toBe('done')
  })
})
