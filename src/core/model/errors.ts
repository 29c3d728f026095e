/**
 * Typed errors. Every failure the kit reports, from the network to a malformed
 * frame, is one of these plain objects, so it can sit in the store, be compared
 * in tests and be rendered without `instanceof` checks.
 */

/** The kinds of failure, as the UI message stream document names them, plus `protocol`. */
export type ErrorType =
  | 'llm'
  | 'network'
  | 'timeout'
  | 'authentication'
  | 'rate_limit'
  | 'validation'
  | 'internal'
  | 'unknown'
  | 'protocol'

/**
 * A failure as the store keeps it.
 *
 * @example
 * const e: WeftError = { type: 'rate_limit', message: 'Too many requests', retryable: true, retryAfterMs: 2000 }
 */
export interface WeftError {
  type: ErrorType
  message: string
  code?: string
  retryable: boolean
  /** HTTP status, when the failure came from a response. */
  status?: number
  /** From `Retry-After`, when the server sent one. */
  retryAfterMs?: number
  /** A short quote of the offending input (never more than a few hundred characters). */
  detail?: string
}

const ERROR_TYPES: ReadonlySet<string> = new Set<ErrorType>([
  'llm', 'network', 'timeout', 'authentication', 'rate_limit', 'validation', 'internal', 'unknown', 'protocol',
])

/** Types that are worth another attempt by default. */
const RETRYABLE: ReadonlySet<ErrorType> = new Set<ErrorType>(['network', 'timeout', 'rate_limit', 'internal'])

/**
 * Build a `WeftError`, filling `retryable` from the type unless given.
 *
 * @example
 * weftError('protocol', 'frame is not JSON', { detail: '{"type":' })
 */
export function weftError(
  type: ErrorType,
  message: string,
  extra: Partial<Omit<WeftError, 'type' | 'message'>> = {},
): WeftError {
  return { type, message, retryable: extra.retryable ?? RETRYABLE.has(type), ...stripUndefined(extra) }
}

/**
 * Read a server-sent error type (`errorType`, `code`, ...) into one of ours;
 * anything unrecognised becomes `unknown`.
 *
 * @example
 * toErrorType('rate_limit') // 'rate_limit'
 * toErrorType('weird')      // 'unknown'
 */
export function toErrorType(value: unknown): ErrorType {
  return typeof value === 'string' && ERROR_TYPES.has(value) ? (value as ErrorType) : 'unknown'
}

/**
 * The `code` of the problem a turn records when its stream ended before the
 * protocol's own end (no terminal event, no `[DONE]`): the turn keeps what
 * arrived and ends `aborted`, so a cut-off answer never reads as complete.
 *
 * @example
 * if (turn.problems.some((p) => p.code === STREAM_TRUNCATED)) offerRetry(turn.id)
 */
export const STREAM_TRUNCATED = 'truncated'

/**
 * An `Error` that carries a `WeftError`, for the few places that must throw
 * (an async iterator, a promise the host awaits).
 *
 * @example
 * try { await run() } catch (e) { if (e instanceof WeftStreamError) console.log(e.info.type) }
 */
export class WeftStreamError extends Error {
  readonly info: WeftError
  constructor(info: WeftError) {
    super(info.message)
    this.name = 'WeftStreamError'
    this.info = info
  }
}

/**
 * Turn anything thrown into a `WeftError`.
 *
 * @example
 * toWeftError(new TypeError('fetch failed')) // { type: 'unknown', ... }
 */
export function toWeftError(thrown: unknown, fallback: ErrorType = 'unknown'): WeftError {
  if (thrown instanceof WeftStreamError) return thrown.info
  const message = thrown instanceof Error ? thrown.message : String(thrown)
  return weftError(fallback, message)
}

/**
 * Quote at most `max` characters of untrusted input for an error message.
 *
 * @example
 * quote('x'.repeat(200), 5) // 'xxxxx…'
 */
export function quote(text: string, max = 120): string {
  return text.length > max ? `${text.slice(0, max)}…` : text
}

function stripUndefined<T extends object>(o: T): T {
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(o)) if (v !== undefined) out[k] = v
  return out as T
}
