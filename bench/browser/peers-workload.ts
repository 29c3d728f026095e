/**
 * The workload of `npm run bench:peers`, shared by its three pages (weft, the AI
 * SDK's `useChat` with streamdown, assistant-ui): 200 earlier messages, then one
 * answer of about 20,000 tokens of markdown (headings, lists, tables and 10 fenced
 * code blocks) delivered one token per ~1 ms as an AI SDK UI message stream from a
 * mock `fetch` in the page. Imported first by each page, so the mock `fetch`, the
 * error handler and the DOM watcher are in place before any kit loads.
 *
 * The page tells the runner what it saw through `window.peersResults`; the runner
 * reads the rest (script, layout and paint time, long tasks, heap) from a trace.
 */

/** Earlier messages, alternating user and assistant, before the answer. */
export const EARLIER = 200
/** Tokens in the answer. */
export const TOKENS = 20_000
/** Fenced code blocks in the answer (one per section). */
const SECTIONS = 10
/** The answer's last words: the page is done when they are on screen and the DOM is quiet. */
export const SENTINEL = 'End of the answer, marker 7f3a.'

/** A small deterministic generator, so every page gets the same answer. */
function random(seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (s + 0x6d2b79f5) >>> 0
    let t = s
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const WORDS = 'the stream folds each event into one model of turns and messages while a token lands on the open block only so finished blocks keep their elements and the list of earlier messages never renders again when the answer grows longer than the view the column follows its end unless the reader scrolls away'.split(' ')

/** Splits text into tokens the way a model's deltas look: a word with the whitespace before it. */
export function tokenize(text: string): string[] {
  return text.match(/\s*\S+|\s+$/g) ?? []
}

function sentence(rand: () => number, words: number): string {
  const out: string[] = []
  for (let i = 0; i < words; i++) {
    let word = WORDS[Math.floor(rand() * WORDS.length)]!
    const r = rand()
    if (r < 0.03) word = `**${word}**`
    else if (r < 0.05) word = `\`${word}()\``
    else if (r < 0.06) word = `[${word}](https://example.com/${word})`
    else if (r < 0.07) word = `_${word}_`
    out.push(word)
  }
  const text = out.join(' ')
  return text.charAt(0).toUpperCase() + text.slice(1) + '.'
}

function paragraph(rand: () => number): string {
  const sentences: string[] = []
  for (let i = 0, count = 3 + Math.floor(rand() * 3); i < count; i++) sentences.push(sentence(rand, 8 + Math.floor(rand() * 10)))
  return sentences.join(' ')
}

function codeBlock(section: number): string {
  const lines = [`\`\`\`ts`, `// Section ${section}: folding a stream of events`]
  lines.push(`export function fold${section}(events: Event[], state: State): State {`)
  for (let i = 0; i < 12; i++) lines.push(`  const step${i} = events[${i}] ?? { type: 'noop', at: ${i * section} } // keep ${i}`)
  lines.push(`  for (const event of events) state = apply(state, event, { section: ${section} })`, `  return state`, `}`, '```')
  return lines.join('\n')
}

function table(rand: () => number, section: number): string {
  const rows = ['| Event | Count | Share | Note |', '|---|---:|---:|---|']
  for (let i = 0; i < 6; i++) rows.push(`| \`event-${section}-${i}\` | ${Math.floor(rand() * 1000)} | ${(rand() * 100).toFixed(1)}% | ${sentence(rand, 4)} |`)
  return rows.join('\n')
}

/** The answer: 10 sections of headings, paragraphs, lists, a table, a quote and a code block, to about `TOKENS` tokens. */
export function answerText(): string {
  const rand = random(7)
  const perSection = TOKENS / SECTIONS
  const parts: string[] = []
  let tokens = 0
  for (let s = 1; s <= SECTIONS; s++) {
    const section: string[] = [`## Section ${s}: what the stream carries`, paragraph(rand)]
    section.push(['- ' + sentence(rand, 6), '- ' + sentence(rand, 9), '  - ' + sentence(rand, 5), '- ' + sentence(rand, 7)].join('\n'))
    section.push(`### Figures for section ${s}`, table(rand, s), codeBlock(s))
    section.push(['1. ' + sentence(rand, 6), '2. ' + sentence(rand, 8), '3. ' + sentence(rand, 5)].join('\n'), '> ' + sentence(rand, 14))
    const target = tokens + perSection - (s === SECTIONS ? tokenize(SENTINEL).length + 2 : 0)
    let count = tokenize(section.join('\n\n')).length
    while (tokens + count < target) {
      const next = paragraph(rand)
      section.push(next)
      count += tokenize(next).length
    }
    tokens += count
    parts.push(section.join('\n\n'))
  }
  return parts.join('\n\n') + '\n\n' + SENTINEL
}

/** The 200 earlier messages, as the AI SDK stores them (`UIMessage[]`). */
export function history(): Array<{ id: string; role: 'user' | 'assistant'; parts: Array<{ type: 'text'; text: string }> }> {
  const messages: Array<{ id: string; role: 'user' | 'assistant'; parts: Array<{ type: 'text'; text: string }> }> = []
  for (let i = 0; i < EARLIER; i++) {
    const role = i % 2 ? 'assistant' : 'user'
    const text = role === 'user'
      ? `Earlier question ${i}: what does \`fold\` do with **event ${i}**?`
      : `Earlier answer ${i}: it folds it into the model, see [the docs](https://example.com/${i}).\n\n- one **point**\n- another \`point\`\n- a third point`
    messages.push({ id: `earlier-${i}`, role, parts: [{ type: 'text', text }] })
  }
  return messages
}

export interface PeersResults {
  /** `performance.now()` of the first and the last byte of the answer. */
  streamStart?: number
  streamEnd?: number
  tokens: number
  chunks: number
  /** `performance.now()` of each animation frame from the request on. */
  frames: number[]
  /** The last DOM change, and what changed after the last byte. */
  lastMutation: number
  addedAfterEnd: number
  removedAfterEnd: number
  /** Everything that reached `window.onerror`, and whether a ResizeObserver error was among it. */
  errors: string[]
  resizeObserverError: boolean
  /** Tasks over 50 ms (the Long Tasks API), `performance.now()` start and duration. */
  longTasks: Array<[number, number]>
  /** The 200th earlier message was on the page before the request. */
  historyShown?: boolean
  /** The sentinel was on the page at the end. */
  complete?: boolean
  done: boolean
}

const results: PeersResults = { tokens: 0, chunks: 0, frames: [], lastMutation: 0, addedAfterEnd: 0, removedAfterEnd: 0, errors: [], resizeObserverError: false, longTasks: [], done: false }
;(window as unknown as { peersResults: PeersResults }).peersResults = results

window.onerror = (message) => {
  const text = String(message)
  results.errors.push(text)
  if (/ResizeObserver/i.test(text)) results.resizeObserverError = true
}
window.addEventListener('unhandledrejection', (event) => results.errors.push(`unhandled rejection: ${String(event.reason)}`))

new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) results.longTasks.push([entry.startTime, entry.duration])
}).observe({ type: 'longtask', buffered: true })

