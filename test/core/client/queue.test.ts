/**
 * Messages sent while the agent runs: queued by default (in the store, editable,
 * cancellable, sent one after another once the turn ends normally and nothing
 * waits), or steered (the run stopped, its partial answer kept, the message sent
 * at once). What a stop, a failure, a gate, a client tool, `dispose` and a switch
 * of conversation do to the queue.
 */
import { describe, expect, it } from 'vitest'
import { AgentClient } from '../../helpers/built-in-client'
import type { AgentClientOptions } from '../../../src/core/client/options'
import { messageIn } from '../../../src/core/model/message-table'
import { emptyState, type AgentState } from '../../../src/core/model/model'
import { createAgentStore } from '../../../src/core/store/store'
import { fold } from '../../../src/core/fold/fold'
import { stateProblem } from '../../../src/core/conversations/check-state'
import { ScriptedAgent, answer } from '../../helpers/scripted-agent'

const partial = (text: string) => [{ type: 'start', messageId: 'm2' }, { type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: text }]

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 400 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 5))
  if (!check()) throw new Error(`never reached: ${what}`)
}

/** The shown path as text: `Q:` questions, `A:` answers. */
const path = (s: AgentState) => s.turnIds.map((id) => {
  const turn = s.turns[id]!
  const text = turn.messageIds.map((m) => messageIn(s.messages, m)!).filter((m) => m.type === 'text').map((m) => String(m.props.content)).join('')
  return `${turn.role === 'user' ? 'Q' : 'A'}:${text}`
})
const queued = (s: AgentState) => (s.queue ?? []).map((q) => q.text)
/** The user texts a request carried (the AI SDK body's last user message). */
const lastQuestion = (body: Record<string, unknown> | undefined) => {
  const messages = (body?.messages ?? []) as Array<{ role: string; parts: Array<{ type: string; text?: string }> }>
  return messages.filter((m) => m.role === 'user').at(-1)?.parts.filter((p) => p.type === 'text').map((p) => p.text).join('')
}

function setup(extra: Partial<AgentClientOptions> = {}) {
  const store = createAgentStore()
  const agent = new ScriptedAgent()
  const client = new AgentClient(store, { url: 'http://agent.invalid/api/chat', protocol: 'ui-message', fetch: agent.fetch, ...extra })
  return { store, agent, client }
}

/** A client streaming the answer to Q1, held open after "partial". */
async function streaming(extra: Partial<AgentClientOptions> = {}) {
  const world = setup(extra)
  world.agent.next({ frames: partial('partial'), then: 'open' })
  const first = world.client.send('Q1')
  await until(() => path(world.store.getState()).at(-1) === 'A:partial', 'Q1 streaming')
  return { ...world, first }
}

