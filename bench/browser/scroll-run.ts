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
import { markAt, percentile, SCRIPT_EVENTS, timePerWindow, TRACE_CATEGORIES, type TraceEvent } from './frame-script'

const root = fileURLToPath(new URL('../..', import.meta.url))
const FRAME_MS = 1000 / 60

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

/** The trace time of a `performance.mark(name)` the page must have made. */
function markOf(events: TraceEvent[], name: string): number {
  const at = markAt(events, name)
  if (at === undefined) throw new Error(`no ${name} mark in the trace`)
  return at
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
    await browser.startTracing(page, { categories: TRACE_CATEGORIES })
    await page.addScriptTag({ content: script })
    await page.waitForFunction(() => (window as unknown as { benchResults: { done: boolean } }).benchResults.done, undefined, { timeout: 600_000, polling: 200 })
    const trace = JSON.parse((await browser.stopTracing()).toString('utf8')) as { traceEvents: TraceEvent[] }
    const results = await page.evaluate(() => (window as unknown as { benchResults: unknown }).benchResults) as Results
    if (results.error) throw new Error(`the scroll failed: ${results.error}`)

    const intervals = results.frames.slice(1).map((t, i) => t - results.frames[i]!)
    const dropped = intervals.reduce((sum, d) => sum + Math.max(0, Math.round(d / FRAME_MS) - 1), 0)
    const from = markOf(trace.traceEvents, 'weft-scroll-start')
    const to = markOf(trace.traceEvents, 'weft-scroll-end')
    const scriptMs = timePerWindow(trace.traceEvents, SCRIPT_EVENTS, from, to)
    const rendering = timePerWindow(trace.traceEvents, RENDERING, from, to)
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
