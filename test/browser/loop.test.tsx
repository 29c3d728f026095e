/**
 * The loop in a real browser, through a real client: Escape in the composer
 * stops the streaming answer (the request is aborted, the turn ends aborted), and
 * a gate that opens while the answer streams takes the focus.
 */
import { act, fireEvent, screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { Composer } from '../../src/components/composer'
import { Transcript } from '../../src/components/transcript'
import { createAgentStore } from '../../src/core/store/store'
import { useAgentStream } from '../../src/react/use-agent-stream'
import { renderWith } from './support'

/** A UI message stream the test writes to chunk by chunk; it ends only when the request is aborted. */
function liveServer() {
  const encoder = new TextEncoder()
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined
  const seen: { signal?: AbortSignal } = {}
  const fetch = async (_url: RequestInfo | URL, init?: RequestInit) => {
    seen.signal = init?.signal ?? undefined
    const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) })
    init?.signal?.addEventListener('abort', () => controller?.error(new DOMException('aborted', 'AbortError')))
    return new Response(body, { headers: { 'content-type': 'text/event-stream', 'x-vercel-ai-ui-message-stream': 'v1' } })
  }
  const push = (...chunks: unknown[]) => controller!.enqueue(encoder.encode(chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('')))
  return { fetch: fetch as typeof globalThis.fetch, push, seen }
}

function Chat({ fetch }: { fetch: typeof globalThis.fetch }) {
  const { send, stop } = useAgentStream({ url: '/api/chat', protocol: 'ui-message', fetch })
  return (
    <>
      <Transcript.Root />
      <Composer send={send} stop={stop} />
    </>
  )
}

describe('the loop in the browser', () => {
  it('Escape in the composer stops the streaming answer: the request is aborted and the turn ends aborted', async () => {
    const server = liveServer()
    const store = createAgentStore()
    renderWith(store, <Chat fetch={server.fetch} />)
    const box = screen.getByRole('textbox', { name: 'Message' })
    fireEvent.change(box, { target: { value: 'Tell me a long story' } })
    fireEvent.keyDown(box, { key: 'Enter' })
    await waitFor(() => expect(server.seen.signal).toBeDefined())
    act(() => server.push({ type: 'start', messageId: 'msg_1' }, { type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'Once upon a time' }))
    await waitFor(() => expect(store.getState().status).toBe('streaming'))
    await waitFor(() => expect(screen.getByText(/Once upon a time/)).toBeTruthy())
    fireEvent.keyDown(box, { key: 'Escape' })
    expect(server.seen.signal!.aborted).toBe(true)
    const s = store.getState()
    expect(s.status).toBe('aborted')
    expect(s.turns[s.turnIds.at(-1)!]!.status).toBe('aborted')
    // What arrived stays.
    expect(screen.getByText(/Once upon a time/)).toBeTruthy()
  })

  it('a gate that opens while the answer streams takes the focus from the composer', async () => {
    const server = liveServer()
    const store = createAgentStore()
    renderWith(store, <Chat fetch={server.fetch} />)
    const box = screen.getByRole('textbox', { name: 'Message' })
    box.focus()
    fireEvent.change(box, { target: { value: 'Delete the report' } })
    fireEvent.keyDown(box, { key: 'Enter' })
    await waitFor(() => expect(server.seen.signal).toBeDefined())
    act(() => server.push({ type: 'start', messageId: 'msg_1' }, { type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'I will delete it.' }))
    await waitFor(() => expect(screen.getByText(/I will delete it/)).toBeTruthy())
    expect(document.activeElement).toBe(box)
    act(() => server.push(
      { type: 'tool-input-available', toolCallId: 'c1', toolName: 'deleteFile', input: { path: '/tmp/report.txt' } },
      { type: 'tool-approval-request', approvalId: 'ap1', toolCallId: 'c1' },
    ))
    const card = await screen.findByRole('group', { name: 'Approval needed' })
    await waitFor(() => expect(document.activeElement).toBe(card))
  })
})
