/**
 * The differential property, shared by `differential.test.ts` and the regression
 * tests that pin a seed it failed with: for a random stream of one protocol and a
 * random byte split (1-byte pieces, cuts inside UTF-8 and CRLF, empty reads),
 * `AgentClient` with an injected fetch ends in the state `foldStream` gives for
 * the whole text, the protocol told or detected.
 */
import fc from 'fast-check'
import { expect } from 'vitest'
import type { ProtocolName } from '../../../src/core/model/model'
import { comparable, cutAt, liveFold, recordedFold } from '../../helpers/live-fold'
import { splits, sseStream } from '../../helpers/streams'

const encoder = new TextEncoder()

/** One check of the property: a protocol, a fast-check seed and how many streams. */
export interface DifferentialRun {
  protocol: ProtocolName
  seed: number
  runs: number
  /**
   * Start at this fast-check path instead of the first stream: a run index ("275")
   * starts at that stream, a counterexample's whole path replays only it.
   */
  path?: string
}

/** fast-check's details of one check: the case is the text, the cuts and whether the protocol was told. */
export type DifferentialResult = fc.RunDetails<[[string, number[], boolean]]>

/** Run the property; fast-check's details, failed or not (never throws for a failure). */
export async function checkDifferential(run: DifferentialRun): Promise<DifferentialResult> {
  const { protocol } = run
  const property = fc.asyncProperty(
    sseStream(protocol).chain((text) => fc.tuple(fc.constant(text), splits(encoder.encode(text).length), fc.boolean())),
    async ([text, cuts, told]) => {
      const given = told ? protocol : undefined
      const live = await liveFold(cutAt(encoder.encode(text), cuts), { protocol: given })
      expect(comparable(live.state)).toEqual(comparable(recordedFold(text, live.turnId, given)))
    },
  )
  return fc.check(property, { numRuns: run.runs, seed: run.seed, ...(run.path ? { path: run.path } : {}) })
}

/**
 * The one line that runs a failed check again, its counterexample first: the seed,
 * the protocol alone (so the seed is its own) and fast-check's path to the failure.
 */
export function rerunCommand(run: DifferentialRun, result?: DifferentialResult): string {
  const path = result?.failed ? result.counterexamplePath : run.path
  return [
    `WEFT_SEED=${run.seed}`,
    `WEFT_PROTOCOLS=${run.protocol}`,
    `WEFT_RUNS=${run.runs}`,
    ...(path ? [`WEFT_PATH=${path}`] : []),
    'npx vitest run --project core test/core/fold/differential.test.ts',
  ].join(' ')
}

/** The report for a failed check: its seed, the command that reruns it and fast-check's own message. */
export function failureReport(run: DifferentialRun, result: DifferentialResult): string {
  return [
    `differential ${run.protocol}: failed with seed ${run.seed}${run.path ? ` from path ${run.path}` : ''}`,
    `rerun: ${rerunCommand(run, result)}`,
    fc.defaultReportMessage(result) ?? '',
  ].join('\n')
}
