/**
 * The figures a turn's footer shows, worked out from what the turn holds: its
 * token counts, the times its runs were stamped with, and a cost only from a
 * price the host gave. Everything is read defensively: a saved or streamed turn
 * may hold anything, and a figure that cannot be known is absent.
 */
import { own } from '../util/record'
import type { Turn } from './model'
import type { RunTiming, TokenUsage } from './usage'

/**
 * A model's price, per million tokens, in the table's currency. `cachedInput`
 * prices input tokens read from the cache (default: `input`).
 *
 * @example
 * const price: ModelPrice = { input: 2.5, output: 10, cachedInput: 1.25 }
 */
export type ModelPrice = { input: number; output: number; cachedInput?: number }

/**
 * Prices by model name, as the protocol names the model (`usage.model`).
 *
 * @example
 * const prices: PriceTable = { 'gpt-4o': { input: 2.5, output: 10 } }
 */
export type PriceTable = Readonly<Record<string, ModelPrice>>

/**
 * How to price a turn: the table, and the model of a turn whose protocol names
 * none (the host knows which model its server calls).
 *
 * @example
 * const pricing: Pricing = { prices: { 'gpt-4o': { input: 2.5, output: 10 } }, model: 'gpt-4o' }
 */
export type Pricing = { prices?: PriceTable; model?: string }

/**
 * What can be said about a turn's cost in tokens and time. A figure is absent
 * when what it needs is not known.
 *
 * @example
 * const figures: UsageFigures = { inputTokens: 12, outputTokens: 24, firstTokenMs: 400, totalMs: 2000, tokensPerSecond: 15 }
 */
export type UsageFigures = {
  inputTokens?: number
  outputTokens?: number
  reasoningTokens?: number
  cachedInputTokens?: number
  totalTokens?: number
  /** From sending the request to the first part of the answer (the turn's first run). */
  firstTokenMs?: number
  /** The time the turn's runs took, added up (a wait for a person between runs is not counted). */
  totalMs?: number
  /** Output tokens per second of streaming (from each run's first token to its end). */
  tokensPerSecond?: number
  /** In the price table's currency; only when every token is priced. */
  cost?: number
}

/**
 * The figures of a turn: token counts as reported, time to first token, total
 * time and tokens per second from the client's stamps, and the cost when the
 * host priced the model. An empty object when nothing is known.
 *
 * @example
 * usageFigures({ usage: { inputTokens: 1000, outputTokens: 500, model: 'm' }, timing: { runs: [{ startedAt: 0, firstTokenAt: 500, endedAt: 1500 }] } }, { prices: { m: { input: 2, output: 8 } } })
 * // { inputTokens: 1000, outputTokens: 500, firstTokenMs: 500, totalMs: 1500, tokensPerSecond: 500, cost: 0.006 }
 */
export function usageFigures(turn: Pick<Turn, 'usage' | 'timing'>, pricing: Pricing = {}): UsageFigures {
  const figures: UsageFigures = {}
  const usage = turn.usage
  for (const key of ['inputTokens', 'outputTokens', 'reasoningTokens', 'cachedInputTokens', 'totalTokens'] as const) {
    const value = count(usage?.[key])
    if (value !== undefined) figures[key] = value
  }
  Object.assign(figures, timingFigures(turn.timing?.runs))
  const streamingMs = streaming(turn.timing?.runs)
  if (figures.outputTokens !== undefined && streamingMs !== undefined && streamingMs > 0) {
    figures.tokensPerSecond = figures.outputTokens / (streamingMs / 1000)
  }
  const cost = usage ? costOf(usage, pricing) : undefined
  if (cost !== undefined) figures.cost = cost
  return figures
}

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined
}

/** Each run's stamps, or undefined when the list is not one. */
function runsOf(runs: unknown): RunTiming[] | undefined {
  if (!Array.isArray(runs) || runs.length === 0) return undefined
  return runs.filter((run): run is RunTiming => typeof run === 'object' && run !== null && count((run as RunTiming).startedAt) !== undefined)
}

function span(from: unknown, to: unknown): number | undefined {
  const a = count(from)
  const b = count(to)
  return a !== undefined && b !== undefined && b >= a ? b - a : undefined
}

function timingFigures(raw: unknown): Pick<UsageFigures, 'firstTokenMs' | 'totalMs'> {
  const runs = runsOf(raw)
  if (!runs || runs.length === 0) return {}
  const out: Pick<UsageFigures, 'firstTokenMs' | 'totalMs'> = {}
  const first = span(runs[0]!.startedAt, runs[0]!.firstTokenAt)
  if (first !== undefined) out.firstTokenMs = first
  let total = 0
  for (const run of runs) {
    const took = span(run.startedAt, run.endedAt)
    if (took === undefined) return out
    total += took
  }
  out.totalMs = total
  return out
}

/** Time spent streaming, over every run; unknown when a run has no end. A run that never streamed adds nothing. */
function streaming(raw: unknown): number | undefined {
  const runs = runsOf(raw)
  if (!runs || runs.length === 0) return undefined
  let total = 0
  for (const run of runs) {
    if (span(run.startedAt, run.endedAt) === undefined) return undefined
    if (run.firstTokenAt === undefined) continue
    const took = span(run.firstTokenAt, run.endedAt)
    if (took === undefined) return undefined
    total += took
  }
  return total
}

function priceOf(prices: PriceTable | undefined, model: unknown): ModelPrice | undefined {
  if (!prices || typeof model !== 'string') return undefined
  const price = own(prices as Record<string, ModelPrice>, model)
  if (!price || count(price.input) === undefined || count(price.output) === undefined) return undefined
  if (price.cachedInput !== undefined && count(price.cachedInput) === undefined) return undefined
  return price
}

/** Cost of one model's tokens, or undefined unless both counts and the price are known. */
function priced(usage: TokenUsage, price: ModelPrice | undefined): number | undefined {
  const input = count(usage.inputTokens)
  const output = count(usage.outputTokens)
  if (!price || input === undefined || output === undefined) return undefined
  const cached = Math.min(count(usage.cachedInputTokens) ?? 0, input)
  return ((input - cached) * price.input + cached * (price.cachedInput ?? price.input) + output * price.output) / 1_000_000
}

/** Per model when the protocol reported per model (every entry priced), else the turn's model or the host's. */
function costOf(usage: TokenUsage, { prices, model }: Pricing): number | undefined {
  if (!prices) return undefined
  if (Array.isArray(usage.byModel) && usage.byModel.length > 0) {
    let total = 0
    for (const entry of usage.byModel) {
      if (typeof entry !== 'object' || entry === null) return undefined
      const cost = priced(entry, priceOf(prices, entry.model ?? model))
      if (cost === undefined) return undefined
      total += cost
    }
    return total
  }
  return priced(usage, priceOf(prices, usage.model ?? model))
}
