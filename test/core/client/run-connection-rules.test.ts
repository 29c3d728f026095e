/**
 * How one connection's end is read, exactly, through the live client: a body
 * that fails after the protocol's own end, a reconnect that brings nothing new,
 * a clean close before the end, the SSE `id:` rules for the cursor, a frame that
 * is not JSON, a replayed turn opened in a fresh store, and the agent state a
 * decoder starts from.
 */
import { describe, expect, it } from 'vitest'
import type { AgentClientOptions } from '../../../src/core/client/options'
import { messageIn } from '../../../src/core/model/message-table'
import type { AgentState } from '../../../src/core/model/model'
import { memoryStorage } from '../../../src/core/resume/storage'
import { createAgentStore } from '../../../src/core/store/store'
import { AgentClient } from '../../helpers/built-in-client'
import { ScriptedAgent } from '../../helpers/scripted-agent'

const URL = 'http://agent.invalid/api/chat'
const partial = [{ type: 'start', messageId: 'm1' }, { type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'partial' }]
const rest = [{ type: 'text-delta', id: 't', delta: ' and the rest' }, { type: 'text-end', id: 't' }, { type: 'finish' }]
const textOf = (s: AgentState, turnId: string) =>
  s.turns[turnId]!.messageIds.map((id) => messageIn(s.messages, id)!).filter((m) => m.type === 'text').map((m) => String(m.props.content)).join('')

function resumable(agent: ScriptedAgent, extra: Partial<NonNullable<AgentClientOptions['resume']>> = {}): AgentClientOptions {
  return {
    url: URL, protocol: 'ui-message', fetch: agent.fetch,
    resume: { conversationKey: 'c1', storage: memoryStorage(), maxRetries: 1, backoff: { sleep: async () => true }, ...extra },
  }
}

/** A fetch that answers every request with the same SSE text, then ends the body or fails it. */
function sseFetch(text: string, then: 'end' | 'drop' = 'end', headers: Record<string, string> = {}): typeof fetch {
  return (async () => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(text))
        if (then === 'end') controller.close()
        else setTimeout(() => controller.error(new TypeError('network error: connection reset')), 5)
      },
    })
    return new Response(body, { headers: { 'content-type': 'text/event-stream', ...headers } })
  }) as typeof fetch
}

describe('how a connection ends', () => {
  it('a body that fails after the protocol said it was finished: the turn is done and nothing reconnects', async () => {
    const agent = new ScriptedAgent()
    agent.next({ frames: [...partial, ...rest], then: 'drop' })
    const store = createAgentStore()
    await new AgentClient(store, resumable(agent)).send('q')
    const s = store.getState()
    expect(agent.requests.map((r) => r.method)).toEqual(['POST'])
    expect(s.status).toBe('done')
    expect(s.turns[s.turnIds[1]!]!.status).toBe('done')
    expect(textOf(s, s.turnIds[1]!)).toBe('partial and the rest')
  })

  it('a reconnect that closes cleanly with nothing new: the answer stays cut short, interrupted, and no further reconnect is made', async () => {
    const agent = new ScriptedAgent()
    agent.next({ frames: partial, then: 'drop' }, { frames: [], then: 'end' })
    const store = createAgentStore()
    await new AgentClient(store, resumable(agent, { maxRetries: 3 })).send('q')
    const s = store.getState()
    const turn = s.turns[s.turnIds[1]!]!
    expect(agent.requests.map((r) => r.method)).toEqual(['POST', 'GET'])
    expect(turn.status).toBe('aborted')
    expect(s.status).toBe('aborted')
    expect(textOf(s, turn.id)).toBe('partial')
  })

  it('a first response that closes cleanly before the end, with no reconnect left: parked with a network error that says so', async () => {
    const agent = new ScriptedAgent()
    agent.next({ frames: partial, then: 'end' })
    const store = createAgentStore()
    await new AgentClient(store, resumable(agent, { maxRetries: 0 })).send('q')
    const s = store.getState()
    expect(agent.requests.map((r) => r.method)).toEqual(['POST'])
    expect(s.status).toBe('error')
    expect(s.error).toMatchObject({ type: 'network', message: 'The connection was lost and 0 reconnects failed: the stream ended before the agent finished' })
    // Parked: the turn stays open for retry().
    expect(s.turns[s.turnIds[1]!]!.status).toBe('streaming')
  })

  it('a first request the server refuses with 404, with resume on: a failed request, not an expired stream', async () => {
    const agent = new ScriptedAgent()
    agent.next({ status: 404, body: 'no such route' })
    const store = createAgentStore()
    await new AgentClient(store, resumable(agent)).send('q')
    const s = store.getState()
    expect(s.status).toBe('error')
    expect(s.error).toMatchObject({ status: 404 })
    expect(s.error?.code).toBeUndefined()
    expect(agent.requests).toHaveLength(1)
  })
})

