/**
 * The seed's `interrupt` chunk (`interrupt: { action_requests, review_configs }`)
 * answered end to end on loopback: each decision (approve, edit, reject) goes
 * back as `resume: { decisions }` beside the chat request, one decision per
 * action request, and the server's answer to it streams into the same turn.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { AgentClient } from '../../helpers/built-in-client'
import type { AgentState } from '../../../src/core/model/model'
import { createAgentStore, type AgentStore } from '../../../src/core/store/store'
import { startWebServer, type WebServer } from '../../helpers/web-server'
import { messageIn } from '../../../src/core/model/message-table'

const REVIEW = {
  action_requests: [
    { name: 'send_email', args: { to: 'ana@example.com', subject: 'Q3' }, description: 'Send the Q3 email to Ana?' },
    { name: 'delete_file', args: { path: '/tmp/q3-draft.txt' }, description: 'Delete the draft?' },
  ],
  review_configs: [
    { action_name: 'send_email', allowed_decisions: ['approve', 'edit', 'reject'] },
    { action_name: 'delete_file', allowed_decisions: ['approve', 'reject'] },
  ],
}

const sse = (chunks: unknown[]) => `${chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('')}data: [DONE]\n\n`

let server: WebServer
let store: AgentStore

beforeAll(async () => {
  server = await startWebServer(async (request) => {
    const body = (await request.json()) as { resume?: { decisions: Array<{ type: string }> } }
    const chunks = body.resume
      ? [
        { type: 'start', messageId: 'msg_2' },
        { type: 'text-start', id: 'r' },
        { type: 'text-delta', id: 'r', delta: `Done: ${body.resume.decisions.map((d) => d.type).join(', ')}.` },
        { type: 'text-end', id: 'r' },
        { type: 'finish' },
      ]
      : [
        { type: 'start', messageId: 'msg_1' },
        { type: 'start-step' },
        { type: 'text-start', id: 'p' },
        { type: 'text-delta', id: 'p', delta: 'I drafted the email.' },
        { type: 'text-end', id: 'p' },
        { type: 'finish-step' },
        { type: 'interrupt', messageId: 'msg_1', interrupt: REVIEW, payload: { expertAgentId: 42 } },
        { type: 'finish' },
      ]
    return new Response(sse(chunks), { headers: { 'content-type': 'text/event-stream', 'x-vercel-ai-ui-message-stream': 'v1' } })
  })
})
afterAll(() => server.close())
beforeEach(() => {
  store = createAgentStore()
  server.bodies.length = 0
})

const client = () => new AgentClient(store, { url: `${server.url}/api/chat`, protocol: 'ui-message', conversationId: 'chat-7' })
const said = (s: AgentState, turnId: string) =>
  s.turns[turnId]!.messageIds.map((id) => messageIn(s.messages, id)!).filter((m) => m.type === 'text').map((m) => m.props.content).join(' ')

async function reviewed() {
  const c = client()
  await c.send('Email Ana the Q3 numbers and clean up')
  const s = store.getState()
  const gate = Object.values(s.gates)[0]!
  expect(gate).toMatchObject({ kind: 'interrupt', status: 'pending', question: 'Send the Q3 email to Ana?' })
  return { c, gate, question: s.turnIds[0]!, answer: s.turnIds[1]! }
}

/** The continuation: the path up to and with the interrupted answer, and the decisions as `resume`. */
function continuation(question: string, decisions: unknown[]) {
  return {
    id: 'chat-7',
    trigger: 'submit-message',
    messageId: 'msg_1',
    messages: [
      { id: question, role: 'user', parts: [{ type: 'text', text: 'Email Ana the Q3 numbers and clean up' }] },
      { id: 'msg_1', role: 'assistant', parts: [{ type: 'step-start' }, { type: 'text', text: 'I drafted the email.', state: 'done' }] },
    ],
    resume: { decisions },
  }
}

describe('the interrupt chunk: decisions', () => {
  it('approve: every action approved, sent as { decisions: [{ type: "approve" }, ...] }', async () => {
    const { c, gate, question, answer } = await reviewed()
    const decisions = [{ type: 'approve' }, { type: 'approve' }]
    expect(await c.answer(gate.id, { decisions })).toEqual({ ok: true })
    expect(server.bodies).toHaveLength(2)
    expect(server.bodies[1]).toEqual(continuation(question, decisions))
    const s = store.getState()
    expect(s.gates[gate.id]).toMatchObject({ status: 'approved', response: { decisions } })
    expect(said(s, answer)).toBe('I drafted the email. Done: approve, approve.')
    expect(s.turnIds).toHaveLength(2)
  })

  it('edit: the action goes with its new arguments, as edited_action { name, args }', async () => {
    const { c, gate, question, answer } = await reviewed()
    const decisions = [
      { type: 'edit', edited_action: { name: 'send_email', args: { to: 'ana@example.com', subject: 'Q3 (final)' } } },
      { type: 'approve' },
    ]
    expect(await c.answer(gate.id, { decisions })).toEqual({ ok: true })
    expect(server.bodies[1]).toEqual(continuation(question, decisions))
    const s = store.getState()
    expect(s.gates[gate.id]!.status).toBe('answered')
    expect(said(s, answer)).toBe('I drafted the email. Done: edit, approve.')
  })

  it('reject: with the reason the user gave, as { type: "reject", message }', async () => {
    const { c, gate, question, answer } = await reviewed()
    const decisions = [{ type: 'reject', message: 'Not before the review' }, { type: 'reject' }]
    expect(await c.answer(gate.id, { decisions })).toEqual({ ok: true })
    expect(server.bodies[1]).toEqual(continuation(question, decisions))
    const s = store.getState()
    expect(s.gates[gate.id]!.status).toBe('rejected')
    expect(said(s, answer)).toBe('I drafted the email. Done: reject, reject.')
  })

  it('a decision the review does not allow, a missing one, or a malformed edit is refused and nothing is sent', async () => {
    const { c, gate } = await reviewed()
    const refusals = [
      { decisions: [{ type: 'approve' }] },
      { decisions: [{ type: 'approve' }, { type: 'edit', edited_action: { name: 'delete_file', args: { path: '/' } } }] },
      { decisions: [{ type: 'edit', edited_action: { name: 'send_email' } }, { type: 'approve' }] },
      { decisions: [{ type: 'maybe' }, { type: 'approve' }] },
      { approved: true },
    ]
    for (const response of refusals) {
      const result = await c.answer(gate.id, response)
      expect(result).toMatchObject({ ok: false, error: { type: 'validation' } })
    }
    expect(server.bodies).toHaveLength(1)
    expect(store.getState().gates[gate.id]!.status).toBe('pending')
    // Answered once; a second answer is refused.
    expect(await c.answer(gate.id, { decisions: [{ type: 'approve' }, { type: 'reject' }] })).toEqual({ ok: true })
    expect(await c.answer(gate.id, { decisions: [{ type: 'approve' }, { type: 'approve' }] })).toMatchObject({ ok: false, error: { type: 'validation' } })
    expect(server.bodies).toHaveLength(2)
  })
})
