/**
 * The second half of `npm run bench:browser`: a 50,000-character markdown answer
 * in 5,000 tokens after 1,000 earlier messages, drawn by weft's components in
 * `Chat`, in the system Chromium with a performance trace. Printed: React commits
 * per animation frame, renders of finished messages, per-frame script time from
 * the trace, and the markdown lexing against one parse of the final text.
 * Asserts nothing.
 */
import { build } from 'esbuild'
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { chromium } from 'playwright-core'
import { n, table } from '../harness'
import { markAt, percentile, scriptPerFrame, TRACE_CATEGORIES, type TraceEvent } from './frame-script'

const root = fileURLToPath(new URL('../..', import.meta.url))
/** `BENCH_PROFILE=1`: also take a CPU profile of the page (names kept) and print where the time went. */
const PROFILE = Boolean(process.env.BENCH_PROFILE)

interface ProfileNode { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }
interface CpuProfile { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }

/** Self time by function (name and line of the bundle), in ms, the largest first; with `under`, only in samples below that function. */
function selfTimes(profile: CpuProfile, under?: string): Array<[string, number]> {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]))
  const parent = new Map<number, number>()
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id)
  const inside = (id: number): boolean => {
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) if (byId.get(at)?.callFrame.functionName === under) return true
    return false
  }
  const totals = new Map<string, number>()
  profile.samples.forEach((id, i) => {
    if (under && !inside(id)) return
    const frame = byId.get(id)?.callFrame
    const name = frame ? `${frame.functionName || '(anonymous)'}${frame.url ? `:${frame.lineNumber + 1}` : ''}` : '?'
    totals.set(name, (totals.get(name) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000)
  })
  return [...totals.entries()].sort((a, b) => b[1] - a[1])
}

interface PageResults { commits: number[]; commitSources?: string[]; frames: number[]; finishedRenders: number; finishedMounts?: number; done: boolean; error?: string }

/** Bundles `entry`, runs it in Chromium under a trace, and returns its results and the trace. */
async function runPage<R extends PageResults>(entry: string): Promise<{ results: R; trace: TraceEvent[]; finalParseMs?: number; replayMs?: number; profile?: CpuProfile }> {
  const bundle = await build({
    entryPoints: [fileURLToPath(new URL(entry, import.meta.url))],
    bundle: true, minify: !PROFILE, format: 'iife', write: false, logLevel: 'silent', jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"' }, absWorkingDir: root,
  })
  const script = bundle.outputFiles[0]!.text
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', headless: true,
    args: [...(process.env.BENCH_JS_FLAGS ? [`--js-flags=${process.env.BENCH_JS_FLAGS}`] : []), '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  })
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
    page.on('pageerror', (error) => console.error(`page error: ${error.message}`))
    page.on('console', (message) => { if (message.type() === 'error') console.error(`page console: ${message.text()}`) })
    // Served cross-origin isolated, so the page's clock ticks in µs, not in 0.1 ms steps: each lex is timed alone.
    await page.route('http://localhost/bench', (route) => route.fulfill({
      status: 200, contentType: 'text/html',
      headers: { 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' },
      body: '<!doctype html><html><body style="margin:0"><div id="root"></div></body></html>',
    }))
    await page.goto('http://localhost/bench')
    if (!(await page.evaluate(() => crossOriginIsolated))) console.error('the page is not cross-origin isolated: its clock is coarse')
    const cdp = PROFILE ? await page.context().newCDPSession(page) : undefined
    if (cdp) {
      await cdp.send('Profiler.enable')
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 })
      await cdp.send('Profiler.start')
    }
    await browser.startTracing(page, { categories: TRACE_CATEGORIES })
    // weft's stylesheet, as a host loads it: the chat's viewport scrolls only with it.
    await page.addStyleTag({ content: readFileSync(`${root}/src/components/styles.css`, 'utf8') })
    await page.addScriptTag({ content: script })
    if (process.env.BENCH_DEBUG) setInterval(() => void page.evaluate(() => { const r = (window as any).benchResults; return [r.commits.length, r.frames.length, r.lexCalls, r.done, document.querySelectorAll('[data-weft=turn]').length, document.querySelector('[data-weft=transcript]')?.getAttribute('data-state'), document.querySelector('[data-weft=chat-viewport]')?.clientHeight, document.body.innerText.slice(-200)] }).then((v) => console.log(JSON.stringify(v))).catch(() => undefined), 3000).unref()
    await page.waitForFunction(() => (window as unknown as { benchResults: { done: boolean } }).benchResults.done, undefined, { timeout: 300_000, polling: 200 })
    const profile = cdp ? ((await cdp.send('Profiler.stop')) as unknown as { profile: CpuProfile }).profile : undefined
    if (profile && process.env.BENCH_TRACE) writeFileSync(`${process.env.BENCH_TRACE}.cpuprofile`, JSON.stringify(profile))
    const traceText = (await browser.stopTracing()).toString('utf8')
    // `BENCH_TRACE=file.json`: keep the trace (and with BENCH_PROFILE the CPU profile beside it), to open in the browser's devtools.
    if (process.env.BENCH_TRACE) writeFileSync(process.env.BENCH_TRACE, traceText)
    const trace = JSON.parse(traceText) as { traceEvents: TraceEvent[] }
    const results = await page.evaluate(() => (window as unknown as { benchResults: unknown }).benchResults) as R
    if (results.error) throw new Error(`the stream failed: ${results.error}`)
    // One parse of the final text, in the same page, warmed up: the median of 21.
    const finalParseMs = await page.evaluate(() => (window as unknown as { benchFinalParse?: () => number }).benchFinalParse?.())
    const replayMs = await page.evaluate(() => (window as unknown as { benchReplayLexes?: () => number }).benchReplayLexes?.())
    return { results, trace: trace.traceEvents, finalParseMs, replayMs, profile }
  } finally {
    await browser.close()
  }
}

