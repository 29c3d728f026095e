/**
 * Every way a run ends: finished (the turn's own status decides done, aborted
 * or error), nothing left to read, expired (history or an interrupted answer),
 * parked, failed, or stopped. Each flushes what arrived first, settles the
 * handle, and moves the run through the state machine once.
 */
import { toWeftError, weftError, type WeftError } from '../model/errors'
import type { HydratedTurn, Op } from '../model/ops'
import type { HistoryResult } from '../resume/types'
import { own } from '../util/record'
import { RESUME_EXPIRED } from './options'
import { forget, historyLoader, persist } from './resume-persister'
import { dispatchNow, type ActiveRun } from './run'
import { isSettled, transition } from './run-state'

/**
 * The stream ended: its last ops go with the next scheduled batch, and the run
 * settles right after that batch is folded, in the same task, so the end of an
 * answer is drawn in the frame's one commit rather than a second one.
 */
export function complete(run: ActiveRun, reason: 'done' | 'eof'): Promise<void> {
  if (!run.opened) {
    settleQuietly(run)
    return Promise.resolve()
  }
  if (run.memory.reader) run.batcher.push(run.memory.reader.end(reason))
  else run.batcher.push([{ op: 'turn.finish', turnId: run.turnId, status: 'done' }])
  run.finishing = true
  return new Promise((resolve) => {
    run.batcher.afterFlush(() => {
      try {
        if (!isSettled(run.phase)) settleFinished(run)
      } finally {
        resolve()
      }
    })
  })
}

/** After the end's batch is folded: the turn's own status says how the run ends. */
function settleFinished(run: ActiveRun): void {
  const turn = own(run.store.getState().turns, run.turnId)
  if (turn?.status === 'error') {
    // The turn already carries the agent's error; only the stream shows it.
    endInError(run, turn.error ?? weftError('unknown', 'the agent reported an error'), { handle: 'forget', closeTurn: false })
    return
  }
  forget(run)
  if (turn?.status === 'aborted') {
    transition(run, 'aborted')
    dispatchNow(run, [{ op: 'stream.status', status: 'aborted' }])
  } else {
    transition(run, 'done')
    dispatchNow(run, [{ op: 'stream.status', status: 'done' }])
    run.options.onFinish?.(run.turnId)
  }
}

/** A re-attach found nothing: no turn was opened, so nothing shows. */
function settleQuietly(run: ActiveRun): void {
  run.batcher.flush()
  transition(run, 'done')
  forget(run)
  dispatchNow(run, [{ op: 'stream.status', status: 'idle' }])
}

/** The server has nothing more (204, or an empty replay). */
export async function nothingLeft(run: ActiveRun): Promise<void> {
  if (!run.opened) {
    settleQuietly(run)
    return
  }
  // The server finished while nobody listened: history has the end of the turn.
  if (historyLoader(run) && !run.memory.reader?.ended) await fromHistory(run, 'ended', weftError('network', 'the stream finished while disconnected'))
  else await complete(run, 'eof')
}

/**
 * The server has no stream to resume: rebuild the conversation from history, or
 * keep what arrived as an interrupted answer. Only a stream this page cannot
 * replay at all (no server answered) is an error.
 */
export async function expire(run: ActiveRun, cause: WeftError): Promise<void> {
  const error: WeftError = { ...cause, code: RESUME_EXPIRED, retryable: false }
  if (historyLoader(run)) {
    await fromHistory(run, 'expired', error)
    return
  }
  if (cause.status !== undefined) interrupt(run, error)
  else endInError(run, error, { handle: 'forget', closeTurn: true })
}

/**
 * Nothing to resume: the turn keeps every token it received and ends `aborted`
 * with the reason as a problem, so it reads as an interrupted answer to retry,
 * not as a failure. The handle goes: there is nothing left to reconnect to.
 */
function interrupt(run: ActiveRun, reason: WeftError): void {
  run.batcher.flush()
  transition(run, 'aborted')
  forget(run)
  const ops: Op[] = [{ op: 'stream.status', status: 'aborted' }]
  if (run.opened) {
    ops.unshift(...(run.memory.reader?.release() ?? []), { op: 'problem', turnId: run.turnId, error: reason }, { op: 'turn.finish', turnId: run.turnId, status: 'aborted' })
  }
  dispatchNow(run, ops)
}

