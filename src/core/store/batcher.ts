/**
 * Collects ops and hands them to the store once per animation frame, so a
 * 10,000-token answer costs at most one React commit per frame.
 */
import type { Op } from '../model/ops'

/** Asks for `flush` to run later; returns a function that cancels the request. */
export type Scheduler = (flush: () => void) => () => void

/**
 * Flush right away (tests, servers, `foldStream`).
 *
 * @example
 * createBatcher(store.getState().dispatch, syncScheduler)
 */
export const syncScheduler: Scheduler = (flush) => {
  flush()
  return () => {}
}

/**
 * Flush on the next animation frame; a hidden tab, where frames stop, still
 * flushes within `fallbackMs`.
 *
 * @example
 * createBatcher(dispatch, frameScheduler())
 */
export function frameScheduler(fallbackMs = 100): Scheduler {
  return (flush) => {
    let done = false
    const run = () => {
      if (done) return
      done = true
      cancelAnimationFrame(frame)
      clearTimeout(timer)
      flush()
    }
    const frame = requestAnimationFrame(run)
    const timer = setTimeout(run, fallbackMs)
    return () => {
      done = true
      cancelAnimationFrame(frame)
      clearTimeout(timer)
    }
  }
}

/**
 * Flush once the current task's synchronous work is done. Everything a network
 * read decodes is pushed in one go, so outside a browser this is one store
 * commit per read, never one per event.
 *
 * @example
 * createBatcher(dispatch, microtaskScheduler)
 */
export const microtaskScheduler: Scheduler = (flush) => {
  let cancelled = false
  queueMicrotask(() => {
    if (!cancelled) flush()
  })
  return () => {
    cancelled = true
  }
}

/**
 * The scheduler for where the code runs: frames in a browser, one flush per
 * microtask elsewhere (servers, tests, workers).
 *
 * @example
 * const scheduler = defaultScheduler()
 */
export function defaultScheduler(): Scheduler {
  return typeof requestAnimationFrame === 'function' && typeof document !== 'undefined' ? frameScheduler() : microtaskScheduler
}

/** A queue of ops in front of a store. */
export interface Batcher {
  push(ops: readonly Op[]): void
  /** Hand over what is queued now. */
  flush(): void
  /**
   * Run `callback` right after the next flush hands its batch over (one is
   * scheduled if none is), in the same task: what the callback dispatches joins
   * that batch's render, so the end of a stream costs no commit of its own.
   */
  afterFlush(callback: () => void): void
  /** Drop the pending request (what is queued is flushed first). */
  dispose(): void
}

/**
 * Queue ops and dispatch them in one batch per scheduled flush. An error thrown
 * by `dispatch` goes to `onError`, never out of a scheduler callback.
 *
 * @example
 * const batcher = createBatcher((ops) => store.getState().dispatch(ops), frameScheduler())
 * batcher.push([{ op: 'stream.status', status: 'streaming' }])
 */
export function createBatcher(
  dispatch: (ops: readonly Op[]) => void,
  scheduler: Scheduler = defaultScheduler(),
  onError: (thrown: unknown, ops: readonly Op[]) => void = () => {},
): Batcher {
  let queue: Op[] = []
  let cancel: (() => void) | undefined
  let after: Array<() => void> = []

  const report = (thrown: unknown, ops: readonly Op[]) => {
    try {
      onError(thrown, ops)
    } catch {
      // A failing error handler has nowhere left to report to.
    }
  }

  const flush = () => {
    cancel?.()
    cancel = undefined
    const callbacks = after
    after = []
    if (queue.length > 0) {
      const batch = queue
      queue = []
      // The fold isolates an op it cannot apply; what may still throw here is the
      // dispatch's own callback (a store listener). It must not escape a frame
      // callback, where nobody could catch it, nor stop the stream.
      try {
        dispatch(batch)
      } catch (thrown) {
        report(thrown, batch)
      }
    }
    for (const callback of callbacks) {
      try {
        callback()
      } catch (thrown) {
        report(thrown, [])
      }
    }
  }

  const schedule = () => {
    if (cancel) return
    let ranInline = false
    const pending = scheduler(() => {
      ranInline = true
      cancel = undefined
      flush()
    })
    if (!ranInline) cancel = pending
  }

  return {
    push(ops) {
      for (const op of ops) queue.push(op)
      if (queue.length > 0) schedule()
    },
    flush,
    afterFlush(callback) {
      after.push(callback)
      schedule()
    },
    dispose() {
      flush()
    },
  }
}
