/**
 * Usage on AG-UI: `RUN_FINISHED` and `RUN_ERROR` may carry `usage`, one record
 * or a list with one record per model. The turn gets the counts in weft's names
 * (summed over the models, each model's own in `byModel`) and the wire's value as `raw`.
 */
import type { TokenUsage } from '../../core/index'
import { readUsage, sumUsage, type UsageFields } from '../../protocol-kit/index'

/**
 * Where an AG-UI usage record keeps each count.
 *
 * @example
 * readUsage({ model: 'a', inputTokens: 10 }, AG_UI_USAGE_FIELDS).usage?.model // 'a'
 */
export const AG_UI_USAGE_FIELDS: UsageFields = {
  inputTokens: 'inputTokens', outputTokens: 'outputTokens', totalTokens: 'totalTokens',
  reasoningTokens: 'reasoningTokens', cachedInputTokens: 'cachedInputTokens', model: 'model',
}

/**
 * An event's `usage` in weft's names, and what was wrong with it; undefined when
 * the event has none.
 *
 * @example
 * agUiUsage([{ model: 'a', inputTokens: 10 }, { model: 'b', inputTokens: 5 }])?.usage?.inputTokens // 15
 */
export function agUiUsage(raw: unknown): { usage?: TokenUsage; problems: string[] } | undefined {
  if (raw === undefined || raw === null) return undefined
  if (!Array.isArray(raw)) return readUsage(raw, AG_UI_USAGE_FIELDS)
  if (raw.length === 0) return undefined
  const problems: string[] = []
  const entries: TokenUsage[] = []
  raw.forEach((entry, i) => {
    const read = readUsage(entry, AG_UI_USAGE_FIELDS)
    for (const problem of read.problems) problems.push(`usage[${i}]: ${problem}`)
    if (read.usage) entries.push(read.usage)
  })
  if (entries.length === 0) return { problems }
  const usage = sumUsage(entries)
  usage.raw = raw
  return { usage, problems }
}
