/**
 * The live client and foldStream are one fold: for random streams of all four
 * protocols and random byte splits (1-byte pieces, cuts inside UTF-8 and CRLF,
 * empty reads), `AgentClient` with an injected fetch ends in the state
 * `foldStream` gives for the whole text. A failure prints its seed and the
 * shrunk stream; rerun it with `WEFT_SEED=<seed>`.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { ProtocolName } from '../../src/core/model'
import { comparable, cutAt, liveFold, recordedFold } from '../helpers/live-fold'
import { splits, sseStream } from '../helpers/streams'

const PROTOCOLS = (process.env.WEFT_PROTOCOLS?.split(',') ?? ['yao', 'ui-message', 'vocion', 'ag-ui']) as ProtocolName[]
/** 4 × 550 = 2,200 cases per run of the suite. */
const RUNS = Number(process.env.WEFT_RUNS ?? 550)
const SEED = process.env.WEFT_SEED === undefined ? Date.now() % 2 ** 31 : Number(process.env.WEFT_SEED)
const encoder = new TextEncoder()

describe('the live client equals foldStream for every split', () => {
  for (const [index, protocol] of PROTOCOLS.entries()) {
    it(`${protocol}: ${RUNS} random streams, random splits, told or detected`, async () => {
      const seed = SEED + index
      const property = fc.asyncProperty(
        sseStream(protocol).chain((text) => fc.tuple(fc.constant(text), splits(encoder.encode(text).length), fc.boolean())),
        async ([text, cuts, told]) => {
          const given = told ? protocol : undefined
          const live = await liveFold(cutAt(encoder.encode(text), cuts), { protocol: given })
          expect(comparable(live.state)).toEqual(comparable(recordedFold(text, live.turnId, given)))
        },
      )
      const result = await fc.check(property, { numRuns: RUNS, seed })
      if (result.failed) {
        console.error(`differential ${protocol}: failed with seed ${seed} (WEFT_SEED=${SEED})\n${fc.defaultReportMessage(result)}`)
      }
      expect(result.failed, `seed ${seed}`).toBe(false)
      expect(result.numRuns).toBe(RUNS)
    }, 120_000)
  }
})
