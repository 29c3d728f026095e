/**
 * A gate answered while the run that asked it is still closing (its stream has
 * not ended yet): the answer goes on once the run settles, and what `answer`
 * resolves with is the continuation's result, not an early "ok".
 */
import { describe, expect, it } from 'vitest'
import { AgentClient } from '../../helpers/built-in-client'
import { createAgentStore } from '../../../src/core/store/store'

const frame = (chunk: unknown) => `data: ${JSON.stringify(chunk)}\n\n`
const HEADERS = { 'content-type': 'text/event-stream', 'x-vercel-ai-ui-message-stream': 'v1' }

/** The first request streams an approval request and stays open until `close()`; later ones get `later`. */
function heldFetch(later: () => Response) {
  let close = () => {}
  let requests = 0
  const fetch = (async () => {
    requests += 1
    if (requests > 1) return later()
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        const encoder = new TextEncoder()
        for (const chunk of [
          { type: 'start', messageId: 'm1' },
          { type: 'tool-input-available', toolCallId: 'call-1', toolName: 'deleteFile', input: { path: '/tmp/x' } },
          { type: 'tool-approval-request', approvalId: 'ap-1', toolCallId: 'call-1' },
          { type: 'finish' },
        ]) controller.enqueue(encoder.encode(frame(chunk)))
        close = () => {
          controller.enqueue(encoder.encode('data: [DONE]\n\n'))
          controller.close()
        }
      },
    })
    return new Response(body, { headers: HEADERS })
  }) as typeof globalThis.fetch
  return { fetch, close: () => close(), requests: () => requests }
}

async function until(check: () => boolean) {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 5))
  expect(check()).toBe(true)
}

describe('answering a gate while its run is closing', () => {
  it('resolves with the refused continuation, and the gate is pending again', async () => {
    const store = createAgentStore()
    const held = heldFetch(() => new Response('the agent is down', { status: 500 }))
    const client = new AgentClient(store, { url: 'http://agent.invalid/chat', protocol: 'ui-message', fetch: held.fetch })
    const sent = client.send('delete it')
    await until(() => Object.keys(store.getState().gates).length === 1)
    expect(client.busy).toBe(true)
    const gateId = Object.keys(store.getState().gates)[0]!
    const answered = client.answer(gateId, { approved: true })
    held.close()
    const result = await answered
    await sent
    expect(result.ok).toBe(false)
    expect(result.ok ? '' : result.error.message).toMatch(/500/)
    expect(held.requests()).toBe(2)
    expect(Object.values(store.getState().gates).map((g) => g.status)).toEqual(['pending'])
  })

  it('resolves ok once the continuation has streamed', async () => {
    const store = createAgentStore()
    const held = heldFetch(() => new Response(`${frame({ type: 'start', messageId: 'm2' })}${frame({ type: 'finish' })}data: [DONE]\n\n`, { headers: HEADERS }))
    const client = new AgentClient(store, { url: 'http://agent.invalid/chat', protocol: 'ui-message', fetch: held.fetch })
    const sent = client.send('delete it')
    await until(() => Object.keys(store.getState().gates).length === 1)
    const answered = client.answer(Object.keys(store.getState().gates)[0]!, { approved: true })
    held.close()
    expect(await answered).toEqual({ ok: true })
    await sent
    expect(held.requests()).toBe(2)
    expect(Object.values(store.getState().gates).map((g) => g.status)).toEqual(['approved'])
  })
})
