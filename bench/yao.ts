/**
 * Yao: the parse floor against weft's whole path, on the same bytes, in one process.
 */
import { createParser } from 'eventsource-parser'
import { AgentClient } from '../src/core/client'
import type { Scheduler } from '../src/core/batcher'
import type { HydratedTurn } from '../src/core/ops'
import { createAgentStore, type AgentStore } from '../src/core/store'
import { chunkBytes, median, n, networkResponse, table } from './harness'
import { longYaoStream } from './yao-stream'

/** One flush per arrival of bytes: the smallest batches the kit can see (a worst case). */
const perArrival: Scheduler = (flush) => {
  const handle = setImmediate(flush)
  return () => clearImmediate(handle)
}

/** One flush per 60 Hz frame, as `frameScheduler` does in a browser. */
const perFrame: Scheduler = (flush) => {
  const handle = setTimeout(flush, 1000 / 60)
  return () => clearTimeout(handle)
}

/** decode + framing + JSON.parse, nothing else. */
async function parseFloor(chunks: readonly Uint8Array[]): Promise<number> {
  let events = 0
  const parser = createParser({
    onEvent(event) {
      JSON.parse(event.data)
      events += 1
    },
  })
  const reader = networkResponse(chunks).body!.getReader()
  const decoder = new TextDecoder()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    parser.feed(decoder.decode(value, { stream: true }))
  }
  parser.feed(decoder.decode())
  return events
}

/** transport + decoder + ops + batcher + fold into a store. */
async function weftPath(chunks: readonly Uint8Array[], store: AgentStore, scheduler: Scheduler = perFrame): Promise<number> {
  let batches = 0
  const unsubscribe = store.subscribe(() => {
    batches += 1
  })
  const client = new AgentClient(store, {
    url: 'http://bench.invalid/stream',
    protocol: 'yao',
    scheduler,
    fetch: async () => networkResponse(chunks),
  })
  await client.send()
  unsubscribe()
  lastBatches = batches
  return store.getState().cursor.eventCount
}

let lastBatches = 0

function crowdedStore(messages: number): AgentStore {
  const store = createAgentStore()
  const turns: HydratedTurn[] = []
  for (let t = 0; t < messages / 10; t++) {
    turns.push({
      turn: { id: `old-${t}`, role: t % 2 ? 'assistant' : 'user' },
      messages: Array.from({ length: 10 }, (_, m) => ({ id: `old-${t}-${m}`, type: 'text', props: { content: `message ${t}.${m} `.repeat(8) } })),
    })
  }
  store.getState().dispatch([{ op: 'hydrate', turns, at: 'start' }])
  return store
}

/** Run the Yao figures; returns the ratios for the summary. */
export async function benchYao(): Promise<void> {
  const DELTAS = 20_000
  const THREADS = 8
  const bytes = new TextEncoder().encode(longYaoStream(DELTAS, THREADS))
  const chunks = chunkBytes(bytes, 16 * 1024)
  const rounds = 9

  // Rounds interleave the paths, so a machine that slows down or speeds up
  // during the run weighs on every figure alike; each figure is a median.
  const times = { floor: [] as number[], frame: [] as number[], frameCrowded: [] as number[], arrival: [] as number[], arrivalCrowded: [] as number[] }
  let events = 0
  let folded = 0
  let frameBatches = 0
  let arrivalBatches = 0
  const timed = async (into: number[], fn: () => Promise<void>) => {
    const start = performance.now()
    await fn()
    into.push(performance.now() - start)
  }
  for (let round = -2; round < rounds; round++) {
    // Crowded stores are built before the clock starts: only the stream is timed.
    const crowdedA = crowdedStore(5_000)
    const crowdedB = crowdedStore(5_000)
    const sink = round < 0 ? [] : undefined // two warm-up rounds are not kept
    await timed(sink ?? times.floor, async () => {
      events = await parseFloor(chunks)
    })
    await timed(sink ?? times.frame, async () => {
      folded = await weftPath(chunks, createAgentStore())
    })
    frameBatches = lastBatches
    await timed(sink ?? times.frameCrowded, async () => {
      await weftPath(chunks, crowdedA)
    })
    await timed(sink ?? times.arrival, async () => {
      await weftPath(chunks, createAgentStore(), perArrival)
    })
    arrivalBatches = lastBatches
    await timed(sink ?? times.arrivalCrowded, async () => {
      await weftPath(chunks, crowdedB, perArrival)
    })
  }
  const floorMs = median(times.floor)
  const weftMs = median(times.frame)
  const crowdedMs = median(times.frameCrowded)
  const arrivalMs = median(times.arrival)
  const arrivalCrowdedMs = median(times.arrivalCrowded)

  // A sanity check on the result, so a broken fold cannot post a fast figure.
  const check = createAgentStore()
  await weftPath(chunks, check)
  const state = check.getState()
  const texts = Object.values(state.messages).map((m) => String(m.props.content))
  const tokens = texts.reduce((sum, t) => sum + (t.match(/token \d+ /g)?.length ?? 0), 0)
  if (folded !== events || tokens !== DELTAS || texts.length !== THREADS) {
    throw new Error(`bench fold is wrong: ${folded}/${events} events, ${tokens}/${DELTAS} tokens, ${texts.length} messages`)
  }

  console.log(`Yao hierarchical stream: ${n(events)} events (${n(DELTAS)} deltas over ${THREADS} threads), ${n(bytes.length / 1024)} KiB in ${chunks.length} network chunks of 16 KiB; median of ${rounds}`)
  const row = (path: string, ms: number, batches: number | string) =>
    ({ path, ms: n(ms, 1), 'events/s': n(events / (ms / 1000)), 'vs floor': `${n(ms / floorMs, 2)}x`, 'store commits': batches })
  table([
    row('parse floor (decode + framing + JSON.parse)', floorMs, '-'),
    row('weft whole path, per-frame batches, empty store', weftMs, frameBatches),
    row('weft whole path, per-frame batches, 5,000 messages', crowdedMs, frameBatches),
    row('weft whole path, per-arrival batches, empty store', arrivalMs, arrivalBatches),
    row('weft whole path, per-arrival batches, 5,000 messages', arrivalCrowdedMs, arrivalBatches),
  ])
  console.log(`per-frame batching (the browser default): weft / floor ${n(weftMs / floorMs, 2)}x (target ≤ 2x); 5,000 messages / empty ${n(crowdedMs / weftMs, 2)}x (target ≤ 1.3x)`)
  console.log(`per-arrival batching (worst case): weft / floor ${n(arrivalMs / floorMs, 2)}x; 5,000 messages / empty ${n(arrivalCrowdedMs / arrivalMs, 2)}x\n`)
}
