/**
 * The third part of `npm run bench:browser`: 1,000 finished turns in `Chat`
 * (virtualized, weft's default markdown renderers), scrolled from the end to
 * the top and back, 60 px per animation frame, in the system Chromium with a
 * performance trace. Printed: frame times (p50, p95, max), dropped frames, long
 * animation frames, script and rendering time per frame from the trace, React
 * commits, and how many turns were in the DOM. Asserts nothing.
 */
import { build } from 'esbuild'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { chromium } from 'playwright-core'
import { n, table } from '../harness'

const root = fileURLToPath(new URL('../..', import.meta.url))
const FRAME_MS = 1000 / 60

interface TraceEvent { name: string; cat?: string; ph: string; ts: number; dur?: number; pid: number; tid: number; args?: Record<string, unknown> }

/** Script events at the top of the renderer's main thread (nested ones are inside their parent's time). */
const SCRIPT = new Set(['FunctionCall', 'EvaluateScript', 'TimerFire', 'FireAnimationFrame', 'RunMicrotasks', 'v8.callFunction', 'v8.run', 'EventDispatch'])
/** Style, layout and paint on the main thread. */
const RENDERING = new Set(['UpdateLayoutTree', 'Layout', 'PrePaint', 'Paint', 'Layerize', 'UpdateLayer', 'CompositeLayers', 'HitTest'])

interface Results {
  commits: number[]
  frames: number[]
  mounted: number[]
  longFrames: number[]
  scrollStart: number
  scrollEnd: number
  distance: number
  firstTurnSeen: boolean
  done: boolean
  error?: string
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0
}

function mainThread(events: TraceEvent[]): { pid: number; tid: number } {
  const named = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
  if (!named) throw new Error('no renderer main thread in the trace')
  return { pid: named.pid, tid: named.tid }
}

/**
 * Time per 16.7 ms window between `from` and `to` (trace µs) of the top-level
 * events named in `names` on the main thread; windows with none count as 0.
 */
function perFrame(events: TraceEvent[], names: Set<string>, from: number, to: number): number[] {
  const main = mainThread(events)
  const own = events
    .filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && names.has(e.name) && e.dur !== undefined && e.ts + e.dur > from && e.ts < to)
    .sort((a, b) => a.ts - b.ts)
  const top: TraceEvent[] = []
  let end = -Infinity
  for (const e of own) {
    if (e.ts >= end) {
      top.push(e)
      end = e.ts + e.dur!
    }
  }
  const width = FRAME_MS * 1000
  const windows = new Array<number>(Math.max(1, Math.ceil((to - from) / width))).fill(0)
  for (const e of top) {
    let at = Math.max(e.ts, from)
    const stop = Math.min(e.ts + e.dur!, to)
    while (at < stop) {
      let w = Math.floor((at - from) / width)
      if (from + (w + 1) * width <= at) w += 1
      const slice = Math.min(stop, from + (w + 1) * width) - at
      if (w < windows.length) windows[w]! += slice
      at += slice
    }
  }
  return windows.map((us) => us / 1000)
}

/** The trace time of a `performance.mark(name)` in the page. */
function markAt(events: TraceEvent[], name: string): number {
  const mark = events.find((e) => e.name === name && (e.cat ?? '').includes('user_timing'))
  if (!mark) throw new Error(`no ${name} mark in the trace`)
  return mark.ts
}

async function main(): Promise<void> {
  const bundle = await build({
    entryPoints: [fileURLToPath(new URL('./scroll-page.tsx', import.meta.url))],
    bundle: true, minify: true, format: 'iife', write: false, logLevel: 'silent', jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"' }, absWorkingDir: root,
  })
  const script = bundle.outputFiles[0]!.text
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  })
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
    page.on('pageerror', (error) => console.error(`page error: ${error.message}`))
    page.on('console', (message) => { if (message.type() === 'error') console.error(`page console: ${message.text()}`) })
    await page.setContent('<!doctype html><html><body style="margin:0"><div id="root"></div></body></html>')
    await page.addStyleTag({ content: readFileSync(`${root}/src/components/styles.css`, 'utf8') })
    await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'toplevel', 'blink.user_timing'] })
    await page.addScriptTag({ content: script })
    await page.waitForFunction(() => (window as unknown as { benchResults: { done: boolean } }).benchResults.done, undefined, { timeout: 600_000, polling: 200 })
    const trace = JSON.parse((await browser.stopTracing()).toString('utf8')) as { traceEvents: TraceEvent[] }
    const results = await page.evaluate(() => (window as unknown as { benchResults: unknown }).benchResults) as Results
    if (results.error) throw new Error(`the scroll failed: ${results.error}`)

    const intervals = results.frames.slice(1).map((t, i) => t - results.frames[i]!)
    const dropped = intervals.reduce((sum, d) => sum + Math.max(0, Math.round(d / FRAME_MS) - 1), 0)
    const from = markAt(trace.traceEvents, 'weft-scroll-start')
    const to = markAt(trace.traceEvents, 'weft-scroll-end')
    const scriptMs = perFrame(trace.traceEvents, SCRIPT, from, to)
    const rendering = perFrame(trace.traceEvents, RENDERING, from, to)
    const seconds = (results.scrollEnd - results.scrollStart) / 1000
    const commitsWhileScrolling = results.commits.filter((t) => t >= results.scrollStart && t <= results.scrollEnd).length

    console.log('\nChromium: 1,000 finished turns in Chat (virtualized, default markdown renderers), scrolled to the top and back at 60 px per frame')
    table([{
      frames: n(results.frames.length),
      'scrolled px': n(results.distance),
      's': n(seconds, 1),
      'frame ms p50': n(percentile(intervals, 50), 2),
      p95: n(percentile(intervals, 95), 2),
      max: n(Math.max(0, ...intervals), 1),
      'dropped frames': n(dropped),
      'dropped %': n((100 * dropped) / (results.frames.length + dropped), 1),
      'long frames (>50 ms)': n(results.longFrames.length),
    }])
    table([{
      'script ms/frame p50': n(percentile(scriptMs, 50), 2),
      p95: n(percentile(scriptMs, 95), 2),
      'rendering ms/frame p50': n(percentile(rendering, 50), 2),
      'rendering p95': n(percentile(rendering, 95), 2),
      'React commits': n(commitsWhileScrolling),
      'turns in DOM median': n(percentile(results.mounted, 50)),
      'turns in DOM max': n(Math.max(0, ...results.mounted)),
      'reached the first turn': results.firstTurnSeen ? 'yes' : 'no',
    }])
  } finally {
    await browser.close()
  }
}

await main()
