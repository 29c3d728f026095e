/**
 * The queue in a real browser, through a real client: a message typed while the
 * answer streams shows as pending under the running turn (not as a question),
 * can be edited and removed there, and goes once the answer ends; Send now
 * steers with it; after Stop the queue stays, held, until Send now.
 */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { Chat } from '../../src/components/chat'
import { Composer } from '../../src/components/composer'
import { createAgentStore } from '../../src/core/store/store'
import { useAgentStream } from '../../src/react/use-agent-stream'
import { renderWith } from './support'

/** A UI message stream per request, written to by the test; each ends when the test ends it or the request is aborted. */
function liveServer() {
  const encoder = new TextEncoder()
  const streams: Array<{ controller: ReadableStreamDefaultController<Uint8Array>; body: Record<string, unknown>; signal?: AbortSignal }> = []
  const fetch = async (_url: RequestInfo | URL, init?: RequestInit) => {
    let controller!: ReadableStreamDefaultController<Uint8Array>
    const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) })
    streams.push({ controller, body: JSON.parse(String(init?.body)) as Record<string, unknown>, signal: init?.signal ?? undefined })
    init?.signal?.addEventListener('abort', () => controller.error(new DOMException('aborted', 'AbortError')))
    return new Response(body, { headers: { 'content-type': 'text/event-stream', 'x-vercel-ai-ui-message-stream': 'v1' } })
  }
  const push = (n: number, ...chunks: unknown[]) => streams[n]!.controller.enqueue(encoder.encode(chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('')))
  const say = (n: number, text: string) => push(n, { type: 'start', messageId: `msg_${n}` }, { type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: text })
  const end = (n: number) => {
    push(n, { type: 'text-end', id: 't' }, { type: 'finish' })
    streams[n]!.controller.close()
  }
  const lastQuestion = (n: number) => {
    const messages = streams[n]!.body.messages as Array<{ role: string; parts: Array<{ text?: string }> }>
    return messages.filter((m) => m.role === 'user').at(-1)!.parts.map((p) => p.text ?? '').join('')
  }
  return { fetch: fetch as typeof globalThis.fetch, streams, say, end, lastQuestion }
}

function Agent({ fetch }: { fetch: typeof globalThis.fetch }) {
  const { send, stop } = useAgentStream({ url: '/api/chat', protocol: 'ui-message', fetch })
  return <div style={{ height: 600 }}><Chat footer={<Composer send={send} stop={stop} />} /></div>
}

async function type(text: string) {
  const box = screen.getByRole('textbox', { name: 'Message' })
  fireEvent.change(box, { target: { value: text } })
  fireEvent.keyDown(box, { key: 'Enter' })
}

const queue = () => document.querySelector<HTMLElement>('[data-weft="queue"]')
const items = () => [...document.querySelectorAll<HTMLElement>('[data-weft="queue-item"]')]

