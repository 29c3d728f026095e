/**
 * The reason a person types on a gate card goes with their answer when the card
 * answers through the client (no host `onGateAnswer`): Reject with a reason calls
 * `client.answer(gate.id, { approved: false, reason })`, the store shows it, and the
 * AI SDK continuation carries it in the approval. The text is trimmed; an empty
 * one adds no `reason` at all.
 */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { GateCard } from '../../src/components/gate-card'
import { AgentClient } from '../helpers/built-in-client'
import { createAgentStore } from '../../src/core/store/store'
import { renderWith } from './support'

function sse(events: unknown[]): Response {
  const text = events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('') + 'data: [DONE]\n\n'
  return new Response(text, { status: 200, headers: { 'content-type': 'text/event-stream' } })
}

const approvalRequest = () => sse([
  { type: 'start', messageId: 'msg-1' },
  { type: 'tool-input-available', toolCallId: 'call-1', toolName: 'deleteFile', input: { path: '/r.txt' } },
  { type: 'tool-approval-request', approvalId: 'ap-1', toolCallId: 'call-1' },
  { type: 'finish' },
])
const rest = () => sse([
  { type: 'start', messageId: 'msg-1' },
  { type: 'text-start', id: 't' },
  { type: 'text-delta', id: 't', delta: 'Understood.' },
  { type: 'text-end', id: 't' },
  { type: 'finish' },
])

/** A store with a pending approval from a ui-message answer, its client, the bodies sent and a spy on `answer`. */
async function pendingApproval() {
  const bodies: Array<Record<string, unknown>> = []
  const fetch = (async (_url: RequestInfo | URL, init?: RequestInit) => {
    bodies.push(JSON.parse(String(init?.body)) as Record<string, unknown>)
    return bodies.length === 1 ? approvalRequest() : rest()
  }) as typeof globalThis.fetch
  const store = createAgentStore()
  const client = new AgentClient(store, { url: '/api/chat', protocol: 'ui-message', conversationId: 'chat-1', fetch })
  await client.send('delete it')
  const gate = Object.values(store.getState().gates)[0]!
  expect(gate).toMatchObject({ kind: 'tool-approval', status: 'pending' })
  const answer = vi.spyOn(client, 'answer')
  // A client made outside the hooks acts for the store once the provider is given it.
  renderWith(store, <GateCard id={gate.id} />, client)
  const card = screen.getByRole('group', { name: 'Approval needed' })
  return { store, gate, card, answer, bodies }
}

/** The approval the continuation sent back on the tool part. */
function sentApproval(body: Record<string, unknown>): unknown {
  const messages = body.messages as Array<{ role: string; parts: Array<Record<string, unknown>> }>
  return messages.at(-1)!.parts.find((p) => p.type === 'tool-deleteFile')!.approval
}

function type(card: HTMLElement, text: string) {
  fireEvent.change(within(card).getByRole('textbox', { name: 'Reason (optional)' }), { target: { value: text } })
}

describe('GateCard: the typed reason goes with the answer through the client', () => {
  it('Reject with a reason sends { approved: false, reason } and the continuation carries it', async () => {
    const { store, gate, card, answer, bodies } = await pendingApproval()
    type(card, 'keep the report')
    await act(async () => {
      fireEvent.click(within(card).getByRole('button', { name: 'Reject' }))
    })
    expect(answer.mock.calls).toEqual([[gate.id, { approved: false, reason: 'keep the report' }]])
    await waitFor(() => expect(bodies).toHaveLength(2))
    await waitFor(() => expect(store.getState().status).toBe('done'))
    expect(store.getState().gates[gate.id]).toMatchObject({ status: 'rejected', response: { approved: false, reason: 'keep the report' } })
    expect(sentApproval(bodies[1]!)).toEqual({ id: 'ap-1', approved: false, reason: 'keep the report' })
    expect(card.getAttribute('data-state')).toBe('rejected')
    expect(within(card).getByText('keep the report')).toBeTruthy()
  })

  it('Approve with a reason sends { approved: true, reason }, trimmed', async () => {
    const { gate, card, answer, bodies } = await pendingApproval()
    type(card, '  only this once \n')
    await act(async () => {
      fireEvent.click(within(card).getByRole('button', { name: 'Approve' }))
    })
    expect(answer.mock.calls).toEqual([[gate.id, { approved: true, reason: 'only this once' }]])
    await waitFor(() => expect(bodies).toHaveLength(2))
    expect(sentApproval(bodies[1]!)).toEqual({ id: 'ap-1', approved: true, reason: 'only this once' })
  })

  it('Reject with no reason, or only spaces, sends { approved: false } with no reason key', async () => {
    const { gate, card, answer, bodies } = await pendingApproval()
    type(card, '   ')
    await act(async () => {
      fireEvent.click(within(card).getByRole('button', { name: 'Reject' }))
    })
    expect(answer.mock.calls).toEqual([[gate.id, { approved: false }]])
    expect(Object.keys(answer.mock.calls[0]![1] as object)).toEqual(['approved'])
    await waitFor(() => expect(bodies).toHaveLength(2))
    expect(sentApproval(bodies[1]!)).toEqual({ id: 'ap-1', approved: false })
  })
})
