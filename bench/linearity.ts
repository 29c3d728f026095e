/**
 * `node --expose-gc --import tsx bench/linearity.ts`: the linearity target alone, for a
 * loaded machine where the whole table at 100k does not finish in useful time. Long
 * text and long tool input at 1k and 100k deltas; each round times the floor,
 * `foldStream` and the client with per-frame batches at both sizes, alternating the
 * order (`ONLY_TOOLS=1` skips them, for the tool calls below alone). A 1k measurement is the total of 100 streams, so it is as long as one 100k
 * stream and the machine's drift weighs on both alike. Printed, never asserted.
 */
import '../src/protocols/index'
import os from 'node:os'
import { busyMark, busySince, chunkBytes, median, n, table } from './harness'
import { syncScheduler, microtaskScheduler } from '../src/core/store/batcher'
import { crowdedStore, parseFloor, perFrame, weftClient, weftFold } from './paths'
import { scenarios, toolCalls, type Scenario } from './scenarios'

const NAMES = ['UI stream, long text', 'UI stream, one tool, long input', 'AG-UI, long text', 'AG-UI, one tool, long arguments']
const SMALL = 1_000
const LARGE = 100_000
const REPEAT = LARGE / SMALL
const ROUNDS = Number(process.env.ROUNDS ?? 3)

interface Sized { text: string; chunks: Uint8Array[]; events: number }

async function sized(scenario: Scenario, deltas: number): Promise<Sized> {
  const text = scenario.sse(deltas)
  const chunks = chunkBytes(new TextEncoder().encode(text), 16 * 1024)
  return { text, chunks, events: await parseFloor(chunks, scenario.headers) }
}

/** Microseconds per event of one path, over `repeat` streams. */
async function time(run: () => Promise<unknown> | unknown, events: number, repeat: number): Promise<number> {
  ;(globalThis as { gc?: () => void }).gc?.()
  const start = busyMark()
  for (let i = 0; i < repeat; i++) await run()
  return (busySince(start) * 1000) / (events * repeat)
}

console.log(`linearity · Node ${process.version} · ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'} · load ${os.loadavg()[0]!.toFixed(1)} · ${new Date().toISOString()}`)
const rows: Array<Record<string, string>> = []
for (const name of process.env.ONLY_TOOLS ? [] : NAMES) {
  const scenario = scenarios.find((s) => s.name === name)!
  const small = await sized(scenario, SMALL)
  const large = await sized(scenario, LARGE)
  const us: Record<string, number[]> = {}
  const paths: Array<[string, () => Promise<number>]> = []
  for (const [label, size, repeat] of [['1k', small, REPEAT], ['100k', large, 1]] as const) {
    paths.push([`floor ${label}`, () => time(() => parseFloor(size.chunks, scenario.headers), size.events, repeat)])
    paths.push([`fold ${label}`, () => time(() => weftFold(size.text, scenario), size.events, repeat)])
    paths.push([`client ${label}`, () => time(() => weftClient(size.chunks, scenario, crowdedStore(0), perFrame), size.events, repeat)])
  }
  for (let round = -1; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? paths : [...paths].reverse()
    for (const [key, run] of order) {
      const value = await run()
      if (round >= 0) (us[key] ??= []).push(value)
    }
  }
  const m = (key: string) => median(us[key]!)
  const row = {
    scenario: name,
    'floor µs/ev 1k': n(m('floor 1k'), 2),
    '100k': n(m('floor 100k'), 2),
    'foldStream µs/ev 1k': n(m('fold 1k'), 2),
    ' 100k': n(m('fold 100k'), 2),
    'foldStream 100k / 1k': `${n(m('fold 100k') / m('fold 1k'), 2)}x`,
    'client (frames) 100k / 1k': `${n(m('client 100k') / m('client 1k'), 2)}x`,
    'floor 100k / 1k': `${n(m('floor 100k') / m('floor 1k'), 2)}x`,
    'foldStream / floor at 100k': `${n(m('fold 100k') / m('floor 100k'), 2)}x`,
  }
  rows.push(row)
  console.error(JSON.stringify(row))
}
console.log(`Per-event cost at ${n(LARGE)} deltas over ${n(SMALL)} (medians of ${ROUNDS} alternating rounds; a 1k figure is ${REPEAT} streams)`)
table(rows)

// Tool calls: each call adds a row to the timeline (a bucket of it copied per commit) and
// an entry to the turn's id lists (copied whole per commit). foldStream at 10k and 100k
// calls; the live client under each scheduler at 2k and 16k calls, a pair on either side of
// where a copied id list outgrows V8's ordinary heap (16k ids, 128 KB; docs/performance.md)
// (TOOL_CALLS_CLIENT=10000,100000 for the larger pair, which takes many minutes).
const callRows: Array<Record<string, string>> = []
const FOLD_CALLS = (process.env.TOOL_CALLS ?? '10000,100000').split(',').map(Number) as [number, number]
const CLIENT_CALLS = (process.env.TOOL_CALLS_CLIENT ?? '2000,16000').split(',').map(Number) as [number, number]
const schedulers = [['foldStream', undefined], ['client, sync', syncScheduler], ['client, microtask', microtaskScheduler], ['client, frames', perFrame]] as const
for (const protocol of ['ui-message', 'ag-ui'] as const) {
  const scenario = scenarios.find((s) => s.protocol === protocol && s.name.includes('tools ×'))!
  for (const [label, scheduler] of schedulers) {
    const [small, large] = scheduler ? CLIENT_CALLS : FOLD_CALLS
    const ms: Record<number, number[]> = { [small]: [], [large]: [] }
    const texts = { [small]: toolCalls(protocol, small), [large]: toolCalls(protocol, large) }
    for (let round = 0; round < Math.max(1, Math.min(ROUNDS, 2)); round++) {
      for (const calls of round % 2 ? [large, small] : [small, large]) {
        const text = texts[calls]!
        ;(globalThis as { gc?: () => void }).gc?.()
        const start = busyMark()
        if (!scheduler) weftFold(text, scenario)
        else await weftClient(chunkBytes(new TextEncoder().encode(text), 16 * 1024), scenario, crowdedStore(0), scheduler)
        ms[calls]!.push(busySince(start))
      }
    }
    const row = {
      protocol, path: label, calls: `${n(small)} / ${n(large)}`,
      'ms': `${n(median(ms[small]!), 0)} / ${n(median(ms[large]!), 0)}`,
      'time ratio': `${n(median(ms[large]!) / median(ms[small]!), 1)}x`,
      'target': `≤ ${n(large / small, 0)}x`,
    }
    callRows.push(row)
    console.error(JSON.stringify(row))
  }
}
console.log('Tool calls (5 argument deltas each): time at the larger size over the smaller')
table(callRows)
console.log(`load at the end ${os.loadavg()[0]!.toFixed(1)}`)
process.exit(0)
