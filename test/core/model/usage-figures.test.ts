/**
 * The figures a turn footer shows: counts as reported, times from the client's
 * stamps, cost only from a price the host gave, and nothing guessed from a
 * value that is not what it should be.
 */
import { describe, expect, it } from 'vitest'
import { usageFigures, type PriceTable } from '../../../src/core/model/usage-figures'

const prices: PriceTable = { 'gpt-4o': { input: 2.5, output: 10, cachedInput: 1.25 }, mini: { input: 0.15, output: 0.6 } }

describe('usageFigures', () => {
  it('is empty for a turn with neither usage nor timing', () => {
    expect(usageFigures({})).toEqual({})
    expect(usageFigures({ usage: { raw: { anything: 1 } } }, { prices })).toEqual({})
  })

  it('prices a turn by its model, cached input at its own price, per million tokens', () => {
    const usage = { inputTokens: 1_000_000, cachedInputTokens: 400_000, outputTokens: 100_000, model: 'gpt-4o' }
    expect(usageFigures({ usage }, { prices }).cost).toBeCloseTo(0.6 * 2.5 + 0.4 * 1.25 + 0.1 * 10)
  })

  it('never guesses a price: no table, an unknown model, a missing count or a bad price give no cost', () => {
    const usage = { inputTokens: 1000, outputTokens: 500, model: 'gpt-4o' }
    expect(usageFigures({ usage }).cost).toBeUndefined()
    expect(usageFigures({ usage: { ...usage, model: 'other' } }, { prices }).cost).toBeUndefined()
    expect(usageFigures({ usage: { inputTokens: 1000, model: 'gpt-4o' } }, { prices }).cost).toBeUndefined()
    expect(usageFigures({ usage: { ...usage, model: 'constructor' } }, { prices }).cost).toBeUndefined()
    expect(usageFigures({ usage: { ...usage, model: 'x' } }, { prices: { x: { input: Number.NaN, output: 1 } } }).cost).toBeUndefined()
    // Without a model from the protocol, the host's says which price applies.
    expect(usageFigures({ usage: { inputTokens: 1000, outputTokens: 500 } }, { prices, model: 'mini' }).cost).toBeCloseTo((1000 * 0.15 + 500 * 0.6) / 1e6)
  })

  it('prices each model of a per-model usage, or none when one of them has no price', () => {
    const byModel = [{ model: 'gpt-4o', inputTokens: 1000, outputTokens: 100 }, { model: 'mini', inputTokens: 2000, outputTokens: 200 }]
    const usage = { inputTokens: 3000, outputTokens: 300, byModel }
    expect(usageFigures({ usage }, { prices }).cost).toBeCloseTo((1000 * 2.5 + 100 * 10 + 2000 * 0.15 + 200 * 0.6) / 1e6)
    expect(usageFigures({ usage: { ...usage, byModel: [...byModel, { model: 'other', inputTokens: 1, outputTokens: 1 }] } }, { prices }).cost).toBeUndefined()
  })

  it('times: to the first token of the first run, the runs added up, tokens per second of streaming', () => {
    const timing = { runs: [{ startedAt: 0, firstTokenAt: 250, endedAt: 1250 }, { startedAt: 60_000, firstTokenAt: 60_100, endedAt: 61_100 }] }
    expect(usageFigures({ timing, usage: { outputTokens: 400 } })).toEqual({ outputTokens: 400, firstTokenMs: 250, totalMs: 2350, tokensPerSecond: 200 })
  })

  it('leaves out what a run without an end, a clock that went back or a stamp that is not a number cannot tell', () => {
    expect(usageFigures({ timing: { runs: [{ startedAt: 100, firstTokenAt: 300 }] }, usage: { outputTokens: 10 } })).toEqual({ outputTokens: 10, firstTokenMs: 200 })
    expect(usageFigures({ timing: { runs: [{ startedAt: 100, firstTokenAt: 50, endedAt: 400 }] } })).toEqual({ totalMs: 300 })
    expect(usageFigures({ timing: { runs: 'x' } as never, usage: { inputTokens: '3' as never, outputTokens: -1 } })).toEqual({})
    // No output tokens known: no speed, however long it streamed.
    expect(usageFigures({ timing: { runs: [{ startedAt: 0, firstTokenAt: 10, endedAt: 20 }] } }).tokensPerSecond).toBeUndefined()
  })
})
