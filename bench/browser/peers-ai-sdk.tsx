/**
 * `npm run bench:peers`, kit (b): the AI SDK's `useChat` with streamdown, as the
 * AI SDK's chatbot page shows it (messages mapped to their parts, text parts drawn
 * by `<Streamdown>`), in a scrolling column that follows the end (at most once a
 * frame, in an animation frame callback, so the scroll costs no layout of its own),
 * and a form to send. `useChat` runs with its defaults (no `experimental_throttle`).
 */
import { history, ready } from './peers-workload'
import { useChat } from '@ai-sdk/react'
import { DefaultChatTransport } from 'ai'
import { useEffect, useLayoutEffect, useRef, useState } from 'react'
import { createRoot } from 'react-dom/client'
import { Streamdown } from 'streamdown'
import 'streamdown/styles.css'

function App() {
  const [transport] = useState(() => new DefaultChatTransport({ api: '/api/chat' }))
  const { messages, sendMessage, status, stop } = useChat({ messages: history(), transport })
  const [input, setInput] = useState('')
  const column = useRef<HTMLDivElement>(null)
  useEffect(() => ready(() => void sendMessage({ text: 'go' })), [sendMessage])
  const following = useRef(0)
  useLayoutEffect(() => {
    if (following.current) return
    following.current = requestAnimationFrame(() => {
      following.current = 0
      const el = column.current
      if (el) el.scrollTop = el.scrollHeight
    })
  }, [messages])
  return (
    <div style={{ height: '100vh', display: 'flex', flexDirection: 'column' }}>
      <div ref={column} style={{ flex: 1, overflowY: 'auto', padding: 16 }}>
        {messages.map((message, m) => (
          <div key={message.id} style={{ marginBottom: 16 }}>
            <strong>{message.role === 'user' ? 'User' : 'AI'}</strong>
            {message.parts.map((part, i) => part.type === 'text'
              ? <Streamdown key={i} isAnimating={status === 'streaming' && m === messages.length - 1}>{part.text}</Streamdown>
              : null)}
          </div>
        ))}
      </div>
      <form onSubmit={(e) => { e.preventDefault(); if (input.trim()) void sendMessage({ text: input }); setInput('') }}>
        <input value={input} onChange={(e) => setInput(e.currentTarget.value)} disabled={status !== 'ready'} placeholder="Say something..." />
        {status === 'streaming' || status === 'submitted' ? <button type="button" onClick={() => void stop()}>Stop</button> : <button type="submit">Send</button>}
      </form>
    </div>
  )
}

createRoot(document.getElementById('root')!).render(<App />)
