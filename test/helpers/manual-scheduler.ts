/**
 * A batcher scheduler the test runs by hand: every request is kept, with
 * whether it was cancelled, until the test calls its `run`.
 */
import type { Scheduler } from '../../src/core/store/batcher'

export function manualScheduler() {
  const requests: Array<{ run: () => void; cancelled: boolean }> = []
  const scheduler: Scheduler = (flush) => {
    const request = { run: flush, cancelled: false }
    requests.push(request)
    return () => {
      request.cancelled = true
    }
  }
  return { scheduler, requests }
}
