/**
 * `npm run bench:peers`: the same streamed answer drawn by three kits in the system
 * Chromium, headless: (a) weft's README chat, (b) the AI SDK's `useChat` with
 * streamdown, (c) assistant-ui with its markdown package and AI SDK runtime. The
 * workload (200 earlier messages, a ~20,000-token markdown answer at one token per
 * ~1 ms, an AI SDK UI message stream from a mock `fetch`) is in `peers-workload.ts`.
 *
 * Each page is bundled for production by esbuild (minified, split into chunks as a
 * host's bundler would) and served from a local HTTP server. The kits run
 * interleaved, a fresh browser per run, under a performance trace. Printed per run
 * and as ranges over runs: script time while the answer streams, script per 16.7 ms
 * frame (p50, p95), long tasks over 50 ms, the time from the last byte to the final
 * paint and the main thread's work in that time (script, style, layout and paint: the
 * final frame's cost), the heap after a collection, style + layout + paint time while the answer
 * streams, frames over 50 ms, whether a ResizeObserver error reached
 * `window.onerror`, and the JS each page loaded (gzip). Asserts nothing.
 *
 * `--runs=N` (default 3), `--kits=weft,ai-sdk,assistant-ui`, `--json=file` to keep the figures.
 */
import { build } from 'esbuild'
import { createServer } from 'node:http'
import { readFileSync, writeFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { chromium } from 'playwright-core'
import { n, table } from '../harness'
import { percentile, SCRIPT_EVENTS, type TraceEvent } from './frame-script'
import type { PeersResults } from './peers-workload'

const root = fileURLToPath(new URL('../..', import.meta.url))
const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1]
const RUNS = Number(arg('runs') ?? 3)

const KITS = [
  { name: 'weft', label: '(a) weft README chat', entry: './peers-weft.tsx' },
  { name: 'ai-sdk', label: '(b) useChat + streamdown', entry: './peers-ai-sdk.tsx' },
  { name: 'assistant-ui', label: '(c) assistant-ui + react-markdown', entry: './peers-assistant-ui.tsx' },
].filter((kit) => !arg('kits') || arg('kits')!.split(',').includes(kit.name))

/** Style, layout and paint on the main thread. */
const RENDER_EVENTS: ReadonlySet<string> = new Set(['UpdateLayoutTree', 'Layout', 'PrePaint', 'Paint', 'Layerize', 'UpdateLayer'])
/**
 * Timeline, script and `performance.mark` events. Not the disabled-by-default timeline
 * (a task and a counter event per token on a page that renders per token, enough to
 * fill the trace buffer): long tasks come from the page's Long Tasks API instead.
 * `BENCH_PROFILE=1` adds the stacks of forced style and layout, and a CPU profile.
 */
const PROFILE = Boolean(process.env.BENCH_PROFILE)
const CATEGORIES = ['devtools.timeline', 'v8.execute', 'blink.user_timing', ...(PROFILE ? ['disabled-by-default-devtools.timeline.stack'] : [])]
const FRAME_US = (1000 / 60) * 1000

interface Built { files: Map<string, { body: Uint8Array; type: string }>; html: string }

async function bundle(entry: string, name: string): Promise<Built> {
  const result = await build({
    entryPoints: { [name]: fileURLToPath(new URL(entry, import.meta.url)) },
    bundle: true, minify: true, format: 'esm', splitting: true, platform: 'browser', target: 'es2022',
    outdir: `/${name}`, write: false, logLevel: 'error', jsx: 'automatic', absWorkingDir: root,
    tsconfig: `${root}/tsconfig.json`, chunkNames: 'chunk-[hash]',
    define: { 'process.env.NODE_ENV': '"production"' },
  })
  const files = new Map<string, { body: Uint8Array; type: string }>()
  for (const file of result.outputFiles) {
    const path = file.path.slice(file.path.indexOf(`/${name}/`))
    files.set(path, { body: file.contents, type: path.endsWith('.css') ? 'text/css' : 'text/javascript' })
  }
  const css = files.has(`/${name}/${name}.css`) ? `<link rel="stylesheet" href="/${name}/${name}.css">` : ''
  const html = `<!doctype html><html><head><meta charset="utf-8">${css}</head><body style="margin:0"><div id="root"></div><script type="module" src="/${name}/${name}.js"></script></body></html>`
  return { files, html }
}

