/**
 * The Chromium bench of a long markdown answer: 1,000 finished messages in the
 * `Chat` layout, then a 50,000-character markdown answer streamed in 5,000
 * tokens through `useAgentStream` and drawn by weft's own components. It counts
 * React commits (through the devtools hook, which the production build of React
 * also calls), renders of messages that were finished before the answer began,
 * and the time and characters marked's lexer spends on the answer.
 */
import { commitSources, commitTimes } from './devtools-hook'
import { useEffect, useRef } from 'react'
import { createRoot } from 'react-dom/client'
import { uiMessageProtocol } from '../../src/protocols/ui-message/index'
import { Lexer } from 'marked'
import { Chat } from '../../src/components/chat'
import { MarkdownSettingsProvider } from '../../src/components/markdown/markdown'
import { MarkdownMessage } from '../../src/components/messages/text'
import { RendererProvider, type MessageRendererProps } from '../../src/components/renderers'
import { AgentProvider, useAgentStream } from '../../src/react/index'
import { createAgentStore } from '../../src/core/store/store'
import type { HydratedTurn } from '../../src/core/model/ops'
import { markdownAnswer } from '../../test/fixtures/markdown-answer'
import { messageList, messageRecord } from '../../src/core/model/message-table'

const EARLIER = 1_000
const ANSWER_CHARS = 50_000
const TOKENS = 5_000
/** Tokens sent every 4 ms: about 1,000 a second, several times a fast model's pace. */
const TOKENS_PER_TICK = 4

interface Results {
  commits: number[]
  commitSources: string[]
  frames: number[]
  finishedRenders: number
  /** First renders of finished messages: rows the virtual list mounts as the view moves. */
  finishedMounts: number
  lexCalls: number
  lexMs: number
  lexChars: number
  finalText: string
  /** When the first and the last of the answer's bytes reached the page. */
  streamStart?: number
  streamEnd?: number
  done: boolean
  error?: string
}

const results: Results = { commits: commitTimes, commitSources, frames: [], finishedRenders: 0, finishedMounts: 0, lexCalls: 0, lexMs: 0, lexChars: 0, finalText: '', done: false }
;(window as unknown as { benchResults: Results }).benchResults = results
const finished = new Set<string>()

/** The text of every lex of the answer, to replay them back to back after the stream. */
const lexedTexts: string[] = []

// Every lex of the answer, timed: weft's block splitter calls marked's Lexer on the open tail.
const lex = Lexer.prototype.lex
Lexer.prototype.lex = function timedLex(this: Lexer, src: string) {
  const started = performance.now()
  try {
    return lex.call(this, src)
  } finally {
    if (!results.done) {
      results.lexMs += performance.now() - started
      results.lexChars += src.length
      results.lexCalls += 1
      lexedTexts.push(src)
    }
  }
}

/** The fixture's constructs (headings, lists, a table, quotes, code), repeated to the length asked. */
function answerOf(size: number): string {
  let text = ''
  for (let i = 1; text.length < size; i++) text += markdownAnswer.replace('## Weather in Paris', `## Part ${i}`) + '\n'
  return text.slice(0, size)
}

const answer = answerOf(ANSWER_CHARS)

function answerSSE(): string {
  const chunks: unknown[] = [{ type: 'start', messageId: 'answer' }, { type: 'start-step' }, { type: 'text-start', id: 't1' }]
  const step = Math.ceil(answer.length / TOKENS)
  for (let at = 0; at < answer.length; at += step) chunks.push({ type: 'text-delta', id: 't1', delta: answer.slice(at, at + step) })
  chunks.push({ type: 'text-end', id: 't1' }, { type: 'finish-step' }, { type: 'finish' })
  return chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('') + 'data: [DONE]\n\n'
}

