/**
 * How each sub-agent lane is shown: open, collapsed, hidden or focused. One view
 * state per agent store, shared by the transcript and the timeline, so collapsing
 * a lane in one collapses it in the other. It is what the person chose to look
 * at, not what the agent did: it lives beside the store, never in it, and is not
 * saved with the conversation.
 */
import { useMemo, useSyncExternalStore } from 'react'
import type { AgentState, SpanStatus, TraceNode } from '../core/model/model'
import { traceNodeIn } from '../core/model/trace-table'
import { selectTraceList } from '../core/store/selectors'
import type { AgentStore } from '../core/store/store'
import { storeLocal, storeLocalKey } from '../core/store/store-locals'
import { useAgentSelector, useAgentSelectorShallow } from '../react/selectors'
import { useAgentStore } from '../react/store-context'
import { own } from './format'

/**
 * How a lane is shown. By default a running lane (and a failed one) is `open`
 * and a finished lane `collapsed`; what the person chose wins from then on.
 *
 * @example
 * const state: LaneViewState = 'collapsed'
 */
export type LaneViewState = 'open' | 'collapsed' | 'hidden' | 'focused'

type Choice = 'open' | 'collapsed' | 'hidden'

interface Snapshot {
  readonly choices: Readonly<Record<string, Choice>>
  readonly focused?: string
}

interface ViewStore {
  get(): Snapshot
  set(next: Snapshot): void
  subscribe(listener: () => void): () => void
}

const LANE_VIEW = storeLocalKey<ViewStore>('lane view')

/** The store's lane view, kept on the store object, beside its state (never in it, so never saved). */
function viewStoreOf(store: AgentStore): ViewStore {
  return storeLocal(store, LANE_VIEW, () => {
    let snapshot: Snapshot = { choices: {} }
    const listeners = new Set<() => void>()
    return {
      get: () => snapshot,
      set(next) {
        snapshot = next
        for (const listener of [...listeners]) listener()
      },
      subscribe(listener) {
        listeners.add(listener)
        return () => void listeners.delete(listener)
      },
    }
  })
}

function useSnapshot(): [Snapshot, ViewStore] {
  const view = viewStoreOf(useAgentStore())
  return [useSyncExternalStore(view.subscribe, view.get, view.get), view]
}

/** A lane's state from what the person chose and where the lane is. */
function stateOf(snapshot: Snapshot, threadId: string, status: SpanStatus | undefined): LaneViewState {
  if (snapshot.focused === threadId) return 'focused'
  return own(snapshot.choices, threadId) ?? (status === 'done' ? 'collapsed' : 'open')
}

/**
 * One lane's view state and what changes it (see `useLaneView`).
 *
 * @example
 * const view: LaneView = useLaneView(threadId)
 */
export interface LaneView {
  state: LaneViewState
  /** Open or collapse (a focused lane stays focused and opens). */
  toggle(): void
  open(): void
  collapse(): void
  hide(): void
  /** Show only this lane's work; the others come back with `unfocus`. */
  focus(): void
  /** Show every lane again (only when this lane is the focused one). */
  unfocus(): void
}

/**
 * How a lane (a thread) is shown, and the actions that change it, for the
 * transcript and the timeline alike (they share one state per agent store).
 *
 * @example
 * function LaneButton({ threadId }: { threadId: string }) {
 *   const lane = useLaneView(threadId)
 *   return <button aria-expanded={lane.state !== 'collapsed'} onClick={lane.toggle}>{lane.state}</button>
 * }
 */