describe('queue (the default)', () => {
  it('keeps a message sent while streaming in the store, sends nothing, and sends it once the answer ends', async () => {
    const { store, agent, client, first } = await streaming()
    await client.send('Q2')
    expect(queued(store.getState())).toEqual(['Q2'])
    expect(agent.posts).toHaveLength(1)
    expect(path(store.getState())).toEqual(['Q:Q1', 'A:partial'])
    agent.closeAll(true)
    await first
    await until(() => !client.busy && store.getState().queue === undefined && store.getState().turnIds.length === 4, 'Q2 answered')
    expect(path(store.getState())).toEqual(['Q:Q1', 'A:partial', 'Q:Q2', 'A:answer 1'])
    expect(agent.posts).toHaveLength(2)
    expect(lastQuestion(agent.posts[1]!.body)).toBe('Q2')
  })

  it('sends several queued messages one after another, in order, each as its own question, with their edits and without the cancelled', async () => {
    const { store, agent, client, first } = await streaming()
    await client.send('Q2')
    await client.send('Q3')
    await client.send('Q4')
    const [q2, q3, q4] = store.getState().queue!
    expect(client.editQueued(q3!.id, 'Q3 edited')).toEqual({ ok: true })
    expect(client.cancelQueued(q4!.id)).toEqual({ ok: true })
    expect(queued(store.getState())).toEqual(['Q2', 'Q3 edited'])
    agent.next({ frames: partial('second'), then: 'open' })
    agent.closeAll(true)
    await first
    // Q2's answer streams: Q3 still waits, and may still change.
    await until(() => path(store.getState()).at(-1) === 'A:second', 'Q2 streaming')
    expect(queued(store.getState())).toEqual(['Q3 edited'])
    expect(agent.posts).toHaveLength(2)
    expect(client.editQueued(q3!.id, 'Q3 final')).toEqual({ ok: true })
    agent.closeAll(true)
    await until(() => !client.busy && store.getState().turnIds.length === 6, 'Q3 answered')
    expect(path(store.getState())).toEqual(['Q:Q1', 'A:partial', 'Q:Q2', 'A:second', 'Q:Q3 final', 'A:answer 1'])
    expect(agent.posts.map((p) => lastQuestion(p.body))).toEqual(['Q1', 'Q2', 'Q3 final'])
    expect(store.getState().queue).toBeUndefined()
    // Sent or cancelled, a queued message can no longer change.
    expect(client.editQueued(q2!.id, 'late').ok).toBe(false)
    expect(client.cancelQueued(q4!.id).ok).toBe(false)
  })

  it('keeps the queue after a stop and sends nothing until sendQueued, then the rest go after it', async () => {
    const { store, agent, client, first } = await streaming()
    await client.send('Q2')
    await client.send('Q3')
    client.stop()
    await first
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(queued(store.getState())).toEqual(['Q2', 'Q3'])
    expect(agent.posts).toHaveLength(1)
    expect(await client.sendQueued()).toEqual({ ok: true })
    await until(() => !client.busy && store.getState().queue === undefined, 'the queue sent')
    expect(path(store.getState())).toEqual(['Q:Q1', 'A:partial', 'Q:Q2', 'A:answer 1', 'Q:Q3', 'A:answer 2'])
    expect((await client.sendQueued()).ok).toBe(false)
  })

  it('keeps the queue after a failed run and sends nothing on its own', async () => {
    const { store, agent, client } = setup()
    agent.next({ hold: true })
    const first = client.send('Q1')
    await until(() => store.getState().status === 'connecting', 'connecting')
    await client.send('Q2')
    agent.clearQueue()
    client.stop()
    await first
    agent.next({ status: 500, body: 'down' })
    await client.send('Q1 again')
    expect(store.getState().status).toBe('error')
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(queued(store.getState())).toEqual(['Q2'])
    expect(agent.posts.map((p) => lastQuestion(p.body))).toEqual(['Q1', 'Q1 again'])
  })

  it('a message queued during a run that ends at a gate waits for its answer, and goes once the continuation ends', async () => {
    const { store, agent, client } = setup()
    agent.next({
      frames: [
        { type: 'start', messageId: 'm2' },
        { type: 'tool-input-available', toolCallId: 'call-1', toolName: 'deleteFile', input: { path: '/tmp/x' } },
        { type: 'tool-approval-request', approvalId: 'ap-1', toolCallId: 'call-1' },
        { type: 'finish' },
      ],
      then: 'open',
    })
    const first = client.send('Q1')
    await until(() => store.getState().status === 'streaming', 'Q1 streaming')
    await client.send('Q2')
    agent.closeAll(true)
    await first
    await new Promise((resolve) => setTimeout(resolve, 20))
    const gate = Object.keys(store.getState().gates)[0]!
    expect(queued(store.getState())).toEqual(['Q2'])
    expect(agent.posts).toHaveLength(1)
    expect(await client.answer(gate, { approved: true })).toEqual({ ok: true })
    await until(() => !client.busy && store.getState().queue === undefined && store.getState().turnIds.length === 4, 'Q2 answered')
    expect(path(store.getState())).toEqual(['Q:Q1', 'A:answer 1', 'Q:Q2', 'A:answer 2'])
    // The approval went first, then the queued question.
    expect(JSON.stringify(agent.posts[1]!.body)).toContain('"approved":true')
    expect(lastQuestion(agent.posts[2]!.body)).toBe('Q2')
  })

  it('a send while a gate waits for the person goes at once: the agent is not running, and the gate stays pending on its turn', async () => {
    const { store, agent, client } = setup()
    agent.next({
      frames: [
        { type: 'start', messageId: 'm2' },
        { type: 'tool-input-available', toolCallId: 'call-1', toolName: 'deleteFile', input: { path: '/tmp/x' } },
        { type: 'tool-approval-request', approvalId: 'ap-1', toolCallId: 'call-1' },
        { type: 'finish' },
      ],
      then: 'end', done: true,
    })
    await client.send('Q1')
    const gate = Object.keys(store.getState().gates)[0]!
    await client.send('Q2')
    expect(store.getState().queue).toBeUndefined()
    expect(agent.posts).toHaveLength(2)
    expect(lastQuestion(agent.posts[1]!.body)).toBe('Q2')
    expect(store.getState().gates[gate]!.status).toBe('pending')
  })

  it('waits while a client tool runs, and goes after the request that carries its result', async () => {
    let finish: (() => void) | undefined
    const { store, agent, client } = setup({
      tools: { locate: { execute: () => new Promise((resolve) => { finish = () => resolve({ city: 'Lyon' }) }) } },
    })
    agent.next({ frames: [{ type: 'start', messageId: 'm2' }, { type: 'tool-input-available', toolCallId: 'call-2', toolName: 'locate', input: {} }, { type: 'finish' }], then: 'end', done: true })
    const first = client.send('Q1')
    await until(() => finish !== undefined, 'the tool running')
    await new Promise((resolve) => setTimeout(resolve, 10))
    expect(client.busy).toBe(false)
    await client.send('Q2')
    expect(queued(store.getState())).toEqual(['Q2'])
    finish!()
    await first
    await until(() => !client.busy && store.getState().turnIds.length === 4, 'Q2 answered')
    expect(agent.posts).toHaveLength(3)
    expect(JSON.stringify(agent.posts[1]!.body)).toContain('Lyon')
    expect(lastQuestion(agent.posts[2]!.body)).toBe('Q2')
  })

  it('carries the files a message was queued with', async () => {
    const { store, agent, client, first } = await streaming()
    const file = new Blob(['hello'], { type: 'text/plain' })
    await client.send({ text: 'Read this', files: [file] })
    expect(store.getState().queue).toEqual([{ id: expect.any(String), text: 'Read this', files: 1 }])
    agent.closeAll(true)
    await first
    await until(() => !client.busy && store.getState().turnIds.length === 4, 'answered')
    const sent = agent.posts[1]!.body!.messages as Array<{ role: string; parts: Array<{ type: string; mediaType?: string }> }>
    expect(sent.at(-1)!.parts.map((p) => p.type)).toEqual(['file', 'text'])
  })

  it('sends nothing after dispose, and never into a conversation the store was switched to', async () => {
    const { store, agent, client, first } = await streaming()
    await client.send('Q2')
    client.dispose()
    await first
    // The store now shows another conversation, with a queue of its own.
    const other: AgentState = { ...emptyState(), queue: [{ id: 'queued-b', text: 'from B' }] }
    store.getState().reset(other)
    await client.send('B1')
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(agent.posts.map((p) => lastQuestion(p.body))).toEqual(['Q1', 'B1'])
    // B's queue came with it: it waits for sendQueued.
    expect(queued(store.getState())).toEqual(['from B'])
  })

  it('refuses to edit or cancel a message that is not queued', () => {
    const { client } = setup()
    expect(client.editQueued('nope', 'x')).toMatchObject({ ok: false, error: { type: 'validation' } })
    expect(client.cancelQueued('nope')).toMatchObject({ ok: false, error: { type: 'validation' } })
  })
})

