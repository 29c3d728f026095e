/**
 * Selector hooks. Each subscribes to the smallest slice it returns, so a
 * streaming token re-renders only the message it lands in.
 */
import { useCallback, useSyncExternalStore } from 'react'
import { useStore } from 'zustand'
import { useShallow } from 'zustand/react/shallow'
import type { WeftError } from '../core/model/errors'
import type { AgentState, Block, Gate, Message, QueuedMessage, Source, StreamStatus, Thread, TraceNode, Turn } from '../core/model/model'
import { selectCitation, selectHeadline, selectTraceSummary, type TraceSummary } from '../core/store/selectors'
import { allNodeIds } from '../core/store/trace-tree'
import { own } from '../core/util/record'
import { traceNodeIn } from '../core/model/trace-table'
import { entryOf, subscribeEntry, type EntryTable, type EntryTypes } from '../core/store/entry-subscriptions'
import type { AgentStoreState } from '../core/store/store'
import { useAgentStore } from './store-context'

/**
 * Read any slice of the model. Return a stable value (an object already in the
 * store, or a primitive); for a new array of store objects use `useAgentSelectorShallow`.
 *
 * @example
 * const count = useAgentSelector((s) => s.turnIds.length)
 */
export function useAgentSelector<T>(selector: (state: AgentState) => T): T {
  return useStore(useAgentStore(), selector as (state: AgentStoreState) => T)
}

/**
 * Like `useAgentSelector`, for selectors that build a new array or object whose
 * items come from the store; re-renders only when an item changes.
 *
 * @example
 * const texts = useAgentSelectorShallow((s) => s.turnIds.map((id) => own(s.turns, id)))
 */
export function useAgentSelectorShallow<T>(selector: (state: AgentState) => T): T {
  return useStore(useAgentStore(), useShallow(selector as (state: AgentStoreState) => T))
}

/**
 * The conversation's turn ids, in order. A transcript list subscribes to this.
 *
 * @example
 * useTurnIds().map((id) => <TurnView key={id} id={id} />)
 */
export function useTurnIds(): string[] {
  return useAgentSelector((s) => s.turnIds)
}

/**
 * Every turn, in order.
 *
 * @example
 * const turns = useTurns(); turns.at(-1)?.status
 */
export function useTurns(): Turn[] {
  return useAgentSelectorShallow((s) => s.turnIds.map((id) => own(s.turns, id)).filter(isDefined))
}

/**
 * One turn.
 *
 * @example
 * const turn = useTurn(id); turn?.messageIds
 */
export function useTurn(id: string | undefined): Turn | undefined {
  return useEntry('turns', id)
}

/**
 * One message; re-renders only when that message changes.
 *
 * @example
 * const m = useMessage(id); <p>{String(m?.props.content ?? '')}</p>
 */
export function useMessage(id: string | undefined): Message | undefined {
  return useEntry('messages', id)
}

/**
 * The blocks of a turn, in order.
 *
 * @example
 * useBlocks(turnId).map((b) => <section key={b.id}>{b.label}</section>)
 */
export function useBlocks(turnId: string | undefined): Block[] {
  return useAgentSelectorShallow((s) => (turnId ? (own(s.turns, turnId)?.blockIds ?? []).map((id) => own(s.blocks, id)).filter(isDefined) : []))
}

/**
 * One thread (a concurrent lane of a block).
 *
 * @example
 * const t = useThread(id); t?.messageIds.length
 */
export function useThread(id: string | undefined): Thread | undefined {
  return useEntry('threads', id)
}

/**
 * A turn's timeline rows, depth first (each row's `childIds` give the nesting).
 *
 * @example
 * useTrace(turnId).map((n) => <li key={n.id} data-state={n.status}>{n.label}</li>)
 */
export function useTrace(turnId: string | undefined): TraceNode[] {
  return useAgentSelectorShallow((s) => {
    const turn = turnId ? own(s.turns, turnId) : undefined
    return turn ? allNodeIds(s, turn).map((id) => traceNodeIn(s.trace, id)).filter(isDefined) : []
  })
}

/**
 * A turn's human-in-the-loop requests.
 *
 * @example
 * useGates(turnId).filter((g) => g.status === 'pending')
 */
export function useGates(turnId: string | undefined): Gate[] {
  return useAgentSelectorShallow((s) => (turnId ? (own(s.turns, turnId)?.gateIds ?? []).map((id) => own(s.gates, id)).filter(isDefined) : []))
}

