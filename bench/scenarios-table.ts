/**
 * The one table: every scenario at 1k / 10k / 100k deltas, each path as a ratio
 * to the parse floor measured in the same rounds. Rounds alternate the order of
 * the paths, so drift on a shared machine weighs on each of them alike.
 */
import { busyMark, busySince, chunkBytes, median, n, table } from './harness'
import { agUiClient, aiSdk, crowdedConversation, crowdedStore, parseFloor, resumable, perFrame, weftClient, weftFold } from './paths'
import { scenarios, type Scenario } from './scenarios'
import { messageRecord } from '../src/core/model/message-table'

const SIZES = [1_000, 10_000, 100_000] as const
const ROUNDS: Record<number, number> = { 1_000: 9, 10_000: 5, 100_000: 3 }
/** A peer whose round at one size, scaled to the next, would pass this is not run there. */
const PEER_BUDGET_MS = 1_000

interface Path {
  key: string
  /** A client path notes in `timing` how long its send took to build the request. */
  run: (timing: { requestMs: number }) => Promise<unknown>
}

/** Per-size results kept for the summary. */
export interface ScenarioFigures {
  scenario: string
  deltas: number
  events: number
  us: Record<string, number>
  /** Per client path, µs per event from the request on: the stream alone, the send's request left out. */
  streamUs: Record<string, number>
  /** Per client path, the median ms its send took to build the request. */
  requestMs: Record<string, number>
  commits: Record<string, number>
}

async function measure(scenario: Scenario, deltas: number, withPeer: boolean): Promise<ScenarioFigures> {
  const text = scenario.sse(deltas)
  const bytes = new TextEncoder().encode(text)
  const chunks = chunkBytes(bytes, 16 * 1024)
  let events = 0
  const commits: Record<string, number> = {}
  // Crowded stores are built before the clock starts, each after an earlier exchange
  // (see `crowdedConversation`): only the send and its stream are timed.
  let crowdedFrame = await crowdedConversation(5_000, scenario)
  let crowdedDefault = await crowdedConversation(5_000, scenario)
  const paths: Path[] = [
    { key: 'floor', run: async () => (events = await parseFloor(chunks, scenario.headers)) },
    { key: 'foldStream', run: async () => weftFold(text, scenario) },
    { key: 'client/frame', run: async (timing) => (commits['client/frame'] = await weftClient(chunks, scenario, freshStore(), perFrame, timing)) },
    { key: 'client/resumable', run: async (timing) => weftClient(chunks, scenario, freshStore(), perFrame, timing, resumable()) },
    { key: 'client/default', run: async (timing) => (commits['client/default'] = await weftClient(chunks, scenario, freshStore(), undefined, timing)) },
    { key: 'crowded/frame', run: async (timing) => weftClient(chunks, scenario, crowdedFrame, perFrame, timing) },
    { key: 'crowded/default', run: async (timing) => (commits['crowded/default'] = await weftClient(chunks, scenario, crowdedDefault, undefined, timing)) },
  ]
  if (withPeer && scenario.peer === 'ai') paths.push({ key: 'peer', run: () => aiSdk(chunks, scenario) })
  if (withPeer && scenario.peer === 'ag-ui') paths.push({ key: 'peer', run: () => agUiClient(chunks, scenario) })

  const times = new Map<string, number[]>(paths.map((p) => [p.key, []]))
  const requestTimes = new Map<string, number[]>(paths.map((p) => [p.key, []]))
  const rounds = ROUNDS[deltas] ?? 3
  for (let round = -1; round < rounds; round++) {
    const order = round % 2 === 0 ? paths : [...paths].reverse()
    for (const path of order) {
      const timing = { requestMs: 0 }
      const start = busyMark()
      await path.run(timing)
      const ms = busySince(start)
      if (round >= 0) {
        times.get(path.key)!.push(ms)
        requestTimes.get(path.key)!.push(timing.requestMs)
      }
    }
    crowdedFrame = await crowdedConversation(5_000, scenario)
    crowdedDefault = await crowdedConversation(5_000, scenario)
  }
  const us: Record<string, number> = {}
  const streamUs: Record<string, number> = {}
  const requestMs: Record<string, number> = {}
  for (const [key, list] of times) {
    us[key] = (median(list) * 1000) / events
    const requests = requestTimes.get(key)!
    if (!key.startsWith('client/') && !key.startsWith('crowded/')) continue
    requestMs[key] = median(requests)
    streamUs[key] = (median(list.map((ms, i) => ms - requests[i]!)) * 1000) / events
  }
  return { scenario: scenario.name, deltas, events, us, streamUs, requestMs, commits }
}