describe('steer', () => {
  it('stops the run, keeps the partial answer as interrupted, and sends the new message with it at once', async () => {
    const { store, agent, client, first } = await streaming()
    const steered = client.send('No, Lyon', { whileRunning: 'steer' })
    await first
    await steered
    const s = store.getState()
    expect(path(s)).toEqual(['Q:Q1', 'A:partial', 'Q:No, Lyon', 'A:answer 1'])
    expect(s.turns[s.turnIds[1]!]!.status).toBe('aborted')
    expect(s.queue).toBeUndefined()
    const messages = agent.posts[1]!.body!.messages as Array<{ role: string; parts: Array<{ type: string; text?: string }> }>
    expect(messages.map((m) => [m.role, m.parts.filter((p) => p.type === 'text').map((p) => p.text).join('')])).toEqual([
      ['user', 'Q1'], ['assistant', 'partial'], ['user', 'No, Lyon'],
    ])
  })

  it('is the client-wide choice with whileRunning: "steer", and a call can still queue', async () => {
    const { store, agent, client, first } = await streaming({ whileRunning: 'steer' })
    await client.send('Q2', { whileRunning: 'queue' })
    expect(queued(store.getState())).toEqual(['Q2'])
    const steered = client.send('Q3')
    await first
    await steered
    expect(path(store.getState()).slice(0, 4)).toEqual(['Q:Q1', 'A:partial', 'Q:Q3', 'A:answer 1'])
    // The steered answer ended normally: the queue goes after it.
    await until(() => !client.busy && store.getState().queue === undefined && store.getState().turnIds.length === 6, 'Q2 answered')
    expect(path(store.getState()).slice(4)).toEqual(['Q:Q2', 'A:answer 2'])
    expect(agent.posts).toHaveLength(3)
  })

  it('sendQueued while a run is active steers with the queued message', async () => {
    const { store, agent, client, first } = await streaming()
    await client.send('Q2')
    const id = store.getState().queue![0]!.id
    agent.next(answer('steered'))
    expect(await client.sendQueued(id)).toEqual({ ok: true })
    await first
    expect(path(store.getState())).toEqual(['Q:Q1', 'A:partial', 'Q:Q2', 'A:steered'])
    expect(store.getState().turns[store.getState().turnIds[1]!]!.status).toBe('aborted')
  })
})

