/**
 * Reading a protocol's usage record into weft's token names, for the decoders:
 * each names where its wire keeps each count, and gets the counts, the record
 * as it came (`raw`) and what was wrong with it, never an exception.
 */
import type { TokenUsage } from '../model/usage'
import { isRecord, own } from '../util/record'

/**
 * The token counts `TokenUsage` names.
 *
 * @example
 * const count: UsageCountName = 'outputTokens'
 */
export type UsageCountName = 'inputTokens' | 'outputTokens' | 'totalTokens' | 'reasoningTokens' | 'cachedInputTokens'

/**
 * Where a wire's usage record keeps each count (and the model's name): a dotted
 * path into the record, or several, the first present one winning.
 *
 * @example
 * const openAi: UsageFields = { inputTokens: 'prompt_tokens', outputTokens: 'completion_tokens', reasoningTokens: 'completion_tokens_details.reasoning_tokens' }
 */
export type UsageFields = Partial<Record<UsageCountName | 'model', string | readonly string[]>>

/**
 * What `readUsage` made of a record: the usage (absent when the value was not a
 * record) and a sentence per thing wrong with it, for the decoder's problems.
 *
 * @example
 * const { usage, problems } = readUsage(event.usage, { inputTokens: 'input' })
 */
export type ReadUsage = { usage?: TokenUsage; problems: string[] }

const COUNTS: readonly UsageCountName[] = ['inputTokens', 'outputTokens', 'totalTokens', 'reasoningTokens', 'cachedInputTokens']

/**
 * A wire usage record in weft's names, with the record kept as `raw`. A count
 * that is present but not a whole number of tokens (negative, fractional, a
 * string) is left out and named in `problems`; so is a value that is not a
 * record at all. Paths are read through own properties only.
 *
 * @example
 * readUsage({ prompt_tokens: 12, completion_tokens: 24 }, { inputTokens: 'prompt_tokens', outputTokens: 'completion_tokens' })
 * // { usage: { inputTokens: 12, outputTokens: 24, raw: { prompt_tokens: 12, completion_tokens: 24 } }, problems: [] }
 */
export function readUsage(raw: unknown, fields: UsageFields): ReadUsage {
  if (!isRecord(raw)) return { problems: ['usage is not an object'] }
  const usage: TokenUsage = {}
  const problems: string[] = []
  for (const name of COUNTS) {
    const found = firstPresent(raw, fields[name])
    if (!found) continue
    const [path, value] = found
    if (typeof value === 'number' && Number.isInteger(value) && value >= 0) usage[name] = value
    else problems.push(`usage "${path}" is not a token count`)
  }
  const model = firstPresent(raw, fields.model)
  if (model && typeof model[1] === 'string' && model[1] !== '') usage.model = model[1]
  else if (model) problems.push(`usage "${model[0]}" is not a model name`)
  usage.raw = raw
  return { usage, problems }
}

/**
 * The sum of several usages' counts (a count absent from all stays absent), with
 * the entries as `byModel` and their records, in order, as `raw`.
 *
 * @example
 * sumUsage([{ inputTokens: 1, model: 'a' }, { inputTokens: 2, model: 'b' }])
 * // { inputTokens: 3, byModel: [{ inputTokens: 1, model: 'a' }, { inputTokens: 2, model: 'b' }], raw: [undefined, undefined] }
 */
export function sumUsage(entries: readonly TokenUsage[]): TokenUsage {
  const total: TokenUsage = {}
  for (const name of COUNTS) {
    for (const entry of entries) {
      const value = entry[name]
      if (typeof value === 'number') total[name] = (total[name] ?? 0) + value
    }
  }
  // The records stay once, in `raw`, in the order they came.
  total.byModel = entries.map(({ raw: _raw, ...entry }) => entry)
  total.raw = entries.map((entry) => entry.raw)
  return total
}

function firstPresent(record: Record<string, unknown>, paths: string | readonly string[] | undefined): [string, unknown] | undefined {
  if (paths === undefined) return undefined
  for (const path of typeof paths === 'string' ? [paths] : paths) {
    const value = at(record, path)
    if (value !== undefined && value !== null) return [path, value]
  }
  return undefined
}

function at(record: Record<string, unknown>, path: string): unknown {
  let value: unknown = record
  for (const key of path.split('.')) {
    if (!isRecord(value)) return undefined
    value = own(value, key)
  }
  return value
}