const gzip = (bytes: Uint8Array) => gzipSync(bytes, { level: 9 }).length

interface Run {
  kit: string
  run: number
  load: [number, number]
  scriptMs: number
  frameP50: number
  frameP95: number
  longTasks: number
  longestTaskMs: number
  lastByteToPaintMs: number
  endWorkMs: number
  heapMB: number
  renderMs: number
  styleMs: number
  layoutMs: number
  paintMs: number
  forcedRenderMs: number
  framesOver50: number
  resizeObserverError: boolean
  errors: string[]
  jsGzipKB: number
  streamMs: number
  chunks: number
  complete: boolean
  historyShown: boolean
  addedAfterEnd: number
  removedAfterEnd: number
}

/** The trace's events on the page's main thread (the thread of the stream's marks), complete ones only. */
function onThread(events: TraceEvent[], mark: TraceEvent): TraceEvent[] {
  return events.filter((e) => e.pid === mark.pid && e.tid === mark.tid && e.ph === 'X' && e.dur !== undefined).sort((a, b) => a.ts - b.ts)
}

/** The outermost of the events named in `names` (an event inside another of them is part of its time). */
function outermost(events: TraceEvent[], names: ReadonlySet<string>): TraceEvent[] {
  const top: TraceEvent[] = []
  let end = -Infinity
  for (const e of events) {
    if (!names.has(e.name)) continue
    if (e.ts >= end) {
      top.push(e)
      end = e.ts + e.dur!
    }
  }
  return top
}

/** Ms of `events` inside [from, to], and the same per 16.7 ms window (from `from`). */
function timeIn(events: TraceEvent[], from: number, to: number): { total: number; windows: number[] } {
  const windows = new Array<number>(Math.max(1, Math.ceil((to - from) / FRAME_US))).fill(0)
  let total = 0
  for (const e of events) {
    let at = Math.max(e.ts, from)
    const stop = Math.min(e.ts + e.dur!, to)
    while (at < stop) {
      let w = Math.floor((at - from) / FRAME_US)
      // Rounding can put `at` on its window's end; it then belongs to the next window.
      if (from + (w + 1) * FRAME_US <= at) w += 1
      const slice = Math.min(stop, from + (w + 1) * FRAME_US) - at
      if (w < windows.length) windows[w]! += slice
      total += slice
      at += slice
    }
  }
  return { total: total / 1000, windows: windows.map((us) => us / 1000) }
}

interface ProfileNode { id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number }; children?: number[] }
interface CpuProfile { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }

/** `BENCH_PROFILE=1`: self time by function (name and place in the minified bundle), the largest 20. */
function printProfile(kit: string, profile: CpuProfile): void {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]))
  const totals = new Map<string, number>()
  profile.samples.forEach((id, i) => {
    const frame = byId.get(id)?.callFrame
    const name = frame ? `${frame.functionName || '(anonymous)'}${frame.url ? ` ${frame.url.split('/').slice(-1)[0]}:${frame.lineNumber + 1}:${frame.columnNumber + 1}` : ''}` : '?'
    totals.set(name, (totals.get(name) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000)
  })
  const total = profile.timeDeltas.reduce((a, b) => a + b, 0) / 1000
  console.log(`\n${kit}: CPU profile, ${n(total)} ms sampled; self time, the largest 20`)
  table([...totals.entries()].sort((a, b) => b[1] - a[1]).slice(0, 20).map(([fn, ms]) => ({ function: fn, 'self ms': n(ms, 1), '%': n((100 * ms) / total, 1) })))
}

