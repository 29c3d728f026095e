/**
 * The run driver: holds the client's one active run and drives it through the
 * state machine in `run-state.ts` — connect, read, and while the stream is lost
 * reconnect with backoff until it ends, gives up (parks) or is stopped.
 */
import { toWeftError } from '../model/errors'
import { connect } from './connection'
import { tapEnd } from './inspector-tap'
import { currentHandle, resumeRequest } from './resume-persister'
import type { RequestPlan } from './request-plan'
import { complete, expire, fail, nothingLeft, park } from './run-end'
import type { ActiveRun, Outcome } from './run'
import { isSettled, transition } from './run-state'

/**
 * Which run the client is driving, and the loop that drives it.
 *
 * @example
 * const driver = new RunDriver()
 * await driver.start(run, request) // resolves when the run has ended
 * driver.busy // false
 */
export class RunDriver {
  /** The latest run (it may have ended: a parked run is picked up again by `retry()`). */
  active: ActiveRun | undefined

  /** True while a request is open or a reconnect is scheduled. */
  get busy(): boolean {
    return this.active !== undefined && !isSettled(this.active.phase)
  }

  /** Make `run` the active run and drive it to its end; without `request` it reconnects from its handle. */
  start(run: ActiveRun, request?: RequestPlan): Promise<void> {
    this.active = run
    const driven = drive(run, request)
    return (run.done = run.options.inspector ? driven.then(() => tapEnd(run)) : driven)
  }
}

/** Connect, read, and reconnect while the stream is lost, until it ends one way or another. */
async function drive(run: ActiveRun, initial?: RequestPlan): Promise<void> {
  let request = initial
  for (;;) {
    // A stop or a detach settles the run before it aborts the signal: the phase is the one check.
    if (isSettled(run.phase)) return
    if (run.phase !== 'connecting') transition(run, 'connecting')
    const resuming = request === undefined
    let outcome: Outcome
    try {
      outcome = await connect(run, request ?? resumeRequest(run), resuming)
    } catch (thrown) {
      outcome = { kind: 'failed', error: toWeftError(thrown, 'unknown') }
    }
    request = undefined
    if (isSettled(run.phase)) return
    if (outcome.kind !== 'lost') {
      await settle(run, outcome, resuming)
      return
    }
    if (!(await reconnectAfter(run, outcome))) return
  }
}

/** An outcome that ends the run. */
async function settle(run: ActiveRun, outcome: Exclude<Outcome, { kind: 'lost' }>, resuming: boolean): Promise<void> {
  switch (outcome.kind) {
    case 'aborted':
      return
    case 'finished':
      return complete(run, outcome.reason)
    case 'nothing':
      return nothingLeft(run)
    case 'expired':
      return expire(run, outcome.error)
    case 'failed':
      if (resuming) park(run, outcome.error)
      else fail(run, outcome.error)
  }
}

/**
 * A lost connection: wait the backoff and say whether to connect again. A run
 * with no handle fails; one over its reconnect budget parks.
 */
async function reconnectAfter(run: ActiveRun, lost: Extract<Outcome, { kind: 'lost' }>): Promise<boolean> {
  const resume = run.resume
  // The handle is read from the store: what was read must be in it, though its frame has not come yet.
  run.batcher.flush()
  if (!resume || !currentHandle(run)) {
    fail(run, lost.error)
    return false
  }
  run.failures = lost.progressed ? 1 : run.failures + 1
  if (run.failures > resume.maxRetries) {
    park(run, resume.exhausted(lost.error))
    return false
  }
  transition(run, 'reconnecting')
  run.batcher.push([{ op: 'stream.status', status: 'reconnecting' }])
  run.batcher.flush()
  const floor = Math.max(run.retryMs ?? 0, lost.error.retryAfterMs ?? 0)
  // A run stopped while it slept has settled: the loop's first check ends it.
  return resume.sleep(resume.delay(run.failures, floor), run.controller.signal)
}
