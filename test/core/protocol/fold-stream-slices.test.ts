/**
 * `foldStream` folds a long stream in slices, and each fold copies what grew so
 * far (a turn's rows and messages). Counted, not timed: the copies of every
 * slice add up to a few times the stream's ops, at any length, so n tool calls
 * cost O(n). With slices of a fixed size they would grow as the square.
 */
import { describe, expect, it } from 'vitest'
import { sliceDue } from '../../../src/core/protocol/fold-stream'

/** What the slices copy over a stream of `total` ops arriving one at a time: each fold copies everything folded before it. */
function copies(total: number, due: (pending: number, folded: number) => boolean): { copied: number; slices: number; largest: number } {
  let folded = 0
  let pending = 0
  let copied = 0
  let slices = 0
  let largest = 0
  for (let i = 0; i < total; i++) {
    pending += 1
    if (!due(pending, folded)) continue
    copied += folded + pending
    largest = Math.max(largest, pending)
    folded += pending
    pending = 0
    slices += 1
  }
  return { copied: copied + folded + pending, slices, largest }
}

describe('foldStream slices', () => {
  it('copy work grows linearly: 10x the ops, at most 10x the copies (about 6 copies per op)', () => {
    const small = copies(500_000, sliceDue)
    const large = copies(5_000_000, sliceDue)
    expect(large.copied / 5_000_000).toBeLessThan(7)
    expect(large.copied / small.copied).toBeLessThanOrEqual(10.5)
  })

  it('a slice never holds more than about a fifth of the stream, and a short stream folds in slices of 4,096', () => {
    expect(copies(5_000_000, sliceDue).largest).toBeLessThanOrEqual(5_000_000 / 4)
    expect(copies(40_000, sliceDue).slices).toBeGreaterThanOrEqual(6)
  })

  it('fixed slices, the rule before, would grow as the square (the count is what fails)', () => {
    const fixed = (pending: number) => pending >= 4096
    expect(copies(5_000_000, fixed).copied / copies(500_000, fixed).copied).toBeGreaterThan(50)
  })
})