export function useLaneView(threadId: string): LaneView {
  const [snapshot, view] = useSnapshot()
  const status = useAgentSelector((s) => own(s.threads, threadId)?.status)
  const state = stateOf(snapshot, threadId, status)
  return useMemo(() => {
    const choose = (choice: Choice) => {
      const now = view.get()
      view.set({ ...now, choices: { ...now.choices, [threadId]: choice } })
    }
    return {
      state,
      toggle: () => choose(state === 'collapsed' || state === 'hidden' ? 'open' : 'collapsed'),
      open: () => choose('open'),
      collapse: () => choose('collapsed'),
      hide() {
        const now = view.get()
        view.set({ focused: now.focused === threadId ? undefined : now.focused, choices: { ...now.choices, [threadId]: 'hidden' } })
      },
      focus() {
        const now = view.get()
        // A lane brought into focus shows its work, whatever it was before.
        view.set({ focused: threadId, choices: { ...now.choices, [threadId]: 'open' } })
      },
      unfocus() {
        const now = view.get()
        if (now.focused === threadId) view.set({ choices: now.choices })
      },
    }
  }, [state, threadId, view])
}

/**
 * The lanes of a turn the person hid, and the way to show them all again.
 *
 * @example
 * const { hidden, showAll } = useHiddenLanes(turnId)
 */
export function useHiddenLanes(turnId: string | undefined): { hidden: readonly string[]; showAll(): void } {
  const [snapshot, view] = useSnapshot()
  // Most of the time nothing is hidden: then no turn reads its lanes on each change of the store.
  const anyHidden = Object.values(snapshot.choices).includes('hidden')
  const lanes = useAgentSelectorShallow((s) => (turnId && anyHidden ? lanesOf(s, turnId) : NO_LANES))
  const hidden = useMemo(() => lanes.filter((id) => own(snapshot.choices, id) === 'hidden' && snapshot.focused !== id), [lanes, snapshot])
  return useMemo(() => ({
    hidden,
    showAll() {
      const now = view.get()
      const choices = { ...now.choices }
      for (const id of hidden) choices[id] = 'open'
      view.set({ ...now, choices })
    },
  }), [hidden, view])
}

/**
 * The focused lane, when it is one of this turn's; `undefined` otherwise.
 *
 * @example
 * const focused = useFocusedLane(turnId)
 */
export function useFocusedLane(turnId: string | undefined): string | undefined {
  const [snapshot] = useSnapshot()
  const focused = snapshot.focused
  return useAgentSelector((s) => (focused && turnId && own(s.threads, focused)?.turnId === turnId ? focused : undefined))
}

const NO_LANES: string[] = []

/** A turn's named lanes (sub-agents), in the order they opened. */
function lanesOf(state: AgentState, turnId: string): string[] {
  const out: string[] = []
  for (const thread of Object.values(state.threads)) if (thread.turnId === turnId && thread.label) out.push(thread.id)
  return out
}

/** Who a delegate row hands the work to. */
const delegateName = (node: TraceNode) => node.actor?.name ?? node.label

/**
 * The lane a timeline row stands for: a `delegate` row's thread. The thread
 * whose id is the row's own or its actor's; else, by name, the n-th lane of
 * that name in the turn for the n-th delegate row of that name (parallel
 * lanes of one sub-agent open in the order their rows do).
 *
 * @example
 * laneOfRow(state, 'delegate:sub_web') // 'sub_web'
 */
export function laneOfRow(state: AgentState, rowId: string): string | undefined {
  const node = traceNodeIn(state.trace, rowId)
  if (!node || node.kind !== 'delegate') return undefined
  const lanes = lanesOf(state, node.turnId)
  const direct = lanes.find((id) => id === node.id || id === node.actor?.id)
  if (direct) return direct
  const name = delegateName(node)
  const named = lanes.filter((id) => own(state.threads, id)?.label === name)
  if (named.length === 0) return undefined
  const rows = selectTraceList(state, node.turnId).filter((n) => n.kind === 'delegate' && delegateName(n) === name)
  return named[rows.findIndex((n) => n.id === rowId)]
}

/**
 * The timeline row of a lane in a turn (see `laneOfRow`), or `undefined`.
 *
 * @example
 * rowOfLane(state, 'turn-1', 'sub_web') // 'delegate:sub_web'
 */
export function rowOfLane(state: AgentState, turnId: string, threadId: string): string | undefined {
  return selectTraceList(state, turnId).find((n) => n.kind === 'delegate' && laneOfRow(state, n.id) === threadId)?.id
}