describe('queued messages in the browser', () => {
  it('shows a message sent while streaming as pending, lets it be edited and removed, and sends what is left when the answer ends', async () => {
    const server = liveServer()
    const store = createAgentStore()
    renderWith(store, <Agent fetch={server.fetch} />)
    await type('Weather in Paris?')
    await waitFor(() => expect(server.streams).toHaveLength(1))
    act(() => server.say(0, 'Looking it up'))
    await screen.findByText(/Looking it up/)
    await type('And in Lyon?')
    await type('And in Nice?')
    await waitFor(() => expect(items()).toHaveLength(2))
    expect(queue()!.getAttribute('data-state')).toBe('waiting')
    expect(queue()!.getAttribute('aria-label')).toBe('Queued messages')
    // Pending, under the running turn: not a question yet, and nothing sent.
    expect(document.querySelectorAll('[data-weft="turn"][data-role="user"]')).toHaveLength(1)
    expect(server.streams).toHaveLength(1)
    expect(within(items()[0]!).getByText('Sends when the answer ends')).toBeTruthy()

    fireEvent.click(within(items()[0]!).getByRole('button', { name: 'Edit' }))
    expect(items()[0]!.getAttribute('data-state')).toBe('editing')
    const field = within(items()[0]!).getByRole('textbox', { name: 'Edit' })
    expect(document.activeElement).toBe(field)
    fireEvent.change(field, { target: { value: 'And in Lyon, tomorrow?' } })
    fireEvent.keyDown(field, { key: 'Enter' })
    expect(items()[0]!.getAttribute('data-state')).toBe('queued')
    expect(items()[0]!.textContent).toContain('And in Lyon, tomorrow?')
    fireEvent.click(within(items()[1]!).getByRole('button', { name: 'Remove' }))
    expect(items()).toHaveLength(1)

    act(() => server.end(0))
    await waitFor(() => expect(server.streams).toHaveLength(2))
    expect(server.lastQuestion(1)).toBe('And in Lyon, tomorrow?')
    await waitFor(() => expect(queue()).toBeNull())
    expect([...document.querySelectorAll('[data-weft="turn"][data-role="user"]')].map((t) => t.textContent)).toEqual(['Weather in Paris?', 'And in Lyon, tomorrow?'])
  })

  it('Escape drops an edit; after Stop the queue is held, and Send now sends it', async () => {
    const server = liveServer()
    const store = createAgentStore()
    renderWith(store, <Agent fetch={server.fetch} />)
    await type('Write a poem')
    await waitFor(() => expect(server.streams).toHaveLength(1))
    act(() => server.say(0, 'Roses are'))
    await screen.findByText(/Roses are/)
    await type('Make it short')
    await waitFor(() => expect(items()).toHaveLength(1))
    fireEvent.click(within(items()[0]!).getByRole('button', { name: 'Edit' }))
    const field = within(items()[0]!).getByRole('textbox', { name: 'Edit' })
    fireEvent.change(field, { target: { value: 'Never mind' } })
    fireEvent.keyDown(field, { key: 'Escape' })
    expect(items()[0]!.textContent).toContain('Make it short')
    // Escape in the edit did not stop the answer.
    expect(store.getState().status).toBe('streaming')

    fireEvent.click(screen.getByRole('button', { name: 'Stop' }))
    await waitFor(() => expect(queue()!.getAttribute('data-state')).toBe('held'))
    expect(within(items()[0]!).getByText('Not sent yet')).toBeTruthy()
    expect(server.streams).toHaveLength(1)
    fireEvent.click(within(items()[0]!).getByRole('button', { name: 'Send now' }))
    await waitFor(() => expect(server.streams).toHaveLength(2))
    expect(server.lastQuestion(1)).toBe('Make it short')
    await waitFor(() => expect(queue()).toBeNull())
  })

  it('Send now while the answer streams steers: the answer stops, what it said stays, the message goes at once', async () => {
    const server = liveServer()
    const store = createAgentStore()
    renderWith(store, <Agent fetch={server.fetch} />)
    await type('Plan a trip')
    await waitFor(() => expect(server.streams).toHaveLength(1))
    act(() => server.say(0, 'Day one: Paris'))
    await screen.findByText(/Day one: Paris/)
    await type('Only two days')
    await waitFor(() => expect(items()).toHaveLength(1))
    fireEvent.click(within(items()[0]!).getByRole('button', { name: 'Send now' }))
    await waitFor(() => expect(server.streams).toHaveLength(2))
    expect(server.streams[0]!.signal!.aborted).toBe(true)
    const sent = server.streams[1]!.body.messages as Array<{ role: string; parts: Array<{ text?: string }> }>
    expect(sent.map((m) => [m.role, m.parts.map((p) => p.text ?? '').join('')])).toEqual([['user', 'Plan a trip'], ['assistant', 'Day one: Paris'], ['user', 'Only two days']])
    expect(screen.getByText(/Day one: Paris/)).toBeTruthy()
    expect(queue()).toBeNull()
  })
})
