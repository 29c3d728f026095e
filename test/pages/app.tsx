/**
 * The page the real-page tests load: a persisted multi-conversation chat, as a
 * host would write it, against the mock agent server on the same loopback
 * origin. The query string picks the database (`db`) and the pace of the mock
 * stream (`delay`, ms per event). `window.weftPage` lets the test read the
 * conversation store (and its messages, with `messageIn`); everything a user does goes through the page itself.
 */
import { useState } from 'react'
import { createRoot } from 'react-dom/client'
import '../../src/protocols/index'
import { ThreadList } from '../../src/components/thread-list'
import { Transcript } from '../../src/components/transcript'
import { createConversations, type Conversations } from '../../src/core/conversations/conversations'
import { indexedDbConversations, type IndexedDbConversationStorage } from '../../src/core/conversations/indexed-db'
import { useConversations } from '../../src/react/conversations'
import { ConversationsProvider } from '../../src/umbrella/providers'
import { useResumableStream } from '../../src/react/use-resumable-stream'
import { messageIn } from '../../src/core/model/message-table'

declare global {
  interface Window {
    weftPage: { conversations: Conversations; storage: IndexedDbConversationStorage; messageIn: typeof messageIn }
  }
}

const query = new URLSearchParams(location.search)
const database = query.get('db') ?? 'weft-pages'
const delay = Number(query.get('delay') ?? '5')

const storage = indexedDbConversations({ name: database })
const conversations = createConversations({ storage, namespace: database })
window.weftPage = { conversations, storage, messageIn }

function Chat() {
  const { selected } = useConversations()
  const { send, status } = useResumableStream({
    url: `/mock/stream/vocion/answer?delay=${delay}`,
    protocol: 'vocion',
    resume: 'vocion',
    resumeUrl: `/mock/resume/vocion/answer?delay=${delay}`,
  })
  const [text, setText] = useState('')
  return (
    <main>
      <h1 data-testid="title">{selected?.title}</h1>
      {selected?.error && <p role="alert">{selected.error.message}</p>}
      <form
        onSubmit={(event) => {
          event.preventDefault()
          if (text.trim()) void send(text)
          setText('')
        }}
      >
        <input aria-label="Message" value={text} onChange={(e) => setText(e.target.value)} />
        <button type="submit">Send</button>
      </form>
      <p>Status <output data-testid="status">{status}</output></p>
      <Transcript.Root />
    </main>
  )
}

createRoot(document.getElementById('root') as HTMLElement).render(
  <ConversationsProvider conversations={conversations} fallback={<p>Loading conversations…</p>}>
    <ThreadList />
    <Chat />
  </ConversationsProvider>,
)
