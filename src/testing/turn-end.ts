/**
 * Waiting for a turn to end by watching the store, never by sleeping.
 */
import type { AgentState, StreamStatus } from '../core/model/model'
import type { AgentStore } from '../core/store/store'
import { snapshot } from '../core/store/store'

const RUNNING: ReadonlySet<StreamStatus> = new Set(['connecting', 'streaming', 'reconnecting'])

/** Assistant turns already reported to a waiter, per store: each end is awaited once. */
const reported = new WeakMap<AgentStore, Set<string>>()

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
 * Marks the turns that already ended in a store as seen, so the next
 * `waitForTurnEnd` waits for a new one (a store that starts from a saved state).
 *
 * @example
 * const store = createAgentStore({ initialState })
 * markTurnEndsSeen(store)
 */
export function markTurnEndsSeen(store: AgentStore): void {
  const seen = seenOf(store)
  for (const id of endedTurns(store.getState())) seen.add(id)
}

/**
 * Resolves with the state once an assistant turn has ended that no earlier call
 * reported, and no stream is running: each call waits for the next turn's end,
 * even when the send that starts it has not reached the store yet.
 *
 * @example
 * fireEvent.click(screen.getByRole('button', { name: 'Send' }))
 * const state = await waitForTurnEnd(store)
 * state.status // 'done'
 */
export function waitForTurnEnd(store: AgentStore, options: TurnEndOptions = {}): Promise<AgentState> {
  const seen = seenOf(store)
  const fresh = () => {
    const state = store.getState()
    if (RUNNING.has(state.status)) return undefined
    const ended = endedTurns(state).filter((id) => !seen.has(id))
    return ended.length > 0 ? ended : undefined
  }
  const settle = (ended: string[]) => {
    for (const id of ended) seen.add(id)
    return snapshot(store.getState())
  }
  const now = fresh()
  if (now) return Promise.resolve(settle(now))
  return new Promise((resolve, reject) => {
    const timeoutMs = options.timeoutMs ?? 10_000
    const timer = setTimeout(() => {
      unsubscribe()
      reject(new Error(`weft/testing: no turn ended within ${timeoutMs} ms (status: ${store.getState().status}); each call waits for the next turn's end`))
    }, timeoutMs)
    const unsubscribe = store.subscribe(() => {
      const ended = fresh()
      if (!ended) return
      clearTimeout(timer)
      unsubscribe()
      resolve(settle(ended))
    })
  })
}

function seenOf(store: AgentStore): Set<string> {
  let seen = reported.get(store)
  if (!seen) reported.set(store, (seen = new Set()))
  return seen
}

function endedTurns(state: AgentState): string[] {
  return state.turnIds.filter((id) => {
    const turn = Object.hasOwn(state.turns, id) ? state.turns[id] : undefined
    return turn?.role === 'assistant' && turn.status !== 'streaming'
  })
}