/** Commits per animation frame: how many commits fall between two frames. */
function commitsPerFrame({ commits, frames }: PageResults): number[] {
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
  return perFrame
}

interface MarkdownResults extends PageResults { lexCalls: number; lexMs: number; lexChars: number; finalText: string; streamStart?: number; streamEnd?: number }

async function markdownBench(): Promise<void> {
  const { results, trace, finalParseMs, replayMs, profile } = await runPage<MarkdownResults>('./markdown-page.tsx')
  const perFrame = commitsPerFrame(results)
  const busy = scriptPerFrame(trace)
  const streaming = scriptPerFrame(trace, markAt(trace, 'weft-stream-start'), markAt(trace, 'weft-stream-end'))
  const once = finalParseMs ?? NaN
  console.log('\nChromium: a 50,000-character markdown answer in 5,000 tokens (4 every 4 ms) after 1,000 earlier messages, drawn by weft\'s components in Chat (virtualized)')
  table([{
    'React commits': n(results.commits.length),
    'frames while streaming': n(perFrame.filter((count) => count > 0).length),
    'max commits in one frame': n(Math.max(0, ...perFrame)),
    're-renders of finished messages': n(results.finishedRenders),
    'mounts of finished messages': n(results.finishedMounts ?? 0),
    'frame script ms p50': n(percentile(busy, 50), 2),
    p95: n(percentile(busy, 95), 2),
    max: n(Math.max(0, ...busy), 2),
    'streaming: script p50': n(percentile(streaming, 50), 2),
    'streaming p95': n(percentile(streaming, 95), 2),
  }])
  // The same count for the frames while the answer's bytes arrive, apart from the two ends: the
  // transcript mounting (the virtual list measures its first rows) and the finished turn joining the list.
  const during = commitsPerFrame({ ...results, frames: results.frames.filter((t) => t >= (results.streamStart ?? Infinity) && t <= (results.streamEnd ?? -Infinity)) })
  const window = (from: number, to: number) => commitsPerFrame({ ...results, frames: results.frames.filter((t) => t >= from && t <= to) }).filter((count) => count > 1).length
  table([{
    'frames while the answer arrives': n(during.length),
    'max commits in one of them': n(Math.max(0, ...during)),
    'of them with 2+ commits': n(during.filter((count) => count > 1).length),
    'frames with 2+ commits before': n(window(-Infinity, results.streamStart ?? Infinity)),
    after: n(window(results.streamEnd ?? Infinity, Infinity)),
  }])
  // What started each commit, and in frames with more than one commit, what the extra ones were.
  const sources = results.commitSources ?? []
  const extra = new Map<string, number>()
  let c = 0
  for (let f = 1; f < results.frames.length; f++) {
    let inFrame = 0
    while (c < results.commits.length && results.commits[c]! < results.frames[f]!) {
      if (results.commits[c]! >= results.frames[f - 1]!) {
        inFrame += 1
        if (inFrame > 1) extra.set(sources[c] ?? '?', (extra.get(sources[c] ?? '?') ?? 0) + 1)
      }
      c++
    }
  }
  const all = new Map<string, number>()
  for (const s of sources) all.set(s, (all.get(s) ?? 0) + 1)
  table([...all.entries()].map(([started, count]) => ({
    'commit started by': started, commits: n(count), 'beyond the first in its frame': n(extra.get(started) ?? 0),
  })))
  table([{
    'frames with 2+ commits': n(perFrame.filter((count) => count > 1).length),
    'lex calls': n(results.lexCalls),
    'chars lexed': n(results.lexChars),
    'chars lexed / final length': n(results.lexChars / results.finalText.length, 2),
    'lex ms, whole stream': n(results.lexMs, 1),
    'one parse of the final text, ms': n(once, 2),
    'stream / one parse': n(results.lexMs / once, 2),
  }])
  // The same lexes with nothing in between: what the lexer itself costs, against what the page's
  // other work between frames (collections, cold caches, a busy machine) adds to each timed lex.
  table([{
    'the same lexes back to back, ms': n(replayMs ?? NaN, 1),
    'back to back / one parse': n((replayMs ?? NaN) / once, 2),
  }])
  if (profile) {
    const total = profile.timeDeltas.reduce((a, b) => a + b, 0) / 1000
    console.log(`\nCPU profile (unminified bundle, so a little slower): ${n(total / 1000, 1)} s sampled; self time, the largest 25`)
    table(selfTimes(profile).slice(0, 25).map(([fn, ms]) => ({ function: fn, 'self ms': n(ms, 1), '%': n((100 * ms) / total, 1) })))
    const lexing = selfTimes(profile, 'timedLex')
    const inLex = lexing.reduce((sum, [, ms]) => sum + ms, 0)
    console.log(`\nInside the timed lexes: ${n(inLex, 1)} ms sampled; self time, the largest 15`)
    table(lexing.slice(0, 15).map(([fn, ms]) => ({ function: fn, 'self ms': n(ms, 1), '%': n((100 * ms) / inLex, 1) })))
  }
}

await markdownBench()