async function fromHistory(run: ActiveRun, reason: 'expired' | 'ended', error: WeftError): Promise<void> {
  const resume = run.resume
  const loader = historyLoader(run)
  if (!resume || !loader) return
  run.batcher.flush()
  const handle = run.handle
  forget(run)
  let result: HistoryResult
  try {
    result = await loader({ conversationKey: resume.key, handle, reason, signal: run.controller.signal })
  } catch (thrown) {
    if (isSettled(run.phase)) return
    endInError(run, toWeftError(thrown, 'unknown'), { handle: 'leave', closeTurn: true })
    return
  }
  if (isSettled(run.phase)) return
  if (!result || result.length === 0) {
    keepWhatArrived(run, error)
    return
  }
  // History is the whole conversation: it replaces what the store held.
  transition(run, 'done')
  run.store.getState().reset()
  const ops: Op[] = isOpList(result) ? [...result] : [{ op: 'hydrate', turns: [...result], at: 'end' }]
  ops.push({ op: 'stream.status', status: 'done' })
  dispatchNow(run, ops)
}

/** History had nothing to add: keep what arrived and close the turn. */
function keepWhatArrived(run: ActiveRun, error: WeftError): void {
  if (!run.opened) {
    endInError(run, error, { handle: 'leave', closeTurn: false })
    return
  }
  const reader = run.memory.reader
  const closing = reader?.end('eof') ?? []
  // What arrived stopped short of the protocol's end, and history has no more: the answer stays cut off.
  if (reader?.truncated) {
    transition(run, 'aborted')
    dispatchNow(run, [...closing, { op: 'stream.status', status: 'aborted' }])
    return
  }
  transition(run, 'done')
  dispatchNow(run, [...closing, { op: 'turn.finish', turnId: run.turnId, status: 'done' }, { op: 'stream.status', status: 'done' }])
}

/** Stop reconnecting but keep the turn and its handle: `retry()` goes on from here. */
export function park(run: ActiveRun, error: WeftError): void {
  endInError(run, error, { handle: 'keep', closeTurn: false })
}

/** The request failed: the turn and the stream show why, and the caller learns it from `run.failure`. */
export function fail(run: ActiveRun, error: WeftError): void {
  run.failure = error
  endInError(run, error, { handle: 'leave', closeTurn: true })
}

/**
 * Stopped by the person: what arrived stays, the turn ends `aborted` and the
 * handle goes. A run whose stream had already ended is left to finish: its
 * answer is complete, not stopped. False when there was nothing to stop.
 */
export function abort(run: ActiveRun): boolean {
  if (run.finishing && !isSettled(run.phase)) {
    run.batcher.flush()
    return true
  }
  if (isSettled(run.phase) && run.phase !== 'parked') return false
  transition(run, 'aborted')
  run.batcher.flush()
  forget(run)
  const ops: Op[] = [{ op: 'stream.status', status: 'aborted' }]
  if (run.opened) ops.unshift({ op: 'turn.finish', turnId: run.turnId, status: 'aborted' })
  dispatchNow(run, ops)
  run.controller.abort()
  cancelAtSource(run)
  return true
}

/**
 * Let go of a resumable run without stopping it: what arrived is flushed, the
 * handle is written, and the connection closes; `attach()` picks it up later.
 */
export function detach(run: ActiveRun): void {
  if (isSettled(run.phase)) return
  run.batcher.flush()
  // A stream that had ended settles in that flush: nothing is left to detach.
  if (isSettled(run.phase)) return
  persist(run)
  transition(run, 'parked')
  run.controller.abort()
}

/**
 * The one way a run ends in error: what arrived is flushed, the handle is
 * kept (the run parks, `retry()` goes on), forgotten or left alone, the stream
 * (and, when asked, the turn) shows the error, and the host hears of it.
 */
export function endInError(run: ActiveRun, error: WeftError, how: { handle: 'keep' | 'forget' | 'leave'; closeTurn: boolean }): void {
  run.endError = error
  run.batcher.flush()
  if (how.handle === 'keep') persist(run)
  transition(run, how.handle === 'keep' ? 'parked' : 'error')
  if (how.handle === 'forget') forget(run)
  const ops: Op[] = [{ op: 'stream.status', status: 'error', error }]
  if (how.closeTurn && run.opened) {
    ops.unshift({ op: 'turn.finish', turnId: run.turnId, status: 'error', error })
    // The turn ends here for good: what the decoder held back for the next event is shown too.
    if (run.memory.reader) ops.unshift(...run.memory.reader.release())
  }
  dispatchNow(run, ops)
  run.options.onError?.(error)
}

function isOpList(result: readonly HydratedTurn[] | readonly Op[]): result is readonly Op[] {
  const first = result[0] as { op?: unknown } | undefined
  return typeof first?.op === 'string'
}

/** A stopped run stops on the server too, when the host's source can say so. */
function cancelAtSource(run: ActiveRun): void {
  const cancel = run.options.source?.cancel
  if (!cancel) return
  const runId = own(run.store.getState().turns, run.turnId)?.runId ?? run.requestRunId
  const fetchImpl = run.options.fetch ?? globalThis.fetch.bind(globalThis)
  void Promise.resolve()
    .then(() => cancel.call(run.options.source, { turnId: run.turnId, ...(runId ? { runId } : {}), fetch: fetchImpl }))
    .catch(() => undefined)
}
