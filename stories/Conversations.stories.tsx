import type { Meta, StoryObj } from '@storybook/react-vite'
import '../src/components/styles.css'
import { useEffect, useState } from 'react'
import { expect, userEvent, waitFor, within } from 'storybook/test'
import { Composer, ThreadList, Transcript } from '../src/components'
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
      <h2 style={{ margin: 0 }} data-testid="chat-title">{selected?.title}</h2>
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
    <div style={{ display: 'grid', gridTemplateColumns: '16rem 1fr', gap: 24, maxWidth: 960 }}>
      <aside style={{ display: 'grid', gap: 8, alignContent: 'start' }}>
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
        {/* A sidebar and its chat in one frame, as an app lays them out: the list takes the frame's height. */}
        <div style={{ display: 'grid', gridTemplateColumns: '16rem 1fr', gridColumn: '1 / -1', minHeight: '28rem', border: '1px solid var(--weft-border)', borderRadius: 12, overflow: 'hidden' }}>
          <ThreadList />
          <Chat />
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
