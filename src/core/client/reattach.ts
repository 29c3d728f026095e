/**
 * Picking a stream up again: `attach` after a reload or a remount (from the
 * handle stored for the conversation), `retry` after a resumable run parked.
 */
import { weftError } from '../model/errors'
import type { Op } from '../model/ops'
import { resolveResume } from '../resume/load-binding'
import { own } from '../util/record'
import type { ClientContext } from './context'
import { expire } from './run-end'
import { createRun } from './run'
import { transition } from './run-state'

/**
 * Reconnect to the stream whose handle is stored for the conversation. Resolves
 * true when there was one. When this page still holds the turn's memory, only
 * what is missing is asked for; otherwise (a fresh store, or a saved copy of one)
 * the whole turn is replayed from the start (see `ResumeBinding.memoryFor`).
 */
export async function attach(ctx: ClientContext): Promise<boolean> {
  const { store, driver } = ctx
  let bound = resolveResume(ctx.options)
  if (bound instanceof Promise) bound = await bound
  const { binding, error } = bound
  if (error && !driver.busy) {
    store.getState().dispatch([{ op: 'stream.status', status: 'error', error }])
    ctx.options.onError?.(error)
  }
  if (!binding || driver.busy) return false
  const stored = binding.stored()
  if (!stored) return false
  const turn = own(store.getState().turns, stored.turnId)
  if (turn && turn.status !== 'streaming') {
    binding.clear()
    return false
  }
  const { memory, fromStart } = binding.memoryFor(store, stored, turn && store.getState().cursor)
  const run = createRun(store, ctx.tools, {
    turnId: stored.turnId, options: ctx.options, resume: binding, memory, opened: Boolean(turn), fromStart, handle: stored,
  })
  // A continuation's stream writes into the ids its run was given.
  if (stored.scope !== undefined) run.scope = stored.scope
  driver.active = run
  if (!turn && !binding.strategy.replaysFromStart) {
    // The turn cannot be rebuilt from the stream alone.
    await expire(run, weftError('validation', 'this stream cannot be replayed from its start', { retryable: false }))
    return true
  }
  const ops: Op[] = [
    { op: 'stream.status', status: 'reconnecting' },
    {
      op: 'cursor',
      cursor: { turnId: stored.turnId, protocol: stored.protocol, eventCount: Math.max(memory.ledger.count, memory.primeUntil ?? 0), streamId: undefined, lastEventId: undefined, sequence: undefined },
    },
  ]
  if (turn) ops.unshift({ op: 'turn.open', turnId: stored.turnId, role: turn.role })
  store.getState().dispatch(ops)
  await driver.start(run)
  return true
}

/**
 * Reconnect a parked resumable run from where it stopped, with a fresh
 * reconnect budget. Without one, attach to a stored handle if there is one.
 */
export async function retry(ctx: ClientContext): Promise<void> {
  const { store, driver } = ctx
  const previous = driver.active
  if (!previous || previous.phase !== 'parked' || !previous.resume) {
    if (!driver.busy) await attach(ctx)
    return
  }
  let bound = resolveResume(ctx.options)
  if (bound instanceof Promise) {
    bound = await bound
    if (driver.active !== previous) return
  }
  const run = createRun(store, ctx.tools, {
    turnId: previous.turnId, options: ctx.options, resume: bound.binding ?? previous.resume, memory: previous.memory,
    opened: previous.opened, fromStart: previous.fromStart, handle: previous.handle,
  })
  run.announced = previous.announced
  run.streamUrl = previous.streamUrl
  run.requestRunId = previous.requestRunId
  run.lastEventId = previous.lastEventId
  run.savedText = previous.savedText
  run.stamps = previous.stamps
  run.scope = previous.scope
  driver.active = run
  store.getState().dispatch([{ op: 'stream.status', status: 'reconnecting' }])
  transition(run, 'connecting')
  await driver.start(run)
}