/**
 * The messages sent while the agent ran, waiting to be sent, in order (empty when none).
 *
 * @example
 * const queued = useQueuedMessages(); queued.length > 0 && <QueuedMessages />
 */
export function useQueuedMessages(): readonly QueuedMessage[] {
  return useAgentSelector((s) => s.queue ?? NO_QUEUE)
}

const NO_QUEUE: readonly QueuedMessage[] = Object.freeze([])

/**
 * Where the stream is: `idle`, `connecting`, `streaming`, `reconnecting`, `done`, `error` or `aborted`.
 *
 * @example
 * const status = useStatus(); status === 'streaming' && <Spinner />
 */
export function useStatus(): StreamStatus {
  return useAgentSelector((s) => s.status)
}

/**
 * The error that stopped the stream, if any.
 *
 * @example
 * const error = useStreamError(); error && <p role="alert">{error.message}</p>
 */
export function useStreamError(): WeftError | undefined {
  return useAgentSelector((s) => s.error)
}

/**
 * One timeline row.
 *
 * @example
 * const node = useTraceNode(id); node?.label
 */
export function useTraceNode(id: string): TraceNode | undefined {
  return useEntry('trace', id)
}

/**
 * The top-level rows of a turn's timeline.
 *
 * @example
 * useTraceRootIds(turnId).map((id) => <Trace.Node key={id} id={id} />)
 */
export function useTraceRootIds(turnId: string | undefined): readonly string[] {
  return useAgentSelector((s) => (turnId ? own(s.turns, turnId)?.traceRootIds : undefined) ?? NO_IDS)
}

/**
 * The row the agent is working on now, while the turn runs.
 *
 * @example
 * useHeadline(turnId)?.label
 */
export function useHeadline(turnId: string | undefined): TraceNode | undefined {
  return useAgentSelector((s) => (turnId ? selectHeadline(s, turnId) : undefined))
}

/**
 * How many steps and sources a turn took.
 *
 * @example
 * const { stepCount, sourceCount } = useTraceSummary(turnId)
 */
export function useTraceSummary(turnId: string | undefined): TraceSummary {
  return useAgentSelector((s) => (turnId ? selectTraceSummary(s, turnId) : NO_SUMMARY))
}

/**
 * The sources the `[n]` markers of a text point at, in the order asked.
 *
 * @example
 * const [first] = useCitations(turnId, [1])
 */
export function useCitations(turnId: string, markers: readonly number[]): Array<Source | undefined> {
  return useAgentSelectorShallow((s) => markers.map((n) => selectCitation(s, turnId, n)))
}

/**
 * A turn's sources.
 *
 * @example
 * useSources(turnId).length
 */
export function useSources(turnId: string | undefined): readonly Source[] {
  return useAgentSelector((s) => (turnId ? own(s.turns, turnId)?.sources : undefined) ?? NO_SOURCES)
}

/**
 * One gate.
 *
 * @example
 * useGate(id)?.status
 */
export function useGate(id: string): Gate | undefined {
  return useEntry('gates', id)
}
const NO_IDS: readonly string[] = /* @__PURE__ */ Object.freeze([])
const NO_SOURCES: readonly Source[] = /* @__PURE__ */ Object.freeze([])
const NO_SUMMARY: TraceSummary = /* @__PURE__ */ Object.freeze({ stepCount: 0, sourceCount: 0 })

function isDefined<T>(value: T | undefined): value is T {
  return value !== undefined
}

const stayQuiet = () => () => undefined

/**
 * One entry of one of the store's records, subscribed to that entry alone: a
 * change elsewhere costs this hook nothing, not even a selector call.
 */
function useEntry<Table extends EntryTable>(table: Table, id: string | undefined): EntryTypes[Table] | undefined {
  const store = useAgentStore()
  const subscribe = useCallback(
    (listener: () => void) => (id ? subscribeEntry(store, table, id, listener) : stayQuiet()),
    [store, table, id],
  )
  const entry = (state: AgentState) => (id ? entryOf(state, table, id) : undefined)
  const read = useCallback(() => entry(store.getState()), [store, table, id])
  // As zustand's own hooks do, a server render reads the store's initial state.
  return useSyncExternalStore(subscribe, read, () => entry(store.getInitialState()))
}
