/**
 * The shared agent state as a piece of React state: read it, and set it from the
 * page. Setting changes the store at once; the next request carries it where the
 * protocol has a field for state (AG-UI's `RunAgentInput.state`).
 */
import { useCallback } from 'react'
import { setAgentState, type AgentStateUpdate } from '../core/client/agent-state'
import type { ActionResult } from '../core/client/gates'
import { useAgentSelector } from './selectors'
import { useAgentStore } from './store-context'

/**
 * The store's `agentState` and a setter for it, as `useState` gives. The setter
 * takes the next state or a function of the current one, and returns the
 * `ActionResult`: refused, with nothing changed, unless the result is a plain
 * object of JSON data (no functions, class instances, cycles or prototype keys).
 *
 * @example
 * const [state, setState] = useAgentState()
 * <button onClick={() => setState((current) => ({ ...current, theme: 'teal' }))}>{String(state.theme ?? 'default')}</button>
 */
export function useAgentState(): [Readonly<Record<string, unknown>>, (update: AgentStateUpdate) => ActionResult] {
  const store = useAgentStore()
  const state = useAgentSelector((s) => s.agentState)
  const set = useCallback((update: AgentStateUpdate) => setAgentState(store, update), [store])
  return [state, set]
}
