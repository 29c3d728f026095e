/**
 * `node --cpu-prof --import tsx bench/profile.ts <scenario index> <deltas> [fold|client|frames|crowded]`:
 * one path over one scenario, repeated and alternated with the parse floor, for a
 * CPU profile and a quick ratio.
 */
import '../src/protocols/index'
import { busyMark, busySince, chunkBytes, median } from './harness'
import { crowdedStore, parseFloor, perFrame, weftClient, weftFold } from './paths'
import { scenarios } from './scenarios'

const scenario = scenarios[Number(process.argv[2] ?? 0)]!
const deltas = Number(process.argv[3] ?? 10_000)
const path = process.argv[4] ?? 'fold'
const text = scenario.sse(deltas)
const chunks = chunkBytes(new TextEncoder().encode(text), 16 * 1024)
const rounds = Number(process.env.N ?? 10)
const floor: number[] = []
const weft: number[] = []
for (let i = -1; i < rounds; i++) {
  let start = busyMark()
  await parseFloor(chunks, scenario.headers)
  if (i >= 0) floor.push(busySince(start))
  const store = crowdedStore(path === 'crowded' ? 5_000 : 0)
  start = busyMark()
  if (path === 'fold') weftFold(text, scenario)
  else await weftClient(chunks, scenario, store, path === 'frames' ? perFrame : undefined)
  if (i >= 0) weft.push(busySince(start))
}
console.log(`${scenario.name} ${deltas} ${path}: ${median(weft).toFixed(1)} ms, floor ${median(floor).toFixed(1)} ms, ${(median(weft) / median(floor)).toFixed(2)}x`)
process.exit(0)