/** `BENCH_PROFILE=1`: forced style and layout by the script that forced it (the top of its stack). */
function printForced(kit: string, forced: TraceEvent[]): void {
  const by = new Map<string, { ms: number; count: number }>()
  for (const e of forced) {
    const data = (e.args?.beginData ?? e.args?.data ?? {}) as { stackTrace?: Array<{ functionName: string; url: string; lineNumber: number; columnNumber: number }> }
    const top = data.stackTrace?.[0]
    const key = `${e.name} ← ${top ? `${top.functionName || '(anonymous)'} ${top.url.split('/').slice(-1)[0]}:${top.lineNumber + 1}:${top.columnNumber + 1}` : '(no stack)'}`
    const entry = by.get(key) ?? { ms: 0, count: 0 }
    entry.ms += e.dur! / 1000
    entry.count += 1
    by.set(key, entry)
  }
  console.log(`\n${kit}: style and layout forced by script, by the function that forced it`)
  table([...by.entries()].sort((a, b) => b[1].ms - a[1].ms).slice(0, 12).map(([at, { ms, count }]) => ({ 'forced by': at, times: n(count), ms: n(ms, 1) })))
}

async function measure(kit: (typeof KITS)[number], built: Built, origin: string, run: number): Promise<Run> {
  const loadBefore = loadavg()[0]!
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  })
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
    const loaded = new Set<string>()
    page.on('request', (request) => {
      const path = new URL(request.url()).pathname
      if (path.endsWith('.js')) loaded.add(path)
    })
    page.on('pageerror', (error) => console.error(`${kit.name}: page error: ${error.message}`))
    await page.goto(`${origin}/${kit.name}/`)
    await page.waitForFunction(() => (window as unknown as { peersReady?: boolean }).peersReady, undefined, { timeout: 60_000, polling: 100 })
    const cdp = await page.context().newCDPSession(page)
    await browser.startTracing(page, { categories: CATEGORIES })
    if (PROFILE) {
      await cdp.send('Profiler.enable')
      await cdp.send('Profiler.setSamplingInterval', { interval: 500 })
      await cdp.send('Profiler.start')
    }
    await page.waitForTimeout(300)
    await page.evaluate(() => (window as unknown as { peersStart: () => void }).peersStart())
    await page.waitForFunction(() => (window as unknown as { peersResults: PeersResults }).peersResults.done, undefined, { timeout: 900_000, polling: 250 })
    if (PROFILE) {
      const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: CpuProfile }
      printProfile(kit.name, profile)
    }
    const trace = (JSON.parse((await browser.stopTracing()).toString('utf8')) as { traceEvents: TraceEvent[] }).traceEvents
    if (process.env.BENCH_TRACE) writeFileSync(`${process.env.BENCH_TRACE}-${kit.name}-${run}.json`, JSON.stringify({ traceEvents: trace }))
    const results = await page.evaluate(() => (window as unknown as { peersResults: PeersResults }).peersResults)
    await cdp.send('HeapProfiler.collectGarbage')
    const heap = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number }

    const startMark = trace.find((e) => e.name === 'peers-stream-start')
    const endMark = trace.find((e) => e.name === 'peers-stream-end')
    if (!startMark || !endMark || results.streamStart === undefined || results.streamEnd === undefined) throw new Error(`${kit.name}: the stream's marks are not in the trace`)
    const from = startMark.ts
    const to = endMark.ts
    // The page's clock to the trace's, through the start mark.
    const traceTime = (ms: number) => from + (ms - results.streamStart!) * 1000
    const events = onThread(trace, startMark)
    const script = timeIn(outermost(events, SCRIPT_EVENTS), from, to)
    const scriptFrames = script.windows.filter((ms) => ms > 0)
    const renderTop = outermost(events, RENDER_EVENTS)
    const render = timeIn(renderTop, from, to)
    // Style and layout forced by script: render events inside a script event.
    const scriptTop = outermost(events, SCRIPT_EVENTS)
    let s = 0
    const forced = renderTop.filter((e) => {
      while (s < scriptTop.length && scriptTop[s]!.ts + scriptTop[s]!.dur! <= e.ts) s++
      const inside = scriptTop[s]
      return inside !== undefined && inside.ts <= e.ts && e.ts + e.dur! <= inside.ts + inside.dur!
    })
    const lastChange = traceTime(results.lastMutation)
    const finalPaint = events.find((e) => e.name === 'Paint' && e.ts >= lastChange)
    const paintEnd = finalPaint ? finalPaint.ts + finalPaint.dur! : NaN
    // The end's own cost: script, style, layout and paint on the main thread from the last byte to the final paint.
    const endWork = Number.isFinite(paintEnd) ? timeIn(outermost(events, new Set([...SCRIPT_EVENTS, ...RENDER_EVENTS])), to, paintEnd).total : NaN
    // Long tasks from the request's first byte to the final paint (to the last byte when none was found).
    const pageTime = (us: number) => results.streamStart! + (us - from) / 1000
    const until = pageTime(Number.isFinite(paintEnd) ? paintEnd : to)
    const longTasks = results.longTasks.filter(([start, duration]) => start + duration > results.streamStart! && start < until)
    if (PROFILE) printForced(kit.name, forced)
    const frames = results.frames.filter((t) => t >= results.streamStart! && t <= results.streamEnd!)
    let over50 = 0
    for (let i = 1; i < frames.length; i++) if (frames[i]! - frames[i - 1]! > 50) over50++
    return {
      kit: kit.name, run, load: [loadBefore, loadavg()[0]!],
      scriptMs: script.total,
      frameP50: percentile(scriptFrames, 50), frameP95: percentile(scriptFrames, 95),
      longTasks: longTasks.length, longestTaskMs: Math.max(0, ...longTasks.map(([, duration]) => duration)),
      lastByteToPaintMs: (paintEnd - to) / 1000,
      endWorkMs: endWork,
      heapMB: heap.usedSize / 1024 / 1024,
      renderMs: render.total,
      styleMs: timeIn(renderTop.filter((e) => e.name === 'UpdateLayoutTree'), from, to).total,
      layoutMs: timeIn(renderTop.filter((e) => e.name === 'Layout'), from, to).total,
      paintMs: timeIn(renderTop.filter((e) => e.name !== 'UpdateLayoutTree' && e.name !== 'Layout'), from, to).total,
      forcedRenderMs: timeIn(forced, from, to).total,
      framesOver50: over50,
      resizeObserverError: results.resizeObserverError, errors: results.errors,
      jsGzipKB: [...loaded].reduce((sum, path) => sum + gzip(built.files.get(path)?.body ?? new Uint8Array()), 0) / 1024,
      streamMs: results.streamEnd - results.streamStart, chunks: results.chunks,
      complete: results.complete ?? false, historyShown: results.historyShown ?? false,
      addedAfterEnd: results.addedAfterEnd, removedAfterEnd: results.removedAfterEnd,
    }
  } finally {
    await browser.close()
  }
}

