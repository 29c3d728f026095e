/**
 * Under a `ConversationsProvider`, `useAgentStream` sends the selected
 * conversation's id as the wire's chat id (AI SDK `id`, AG-UI `threadId`, Yao
 * `chat_id`), so a reload into the same conversation keeps talking about the
 * same chat; a host's `conversationId` still wins.
 */
import { act, cleanup, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { syncScheduler } from '../../src/core/store/batcher'
import { createConversations, type Conversations } from '../../src/core/conversations/conversations'
import { memoryConversations } from '../../src/core/conversations/storage'
import { memoryStorage } from '../../src/core/resume/storage'
import type { ResumeStorage } from '../../src/core/resume/types'
import { ConversationsProvider } from '../../src/umbrella/providers'
import { useAgentStream, type UseAgentStreamOptions } from '../../src/react/use-agent-stream'

const opened: Conversations[] = []
afterEach(async () => {
  cleanup()
  for (const c of opened.splice(0)) await c.dispose()
})

/** Records each JSON body and answers with an empty stream (what it says does not matter here). */
function recorder() {
  const bodies: Array<Record<string, unknown>> = []
  const fetch = (async (_url: RequestInfo | URL, init?: RequestInit) => {
    bodies.push(JSON.parse(String(init?.body)) as Record<string, unknown>)
    return new Response('', { headers: { 'content-type': 'text/event-stream' } })
  }) as typeof globalThis.fetch
  return { bodies, fetch }
}

function Ask(props: UseAgentStreamOptions) {
  const { send } = useAgentStream(props)
  return <button onClick={() => void send('Hi')}>ask</button>
}

async function mount(storage: ReturnType<typeof memoryConversations>, selection: ResumeStorage, props: UseAgentStreamOptions) {
  const conversations = createConversations({ storage, selection, saveOnHide: false })
  opened.push(conversations)
  const view = render(<ConversationsProvider conversations={conversations}><Ask {...props} /></ConversationsProvider>)
  const button = await screen.findByRole('button', { name: 'ask' })
  await act(async () => {
    button.click()
    await new Promise((resolve) => setTimeout(resolve, 0))
  })
  return { conversations, view }
}

describe('useAgentStream under a ConversationsProvider: the chat id', () => {
  for (const [protocol, field] of [['ui-message', 'id'], ['ag-ui', 'threadId'], ['yao', 'chat_id']] as const) {
    it(`${protocol} sends the selected conversation's id as ${field}`, async () => {
      const { bodies, fetch } = recorder()
      const { conversations } = await mount(memoryConversations(), memoryStorage(), { url: '/api/chat', protocol, fetch, scheduler: syncScheduler })
      expect(conversations.selectedId).toEqual(expect.any(String))
      expect(bodies).toHaveLength(1)
      expect(bodies[0]![field]).toBe(conversations.selectedId)
    })
  }

  it('after a reload into the same conversation, the same id goes out', async () => {
    const storage = memoryConversations()
    const selection = memoryStorage()
    const { bodies, fetch } = recorder()
    const first = await mount(storage, selection, { url: '/api/chat', protocol: 'ui-message', fetch, scheduler: syncScheduler })
    const id = first.conversations.selectedId
    await first.conversations.flush()
    first.view.unmount()
    await first.conversations.dispose()

    const second = await mount(storage, selection, { url: '/api/chat', protocol: 'ui-message', fetch, scheduler: syncScheduler })
    expect(second.conversations.selectedId).toBe(id)
    expect(bodies.map((b) => b.id)).toEqual([id, id])
    // The second request carries the first question too: it is the same conversation.
    expect((bodies[1]!.messages as unknown[]).length).toBeGreaterThan(1)
  })

  it("the host's conversationId wins", async () => {
    const { bodies, fetch } = recorder()
    await mount(memoryConversations(), memoryStorage(), { url: '/api/chat', protocol: 'ag-ui', conversationId: 'thread-of-mine', fetch, scheduler: syncScheduler })
    expect(bodies[0]!.threadId).toBe('thread-of-mine')
  })
})
