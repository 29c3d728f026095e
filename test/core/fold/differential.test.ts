/**
 * The live client and foldStream are one fold: for random streams of all four
 * protocols and random byte splits (1-byte pieces, cuts inside UTF-8 and CRLF,
 * empty reads), `AgentClient` with an injected fetch ends in the state
 * `foldStream` gives for the whole text (`differential-property.ts`).
 *
 * Each run checks the seeds that once found a difference (`KNOWN`, each from the
 * stream that failed) and one random seed per protocol, within the same number of
 * streams per protocol. A failure prints its seed and the one line that reruns
 * it: `WEFT_SEED=<seed>` runs only that seed (with `WEFT_PROTOCOLS`, and
 * `WEFT_RUNS` and `WEFT_PATH` to start at the failing stream).
 */
import { describe, expect, it } from 'vitest'
import type { ProtocolName } from '../../../src/core/model/model'
import { checkDifferential, failureReport, rerunCommand, type DifferentialRun } from './differential-property'

const PROTOCOLS = (process.env.WEFT_PROTOCOLS?.split(',') ?? ['yao', 'ui-message', 'vocion', 'ag-ui']) as ProtocolName[]
/** Streams per protocol and run of the suite, known seeds included: 4 × 550 = 2,200. */
const RUNS = Number(process.env.WEFT_RUNS ?? 550)
/** How many streams a known seed runs, from the one that failed. */
const KNOWN_RUNS = 20

/** Seeds that found a difference, each with fast-check's path to the stream that failed. */
const KNOWN: readonly DifferentialRun[] = [
  // A thinking message whose content was an object, then two plain tokens: foldStream held them
  // as one append and recorded one refusal, the client whose read ended between them two.
  { protocol: 'yao', seed: 1093447631, path: '275', runs: KNOWN_RUNS },
  // The same, an empty object and two tokens for it.
  { protocol: 'yao', seed: 110866, path: '497', runs: KNOWN_RUNS },
  // An object, one token for it, then a frame that is not JSON: foldStream recorded the bad frame
  // before the token's refusal, the client whose read ended after the token after it.
  { protocol: 'yao', seed: 158380, path: '456', runs: KNOWN_RUNS },
]

const chosen = process.env.WEFT_SEED === undefined ? undefined : Number(process.env.WEFT_SEED)
const random = Date.now() % 2 ** 31

/** What one protocol checks this run: the seed asked for alone, or the known seeds and a random one. */
function runsFor(protocol: ProtocolName, index: number): Array<DifferentialRun & { known: boolean }> {
  if (chosen !== undefined) return [{ protocol, seed: chosen + index, runs: RUNS, path: process.env.WEFT_PATH || undefined, known: false }]
  const known = KNOWN.filter((run) => run.protocol === protocol).map((run) => ({ ...run, known: true }))
  const left = Math.max(1, RUNS - known.reduce((sum, run) => sum + run.runs, 0))
  return [...known, { protocol, seed: random + index, runs: left, known: false }]
}

describe('the live client equals foldStream for every split', () => {
  for (const [index, protocol] of PROTOCOLS.entries()) {
    for (const run of runsFor(protocol, index)) {
      const name = run.known
        ? `${protocol}: known seed ${run.seed} from stream ${run.path ?? 0}, ${run.runs} streams`
        : `${protocol}: ${chosen === undefined ? 'a random seed' : `seed ${run.seed}`}, ${run.runs} random streams, random splits, told or detected`
      it(name, async () => {
        const result = await checkDifferential(run)
        if (result.failed) console.error(failureReport(run, result))
        expect(result.failed, `seed ${run.seed}; rerun: ${rerunCommand(run, result)}`).toBe(false)
        // A counterexample's whole path replays its shrinks only, however many there are.
        if (!run.path?.includes(':')) expect(result.numRuns).toBe(run.runs)
      }, 120_000)
    }
  }
})
