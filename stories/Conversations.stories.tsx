import type { Meta, StoryObj } from '@storybook/react-vite'
import '../src/components/styles.css'
import { useEffect, useState } from 'react'
import { expect, userEvent, waitFor, within } from 'storybook/test'
import { Composer, ThreadList, ThreadListLayout, Transcript } from '../src/components'
import { createConversations, type Conversations } from '../src/core/conversations/conversations'
import { indexedDbConversations, type IndexedDbConversationStorage } from '../src/core/conversations/indexed-db'
import { useConversations } from '../src/react/conversations'
import { ConversationsProvider } from '../src/umbrella/providers'
import { useResumableStream } from '../src/react/use-resumable-stream'

interface Page {
  storage: IndexedDbConversationStorage
  conversations: Conversations
}

/** What a page load makes: a connection to the database and a conversation store over it. */
function openPage(database: string): Page {
  const storage = indexedDbConversations({ name: database })
  return { storage, conversations: createConversations({ storage, namespace: database }) }
}

function Chat() {
  const { selected } = useConversations()
  const { send, stop, status } = useResumableStream({
    url: '/mock/stream/vocion/answer?delay=25',
    protocol: 'vocion',
    resume: 'vocion',
    resumeUrl: '/mock/resume/vocion/answer?delay=25',
  })
  return (
    <section style={{ display: 'grid', gap: 12, alignContent: 'start', padding: 16, minWidth: 0 }}>
      <h2 style={{ margin: 0, fontSize: 'var(--weft-text-lg, 1.125rem)' }} data-testid="chat-title">{selected?.title}</h2>
      {selected?.error && <p role="alert">{selected.error.message}</p>}
      <Transcript.Root />
      <Composer send={(text) => void send(text)} stop={stop} defaultValue="Where is the Contoso renewal?" placeholder="Ask about a renewal" />
      <p style={{ margin: 0 }}>Status <output data-testid="status">{status}</output></p>
    </section>
  )
}

/**
 * A persisted multi-conversation chat: the thread list, a chat against the mock
 * agent server, and IndexedDB underneath. "Reload" throws the page's store and
 * database connection away and opens them again, as a browser reload does; a real
 * reload of the story keeps everything too.
 */
function ConversationsDemo({ database }: { database: string }) {
  const [load, setLoad] = useState(1)
  const [page, setPage] = useState<Page>(() => openPage(database))
  useEffect(() => () => {
    void page.conversations.dispose().then(() => page.storage.close())
  }, [page])
  return (
    // The page's own text in weft's font and colours, as a host's app would set them.
    <div style={{ display: 'grid', gap: 16, maxWidth: 960, fontFamily: 'var(--weft-font)', fontSize: 'var(--weft-text-sm)', color: 'var(--weft-fg)' }}>
      <aside style={{ display: 'flex', flexWrap: 'wrap', gap: 12, alignItems: 'center' }}>
        <button
          type="button"
          onClick={() => {
            setPage(openPage(database))
            setLoad((n) => n + 1)
          }}
        >
          Reload the page
        </button>
        <p style={{ margin: 0 }}>Page load <output data-testid="load">{load}</output></p>
      </aside>
      <ConversationsProvider key={load} conversations={page.conversations} fallback={<p>Loading conversations…</p>}>
        {/* A sidebar and its chat in one frame, as an app lays them out; a drawer where the frame is narrow. */}
        <div style={{ height: '28rem', border: '1px solid var(--weft-border)', borderRadius: 12, overflow: 'hidden' }}>
          <ThreadListLayout>
            <ThreadList />
            <Chat />
          </ThreadListLayout>
        </div>
      </ConversationsProvider>
    </div>
  )
}

/**
 * Conversations: "New chat", the list (a dot while an answer streams, also in the
 * background), rename with F2 or a double click, delete with undo, arrows to move.
 * Everything is kept in IndexedDB and comes back after a reload.
 */
const meta = {
  title: 'Conversations/Thread list',
  component: ConversationsDemo,
  args: { database: 'weft-story-conversations' },
} satisfies Meta<typeof ConversationsDemo>

export default meta
type Story = StoryObj<typeof meta>

const TIMEOUT = 10_000

export const ThreadListWithMockServer: Story = {}

/** Two conversations, an answer in one of them, a reload: both come back, the selected one active. */
export const SurvivesAReload: Story = {
  args: { database: `weft-story-reload-${Date.now()}` },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    const list = await canvas.findByRole('listbox', {}, { timeout: TIMEOUT })
    await userEvent.click(canvas.getByRole('button', { name: 'Send' }))
    await waitFor(() => expect(canvas.getByTestId('status').textContent).toBe('done'), { timeout: TIMEOUT })
    await waitFor(() => expect(within(list).getAllByRole('option')[0]?.textContent).toContain('Where is the Contoso renewal?'))
    await userEvent.click(canvas.getByRole('button', { name: 'New chat' }))
    await waitFor(() => expect(within(canvas.getByRole('listbox')).getAllByRole('option')).toHaveLength(2))
    // Back to the first conversation, by keyboard.
    await userEvent.keyboard('{ArrowDown}{Enter}')
    await waitFor(() => expect(canvas.getByTestId('chat-title').textContent).toBe('Where is the Contoso renewal?'))

    await userEvent.click(canvas.getByRole('button', { name: 'Reload the page' }))
    await waitFor(() => expect(canvas.getByTestId('load').textContent).toBe('2'))
    const again = await canvas.findByRole('listbox', {}, { timeout: TIMEOUT })
    await waitFor(() => expect(within(again).getAllByRole('option')).toHaveLength(2))
    await expect(canvas.getByTestId('chat-title').textContent).toBe('Where is the Contoso renewal?')
    await waitFor(() => expect(canvasElement.querySelector('[data-weft="turn"][data-role="assistant"]')?.textContent).toContain('Contoso renews'))
  },
}

/** At 375 px the list is a drawer over the chat: the button opens it, choosing a conversation closes it. */
export const Phone: Story = {
  args: { database: `weft-story-phone-${Date.now()}` },
  globals: { viewport: { value: 'phone' } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    const toggle = await canvas.findByRole('button', { name: 'Conversations' }, { timeout: TIMEOUT })
    const nav = canvasElement.querySelector<HTMLElement>('nav[data-weft="thread-list"]')!
    // The page's own text is in weft's font, not the browser's serif default.
    await expect(getComputedStyle(canvas.getByTestId('load')).fontFamily).toBe(getComputedStyle(nav).fontFamily)
    await expect(nav.checkVisibility()).toBe(false)
    await expect(toggle.getAttribute('aria-expanded')).toBe('false')
    await userEvent.click(toggle)
    await expect(nav.checkVisibility()).toBe(true)
    await userEvent.click(within(nav).getByRole('button', { name: 'New chat' }))
    await waitFor(() => expect(within(nav).getAllByRole('option').length).toBeGreaterThan(0))
    await userEvent.click(within(nav).getAllByRole('option')[0]!)
    await waitFor(() => expect(nav.checkVisibility()).toBe(false))
    await expect(toggle.getAttribute('aria-expanded')).toBe('false')
  },
}
