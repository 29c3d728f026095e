/**
 * A run's resume handle: computed from what the store shows, written to the
 * binding's storage when it changes, and forgotten when the turn is over. Also
 * the request and the replay filter a reconnect uses, both read from that handle.
 */
import { weftError, WeftStreamError } from '../model/errors'
import { protocolName } from '../protocol/resolve'
import type { ReplayFilter, ResumeHandle } from '../resume/types'
import type { RequestPlan } from './request-plan'
import type { ActiveRun } from './run'

/** The handle for the turn as it stands (or the stored one, while nothing was folded here). */
export function currentHandle(run: ActiveRun): ResumeHandle | undefined {
  const resume = run.resume
  if (!resume) return undefined
  run.handle = resume.handle({
    turnId: run.turnId,
    cursor: run.store.getState().cursor,
    ledger: run.memory.ledger,
    protocol: run.memory.reader?.protocol ?? protocolName(run.options.protocol) ?? run.handle?.protocol,
    streamUrl: run.streamUrl,
    previous: run.handle,
    scope: run.scope,
  })
  return run.handle
}

/** Write the handle when it changed since the last write. */
export function persist(run: ActiveRun): void {
  const resume = run.resume
  if (!resume || !run.keepHandle) return
  const handle = currentHandle(run)
  if (!handle) return
  const text = JSON.stringify(handle)
  if (text !== run.savedText && resume.write(handle)) run.savedText = text
}

/** The turn is over, or was stopped: its handle and ledger go. */
export function forget(run: ActiveRun): void {
  const resume = run.resume
  if (!resume) return
  run.keepHandle = false
  resume.forget(run.store, run.turnId)
}

/** The request that picks the stream up again from the handle. */
export function resumeRequest(run: ActiveRun): RequestPlan {
  const resume = run.resume
  const handle = currentHandle(run)
  if (!resume || !handle) throw new WeftStreamError(weftError('validation', 'there is no stream to resume', { retryable: false }))
  const fromStart = run.fromStart && run.memory.ledger.count === 0
  run.requested = { handle, fromStart }
  return resume.request(handle, fromStart, run.options)
}

/** What aligns a reconnect's replay with what the store already holds. */
export function replayFilter(run: ActiveRun): ReplayFilter | undefined {
  const resume = run.resume
  const requested = run.requested
  if (!resume || !requested) return undefined
  return resume.filter(run.memory.ledger, requested, (error) => run.batcher.push([{ op: 'problem', turnId: run.turnId, error }]))
}

/** How the run's conversation is read again when its stream cannot go on. */
export function historyLoader(run: ActiveRun) {
  return run.resume?.historyLoader(run.options, () => run.memory.reader?.protocol)
}
