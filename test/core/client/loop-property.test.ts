/**
 * The loop under random sequences of user actions and server faults, against a
 * scripted agent: answers that complete, end cleanly mid-event, drop, fail with
 * 4xx or 5xx, ask for approval or hold before their headers; and sends,
 * regenerations, edits, branch switches, stops mid-answer, and answers given
 * before or after a stop. After every step:
 * - every turn, on every branch, has ended (done, aborted or error) and no message streams;
 * - no request leaves after a stop, unless the person answered after it;
 * - what the server sent in an answer nobody stopped is in the store;
 * - a gate reads "approved" only if a request carried that answer.
 * At the end, the conversation saved and loaded again equals the live one.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { AgentClient } from '../../helpers/built-in-client'
import { createConversations, memoryConversations } from '../../../src/core/conversations/index'
import { messageList } from '../../../src/core/model/message-table'
import type { AgentState } from '../../../src/core/model/model'
import { selectBranch } from '../../../src/core/store/branches'
import { ScriptedAgent, type Reply } from '../../helpers/scripted-agent'

const FAULTS = ['complete', 'cut', 'drop', 'status 500', 'status 400', 'approval', 'hold'] as const
const ACTIONS = ['send', 'regenerate', 'edit', 'selectBranch', 'stop mid-answer', 'approve', 'deny', 'answer then stop', 'stop then answer'] as const
type Fault = (typeof FAULTS)[number]
type Action = (typeof ACTIONS)[number]

function reply(fault: Fault, text: string): Reply {
  const opening = [{ type: 'start' }, { type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: text }]
  switch (fault) {
    case 'complete': return { frames: [...opening, { type: 'text-end', id: 't' }, { type: 'finish' }], then: 'end', done: true }
    case 'cut': return { frames: opening, then: 'end' }
    case 'drop': return { frames: opening, then: 'drop' }
    case 'status 500': return { status: 500, body: 'the agent is down' }
    case 'status 400': return { status: 400, body: 'bad request' }
    case 'approval': return {
      frames: [
        ...opening, { type: 'text-end', id: 't' },
        { type: 'tool-input-available', toolCallId: `call-${text}`, toolName: 'deleteFile', input: { path: '/tmp/x' } },
        { type: 'tool-approval-request', approvalId: `ap-${text}`, toolCallId: `call-${text}` },
        { type: 'finish' },
      ],
      then: 'end', done: true,
    }
    case 'hold': return { hold: true }
  }
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 1))
const texts = (s: AgentState) => messageList(s.messages).map((m) => (typeof m.props.content === 'string' ? m.props.content : '')).join('\n')
const pendingGate = (s: AgentState) => Object.values(s.gates).find((g) => g.status === 'pending' && s.turnIds.includes(g.turnId))

async function step(client: AgentClient, agent: ScriptedAgent, n: number, action: Action, fault: Fault): Promise<void> {
  const store = client.store
  const text = `step${n}`
  agent.clearQueue()
  agent.next(reply(fault, text))
  const before = agent.posts.length
  const s = store.getState()
  let stoppedAt: number | undefined
  let answeredAfterStop = false
  let work: Promise<unknown> = Promise.resolve()
  switch (action) {
    case 'send':
      work = client.send(`Q${n}`)
      break
    case 'regenerate':
      work = client.regenerate()
      break
    case 'edit': {
      const question = s.turnIds.find((id) => s.turns[id]!.role === 'user')
      work = question ? client.edit(question, `E${n}`) : client.send(`Q${n}`)
      break
    }
    case 'selectBranch': {
      const forked = s.turnIds.find((id) => selectBranch(s, id).count > 1)
      if (forked) client.selectBranch(forked, 0)
      break
    }
    case 'stop mid-answer':
      work = client.send(`Q${n}`)
      await tick()
      client.stop()
      stoppedAt = agent.posts.length
      break
    case 'approve':
    case 'deny':
    case 'answer then stop':
    case 'stop then answer': {
      const gate = pendingGate(s)
      if (!gate) break
      if (action === 'stop then answer') {
        client.stop()
        answeredAfterStop = true
      }
      work = client.answer(gate.id, { approved: action !== 'deny' })
      if (action === 'answer then stop') {
        client.stop()
        stoppedAt = agent.posts.length
      }
      break
    }
  }
  await tick()
  // Whatever is held now goes: bodies end, a held request gets its answer.
  agent.closeAll(true)
  await work
  for (let i = 0; i < 200 && client.busy; i++) await tick()
  agent.closeAll(true)
  const after = store.getState()

  for (const turn of Object.values(after.turns)) expect(['done', 'aborted', 'error'], `turn ${turn.id} after ${action}/${fault}`).toContain(turn.status)
  for (const message of messageList(after.messages)) expect(message.status, `message ${message.id}`).not.toBe('streaming')
  expect(['idle', 'done', 'aborted', 'error']).toContain(after.status)
  if (stoppedAt !== undefined && !answeredAfterStop) expect(agent.posts.length, `a request after stop (${action}/${fault})`).toBe(stoppedAt)
  // The step's reply went to the step's first request: what it sent is kept, unless the person stopped it.
  const took = agent.posts.length > before
  if (took && stoppedAt === undefined && ['complete', 'cut', 'drop', 'approval'].includes(fault)) {
    expect(texts(after), `the text of ${action}/${fault}`).toContain(text)
  }
  const carried = (gateApproval: string) => agent.posts.some((p) => JSON.stringify(p.body).includes(gateApproval))
  for (const gate of Object.values(after.gates)) {
    if (gate.status === 'approved') expect(carried(String((gate.payload as { approvalId?: unknown }).approvalId)), `gate ${gate.id} approved, never sent`).toBe(true)
  }
}

describe('the loop under random actions and faults', () => {
  it('keeps every invariant, and what is saved loads back equal', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ action: fc.constantFrom(...ACTIONS), fault: fc.constantFrom(...FAULTS) }), { minLength: 1, maxLength: 8 }),
        async (steps) => {
          const storage = memoryConversations()
          const conversations = createConversations({ storage, selection: false, saveOnHide: false })
          await conversations.ready()
          const id = conversations.create()
          const store = conversations.storeOf(id)!
          const agent = new ScriptedAgent()
          const client = new AgentClient(store, { url: 'http://agent.invalid/api/chat', protocol: 'ui-message', fetch: agent.fetch, conversationId: id })
          // Every run starts from a question.
          await client.send('Q0')
          for (const [n, { action, fault }] of steps.entries()) await step(client, agent, n + 1, action, fault)
          await conversations.flush()

          const reopened = createConversations({ storage, selection: false, saveOnHide: false })
          await reopened.ready()
          await reopened.load(id)
          const saved = reopened.storeOf(id)!.getState()
          const live = store.getState()
          const data = (s: AgentState) => JSON.parse(JSON.stringify({ turns: s.turns, turnIds: s.turnIds, messages: messageList(s.messages), gates: s.gates, branches: s.branches }))
          expect(data(saved)).toEqual(data(live))
        },
      ),
      {
        numRuns: 100,
        examples: [
          // Found by this test: a denial whose continuation failed left the tool message streaming.
          [[{ action: 'send', fault: 'approval' }, { action: 'deny', fault: 'status 500' }]],
          [[{ action: 'send', fault: 'approval' }, { action: 'stop then answer', fault: 'cut' }, { action: 'answer then stop', fault: 'complete' }]],
        ],
      },
    )
  })
})
