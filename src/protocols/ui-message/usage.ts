/**
 * Usage on the UI message stream. The stream has no usage chunk: an AI SDK
 * route sends it in the message's metadata, from `toUIMessageStreamResponse`'s
 * `messageMetadata` callback at `finish` (`{ totalUsage: part.totalUsage }` in the
 * AI SDK's docs, a `LanguageModelUsage`), or as loose counts (`{ totalTokens }`).
 */
import type { Op, TokenUsage } from '../../core/index'
import { readUsage, type UsageFields } from '../../protocol-kit/index'

/**
 * Where a `LanguageModelUsage` keeps each count (the deprecated flat names too).
 *
 * @example
 * readUsage({ inputTokens: 3, outputTokens: 9 }, AI_SDK_USAGE_FIELDS).usage?.outputTokens // 9
 */
export const AI_SDK_USAGE_FIELDS: UsageFields = {
  inputTokens: 'inputTokens',
  outputTokens: 'outputTokens',
  totalTokens: 'totalTokens',
  reasoningTokens: ['outputTokenDetails.reasoningTokens', 'reasoningTokens'],
  cachedInputTokens: ['inputTokenDetails.cacheReadTokens', 'cachedInputTokens'],
}

/** Metadata keys that hold a usage record, in the order they are read. */
const USAGE_KEYS = ['totalUsage', 'usage'] as const
const COUNTED = ['inputTokens', 'outputTokens', 'totalTokens', 'reasoningTokens', 'cachedInputTokens'] as const
/** Counts a route may put in the metadata itself. */
const LOOSE_KEYS = ['inputTokens', 'outputTokens', 'totalTokens'] as const

/**
 * The usage the message's metadata carries (merged so far), with a problem for
 * each thing wrong with it; nothing when the metadata names no usage. The model
 * is the metadata's `model` when it is text.
 *
 * @example
 * metadataUsage({ totalUsage: { inputTokens: 3, outputTokens: 9 }, model: 'gpt-4o' })
 * // { usage: { inputTokens: 3, outputTokens: 9, model: 'gpt-4o', raw: { inputTokens: 3, outputTokens: 9 } }, problems: [] }
 */
export function metadataUsage(metadata: Record<string, unknown>): { usage?: TokenUsage; problems: string[] } | undefined {
  const key = USAGE_KEYS.find((name) => metadata[name] !== undefined && metadata[name] !== null)
  let source: unknown
  if (key) source = metadata[key]
  else if (LOOSE_KEYS.some((name) => metadata[name] !== undefined)) source = Object.fromEntries(LOOSE_KEYS.filter((name) => metadata[name] !== undefined).map((name) => [name, metadata[name]]))
  else return undefined
  const read = readUsage(source, AI_SDK_USAGE_FIELDS)
  if (read.usage && typeof metadata.model === 'string' && metadata.model !== '') read.usage.model = metadata.model
  return read
}

/**
 * Whether a usage holds at least one count.
 *
 * @example
 * hasCount({ raw: { input: 1 } }) // false
 */
export function hasCount(usage: TokenUsage): boolean {
  return COUNTED.some((name) => usage[name] !== undefined)
}

/**
 * The ops for a change of the message's metadata: the turn's usage when a key
 * that holds it changed, and a problem for what was wrong with it.
 *
 * @example
 * usageOps({ totalUsage: { outputTokens: 9 } }, ['totalUsage'], 't1', problem)
 */
export function usageOps(metadata: Record<string, unknown>, changed: readonly string[], turnId: string, problem: (message: string, raw: unknown) => Op): Op[] {
  if (!changed.some((key) => key === 'model' || (USAGE_KEYS as readonly string[]).includes(key) || (LOOSE_KEYS as readonly string[]).includes(key))) return []
  const read = metadataUsage(metadata)
  // The metadata is the route's own: a key named `usage` that holds no counts is not weft's to judge.
  if (!read?.usage || (!hasCount(read.usage) && read.problems.length === 0)) return []
  const ops: Op[] = read.problems.map((message) => problem(message, metadata.totalUsage ?? metadata.usage ?? metadata))
  ops.push({ op: 'turn.update', turnId, usage: read.usage })
  return ops
}
