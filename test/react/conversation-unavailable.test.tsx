/**
 * While the selected conversation is loading, or its record cannot be read, the
 * provider shows an empty store that is never saved. Nothing may be sent into
 * it: the hooks refuse with a typed error (nothing leaves, `send` still resolves),
 * and the Composer is disabled with the reason; once the conversation is there,
 * sending works again.
 */
import { act, cleanup, render, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { Composer } from '../../src/components/composer'
import { syncScheduler } from '../../src/core/store/batcher'
import { createConversations, type Conversations } from '../../src/core/conversations/conversations'
import { memoryConversations } from '../../src/core/conversations/storage'
import type { WeftError } from '../../src/core/model/errors'
import { ConversationsProvider } from '../../src/umbrella/providers'
import { useAgentStream, type AgentStreamHandle } from '../../src/react/use-agent-stream'

const opened: Conversations[] = []
afterEach(async () => {
  cleanup()
  for (const c of opened.splice(0)) await c.dispose()
})

/** Two stored conversations: "Quick" (the newest, selected at start) and "Slow", whose load waits until `release()`. */
async function slowStorage() {
  const inner = memoryConversations()
  let now = 1
  const seed = createConversations({ storage: inner, selection: false, saveOnHide: false, now: () => now++ })
  await seed.ready()
  const slow = seed.create({ title: 'Slow' })
  seed.create({ title: 'Quick' })
  await seed.flush()
  await seed.dispose()
  let release = () => {}
  const gate = new Promise<void>((resolve) => (release = resolve))
  const load = async (key: string) => {
    if (key === slow) await gate
    return inner.load(key)
  }
  return { slow, release, storage: { ...inner, load } }
}

let chat: AgentStreamHandle
function Chat({ fetch, onError }: { fetch: typeof globalThis.fetch; onError?: (e: WeftError) => void }) {
  chat = useAgentStream({ url: '/api/chat', protocol: 'ui-message', fetch, onError, scheduler: syncScheduler })
  return <><output data-testid="error">{chat.error?.code ?? ''}</output><Composer send={chat.send} stop={chat.stop} placeholder="Ask" /></>
}

const box = () => screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement
const sendButton = () => screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement

describe('sending while the conversation shown is not its own store', () => {
  it('while it loads: refused with conversation_unavailable, nothing sent, the Composer disabled; once loaded, it sends', async () => {
    const { slow: id, release, storage } = await slowStorage()
    const conversations = createConversations({ storage, selection: false, saveOnHide: false })
    opened.push(conversations)
    const fetch = vi.fn(async () => new Response('data: {"type":"start"}\n\ndata: {"type":"finish"}\n\n', { headers: { 'content-type': 'text/event-stream' } }))
    const onError = vi.fn()
    render(<ConversationsProvider conversations={conversations}><Chat fetch={fetch as unknown as typeof globalThis.fetch} onError={onError} /></ConversationsProvider>)
    await screen.findByRole('textbox', { name: 'Message' })
    expect(box().disabled).toBe(false)
    // Switching to a conversation still on its way from storage.
    let loaded: Promise<void> = Promise.resolve()
    act(() => {
      loaded = conversations.select(id)
    })
    expect(conversations.selectedId).toBe(id)
    expect(conversations.storeOf(id)).toBeUndefined()

    expect(box().disabled).toBe(true)
    expect(box().placeholder).toMatch(/still loading/)
    expect(sendButton().disabled).toBe(true)
    expect(screen.getByRole('textbox').closest('form')?.getAttribute('data-state')).toBe('disabled')

    await act(async () => {
      await expect(chat.send('Lost?')).resolves.toBeUndefined()
    })
    expect(fetch).not.toHaveBeenCalled()
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ type: 'validation', code: 'conversation_unavailable' }))
    expect(screen.getByTestId('error').textContent).toBe('conversation_unavailable')
    await expect(chat.regenerate()).resolves.toMatchObject({ ok: false, error: { code: 'conversation_unavailable' } })

    await act(async () => {
      release()
      await loaded
    })
    await waitFor(() => expect(box().disabled).toBe(false))
    expect(box().placeholder).toBe('Ask')
    await act(() => chat.send('Now?'))
    expect(fetch).toHaveBeenCalledTimes(1)
  })

  it('a record that cannot be read: refused with the reason, nothing sent', async () => {
    const storage = memoryConversations()
    storage.records.set('broken', { format: 'weft.conversation', version: 1, id: 'broken', title: 'Broken', createdAt: 1, updatedAt: 1, revision: 1, state: { turnIds: ['t1'], turns: {} } })
    const conversations = createConversations({ storage, selection: false, saveOnHide: false })
    opened.push(conversations)
    const fetch = vi.fn()
    render(<ConversationsProvider conversations={conversations}><Chat fetch={fetch as unknown as typeof globalThis.fetch} /></ConversationsProvider>)
    await screen.findByRole('textbox', { name: 'Message' })
    await waitFor(() => expect(conversations.list().find((c) => c.id === 'broken')?.status).toBe('error'))
    expect(conversations.selectedId).toBe('broken')
    await waitFor(() => expect(box().placeholder).toMatch(/cannot be read/))
    expect(box().disabled).toBe(true)
    await act(async () => {
      await chat.send('Into the void')
    })
    expect(fetch).not.toHaveBeenCalled()
    expect(chat.error).toMatchObject({ type: 'validation', code: 'conversation_unavailable', message: expect.stringContaining('cannot be read') })
  })
})
