/**
 * The op a decoder emits for input it cannot use: a `protocol` error with a
 * code and a short quote of what arrived, so nothing is lost silently.
 */
import { quote, weftError } from '../model/errors'
import type { OpOf } from '../model/ops'
import { safeJson } from '../util/values'

/**
 * A `problem` op for one turn, quoting `raw` when given.
 *
 * @example
 * protocolProblem('t1', 'a chunk without a type', { delta: 'x' }, 'missing_type')
 * // { op: 'problem', turnId: 't1', error: { type: 'protocol', code: 'missing_type', detail: '{"delta":"x"}', ... } }
 */
export function protocolProblem(turnId: string, message: string, raw?: unknown, code?: string): OpOf<'problem'> {
  return {
    op: 'problem', turnId,
    error: weftError('protocol', message, { code, detail: raw === undefined ? undefined : quote(safeJson(raw)) }),
  }
}
