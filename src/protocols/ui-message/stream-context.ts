/**
 * What the parts of the UI message stream decoder share for one stream: the
 * turn, id scoping, the step in progress, and how a problem is reported.
 */
import type { DataPart, DecodeContext, MessagePlace, Op } from '../../core/index'
import { protocolProblem } from '../../protocol-kit/index'

/**
 * Codes of the problems this decoder reports.
 *
 * @example
 * state.turns[id].problems.filter((p) => p.code === ('repaired' satisfies ProblemCode))
 */
export type ProblemCode = 'unknown_chunk' | 'missing_type' | 'missing_id' | 'invalid' | 'repaired' | 'tool_input_json' | 'too_deep' | 'invalid_usage'

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
    problem: (message, raw, code) => protocolProblem(turnId, message, raw, code),
  }
  return context
}
