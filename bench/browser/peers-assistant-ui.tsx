/**
 * `npm run bench:peers`, kit (c): assistant-ui with its AI SDK integration
 * (`useChatRuntime` and `AssistantChatTransport` from `@assistant-ui/react-ai-sdk`)
 * and its markdown package (`MarkdownTextPrimitive` with remark-gfm, as its docs'
 * `MarkdownText` is), in a thread built from its primitives: the viewport (which
 * follows the end), the messages, and the composer.
 */
import { history, ready } from './peers-workload'
import { AssistantRuntimeProvider, ComposerPrimitive, MessagePrimitive, ThreadPrimitive } from '@assistant-ui/react'
import { MarkdownTextPrimitive } from '@assistant-ui/react-markdown'
import { AssistantChatTransport, useChatRuntime } from '@assistant-ui/react-ai-sdk'
import { useEffect, useState } from 'react'
import { createRoot } from 'react-dom/client'
import remarkGfm from 'remark-gfm'
import '@assistant-ui/react-markdown/styles/dot.css'

const MarkdownText = () => <MarkdownTextPrimitive remarkPlugins={[remarkGfm]} className="aui-md" />

const UserMessage = () => (
  <MessagePrimitive.Root style={{ marginBottom: 16 }}>
    <strong>User</strong>
    <MessagePrimitive.Parts />
  </MessagePrimitive.Root>
)

const AssistantMessage = () => (
  <MessagePrimitive.Root style={{ marginBottom: 16 }}>
    <strong>AI</strong>
    <MessagePrimitive.Parts components={{ Text: MarkdownText }} />
  </MessagePrimitive.Root>
)

function App() {
  const [transport] = useState(() => new AssistantChatTransport({ api: '/api/chat' }))
  const runtime = useChatRuntime({ messages: history(), transport })
  useEffect(() => ready(() => runtime.thread.append('go')), [runtime])
  return (
    <AssistantRuntimeProvider runtime={runtime}>
      <ThreadPrimitive.Root style={{ height: '100vh', display: 'flex', flexDirection: 'column' }}>
        <ThreadPrimitive.Viewport style={{ flex: 1, overflowY: 'auto', padding: 16 }}>
          <ThreadPrimitive.Messages components={{ UserMessage, AssistantMessage }} />
        </ThreadPrimitive.Viewport>
        <ComposerPrimitive.Root>
          <ComposerPrimitive.Input placeholder="Write a message..." />
          <ComposerPrimitive.Send>Send</ComposerPrimitive.Send>
        </ComposerPrimitive.Root>
      </ThreadPrimitive.Root>
    </AssistantRuntimeProvider>
  )
}

createRoot(document.getElementById('root')!).render(<App />)
