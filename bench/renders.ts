/**
 * Renders per frame: the same UI message stream, arriving at network pace, drawn
 * by weft's hooks and by the AI SDK's `useChat`, in a DOM (jsdom) in this process.
 * Counted: React commits, and how many of them fall in one 60 Hz frame.
 */
import { JSDOM } from 'jsdom'
import { n, table } from './harness'

/** The UI message chunks of one answer: a step, a tool call, then `tokens` text deltas. */
function answerSSE(tokens: number): string {
  const chunks: Array<Record<string, unknown>> = [{ type: 'start', messageId: 'msg-1' }, { type: 'start-step' }, { type: 'text-start', id: 't1' }]
  for (let i = 0; i < tokens; i++) chunks.push({ type: 'text-delta', id: 't1', delta: `word${i} ` })
  chunks.push({ type: 'text-end', id: 't1' }, { type: 'finish-step' }, { type: 'finish' })
  return chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('') + 'data: [DONE]\n\n'
}

/** A fetch whose body arrives in `size`-byte pieces, one every `gapMs`. */
function pacedFetch(text: string, size: number, gapMs: number): typeof fetch {
  const bytes = new TextEncoder().encode(text)
  return async () => {
    let at = 0
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        return new Promise<void>((resolve) => setTimeout(() => {
          try {
            if (at >= bytes.length) controller.close()
            else controller.enqueue(bytes.slice(at, (at += size)))
          } catch {
            // The reader cancelled (it stops at [DONE]); nothing left to deliver.
          }
          resolve()
        }, gapMs))
      },
    })
    return new Response(body, { headers: { 'content-type': 'text/event-stream', 'x-vercel-ai-ui-message-stream': 'v1' } })
  }
}

/** Print the renders-per-frame figures. */
export async function benchRenders(): Promise<void> {
  const dom = new JSDOM('<!doctype html><div id="root"></div>', { pretendToBeVisual: true, url: 'http://localhost/' })
  const g = globalThis as Record<string, unknown>
  for (const key of ['window', 'document', 'navigator', 'HTMLElement', 'Node', 'requestAnimationFrame', 'cancelAnimationFrame', 'getComputedStyle']) {
    if (!(key in g) || key === 'window' || key === 'document') {
      Object.defineProperty(g, key, { value: (dom.window as unknown as Record<string, unknown>)[key], configurable: true, writable: true })
    }
  }
  g.IS_REACT_ACT_ENVIRONMENT = false

  const React = await import('react')
  const { createRoot } = await import('react-dom/client')
  const { AgentProvider, useAgentStream, useTurnIds, useTurn, useMessage } = await import('../src/react/index')
  const { builtInProtocols } = await import('../src/protocols/index')
  const { useChat } = await import('@ai-sdk/react')
  const { DefaultChatTransport } = await import('ai')
  const h = React.createElement

  const TOKENS = 3_000
  const sse = answerSSE(TOKENS)
  const rows: Array<Record<string, string>> = []

  async function measure(name: string, App: (props: { onCommit: () => void; onDone: () => void }) => React.ReactElement): Promise<void> {
    let commits = 0
    let resolveDone!: () => void
    const finished = new Promise<void>((resolve) => (resolveDone = resolve))
    const container = document.createElement('div')
    document.body.appendChild(container)
    const root = createRoot(container)
    const start = performance.now()
    root.render(h(React.Profiler, { id: name, onRender: () => { commits += 1 } }, h(App, { onCommit: () => {}, onDone: () => resolveDone() })))
    await finished
    const ms = performance.now() - start
    root.unmount()
    container.remove()
    const frames = ms / (1000 / 60)
    rows.push({ hook: name, 'text deltas': n(TOKENS), 'React commits': n(commits), 'elapsed frames': n(frames), 'commits per frame': n(commits / frames, 2) })
  }

  // weft: a list subscribed to ids, rows subscribed to their own message.
  function WeftMessage({ id }: { id: string }) {
    const m = useMessage(id)
    return h('p', null, String(m?.props.content ?? ''))
  }
  function WeftTurn({ id }: { id: string }) {
    const t = useTurn(id)
    return h('section', null, t?.messageIds.map((m) => h(WeftMessage, { key: m, id: m })))
  }
  function WeftChat({ onDone }: { onDone: () => void }) {
    const { send, status } = useAgentStream({ url: 'http://bench.invalid/chat', protocol: 'ui-message', fetch: pacedFetch(sse, 1024, 2) })
    const ids = useTurnIds()
    React.useEffect(() => { void send('go') }, [send])
    React.useEffect(() => { if (status === 'done') onDone() }, [status, onDone])
    return h('div', null, ids.map((id) => h(WeftTurn, { key: id, id })))
  }
  await measure('weft useAgentStream + selector hooks', ({ onDone }) => h(AgentProvider, { protocols: builtInProtocols }, h(WeftChat, { onDone })))

  function SdkChat({ onDone, throttle }: { onDone: () => void; throttle?: number }) {
    const transport = React.useMemo(() => new DefaultChatTransport({ api: 'http://bench.invalid/chat', fetch: pacedFetch(sse, 1024, 2) }), [])
    const { messages, sendMessage, status } = useChat({ transport, experimental_throttle: throttle })
    const sent = React.useRef(false)
    React.useEffect(() => { if (!sent.current) { sent.current = true; void sendMessage({ text: 'go' }) } }, [sendMessage])
    React.useEffect(() => { if (sent.current && status === 'ready' && messages.length > 1) onDone() }, [status, messages.length, onDone])
    return h('div', null, messages.map((m) => h('p', { key: m.id }, m.parts.map((p) => ('text' in p ? p.text : '')).join(''))))
  }
  await measure('ai useChat (default)', ({ onDone }) => h(SdkChat, { onDone }))
  await measure('ai useChat (experimental_throttle: 16)', ({ onDone }) => h(SdkChat, { onDone, throttle: 16 }))

  console.log(`Renders per frame: ${n(TOKENS)} text deltas arriving 1 KiB every 2 ms, drawn in jsdom (same process, same stream)`)
  table(rows)
}
