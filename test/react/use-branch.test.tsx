/**
 * `useBranch(turnId).select` switches through the client: an answer streaming
 * into the branch being left is stopped (its request aborted, its turn ended
 * aborted) rather than left folding into a branch nobody sees.
 */
import { act, cleanup, render, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { syncScheduler } from '../../src/core/store/batcher'
import { createAgentStore } from '../../src/core/store/store'
import { AgentProvider } from '../../src/umbrella/providers'
import { useBranch } from '../../src/react/use-branch'
import { useAgentStream, type AgentStreamHandle } from '../../src/react/use-agent-stream'

afterEach(() => cleanup())

const encoder = new TextEncoder()
const frame = (chunk: unknown) => encoder.encode(`data: ${JSON.stringify(chunk)}\n\n`)

/** The first answer is whole; every later one sends its first words and holds the stream open until aborted. */
function server() {
  const signals: AbortSignal[] = []
  const fetch = (async (_url: RequestInfo | URL, init?: RequestInit) => {
    const n = signals.push(init!.signal!)
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(frame({ type: 'start', messageId: `a${n}` }))
        controller.enqueue(frame({ type: 'text-start', id: 't' }))
        controller.enqueue(frame({ type: 'text-delta', id: 't', delta: `Answer ${n}` }))
        if (n === 1) {
          controller.enqueue(frame({ type: 'text-end', id: 't' }))
          controller.enqueue(frame({ type: 'finish' }))
          controller.close()
          return
        }
        init!.signal!.addEventListener('abort', () => controller.error(new DOMException('aborted', 'AbortError')))
      },
    })
    return new Response(body, { headers: { 'content-type': 'text/event-stream', 'x-vercel-ai-ui-message-stream': 'v1' } })
  }) as typeof globalThis.fetch
  return { signals, fetch }
}

let chat: AgentStreamHandle
function Chat({ fetch }: { fetch: typeof globalThis.fetch }) {
  chat = useAgentStream({ url: '/api/chat', protocol: 'ui-message', fetch, scheduler: syncScheduler })
  return null
}
function Picker({ turnId }: { turnId: string }) {
  const { index, count, select } = useBranch(turnId)
  return <button onClick={() => select(index - 1)}>{`${index + 1} / ${count}`}</button>
}

describe('useBranch.select during a run', () => {
  it('stops the answer streaming into the branch it leaves, and shows the other one', async () => {
    const { signals, fetch } = server()
    const store = createAgentStore()
    const view = render(<AgentProvider store={store}><Chat fetch={fetch} /></AgentProvider>)
    await act(() => chat.send('Hello'))
    const first = store.getState().turnIds[1]!
    // A regenerate streams a second answer and holds it open.
    let regenerating: Promise<unknown> = Promise.resolve()
    act(() => {
      regenerating = chat.regenerate()
    })
    await waitFor(() => expect(store.getState().status).toBe('streaming'))
    const second = store.getState().turnIds[1]!
    expect(second).not.toBe(first)
    view.rerender(<AgentProvider store={store}><Chat fetch={fetch} /><Picker turnId={second} /></AgentProvider>)
    act(() => screen.getByRole('button', { name: '2 / 2' }).click())
    expect(signals[1]!.aborted).toBe(true)
    const s = store.getState()
    expect(s.status).toBe('aborted')
    expect(s.turns[second]!.status).toBe('aborted')
    expect(s.turnIds[1]).toBe(first)
    await act(() => regenerating)
  })
})