const builds = new Map<string, Built>()
for (const kit of KITS) builds.set(kit.name, await bundle(kit.entry, kit.name))

const server = createServer((request, response) => {
  const path = new URL(request.url ?? '/', 'http://localhost').pathname
  const kit = path.split('/')[1] ?? ''
  const built = builds.get(kit)
  const file = built?.files.get(path)
  if (built && path === `/${kit}/`) response.writeHead(200, { 'content-type': 'text/html' }).end(built.html)
  else if (file) response.writeHead(200, { 'content-type': file.type }).end(file.body)
  else response.writeHead(404).end()
})
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
const address = server.address()
const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`

/** A package's installed version, read from its package.json under `from` (the repository, or a package that nests its own copy). */
const versionOf = (name: string, from = root) => {
  try { return (JSON.parse(readFileSync(`${from}/node_modules/${name}/package.json`, 'utf8')) as { version: string }).version } catch { return undefined }
}
const versions: Record<string, string> = {}
for (const name of ['react', 'react-dom', 'ai', '@ai-sdk/react', 'streamdown', '@assistant-ui/react', '@assistant-ui/react-markdown', '@assistant-ui/react-ai-sdk', '@assistant-ui/ai-sdk', 'react-markdown', 'remark-gfm']) versions[name] = versionOf(name) ?? '?'
// assistant-ui's AI SDK runtime may carry its own AI SDK.
for (const name of ['ai', '@ai-sdk/react']) {
  const nested = versionOf(name, `${root}/node_modules/@assistant-ui/ai-sdk`)
  if (nested) versions[`${name} (in @assistant-ui/ai-sdk)`] = nested
}
const chromiumVersion = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', headless: true, args: ['--no-sandbox'] }).then(async (b) => { const v = b.version(); await b.close(); return v })
console.log(`\nbench:peers, ${new Date().toISOString()}, Chromium ${chromiumVersion}, Node ${process.version}, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`)
console.log(Object.entries(versions).map(([k, v]) => `${k} ${v}`).join(', '))
console.log('bundles (gzip KiB, every chunk):', KITS.map((kit) => `${kit.name} ${n([...builds.get(kit.name)!.files.values()].filter((f) => f.type === 'text/javascript').reduce((sum, f) => sum + gzip(f.body), 0) / 1024, 1)}`).join(', '))

const runs: Run[] = []
try {
  for (let r = 1; r <= RUNS; r++) {
    for (const kit of KITS) {
      const result = await measure(kit, builds.get(kit.name)!, origin, r)
      runs.push(result)
      console.log(`${kit.name} run ${r}: load ${result.load.map((l) => l.toFixed(2)).join('→')}, script ${n(result.scriptMs)} ms, p95 ${n(result.frameP95, 1)} ms, last byte→paint ${n(result.lastByteToPaintMs)} ms (work ${n(result.endWorkMs, 1)} ms)${result.complete ? '' : ' (INCOMPLETE: the answer\'s end never showed)'}${result.historyShown ? '' : ' (the earlier messages were not on the page)'}${result.errors.length ? `, errors: ${result.errors.slice(0, 3).join(' | ')}` : ''}`)
    }
  }
} finally {
  server.close()
}

table(runs.map((r) => ({
  kit: r.kit, run: r.run, load: r.load.map((l) => l.toFixed(1)).join('→'),
  'stream s': n(r.streamMs / 1000, 1), reads: n(r.chunks),
  'script ms': n(r.scriptMs), 'frame p50': n(r.frameP50, 1), p95: n(r.frameP95, 1),
  'tasks>50ms': n(r.longTasks), 'longest': n(r.longestTaskMs), 'last byte→paint ms': n(r.lastByteToPaintMs), 'end work ms': n(r.endWorkMs, 1),
  'heap MB': n(r.heapMB, 1), 'style+layout+paint ms': n(r.renderMs), 'style/layout/paint': `${n(r.styleMs)}/${n(r.layoutMs)}/${n(r.paintMs)}`, 'of it forced': n(r.forcedRenderMs),
  'frames>50ms': n(r.framesOver50), 'RO error': r.resizeObserverError ? 'yes' : 'no', 'JS gzip KiB': n(r.jsGzipKB, 1),
  'DOM +/- after end': `${r.addedAfterEnd}/${r.removedAfterEnd}`, complete: r.complete ? 'yes' : 'no',
})))

const range = (values: number[], digits = 0) => {
  const lo = Math.min(...values)
  const hi = Math.max(...values)
  return n(lo, digits) === n(hi, digits) ? n(lo, digits) : `${n(lo, digits)}–${n(hi, digits)}`
}
console.log(`\nRanges over ${RUNS} runs each (load average ${range(runs.flatMap((r) => r.load), 1)} over the runs)`)
table(KITS.map((kit) => {
  const mine = runs.filter((r) => r.kit === kit.name)
  const of = (pick: (r: Run) => number, digits = 0) => range(mine.map(pick), digits)
  return {
    kit: kit.label,
    'script ms while streaming': of((r) => r.scriptMs),
    'script/frame p50 ms': of((r) => r.frameP50, 1), 'p95 ms': of((r) => r.frameP95, 1),
    'long tasks >50 ms': of((r) => r.longTasks),
    'last byte → final paint ms': of((r) => r.lastByteToPaintMs),
    'work in it ms': of((r) => r.endWorkMs, 1),
    'heap MB': of((r) => r.heapMB, 1),
    'style+layout+paint ms': of((r) => r.renderMs),
    'frames >50 ms': of((r) => r.framesOver50),
    'ResizeObserver error': mine.some((r) => r.resizeObserverError) ? `yes (${mine.filter((r) => r.resizeObserverError).length}/${mine.length})` : 'no',
    'JS gzip KiB': of((r) => r.jsGzipKB, 1),
  }
}))
if (arg('json')) writeFileSync(arg('json')!, JSON.stringify({ date: new Date().toISOString(), chromium: chromiumVersion, versions, runs }, null, 2))
