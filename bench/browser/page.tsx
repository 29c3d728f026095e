/**
 * The page the Chromium bench loads: 1,000 finished messages in the store, then
 * a 20,000-token answer streamed into it at network pace. It counts React
 * commits, the frames they fall in, and renders of messages that were finished
 * before the answer began.
 */
import { memo, useEffect, useLayoutEffect } from 'react'
import { createRoot } from 'react-dom/client'
import { AgentProvider, useAgentStream, useMessage, useTurn, useTurnIds } from '../../src/react/index'
import { createAgentStore } from '../../src/core/store/store'
import type { HydratedTurn } from '../../src/core/model/ops'
import { uiMessageProtocol } from '../../src/protocols/ui-message/index'
import { messageList, messageRecord } from '../../src/core/model/message-table'

const EARLIER = 1_000
const TOKENS = 20_000
/**
 * The stream stops after this long even if the answer is not complete, so a loaded
 * machine still yields figures; the page reports how many tokens it got through.
 */
const BUDGET_MS = (window as unknown as { benchBudgetMs?: number }).benchBudgetMs ?? 60_000

interface Results {
  commits: number[]
  frames: number[]
  finishedRenders: number
  /** Bytes of the answer the page received, and their total. */
  received: number
  total: number
  /** True when the time budget ended the stream before the answer was complete. */
  cut: boolean
  /** Tokens of the answer that reached the store. */
  tokens: number
  /** From the request to the end of the stream. */
  streamMs: number
  /** Time inside each store dispatch: the fold, and the store's listeners (React renders later). */
  dispatchMs: number[]
  done: boolean
  error?: string
}

const results: Results = { commits: [], frames: [], finishedRenders: 0, received: 0, total: 0, cut: false, tokens: 0, streamMs: 0, dispatchMs: [], done: false }
;(window as unknown as { benchResults: Results }).benchResults = results
const finished = new Set<string>()
let streamStarted = 0

function answerSSE(): string {
  const chunks: unknown[] = [{ type: 'start', messageId: 'answer' }, { type: 'start-step' }, { type: 'text-start', id: 't1' }]
  for (let i = 0; i < TOKENS; i++) chunks.push({ type: 'text-delta', id: 't1', delta: `word${i} ` })
  chunks.push({ type: 'text-end', id: 't1' }, { type: 'finish-step' }, { type: 'finish' })
  return chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('') + 'data: [DONE]\n\n'
}

/** The answer's bytes, 2 KiB every 4 ms: about 60 tokens a frame, far above what a model sends. */
const pacedFetch: typeof fetch = async () => {
  const bytes = new TextEncoder().encode(answerSSE())
  results.total = bytes.length
  const started = performance.now()
  let at = 0
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      return new Promise<void>((resolve) => setTimeout(() => {
        if (at < bytes.length && performance.now() - started > BUDGET_MS) {
          // Out of time: finish the event under way and end the answer there, so the run reports.
          results.cut = true
          let end = Math.max(0, at - 1)
          while (end < bytes.length - 1 && !(bytes[end] === 10 && bytes[end + 1] === 10)) end++
          const rest = bytes.slice(at, Math.max(at, end + 2))
          results.received += rest.length
          at = bytes.length
          controller.enqueue(rest)
          controller.enqueue(new TextEncoder().encode('data: {"type":"text-end","id":"t1"}\n\ndata: {"type":"finish-step"}\n\ndata: {"type":"finish"}\n\ndata: [DONE]\n\n'))
        }
        if (at >= bytes.length) controller.close()
        else {
          const piece = bytes.slice(at, (at += 2048))
          results.received += piece.length
          controller.enqueue(piece)
        }
        resolve()
      }, 4))
    },
  })
  return new Response(body, { headers: { 'content-type': 'text/event-stream', 'x-vercel-ai-ui-message-stream': 'v1' } })
}

/** One entry per React commit: a commit runs all its layout effects in one go. */
let commitPending = false
function useCommitCount(): void {
  useLayoutEffect(() => {
    if (commitPending) return
    commitPending = true
    results.commits.push(performance.now())
    queueMicrotask(() => {
      commitPending = false
    })
  })
}

// Rows are memoised, as a host's list would be: a row renders when its own message changes.
const Message = memo(function Message({ id }: { id: string }) {
  const message = useMessage(id)
  if (finished.has(id)) results.finishedRenders += 1
  useCommitCount()
  return <p>{String(message?.props.content ?? '')}</p>
})

const Turn = memo(function Turn({ id }: { id: string }) {
  const turn = useTurn(id)
  useCommitCount()
  return <section>{turn?.messageIds.map((m) => <Message key={m} id={m} />)}</section>
})

function Chat() {
  const { send, status } = useAgentStream({ url: 'http://bench.invalid/chat', protocol: uiMessageProtocol, fetch: pacedFetch })
  const ids = useTurnIds()
  useCommitCount()
  useEffect(() => {
    // The earlier messages have mounted: from here on, none of them may render again.
    for (const id of Object.keys(messageRecord(store.getState().messages))) finished.add(id)
    streamStarted = performance.now()
    performance.mark('weft-stream-start')
    void send('go')
  }, [send])
  useEffect(() => {
    if (status === 'done' || status === 'error') {
      results.streamMs = performance.now() - streamStarted
      performance.mark('weft-stream-end')
      // The answer is the longest text that was not there before (the question is one word).
      const texts = messageList(store.getState().messages).filter((m) => !finished.has(m.id)).map((m) => String(m.props.content ?? ''))
      results.tokens = Math.max(0, ...texts.map((t) => t.split(' ').filter(Boolean).length))
      results.done = true
    }
    if (status === 'error') results.error = JSON.stringify(store.getState().error)
  }, [status])
  return <div>{ids.map((id) => <Turn key={id} id={id} />)}</div>
}

const store = createAgentStore()
const turns: HydratedTurn[] = []
for (let t = 0; t < EARLIER / 2; t++) {
  turns.push({ turn: { id: `old-${t}`, role: t % 2 ? 'assistant' : 'user' }, messages: [0, 1].map((m) => ({ id: `old-${t}-${m}`, type: 'text', props: { content: `Earlier message ${t}.${m}. `.repeat(6) } })) })
}
store.getState().dispatch([{ op: 'hydrate', turns, at: 'start' }])
{
  // Time the store's share of each frame apart from React's and the browser's.
  const dispatch = store.getState().dispatch
  store.setState({
    dispatch: (ops) => {
      const start = performance.now()
      dispatch(ops)
      results.dispatchMs.push(performance.now() - start)
    },
  })
}

// A frame is counted from when its callbacks start, not from its vsync timestamp: a
// long frame's commit can finish after the next vsync, and would then be counted in
// the next frame although that frame's own flush had not run yet. This callback was
// registered before the batcher's, so it runs first in each frame.
const frame = () => {
  results.frames.push(performance.now())
  if (!results.done) requestAnimationFrame(frame)
}
requestAnimationFrame(frame)

;(window as unknown as { benchStore: typeof store }).benchStore = store
createRoot(document.getElementById('root')!).render(<AgentProvider store={store}><Chat /></AgentProvider>)