new MutationObserver((records) => {
  results.lastMutation = performance.now()
  if (results.streamEnd === undefined) return
  for (const record of records) {
    results.addedAfterEnd += record.addedNodes.length
    results.removedAfterEnd += record.removedNodes.length
  }
}).observe(document.documentElement, { subtree: true, childList: true, characterData: true, attributes: true })

const answer = answerText()

function events(): string[] {
  const chunks: unknown[] = [{ type: 'start', messageId: 'answer' }, { type: 'start-step' }, { type: 'text-start', id: 't1' }]
  for (const token of tokenize(answer)) chunks.push({ type: 'text-delta', id: 't1', delta: token })
  chunks.push({ type: 'text-end', id: 't1' }, { type: 'finish-step' }, { type: 'finish' })
  return [...chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`), 'data: [DONE]\n\n']
}

/**
 * The answer's response: from its first byte on, every event due by then (one
 * token a ms) goes out at each ~1 ms timer, so a page that falls behind gets
 * larger reads, as from a socket.
 */
function answerResponse(): Response {
  const all = events()
  const encoder = new TextEncoder()
  let at = 0
  let started = 0
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      return new Promise<void>((resolve) => setTimeout(() => {
        const now = performance.now()
        if (results.streamStart === undefined) {
          results.streamStart = started = now
          performance.mark('peers-stream-start')
        }
        // The three opening events, then one token per elapsed ms, then the four closing ones with the last token.
        let due = Math.min(all.length, 3 + Math.floor(now - started) + 1)
        if (due >= all.length - 4) due = all.length
        const text = all.slice(at, due).join('')
        results.tokens += due - at
        results.chunks += 1
        at = due
        controller.enqueue(encoder.encode(text))
        if (at >= all.length) {
          results.streamEnd = performance.now()
          performance.mark('peers-stream-end')
          controller.close()
        }
        resolve()
      }, 1))
    },
  })
  return new Response(body, { headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-vercel-ai-ui-message-stream': 'v1' } })
}

const realFetch = window.fetch.bind(window)
window.fetch = async (input, init) => {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
  if (url.includes('/api/chat')) {
    // Read the request as a server would, so each kit's body is built and sent.
    if (init?.body) await new Response(init.body).text()
    return answerResponse()
  }
  return realFetch(input, init)
}

const frame = () => {
  results.frames.push(performance.now())
  if (!results.done) requestAnimationFrame(frame)
}

/**
 * Called by each page once it has drawn the earlier messages: `send` asks for the
 * answer. The runner calls `window.peersStart()` once its trace runs; the page is
 * done when the sentinel is on screen and the DOM has been quiet for a second.
 */
export function ready(send: () => void): void {
  ;(window as unknown as { peersStart: () => void }).peersStart = () => {
    results.historyShown = document.body.textContent?.includes(`Earlier answer ${EARLIER - 1}:`) ?? false
    requestAnimationFrame(frame)
    send()
    const check = setInterval(() => {
      if (results.streamEnd === undefined) return
      const now = performance.now()
      const timedOut = now - results.streamEnd > 600_000
      if (now - results.lastMutation < 1_000 && !timedOut) return
      results.complete = document.body.textContent?.includes(SENTINEL) ?? false
      if (!results.complete && !timedOut) return
      clearInterval(check)
      results.done = true
    }, 100)
  }
  ;(window as unknown as { peersReady: boolean }).peersReady = true
}
