/**
 * `node --expose-gc --import tsx bench/crowded-store.ts [scenario index…]`: what a
 * store of 5,000 messages costs a stream against an empty store, taken apart: the
 * send's request, the stream from the request on, the collections that land inside
 * the run (Node's `gc` performance entries), and how often a batch copied the
 * record of turns. Eight rounds per size, alternated, a full collection before
 * each. Asserts nothing.
 */
import { PerformanceObserver, performance } from 'node:perf_hooks'
import { busyMark, busySince, chunkBytes, median, n, table } from './harness'
import { crowdedStore, perFrame, weftClient } from './paths'
import { scenarios } from './scenarios'

const ROUNDS = 8
const collections: Array<{ start: number; ms: number }> = []
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) collections.push({ start: entry.startTime, ms: entry.duration })
}).observe({ entryTypes: ['gc'] })

const picked = process.argv.slice(2).map(Number)
const rows: Array<Record<string, string>> = []
for (const scenario of picked.length > 0 ? picked.map((i) => scenarios[i]!) : scenarios) {
  const chunks = chunkBytes(new TextEncoder().encode(scenario.sse(10_000)), 16 * 1024)
  const warmUp = chunkBytes(new TextEncoder().encode(scenario.sse(10)), 16 * 1024)
  const figures = new Map<number, { stream: number[]; request: number[]; firstRequest: number[]; runs: Array<[number, number]>; turnCopies: number[] }>()
  for (let round = 0; round < ROUNDS * 2; round++) {
    const size = round % 2 === 0 ? 0 : 5_000
    const store = crowdedStore(size)
    const figure = figures.get(size) ?? figures.set(size, { stream: [], request: [], firstRequest: [], runs: [], turnCopies: [] }).get(size)!
    let turns = store.getState().turns
    let copies = 0
    const unsubscribe = store.subscribe((state) => {
      if (state.turns !== turns) copies += 1
      turns = state.turns
    })
    // An earlier, short exchange: a live conversation has sent requests before this one,
    // and a protocol reuses what it built for the turns that did not change since.
    const first = { requestMs: 0 }
    await weftClient(warmUp, scenario, store, perFrame, first)
    figure.firstRequest.push(first.requestMs)
    ;(globalThis as { gc?: () => void }).gc?.()
    const timing = { requestMs: 0 }
    const mark = busyMark()
    const from = performance.now()
    await weftClient(chunks, scenario, store, perFrame, timing)
    figure.runs.push([from, performance.now()])
    figure.stream.push(busySince(mark) - timing.requestMs)
    figure.request.push(timing.requestMs)
    figure.turnCopies.push(copies)
    unsubscribe()
  }
  // The observer hears of collections a little later.
  await new Promise((resolve) => setTimeout(resolve, 50))
  const of = (size: number) => {
    const f = figures.get(size)!
    const inside = collections.filter((c) => f.runs.some(([a, b]) => c.start >= a && c.start <= b))
    return { ...f, gcMs: inside.reduce((sum, c) => sum + c.ms, 0) / ROUNDS, gcCount: inside.length / ROUNDS }
  }
  const empty = of(0)
  const crowded = of(5_000)
  rows.push({
    scenario: scenario.name,
    'first request ms, 5k / empty': `${n(median(crowded.firstRequest), 1)} / ${n(median(empty.firstRequest), 2)}`,
    'next request ms, 5k / empty': `${n(median(crowded.request), 1)} / ${n(median(empty.request), 2)}`,
    'stream ms, 5k / empty': `${n(median(crowded.stream), 1)} / ${n(median(empty.stream), 1)}`,
    'stream 5k / empty': `${n(median(crowded.stream) / median(empty.stream), 2)}x`,
    'GC in the run ms, 5k / empty': `${n(crowded.gcMs, 2)} / ${n(empty.gcMs, 2)}`,
    'collections per run, 5k / empty': `${n(crowded.gcCount, 1)} / ${n(empty.gcCount, 1)}`,
    'turn-record copies per stream': n(median(crowded.turnCopies)),
  })
  collections.length = 0
}
console.log('A store of 5,000 messages against an empty one, 10k deltas, per-frame batches; medians of 8 rounds each')
table(rows)
process.exit(0)