describe('the queue in the store', () => {
  it('queue.put adds at the end or changes a message in place, queue.remove drops it, and an empty queue is no queue', () => {
    let s = fold(emptyState(), [
      { op: 'queue.put', message: { id: 'a', text: 'one' } },
      { op: 'queue.put', message: { id: 'b', text: 'two', files: 2 } },
      { op: 'queue.put', message: { id: 'a', text: 'one, edited' } },
    ])
    expect(s.queue).toEqual([{ id: 'a', text: 'one, edited' }, { id: 'b', text: 'two', files: 2 }])
    s = fold(s, [{ op: 'queue.remove', id: 'a' }, { op: 'queue.remove', id: 'b' }])
    expect('queue' in s).toBe(false)
  })

  it('keeps only plain fields, and refuses a message without a safe id or a text', () => {
    const s = fold(emptyState(), [
      { op: 'queue.put', message: { id: 'a', text: 'one', files: 1.5, extra: { run: 'x' } } as never },
      { op: 'queue.put', message: { id: '__proto__', text: 'x' } },
      { op: 'queue.put', message: { id: 'c', text: 5 } as never },
    ])
    expect(s.queue).toEqual([{ id: 'a', text: 'one' }])
    expect(s.error).toMatchObject({ type: 'validation', code: 'queue.put' })
  })

  it('a saved queue that is not a list of messages marks the record damaged', () => {
    const base = { ...emptyState() }
    expect(stateProblem({ ...base, queue: [{ id: 'a', text: 'one', files: 2 }] })).toBeUndefined()
    expect(stateProblem({ ...base, queue: 'a' })).toBe('queue is not a list')
    expect(stateProblem({ ...base, queue: [{ id: 'a' }] })).toBe('queue[0] is not a queued message')
    expect(stateProblem({ ...base, queue: [{ id: 'a', text: '', files: -1 }] })).toBe('queue[0]: files is not a count')
  })
})
