/**
 * What one commit costs as history grows: a batch of one text append dispatched
 * to a store already holding 0, 1,000 and 5,000 messages, next to a bare spread of
 * a flat record of that many keys (the least a commit cost when the store kept its
 * messages in one record; the store now keeps them in buckets, so a commit copies
 * the bucket list and one bucket). Rounds alternate the sizes. Printed, never asserted.
 *
 * `node --import tsx bench/commit-copy.ts`
 */
import { median, n, table } from './harness'
import { crowdedStore } from './paths'

const SIZES = [0, 1_000, 5_000] as const
const COMMITS = 300
const ROUNDS = 5

function commitCost(size: number): number {
  const store = crowdedStore(size)
  const { dispatch } = store.getState()
  dispatch([
    { op: 'turn.open', turnId: 'live', role: 'assistant' },
    { op: 'message.delta', turnId: 'live', messageId: 'answer', type: 'text', action: 'set', path: 'content', value: '' },
  ])
  const start = performance.now()
  for (let i = 0; i < COMMITS; i++) {
    store.getState().dispatch([{ op: 'message.delta', turnId: 'live', messageId: 'answer', type: 'text', action: 'append', path: 'content', value: 'x' }])
  }
  return ((performance.now() - start) * 1000) / COMMITS
}

function spreadCost(size: number): number {
  const record: Record<string, unknown> = {}
  for (let i = 0; i < size; i++) record[`old-${Math.floor(i / 10)}-${i % 10}`] = { id: i }
  let sink = 0
  const start = performance.now()
  for (let i = 0; i < COMMITS; i++) sink += Object.keys({ ...record, answer: i }).length > 0 ? 1 : 0
  const us = ((performance.now() - start) * 1000) / COMMITS
  return sink > 0 ? us : Number.NaN
}

const commit = new Map<number, number[]>(SIZES.map((s) => [s, []]))
const spread = new Map<number, number[]>(SIZES.map((s) => [s, []]))
for (let round = -1; round < ROUNDS; round++) {
  const order = round % 2 === 0 ? SIZES : [...SIZES].reverse()
  for (const size of order) {
    const c = commitCost(size)
    const s = spreadCost(size)
    if (round >= 0) {
      commit.get(size)!.push(c)
      spread.get(size)!.push(s)
    }
  }
}
const empty = median(commit.get(0)!)
console.log(`One commit of one append, by messages already in the store (medians of ${ROUNDS} alternating rounds of ${n(COMMITS)} commits)`)
table(SIZES.map((size) => ({
  messages: n(size),
  'µs per commit': n(median(commit.get(size)!), 1),
  'over the empty store, µs': n(median(commit.get(size)!) - empty, 1),
  'bare spread of a flat record, µs': n(median(spread.get(size)!), 1),
})))
process.exit(0)
