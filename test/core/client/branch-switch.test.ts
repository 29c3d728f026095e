/**
 * Switching branches while the loop goes on: a continuation of an answer that
 * is no longer on the active path is refused (it would send a conversation
 * without it), the gate it carried is pending again, and nothing is sent; a
 * client tool that finishes after the switch says so on its turn.
 */
import { describe, expect, it, vi } from 'vitest'
import { syncScheduler } from '../../../src/core/store/batcher'
import { AgentClient } from '../../helpers/built-in-client'
import { createAgentStore } from '../../../src/core/store/store'

const sse = (chunks: unknown[]) => `${chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('')}data: [DONE]\n\n`

/** Answers in turn: a tool call that asks for approval, then plain text for anything else. */
function server() {
  const bodies: Array<{ trigger?: string; messages: unknown[] }> = []
  const fetch = (async (_url: RequestInfo | URL, init?: RequestInit) => {
    bodies.push(JSON.parse(String(init?.body)) as (typeof bodies)[number])
    const chunks = bodies.length === 1
      ? [
          { type: 'start', messageId: 'a0' },
          { type: 'tool-input-available', toolCallId: 'c1', toolName: 'deleteFile', input: { path: '/tmp/x' } },
          { type: 'tool-approval-request', approvalId: 'ap1', toolCallId: 'c1' },
          { type: 'finish' },
        ]
      : [{ type: 'start', messageId: `a${bodies.length}` }, { type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'Another answer' }, { type: 'text-end', id: 't' }, { type: 'finish' }]
    return new Response(sse(chunks), { headers: { 'content-type': 'text/event-stream', 'x-vercel-ai-ui-message-stream': 'v1' } })
  }) as typeof globalThis.fetch
  return { bodies, fetch }
}

describe('a continuation off the active path', () => {
  it('answering a gate of an answer on a branch not shown is refused, sends nothing and leaves the gate pending', async () => {
    const { bodies, fetch } = server()
    const store = createAgentStore()
    const client = new AgentClient(store, { url: '/api/chat', protocol: 'ui-message', fetch, scheduler: syncScheduler })
    await client.send('Delete /tmp/x')
    const first = store.getState()
    const gated = first.turnIds[1]!
    const gate = Object.values(first.gates)[0]!
    expect(gate).toMatchObject({ turnId: gated, status: 'pending' })
    // A regenerate makes a sibling and shows it: the gated answer is on a branch not shown.
    expect(await client.regenerate()).toEqual({ ok: true })
    expect(store.getState().turnIds).not.toContain(gated)
    expect(bodies).toHaveLength(2)

    const result = await client.answer(gate.id, { approved: true })
    expect(result).toMatchObject({ ok: false, error: { type: 'validation', code: 'off_path' } })
    expect(bodies).toHaveLength(2)
    const s = store.getState()
    expect(s.gates[gate.id]!.status).toBe('pending')
    expect(s.turns[gated]!.problems.map((p) => p.code)).toContain('off_path')

    // Back on its branch, the same answer goes on, with the whole conversation.
    expect(client.selectBranch(gated, 0)).toEqual({ ok: true })
    expect(await client.answer(gate.id, { approved: true })).toEqual({ ok: true })
    expect(bodies).toHaveLength(3)
    expect(bodies[2]!.messages).toHaveLength(2)
  })
})

describe('a client tool that finishes after its answer left the active path', () => {
  it('sends nothing and leaves an off_path problem on its turn', async () => {
    const bodies: unknown[] = []
    const fetch = (async (_url: RequestInfo | URL, init?: RequestInit) => {
      bodies.push(JSON.parse(String(init?.body)))
      const chunks = bodies.length === 1
        ? [{ type: 'start', messageId: 'a1' }, { type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'Paris, I think' }, { type: 'text-end', id: 't' }, { type: 'finish' }]
        : [{ type: 'start', messageId: 'a2' }, { type: 'tool-input-available', toolCallId: 'c1', toolName: 'getLocation', input: {} }, { type: 'finish' }]
      return new Response(sse(chunks), { headers: { 'content-type': 'text/event-stream', 'x-vercel-ai-ui-message-stream': 'v1' } })
    }) as typeof globalThis.fetch
    let finish: (value: unknown) => void = () => {}
    let started = false
    const store = createAgentStore()
    const client = new AgentClient(store, {
      url: '/api/chat', protocol: 'ui-message', fetch, scheduler: syncScheduler,
      tools: { getLocation: { execute: () => { started = true; return new Promise((resolve) => (finish = resolve)) } } },
    })
    await client.send('Where am I?')
    const first = store.getState().turnIds[1]!
    const regenerating = client.regenerate()
    await vi.waitFor(() => expect(started).toBe(true))
    const second = store.getState().turnIds[1]!
    expect(client.selectBranch(second, 0)).toEqual({ ok: true })
    expect(store.getState().turnIds[1]).toBe(first)
    finish({ city: 'Lyon' })
    await regenerating
    expect(bodies).toHaveLength(2)
    expect(store.getState().turns[second]!.problems.map((p) => p.code)).toContain('off_path')
  })
})
