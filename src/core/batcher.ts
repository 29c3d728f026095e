/**
 * Collects ops and hands them to the store once per animation frame, so a
 * 10,000-token answer costs at most one React commit per frame.
 */
import type { Op } from './ops'

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
 * The scheduler for where the code runs: frames in a browser, synchronous elsewhere.
 *
 * @example
 * const scheduler = defaultScheduler()
 */
export function defaultScheduler(): Scheduler {
  return typeof requestAnimationFrame === 'function' && typeof document !== 'undefined' ? frameScheduler() : syncScheduler
}

/** A queue of ops in front of a store. */
export interface Batcher {
  push(ops: readonly Op[]): void
  /** Hand over what is queued now. */
  flush(): void
  /** Drop the pending request (what is queued is flushed first). */
  dispose(): void
}

/**
 * Queue ops and dispatch them in one batch per scheduled flush.
 *
 * @example
 * const batcher = createBatcher((ops) => store.getState().dispatch(ops), frameScheduler())
 * batcher.push([{ op: 'stream.status', status: 'streaming' }])
 */
export function createBatcher(dispatch: (ops: readonly Op[]) => void, scheduler: Scheduler = defaultScheduler()): Batcher {
  let queue: Op[] = []
  let cancel: (() => void) | undefined

  const flush = () => {
    cancel?.()
    cancel = undefined
    if (queue.length === 0) return
    const batch = queue
    queue = []
    dispatch(batch)
  }

  return {
    push(ops) {
      for (const op of ops) queue.push(op)
      if (!cancel && queue.length > 0) {
        let ranInline = false
        const pending = scheduler(() => {
          ranInline = true
          cancel = undefined
          flush()
        })
        if (!ranInline) cancel = pending
      }
    },
    flush,
    dispose() {
      flush()
    },
  }
}
