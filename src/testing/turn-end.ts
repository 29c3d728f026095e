/**
 * Waiting for a turn to end by watching the store, never by sleeping.
 */
import type { AgentState, StreamStatus } from '../core/model'
import type { AgentStore } from '../core/store'
import { snapshot } from '../core/store'

const RUNNING: ReadonlySet<StreamStatus> = new Set(['connecting', 'streaming', 'reconnecting'])

/**
 * Options of `waitForTurnEnd`.
 *
 * @example
 * await waitForTurnEnd(store, { timeoutMs: 2000 })
 */
export interface TurnEndOptions {
  /** Give up (reject) after this long, so a stream that never ends fails the test instead of hanging it. Default 10 000. */
  timeoutMs?: number
}

/**
 * Resolves with the state once no stream is running: at once when the last turn
 * already ended, else when the status next becomes `done`, `error` or `aborted`.
 * With nothing sent yet (`idle`) it waits for a send and its end.
 *
 * @example
 * fireEvent.click(screen.getByRole('button', { name: 'Send' }))
 * const state = await waitForTurnEnd(store)
 * state.status // 'done'
 */
export function waitForTurnEnd(store: AgentStore, options: TurnEndOptions = {}): Promise<AgentState> {
  const ended = () => {
    const status = store.getState().status
    return !RUNNING.has(status) && status !== 'idle'
  }
  if (ended()) return Promise.resolve(snapshot(store.getState()))
  return new Promise((resolve, reject) => {
    const timeoutMs = options.timeoutMs ?? 10_000
    const timer = setTimeout(() => {
      unsubscribe()
      reject(new Error(`weft/testing: the turn did not end within ${timeoutMs} ms (status: ${store.getState().status})`))
    }, timeoutMs)
    const unsubscribe = store.subscribe(() => {
      if (!ended()) return
      clearTimeout(timer)
      unsubscribe()
      resolve(snapshot(store.getState()))
    })
  })
}
