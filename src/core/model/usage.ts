/**
 * What an answer cost in tokens and in time: the token counts a protocol
 * reports, in weft's names with the wire's record kept, and the times the live
 * client stamps on a turn's runs.
 */

/**
 * Tokens a turn used, in weft's names, as the protocol reported them. A count
 * the protocol did not give is absent (never zero). `raw` is the record as it
 * came, so nothing the wire said is lost; other keys a host's protocol adds are kept.
 *
 * @example
 * const usage: TokenUsage = { inputTokens: 12, outputTokens: 24, totalTokens: 36, raw: { prompt_tokens: 12, completion_tokens: 24, total_tokens: 36 } }
 */
export type TokenUsage = {
  inputTokens?: number
  outputTokens?: number
  totalTokens?: number
  /** Output tokens spent reasoning (counted in `outputTokens` too, as providers count them). */
  reasoningTokens?: number
  /** Input tokens read from the provider's cache (counted in `inputTokens` too). */
  cachedInputTokens?: number
  /** The model the protocol named for these tokens. */
  model?: string
  /** One entry per model, when the protocol reports usage per model (AG-UI); the counts above are their sums. */
  byModel?: TokenUsage[]
  /** The usage as the protocol sent it. */
  raw?: unknown
  [key: string]: unknown
}

/**
 * When one run of a turn started, showed its first token and ended: ms since
 * the epoch, read from the client's clock (`AgentClientOptions.clock`). A turn
 * that continues (after a gate or a client tool) has a run per request.
 *
 * @example
 * const run: RunTiming = { startedAt: 1000, firstTokenAt: 1400, endedAt: 3000 }
 */
export type RunTiming = {
  startedAt: number
  firstTokenAt?: number
  endedAt?: number
}

/**
 * The times the live client recorded for a turn. Only what the page saw is
 * recorded: a run picked up after a reload (`attach`) adds no stamps, so a
 * figure that depends on a time nobody saw is left out rather than guessed.
 *
 * @example
 * const timing: TurnTiming = { runs: [{ startedAt: 1000, firstTokenAt: 1400, endedAt: 3000 }] }
 */
export type TurnTiming = {
  runs: RunTiming[]
}

/**
 * Whether a value is a turn's timing: a list of runs, each with a start and
 * any other stamp a number (a saved conversation is checked with it on load).
 *
 * @example
 * isTurnTiming({ runs: [{ startedAt: 1000 }] }) // true
 * isTurnTiming({ runs: [{ startedAt: '1000' }] }) // false
 */
export function isTurnTiming(value: unknown): value is TurnTiming {
  if (typeof value !== 'object' || value === null || !Array.isArray((value as TurnTiming).runs)) return false
  return (value as TurnTiming).runs.every((run) => typeof run === 'object' && run !== null && stamp(run.startedAt) && optionalStamp(run.firstTokenAt) && optionalStamp(run.endedAt))
}

const stamp = (value: unknown): boolean => typeof value === 'number' && Number.isFinite(value)
const optionalStamp = (value: unknown): boolean => value === undefined || stamp(value)
