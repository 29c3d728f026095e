/**
 * One zustand store per agent instance, never a module singleton, so several
 * agents on a page never collide. Every change goes through `dispatch`, which
 * runs the fold inside one immer `produce`.
 */
import { createStore, type StoreApi } from 'zustand/vanilla'
import { applyOps, foldIsolated } from '../fold/fold'
import { emptyState, type AgentState } from '../model/model'
import type { Op } from '../model/ops'
import { attachStoreLocals } from './store-locals'

/** The store's state: the model plus the two ways to change it. */
export interface AgentStoreState extends AgentState {
  /** Apply a batch of ops in one update. */
  dispatch(ops: readonly Op[]): void
  /** Replace the model (empty by default), e.g. when a host switches conversations. */
  reset(state?: AgentState): void
}

/** A store made by `createAgentStore`. */
export type AgentStore = StoreApi<AgentStoreState>

/** Options for `createAgentStore`. */
export interface AgentStoreOptions {
  /** Start from this model, e.g. a snapshot from `foldStream` rendered on a server. */
  initialState?: AgentState
}

/**
 * A new store. Each call makes an independent store.
 *
 * @example
 * const store = createAgentStore()
 * store.getState().dispatch([{ op: 'turn.open', turnId: 't1', role: 'assistant' }])
 * store.getState().turnIds // ['t1']
 */
export function createAgentStore(options: AgentStoreOptions = {}): AgentStore {
  const store = createStore<AgentStoreState>()((set) => ({
    ...emptyState(),
    ...options.initialState,
    dispatch(ops) {
      if (ops.length === 0) return
      // `replace`: the produced state is complete, and a merge would bring back keys the fold deleted.
      set((current) => foldIsolated(current, ops, (draft, some) => applyOps(draft, some)), true)
    },
    reset(state) {
      set((current) => ({ ...emptyState(), ...state, dispatch: current.dispatch, reset: current.reset }), true)
    },
  }))
  // Per-store state of other modules (turn memories, entry watchers) lives on the store, not in its model.
  attachStoreLocals(store)
  return store
}

/**
 * The model alone, without the store's functions (for snapshots and tests).
 *
 * @example
 * JSON.stringify(snapshot(store.getState()))
 */
export function snapshot(state: AgentStoreState): AgentState {
  const { dispatch: _d, reset: _r, ...model } = state
  return model
}
