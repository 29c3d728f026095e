/**
 * How long to wait before a reconnect.
 */
import type { BackoffOptions } from './types'

/** The defaults: start at half a second, never wait more than ten (unless the server asks). */
const DEFAULT_BASE_MS = 500
const DEFAULT_MAX_MS = 10_000

/**
 * The delay before reconnect number `attempt` (1-based): `baseMs` doubling per
 * attempt up to `maxMs`, then "equal jitter" (between half and all of it), and
 * never less than `floorMs` (a server's `retry:` or `Retry-After`).
 *
 * @example
 * backoffDelay(1, { baseMs: 100, random: () => 0.5 })    // 75
 * backoffDelay(4, { baseMs: 100, maxMs: 500, random: () => 1 }) // 500
 * backoffDelay(1, { baseMs: 1 }, 3000)                  // 3000
 */
export function backoffDelay(attempt: number, options: BackoffOptions = {}, floorMs = 0): number {
  const base = Math.max(0, options.baseMs ?? DEFAULT_BASE_MS)
  const max = Math.max(base, options.maxMs ?? DEFAULT_MAX_MS)
  const random = options.random ?? Math.random
  const ceiling = Math.min(max, base * 2 ** Math.max(0, Math.min(attempt - 1, 30)))
  const jittered = ceiling / 2 + (Math.min(Math.max(random(), 0), 1) * ceiling) / 2
  return Math.max(Math.max(0, floorMs), Math.round(jittered))
}
