/**
 * The page the Chromium bench loads: 1,000 finished messages in the store, then
 * a 20,000-token answer streamed into it at network pace. It counts React
 * commits, the frames they fall in, and renders of messages that were finished
 * before the answer began.
 */
import { memo, useEffect, useLayoutEffect } from 'react'
import { createRoot } from 'react-dom/client'
import { AgentProvider, useAgentStream, useMessage, useTurn, useTurnIds } from '../../src/react/index'
import { createAgentStore } from '../../src/core/store'
import type { HydratedTurn } from '../../src/core/ops'

const EARLIER = 1_000
const TOKENS = 20_000

interface Results {
  commits: number[]
  frames: number[]
  finishedRenders: number
  done: boolean
  error?: string
}

const results: Results = { commits: [], frames: [], finishedRenders: 0, done: false }
;(window as unknown as { benchResults: Results }).benchResults = results
const finished = new Set<string>()

function answerSSE(): string {
  const chunks: unknown[] = [{ type: 'start', messageId: 'answer' }, { type: 'start-step' }, { type: 'text-start', id: 't1' }]
  for (let i = 0; i < TOKENS; i++) chunks.push({ type: 'text-delta', id: 't1', delta: `word${i} ` })
  chunks.push({ type: 'text-end', id: 't1' }, { type: 'finish-step' }, { type: 'finish' })
  return chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('') + 'data: [DONE]\n\n'
}

/** The answer's bytes, 2 KiB every 4 ms: about 60 tokens a frame, far above what a model sends. */
const pacedFetch: typeof fetch = async () => {
  const bytes = new TextEncoder().encode(answerSSE())
  let at = 0
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      return new Promise<void>((resolve) => setTimeout(() => {
        if (at >= bytes.length) controller.close()
        else controller.enqueue(bytes.slice(at, (at += 2048)))
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
  const { send, status } = useAgentStream({ url: 'http://bench.invalid/chat', protocol: 'ui-message', fetch: pacedFetch })
  const ids = useTurnIds()
  useCommitCount()
  useEffect(() => {
    // The earlier messages have mounted: from here on, none of them may render again.
    for (const id of Object.keys(store.getState().messages)) finished.add(id)
    void send('go')
  }, [send])
  useEffect(() => {
    if (status === 'done' || status === 'error') results.done = true
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

const frame = (now: number) => {
  results.frames.push(now)
  if (!results.done) requestAnimationFrame(frame)
}
requestAnimationFrame(frame)

;(window as unknown as { benchStore: typeof store }).benchStore = store
createRoot(document.getElementById('root')!).render(<AgentProvider store={store}><Chat /></AgentProvider>)