function freshStore() {
  return crowdedStore(0)
}

/** Check each scenario folds without a problem, so a broken stream cannot post a fast figure. */
function checkScenarios(): void {
  for (const scenario of scenarios) {
    const state = weftFold(scenario.sse(1_000), scenario)
    const problems = Object.values(state.turns).flatMap((t) => t.problems)
    if (problems.length > 0 || Object.keys(messageRecord(state.messages)).length === 0) {
      throw new Error(`bench stream "${scenario.name}" does not fold cleanly: ${JSON.stringify(problems[0])}`)
    }
  }
}

const x = (value: number | undefined) => (value === undefined || !Number.isFinite(value) ? '—' : `${n(value, 2)}x`)

/** Print the table; returns the figures for the summary. */
export async function benchScenarios(sizes: readonly number[] = SIZES, progress = false): Promise<ScenarioFigures[]> {
  checkScenarios()
  const all: ScenarioFigures[] = []
  const rows: Array<Record<string, string>> = []
  for (const scenario of scenarios) {
    let peerMs = 0
    for (const deltas of sizes) {
      const withPeer = scenario.peer !== undefined && peerMs < PEER_BUDGET_MS
      const f = await measure(scenario, deltas, withPeer)
      peerMs = f.us.peer === undefined ? Infinity : (f.us.peer * f.events * 10) / 1000
      all.push(f)
      const floor = f.us.floor!
      const row = {
        scenario: scenario.name,
        deltas: n(deltas),
        'floor µs/ev': n(floor, 2),
        foldStream: x(f.us.foldStream! / floor),
        'client, frames': x(f.us['client/frame']! / floor),
        'resumable, frames': x(f.us['client/resumable']! / floor),
        'client, default': x(f.us['client/default']! / floor),
        'default commits': n(f.commits['client/default'] ?? 0),
        '5k msgs / empty, frames': x(f.us['crowded/frame']! / f.us['client/frame']!),
        '5k / empty, frames, after the request': x(f.streamUs['crowded/frame']! / f.streamUs['client/frame']!),
        '5k msgs / empty, default': x(f.us['crowded/default']! / f.us['client/default']!),
        '5k / empty, default, after the request': x(f.streamUs['crowded/default']! / f.streamUs['client/default']!),
        'request ms, 5k / empty': `${n(f.requestMs['crowded/frame']!, 1)} / ${n(f.requestMs['client/frame']!, 2)}`,
        peer: scenario.peer === 'ai' ? 'ai readUIMessageStream' : scenario.peer === 'ag-ui' ? '@ag-ui/client runAgent' : '—',
        'peer / floor': f.us.peer === undefined ? (scenario.peer ? 'not run (too slow)' : '—') : x(f.us.peer / floor),
      }
      rows.push(row)
      if (progress) console.error(JSON.stringify(row))
    }
  }
  console.log('Every scenario, same bytes arriving in 16 KiB reads; each path as a multiple of the parse floor (decode + eventsource-parser + JSON.parse) measured in the same rounds; medians, alternating order')
  table(rows)

  const linear: Array<Record<string, string>> = []
  for (const scenario of scenarios) {
    const small = all.find((f) => f.scenario === scenario.name && f.deltas === sizes[0])
    const large = all.find((f) => f.scenario === scenario.name && f.deltas === sizes[sizes.length - 1])
    if (!small || !large || small === large) continue
    linear.push({
      scenario: scenario.name,
      [`foldStream µs/ev at ${n(small.deltas)}`]: n(small.us.foldStream!, 2),
      [`at ${n(large.deltas)}`]: n(large.us.foldStream!, 2),
      'foldStream growth': x(large.us.foldStream! / small.us.foldStream!),
      'client growth (frames)': x(large.us['client/frame']! / small.us['client/frame']!),
      'floor growth': x(large.us.floor! / small.us.floor!),
    })
  }
  console.log('Linearity: per-event cost at the largest size over the smallest')
  table(linear)
  return all
}
