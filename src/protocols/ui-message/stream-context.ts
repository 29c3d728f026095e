/**
 * What the parts of the UI message stream decoder share for one stream: the
 * turn, id scoping, the step in progress, and how a problem is reported.
 */
import { quote, weftError } from '../../core/errors'
import { isRecord, isSafeKey } from '../../core/util/record'
import type { MessagePlace, Op } from '../../core/ops'
import type { DataPart, DecodeContext } from '../../core/protocol/types'

/**
 * Codes of the problems this decoder reports.
 *
 * @example
 * state.turns[id].problems.filter((p) => p.code === ('repaired' satisfies ProblemCode))
 */
export type ProblemCode = 'unknown_chunk' | 'missing_type' | 'missing_id' | 'invalid' | 'repaired' | 'tool_input_json'

/**
 * The step in progress: a block and the timeline row of the same id.
 *
 * @example
 * const step: StepInfo = { index: 1, blockId: 'turn-1/step:1' }
 */
export interface StepInfo {
  index: number
  blockId: string
}

/**
 * Shared per-stream state and helpers.
 *
 * @example
 * const stream = createStreamContext({ turnId: 't1', scope: 's1' })
 * stream.scoped('text', 'a') // 's1/text:a'
 */
export interface StreamContext {
  readonly turnId: string
  readonly onData: ((part: DataPart) => void) | undefined
  /** A tool call an earlier stream of this turn made. */
  readonly priorToolCall: DecodeContext['priorToolCall']
  /** The step in progress, if any. */
  step: StepInfo | undefined
  /** A stream-scoped id for a wire id, so two answers never share an id. */
  scoped(kind: string, wireId: string): string
  /** A fresh stream-scoped id for something the wire gives no id. */
  fresh(kind: string): string
  /** Where a new message goes: this turn, the step in progress. */
  place(messageId: string, type: string): MessagePlace & { type: string }
  problem(message: string, raw: unknown, code: ProblemCode): Op
}

/**
 * Make the shared state for one stream.
 *
 * @example
 * const stream = createStreamContext({ turnId: 't1', scope: 't1' })
 */
export function createStreamContext(options: { turnId: string; scope: string; onData?: (part: DataPart) => void; priorToolCall?: DecodeContext['priorToolCall'] }): StreamContext {
  const { turnId, scope } = options
  let counter = 0
  const context: StreamContext = {
    turnId,
    onData: options.onData,
    priorToolCall: options.priorToolCall,
    step: undefined,
    scoped: (kind, wireId) => `${scope}/${kind}:${wireId}`,
    fresh: (kind) => `${scope}/${kind}#${++counter}`,
    place: (messageId, type) => ({ turnId, messageId, type, role: 'assistant', blockId: context.step?.blockId }),
    problem: (message, raw, code) => ({
      op: 'problem', turnId,
      error: weftError('protocol', message, { code, detail: raw === undefined ? undefined : quote(safeJson(raw)) }),
    }),
  }
  return context
}

/**
 * A non-empty string id from the wire (numbers are accepted and stringified).
 *
 * @example
 * idOf('a') // 'a'
 * idOf(3)   // '3'
 * idOf('')  // undefined
 */
export function idOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value === '' ? undefined : value
  if (typeof value === 'number' && Number.isFinite(value)) return String(value)
  return undefined
}

/**
 * A string field, or `undefined`.
 *
 * @example
 * textOf({ a: 'x' }.a) // 'x'
 */
export function textOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined
}

/**
 * An object field, or `undefined`.
 *
 * @example
 * recordOf({ a: 1 }) // { a: 1 }
 * recordOf([1])      // undefined
 */
export function recordOf(value: unknown): Record<string, unknown> | undefined {
  return isRecord(value) ? value : undefined
}

/**
 * A copy without the `undefined` fields, so a shallow `set` never blanks a field.
 *
 * @example
 * defined({ a: 1, b: undefined }) // { a: 1 }
 */
export function defined(fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) out[key] = value
  return out
}

/**
 * The fields of a chunk that weft does not read, so they can be kept on the
 * message as `props.extra` instead of dropped (a server's own additions, or fields
 * of a newer protocol version). `undefined` when there are none.
 *
 * @example
 * extrasOf({ type: 'text-end', id: 'a', cost: 3 }, new Set(['type', 'id'])) // { cost: 3 }
 */
export function extrasOf(chunk: Record<string, unknown>, read: ReadonlySet<string>): Record<string, unknown> | undefined {
  let out: Record<string, unknown> | undefined
  for (const key of Object.keys(chunk)) {
    if (read.has(key) || !isSafeKey(key) || chunk[key] === undefined) continue
    ;(out ??= {})[key] = chunk[key]
  }
  return out
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value)
  } catch {
    return String(value)
  }
}
