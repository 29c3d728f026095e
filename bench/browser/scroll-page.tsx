/**
 * The Chromium bench of scrolling a long conversation: 1,000 finished turns in
 * the `Chat` layout (virtualized), drawn by weft's default renderers (markdown
 * answers with lists, tables and code), scrolled from the end to the top and
 * back at a steady pace, one step per animation frame, as a person's wheel
 * would. It records each frame's time, React commits and how many turns were
 * in the DOM. It asserts nothing.
 */
import { commitTimes } from './devtools-hook'
import { useEffect } from 'react'
import { createRoot } from 'react-dom/client'
import { Chat } from '../../src/components/chat'
import { MarkdownSettingsProvider } from '../../src/components/markdown/markdown'
import { AgentProvider } from '../../src/react/index'
import { createAgentStore } from '../../src/core/store/store'
import type { HydratedTurn } from '../../src/core/model/ops'

const TURNS = 1_000
/** Pixels per frame: 3,600 px a second at 60 frames, a fast wheel scroll; more rows mount per frame than at a reading pace. */
const STEP = 60

interface Results {
  commits: number[]
  /** rAF timestamps while scrolling. */
  frames: number[]
  /** Turns in the DOM at each frame. */
  mounted: number[]
  /** Long animation frames (Chromium's LoAF): their durations, ms. */
  longFrames: number[]
  scrollStart: number
  scrollEnd: number
  distance: number
  firstTurnSeen: boolean
  done: boolean
  error?: string
}

const results: Results = { commits: commitTimes, frames: [], mounted: [], longFrames: [], scrollStart: 0, scrollEnd: 0, distance: 0, firstTurnSeen: false, done: false }
;(window as unknown as { benchResults: Results }).benchResults = results

try {
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (results.scrollStart > 0 && !results.done) results.longFrames.push(entry.duration)
  }).observe({ type: 'long-animation-frame', buffered: false })
} catch {
  // An older Chromium without long-animation-frame entries: the frame times still say it.
}

/** An answer of one of four shapes, so rows differ in height as a real conversation's do. */
function answer(t: number): string {
  switch (t % 4) {
    case 0: return `Answer ${t}: **short** and to the point, with \`code\` and a [link](https://example.com/${t}).`
    case 1: return `### Step ${t}\n\nFirst a paragraph that wraps over a couple of lines in the 48rem column, so the row is taller than one line of text.\n\n- one point\n- another point, a little longer\n- a third with \`inline code\``
    case 2: return `Here is the query for ${t}:\n\n\`\`\`sql\nselect city, avg(temp) as t\nfrom readings\nwhere day > now() - interval '7 days'\ngroup by city\n\`\`\`\n\nIt runs in about 40 ms.`
    default: return `| City | Temp | Rain |\n| :--- | ---: | :---: |\n| Paris | ${t % 30} | yes |\n| Lyon | 21 | no |\n\nThe table above covers turn ${t}.`
  }
}

const store = createAgentStore()
const turns: HydratedTurn[] = []
for (let t = 0; t < TURNS; t++) {
  const role = t % 2 ? 'assistant' : 'user'
  const content = role === 'user' ? `Question ${t}: how does this part work?` : answer(t)
  turns.push({ turn: { id: `t-${t}`, role }, messages: [{ id: `t-${t}-m`, type: 'text', role, props: { content } }] })
}
store.getState().dispatch([{ op: 'hydrate', turns, at: 'start' }])

const nextFrame = () => new Promise<number>((resolve) => requestAnimationFrame(resolve))

/** One leg: a wheel event (the person's intent, which lets go of the end) and a step, every frame, until `until` says stop. */
async function leg(viewport: HTMLElement, direction: -1 | 1, until: () => boolean): Promise<void> {
  for (let guard = 0; !until(); guard++) {
    if (guard > 10_000) throw new Error(`scrolling ${direction < 0 ? 'up' : 'down'} did not reach the ${direction < 0 ? 'top' : 'end'} (scrollTop ${viewport.scrollTop} of ${viewport.scrollHeight})`)
    const now = await nextFrame()
    results.frames.push(now)
    results.mounted.push(document.querySelectorAll('[data-weft="turn"]').length)
    viewport.dispatchEvent(new WheelEvent('wheel', { deltaY: direction * STEP, bubbles: true }))
    const before = viewport.scrollTop
    viewport.scrollTop = before + direction * STEP
    results.distance += Math.abs(viewport.scrollTop - before)
    if (direction < 0 && document.querySelector('[data-weft="turn"]')?.textContent?.includes('Question 0:')) results.firstTurnSeen = true
  }
}

function Bench() {
  useEffect(() => {
    const viewport = document.querySelector<HTMLElement>('[data-weft="chat-viewport"]')!
    const start = setTimeout(async () => {
      try {
        performance.mark('weft-scroll-start')
        results.scrollStart = performance.now()
        await leg(viewport, -1, () => viewport.scrollTop <= 0)
        await leg(viewport, 1, () => viewport.scrollHeight - viewport.scrollTop - viewport.clientHeight <= 1)
        results.scrollEnd = performance.now()
        performance.mark('weft-scroll-end')
      } catch (error) {
        results.error = String(error)
      }
      results.done = true
    }, 1500)
    return () => clearTimeout(start)
  }, [])
  return <Chat />
}

document.getElementById('root')!.style.height = '100vh'
createRoot(document.getElementById('root')!).render(
  <AgentProvider store={store}>
    <MarkdownSettingsProvider highlight={false}>
      <Bench />
    </MarkdownSettingsProvider>
  </AgentProvider>,
)