/** The answer's events, a few tokens every 4 ms. */
const pacedFetch: typeof fetch = async () => {
  const events = answerSSE().split(/(?<=\n\n)/)
  const encoder = new TextEncoder()
  let at = 0
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      return new Promise<void>((resolve) => setTimeout(() => {
        if (results.streamStart === undefined) {
          results.streamStart = performance.now()
          performance.mark('weft-stream-start')
        }
        if (at >= events.length) {
          results.streamEnd = performance.now()
          performance.mark('weft-stream-end')
          controller.close()
        } else controller.enqueue(encoder.encode(events.slice(at, (at += TOKENS_PER_TICK)).join('')))
        resolve()
      }, 4))
    },
  })
  return new Response(body, { headers: { 'content-type': 'text/event-stream', 'x-vercel-ai-ui-message-stream': 'v1' } })
}

/** weft's markdown renderer, counting its renders of messages finished before the answer. */
function CountingMarkdown(props: MessageRendererProps) {
  const drawn = useRef(false)
  if (finished.has(props.message.id)) {
    if (drawn.current) results.finishedRenders += 1
    else results.finishedMounts += 1
  }
  drawn.current = true
  return <MarkdownMessage {...props} />
}

function Bench() {
  const { send, status } = useAgentStream({ url: 'http://bench.invalid/chat', protocol: 'ui-message', fetch: pacedFetch })
  useEffect(() => {
    // Let the earlier messages mount first; from then on none of them may render again.
    const start = setTimeout(() => {
      for (const id of Object.keys(messageRecord(store.getState().messages))) finished.add(id)
      void send('go')
    }, 500)
    return () => clearTimeout(start)
  }, [send])
  useEffect(() => {
    if (status === 'error') results.error = JSON.stringify(store.getState().error)
    if (status === 'done' || status === 'error') {
      const message = messageList(store.getState().messages).find((m) => !finished.has(m.id) && m.role !== 'user')
      results.finalText = String(message?.props.content ?? '')
      results.done = true
    }
  }, [status])
  return <Chat />
}

const store = createAgentStore()
const turns: HydratedTurn[] = []
for (let t = 0; t < EARLIER; t++) {
  const role = t % 2 ? 'assistant' : 'user'
  turns.push({ turn: { id: `old-${t}`, role }, messages: [{ id: `old-${t}-m`, type: 'text', role, props: { content: `Earlier message ${t}: **bold**, \`code\` and a [link](https://example.com/${t}).` } }] })
}
store.getState().dispatch([{ op: 'hydrate', turns, at: 'start' }])

/**
 * The stream's lexes again, back to back with nothing in between, in ms (the median
 * of 5): the lexer's own work, apart from what the page does between two frames'
 * lexes (collections, cold caches) that the timed lexes also pay.
 */
;(window as unknown as { benchReplayLexes: () => number }).benchReplayLexes = () => {
  const times: number[] = []
  for (let i = 0; i < 5; i++) {
    const started = performance.now()
    for (const text of lexedTexts) lex.call(new Lexer({ gfm: true, breaks: false }), text)
    times.push(performance.now() - started)
  }
  return times.sort((a, b) => a - b)[2]!
}

/** One parse of the final text with the same lexer and options, warmed up: the median of 21, in ms. */
;(window as unknown as { benchFinalParse: () => number }).benchFinalParse = () => {
  const times: number[] = []
  for (let i = 0; i < 21; i++) {
    const started = performance.now()
    lex.call(new Lexer({ gfm: true, breaks: false }), results.finalText)
    times.push(performance.now() - started)
  }
  return times.sort((a, b) => a - b)[10]!
}

// Counted as bench/browser/page.tsx counts them: from when the frame's callbacks start, not
// from its vsync timestamp, which a long frame's commit can outlast (it would then fall in the
// next frame, whose own flush had not run yet). Registered before the batcher's callback (at
// load, then again from inside each frame), so it runs first in each frame.
const frame = () => {
  results.frames.push(performance.now())
  if (!results.done) requestAnimationFrame(frame)
}
requestAnimationFrame(frame)

document.getElementById('root')!.style.height = '100vh'
createRoot(document.getElementById('root')!).render(
  <AgentProvider store={store} protocols={[uiMessageProtocol]}>
    <MarkdownSettingsProvider highlight={false}>
      <RendererProvider renderers={{ text: CountingMarkdown }}>
        <Bench />
      </RendererProvider>
    </MarkdownSettingsProvider>
  </AgentProvider>,
)