describe('what each frame leaves behind', () => {
  it("the cursor keeps the last SSE id: a frame without one keeps it, an empty id: clears it", async () => {
    const frames = [
      'id: e1\ndata: {"type":"start","messageId":"m1"}\n\n',
      'id: e2\ndata: {"type":"text-start","id":"t"}\n\n',
      'data: {"type":"text-delta","id":"t","delta":"a"}\n\n',
    ].join('')
    const kept = createAgentStore()
    await new AgentClient(kept, { url: URL, protocol: 'ui-message', fetch: sseFetch(frames) }).send('q')
    expect(kept.getState().cursor.lastEventId).toBe('e2')

    const cleared = createAgentStore()
    await new AgentClient(cleared, { url: URL, protocol: 'ui-message', fetch: sseFetch(`${frames}id\ndata: {"type":"text-delta","id":"t","delta":"b"}\n\n`) }).send('q')
    expect(cleared.getState().cursor.lastEventId).toBeUndefined()
  })

  it('a frame that is not JSON is a typed problem on the turn, and the frames after it still fold', async () => {
    const text = [
      'data: {"type":"start","messageId":"m1"}\n\n', 'data: {"type":"text-start","id":"t"}\n\n',
      'data: {not json\n\n',
      'data: {"type":"text-delta","id":"t","delta":"after"}\n\n', 'data: {"type":"text-end","id":"t"}\n\n', 'data: {"type":"finish"}\n\n', 'data: [DONE]\n\n',
    ].join('')
    const store = createAgentStore()
    await new AgentClient(store, { url: URL, protocol: 'ui-message', fetch: sseFetch(text) }).send('q')
    const s = store.getState()
    const turn = s.turns[s.turnIds[1]!]!
    expect(textOf(s, turn.id)).toBe('after')
    expect(turn.status).toBe('done')
    expect(turn.problems.map((p) => p.type)).toEqual(['protocol'])
    expect(turn.problems[0]!.detail).toContain('{not json')
  })

  it('a turn replayed into a fresh store is opened as the assistant turn of the protocol the handle names', async () => {
    const agent = new ScriptedAgent()
    const storage = memoryStorage()
    agent.next({ frames: partial, then: 'drop' }, { status: 503 })
    await new AgentClient(createAgentStore(), resumable(agent, { storage, conversationKey: 'a' })).send('q')
    const fresh = createAgentStore()
    agent.next({ frames: [...partial, ...rest], then: 'end', done: true })
    expect(await new AgentClient(fresh, resumable(agent, { storage, conversationKey: 'a' })).attach()).toBe(true)
    const s = fresh.getState()
    expect(s.turnIds).toHaveLength(1)
    const turn = s.turns[s.turnIds[0]!]!
    expect(turn).toMatchObject({ role: 'assistant', protocol: 'ui-message', status: 'done' })
    expect(textOf(s, turn.id)).toBe('partial and the rest')
  })

  it("a state delta applies to the agent state the store held before the stream", async () => {
    const events = [
      { type: 'RUN_STARTED', threadId: 'th', runId: 'r1' },
      { type: 'STATE_DELTA', delta: [{ op: 'add', path: '/step', value: 2 }] },
      { type: 'RUN_FINISHED', threadId: 'th', runId: 'r1' },
    ]
    const store = createAgentStore()
    store.getState().dispatch([{ op: 'agentState.set', value: { plan: ['a', 'b'] } }])
    await new AgentClient(store, { url: URL, protocol: 'ag-ui', fetch: sseFetch(events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('')) }).send('q')
    expect(store.getState().agentState).toEqual({ plan: ['a', 'b'], step: 2 })
    expect(store.getState().status).toBe('done')
  })
})

describe('after the protocol ends', () => {
  it('bytes that keep coming within the grace are still read: a frame after [DONE] is reported as after_end, not folded', async () => {
    const encoder = new TextEncoder()
    const fetchLate = (async () => new Response(new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode(['data: {"type":"start","messageId":"m1"}\n\n', 'data: {"type":"text-start","id":"t"}\n\n',
          'data: {"type":"text-delta","id":"t","delta":"done"}\n\n', 'data: {"type":"text-end","id":"t"}\n\n', 'data: {"type":"finish"}\n\n', 'data: [DONE]\n\n'].join('')))
        setTimeout(() => {
          controller.enqueue(encoder.encode('data: {"type":"text-delta","id":"t","delta":" late"}\n\n'))
          controller.close()
        }, 40)
      },
    }), { headers: { 'content-type': 'text/event-stream' } })) as typeof fetch
    const store = createAgentStore()
    await new AgentClient(store, { url: URL, protocol: 'ui-message', fetch: fetchLate }).send('q')
    const s = store.getState()
    const turn = s.turns[s.turnIds[1]!]!
    expect(textOf(s, turn.id)).toBe('done')
    expect(turn.status).toBe('done')
    expect(turn.problems.map((p) => p.code)).toEqual(['after_end'])
  })
})
