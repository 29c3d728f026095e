/**
 * `npm run bench:browser`: the Chromium bench. A 20,000-token answer after 1,000
 * earlier messages, drawn by weft's hooks in a real browser (the system Chromium),
 * with a performance trace. Printed: React commits per animation frame (counted from
 * layout effects, so the production build of React can be used), renders
 * of finished messages, and per-frame script time from the trace. Asserts nothing.
 */
import { build } from 'esbuild'
import { fileURLToPath } from 'node:url'
import { chromium } from 'playwright-core'
import { n, table } from '../harness'
import { markAt, percentile, scriptPerFrame, type TraceEvent } from './frame-script'

const root = fileURLToPath(new URL('../..', import.meta.url))
/**
 * How long the answer may stream (`--budget-ms=N`, default 60 s). On a loaded machine
 * the page draws fewer frames a second than the bytes arrive for; the stream is then
 * ended at an event boundary and the figures say how much of the answer they cover.
 */
const BUDGET_MS = Number(process.argv.find((a) => a.startsWith('--budget-ms='))?.slice(12) ?? 60_000)


async function main(): Promise<void> {
  const bundle = await build({
    entryPoints: [fileURLToPath(new URL('./page.tsx', import.meta.url))],
    bundle: true, minify: true, format: 'iife', write: false, logLevel: 'silent', jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"' }, absWorkingDir: root,
  })
  const script = bundle.outputFiles[0]!.text
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  })
  try {
    const page = await browser.newPage()
    page.on('pageerror', (error) => console.error(`page error: ${error.message}`))
    page.on('console', (message) => { if (message.type() === 'error') console.error(`page console: ${message.text()}`) })
    const stage = (what: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${what}`)
    stage('browser up')
    await page.setContent('<!doctype html><html><body><div id="root"></div></body></html>')
    await page.addScriptTag({ content: `window.benchBudgetMs = ${BUDGET_MS}` })
    stage('tracing')
    await browser.startTracing(page, { categories: ['devtools.timeline', 'toplevel', 'blink.user_timing'] })
    await page.addScriptTag({ content: script })
    stage('page running')
    await page.waitForFunction(() => (window as unknown as { benchResults: { done: boolean } }).benchResults.done, undefined, { timeout: BUDGET_MS + 180_000, polling: 200 })
    stage('stream over, reading the results')
    const results = await page.evaluate(() => (window as unknown as {
      benchResults: { commits: number[]; frames: number[]; dispatchMs: number[]; finishedRenders: number; tokens: number; received: number; total: number; cut: boolean; streamMs: number; error?: string }
    }).benchResults)
    stage('reading the trace')
    const trace = JSON.parse((await browser.stopTracing()).toString('utf8')) as { traceEvents: TraceEvent[] }
    stage('trace read')
    if (results.error) throw new Error(`the stream failed: ${results.error}`)

    // Commits per frame: how many commits fall between two animation frames.
    const { commits, frames } = results
    const perFrame: number[] = []
    let c = 0
    for (let f = 1; f < frames.length; f++) {
      let count = 0
      while (c < commits.length && commits[c]! < frames[f]!) {
        if (commits[c]! >= frames[f - 1]!) count += 1
        c++
      }
      perFrame.push(count)
    }
    const streamingFrames = perFrame.filter((count) => count > 0).length
    // Where the frames with more than one commit fall, against the first and the last
    // frame that committed: at the stream's start and end, or in the middle of it.
    const committed = perFrame.flatMap((count, i) => (count > 0 ? [i] : []))
    const doubles = perFrame.flatMap((count, i) => (count > 1 ? [i] : []))
      .map((i) => `${committed.indexOf(i) + 1} of ${committed.length}`)

    // Script time per 16.7 ms window: the whole page, and from the send to the stream's end.
    const events = trace.traceEvents
    const busy = scriptPerFrame(events)
    const streaming = scriptPerFrame(events, markAt(events, 'weft-stream-start'), markAt(events, 'weft-stream-end'))

    console.log('Chromium: a 20,000-token UI-stream answer after 1,000 earlier messages, 2 KiB every 4 ms, drawn with weft\'s hooks (one component per message)')
    if (results.cut) console.log(`The ${n(BUDGET_MS / 1000)} s budget ended the stream: ${n(results.tokens)} of 20,000 tokens (${n((100 * results.received) / results.total, 1)}% of the bytes) were drawn`)
    table([{
      tokens: n(results.tokens),
      'stream s': n(results.streamMs / 1000, 1),
      'React commits': n(commits.length),
      'frames while streaming': n(streamingFrames),
      'max commits in one frame': n(Math.max(0, ...perFrame)),
      'frames with 2+ commits': n(perFrame.filter((count) => count > 1).length),
      'renders of finished messages': n(results.finishedRenders),
      'frame script ms p50': n(percentile(busy, 50), 2),
      p95: n(percentile(busy, 95), 2),
      max: n(Math.max(0, ...busy), 2),
      'streaming: script p50': n(percentile(streaming, 50), 2),
      'streaming p95': n(percentile(streaming, 95), 2),
      'store dispatch ms p50': n(percentile(results.dispatchMs, 50), 2),
      'dispatch p95': n(percentile(results.dispatchMs, 95), 2),
    }])
    if (doubles.length > 0) console.log(`Where each frame with 2+ commits falls among the frames that committed (position of all): ${doubles.join(', ')}`)
  } finally {
    await browser.close()
  }
}

await main()
