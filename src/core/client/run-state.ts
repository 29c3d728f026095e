/**
 * The life of one run of the client, as an explicit state machine:
 *
 *     idle → connecting → streaming ⇄ reconnecting → done | error | aborted
 *
 * plus `parked`: the run stopped reconnecting (it gave up, or its component let
 * go) but its handle stays, so `retry()` or `attach()` can pick the stream up
 * again. Every change goes through `transition`, which refuses a change the
 * diagram does not have.
 */

/**
 * Where a run is.
 *
 * @example
 * const phase: RunPhase = 'streaming'
 */
export type RunPhase = 'idle' | 'connecting' | 'streaming' | 'reconnecting' | 'parked' | 'done' | 'error' | 'aborted'

const NEXT: Readonly<Record<RunPhase, readonly RunPhase[]>> = {
  // The request is being built (a host `source`, uploads): it can fail or be stopped before it opens.
  idle: ['connecting', 'error', 'aborted', 'parked'],
  // A resumed connection may find nothing (done), a lost one is tried again (reconnecting).
  connecting: ['streaming', 'reconnecting', 'done', 'error', 'aborted', 'parked'],
  streaming: ['reconnecting', 'done', 'error', 'aborted', 'parked'],
  reconnecting: ['connecting', 'error', 'aborted', 'parked'],
  // Only `stop()` ends a parked run; `retry()` starts a new one from it.
  parked: ['aborted'],
  done: [],
  error: [],
  aborted: [],
}

/**
 * True when a run in `from` may move to `to`.
 *
 * @example
 * canTransition('streaming', 'reconnecting') // true
 * canTransition('done', 'streaming')         // false
 */
export function canTransition(from: RunPhase, to: RunPhase): boolean {
  return NEXT[from].includes(to)
}

/**
 * True once nothing more happens on the run by itself: no request is open and
 * none is scheduled (`parked` included: only a host call goes on from there).
 *
 * @example
 * isSettled('parked')    // true
 * isSettled('streaming') // false
 */
export function isSettled(phase: RunPhase): boolean {
  return phase === 'parked' || phase === 'done' || phase === 'error' || phase === 'aborted'
}

/** Thrown for a transition the diagram does not have: a defect in the client, never a server's doing. */
export class RunStateError extends Error {
  override name = 'RunStateError'
}

/**
 * Move `run` to `to`, or throw `RunStateError` when that move is not allowed.
 *
 * @example
 * const run = { phase: 'idle' as RunPhase }
 * transition(run, 'connecting') // run.phase === 'connecting'
 * transition(run, 'idle')       // throws RunStateError
 */
export function transition(run: { phase: RunPhase }, to: RunPhase): void {
  if (!canTransition(run.phase, to)) throw new RunStateError(`a run cannot go from ${run.phase} to ${to}`)
  run.phase = to
}
