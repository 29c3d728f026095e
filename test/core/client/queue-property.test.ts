/**
 * The queue under random interleavings of send (queued while a run is active),
 * steer, stop, answering a gate, editing and cancelling queued messages, and
 * letting held streams end, against a scripted agent whose replies complete,
 * hold open, ask for approval or fail. After every step the store is consistent
 * (every queued message has one id and a text, every turn that is not streaming
 * now has ended); at the end, once everything held goes and what is left in the
 * queue is sent, each queued message was sent exactly once, with its latest
 * text, or was cancelled and never sent. The queue saved with the conversation
 * loads back equal.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { AgentClient } from '../../helpers/built-in-client'
import { createConversations, memoryConversations } from '../../../src/core/conversations/index'
import { messageIn, messageList } from '../../../src/core/model/message-table'
import type { AgentState } from '../../../src/core/model/model'
import { ScriptedAgent, type Reply } from '../../helpers/scripted-agent'

const REPLIES = ['complete', 'open', 'approval', 'status 500'] as const
const ACTIONS = ['send', 'steer', 'stop', 'answer', 'edit queued', 'cancel queued', 'release'] as const
type ReplyKind = (typeof REPLIES)[number]
type Action = (typeof ACTIONS)[number]

function reply(kind: ReplyKind, n: number): Reply {
  const opening = [{ type: 'start' }, { type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: `answer ${n}` }]
  switch (kind) {
    case 'complete': return { frames: [...opening, { type: 'text-end', id: 't' }, { type: 'finish' }], then: 'end', done: true }
    case 'open': return { frames: opening, then: 'open' }
    case 'status 500': return { status: 500, body: 'down' }
    case 'approval': return {
      frames: [
        { type: 'start' },
        { type: 'tool-input-available', toolCallId: `call-${n}`, toolName: 'deleteFile', input: { path: '/tmp/x' } },
        { type: 'tool-approval-request', approvalId: `ap-${n}`, toolCallId: `call-${n}` },
        { type: 'finish' },
      ],
      then: 'end', done: true,
    }
  }
}

const tick = (ms = 2) => new Promise((resolve) => setTimeout(resolve, ms))
const pendingGate = (s: AgentState) => Object.values(s.gates).find((g) => g.status === 'pending' && s.turnIds.includes(g.turnId))
/** The text of every question in the store, on every branch. */
const questions = (s: AgentState) => Object.values(s.turns).filter((t) => t.role === 'user')
  .map((t) => t.messageIds.map((id) => messageIn(s.messages, id)!).filter((m) => m.type === 'text').map((m) => String(m.props.content)).join(''))

interface Tracked {
  /** Each message that was queued: its latest text, and whether it was cancelled. */
  queued: Map<string, { text: string; cancelled: boolean }>
  work: Array<Promise<unknown>>
}

function consistent(s: AgentState): void {
  const ids = (s.queue ?? []).map((q) => q.id)
  expect(new Set(ids).size).toBe(ids.length)
  if (s.queue) expect(s.queue.length).toBeGreaterThan(0)
  for (const q of s.queue ?? []) expect(typeof q.text).toBe('string')
}

async function step(client: AgentClient, agent: ScriptedAgent, tracked: Tracked, n: number, action: Action, kind: ReplyKind, pick: number): Promise<void> {
  const store = client.store
  agent.clearQueue()
  agent.next(reply(kind, n))
  const queue = store.getState().queue ?? []
  const target = queue.length > 0 ? queue[pick % queue.length]! : undefined
  switch (action) {
    case 'send': {
      const before = new Set(queue.map((q) => q.id))
      tracked.work.push(client.send(`q${n}`))
      const added = (store.getState().queue ?? []).find((q) => !before.has(q.id))
      if (added) tracked.queued.set(added.id, { text: `q${n}`, cancelled: false })
      break
    }
    case 'steer':
      tracked.work.push(client.send(`s${n}`, { whileRunning: 'steer' }))
      break
    case 'stop':
      client.stop()
      break
    case 'answer': {
      const gate = pendingGate(store.getState())
      if (gate) tracked.work.push(client.answer(gate.id, { approved: true }))
      break
    }
    case 'edit queued':
      if (target && client.editQueued(target.id, `${target.text}+e${n}`).ok) tracked.queued.get(target.id)!.text = `${target.text}+e${n}`
      break
    case 'cancel queued':
      if (target && client.cancelQueued(target.id).ok) tracked.queued.get(target.id)!.cancelled = true
      break
    case 'release':
      agent.closeAll(true)
      break
  }
  await tick()
  consistent(store.getState())
}

/** Let everything go: held streams end, gates are approved, and what stays queued is sent, until nothing is left. */
async function settle(client: AgentClient, agent: ScriptedAgent, tracked: Tracked): Promise<void> {
  agent.clearQueue()
  for (let round = 0; round < 300; round++) {
    agent.closeAll(true)
    const s = client.store.getState()
    const gate = pendingGate(s)
    if (gate) tracked.work.push(client.answer(gate.id, { approved: true }))
    else if (s.queue && !client.busy) tracked.work.push(client.sendQueued())
    else if (!client.busy && round > 3) break
    await tick(3)
  }
  await Promise.all(tracked.work)
  expect(client.busy).toBe(false)
}

describe('queue and steer under random interleavings', () => {
  it('keeps the store consistent, and sends each queued message exactly once or never when cancelled', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ action: fc.constantFrom(...ACTIONS), reply: fc.constantFrom(...REPLIES), pick: fc.nat(5) }), { minLength: 1, maxLength: 10 }),
        async (steps) => {
          const storage = memoryConversations()
          const conversations = createConversations({ storage, selection: false, saveOnHide: false })
          await conversations.ready()
          const id = conversations.create()
          const store = conversations.storeOf(id)!
          const agent = new ScriptedAgent()
          const client = new AgentClient(store, { url: 'http://agent.invalid/api/chat', protocol: 'ui-message', fetch: agent.fetch, conversationId: id })
          const tracked: Tracked = { queued: new Map(), work: [] }
          // A run held open, so the first sends queue.
          agent.next({ frames: [{ type: 'start' }, { type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'first' }], then: 'open' })
          tracked.work.push(client.send('q0'))
          await tick()
          for (const [n, { action, reply: kind, pick }] of steps.entries()) await step(client, agent, tracked, n + 1, action, kind, pick)

          // The queue saved mid-way loads back equal.
          await conversations.flush()
          const reopened = createConversations({ storage, selection: false, saveOnHide: false })
          await reopened.ready()
          await reopened.load(id)
          expect(reopened.storeOf(id)!.getState().queue).toEqual(store.getState().queue)

          await settle(client, agent, tracked)
          const s = store.getState()
          expect(s.queue).toBeUndefined()
          for (const turn of Object.values(s.turns)) expect(['done', 'aborted', 'error']).toContain(turn.status)
          for (const message of messageList(s.messages)) expect(message.status).not.toBe('streaming')
          const asked = questions(s)
          for (const [queuedId, { text, cancelled }] of tracked.queued) {
            expect(asked.filter((q) => q === text), `${queuedId} "${text}"${cancelled ? ' (cancelled)' : ''}`).toHaveLength(cancelled ? 0 : 1)
          }
        },
      ),
      { numRuns: 60 },
    )
  }, 120_000)
})
