/**
 * Selectors: pure functions of `AgentState` that hand components the smallest
 * slice they render. They return objects already in the state where they can;
 * a list they build is reused while its items are the same objects, so a
 * subscriber comparing by identity re-renders only when its slice changed.
 */
import { own } from '../util/record'
import { memo, sameItems, type Memo } from '../util/memo'
import type { AgentState, Block, Gate, Message, Source, Thread, TraceNode, Turn } from '../model/model'
import { messageIn } from '../model/message-table'
import { traceNodeIn } from '../model/trace-table'

/** One row of the work timeline with the rows nested under it. */
export interface TraceTreeItem {
  node: TraceNode
  children: readonly TraceTreeItem[]
}

/** The one-line summary of a turn's work. */
export interface TraceSummary {
  /** Top-level steps, reasoning excluded. */
  stepCount: number
  /** Sources the answer rests on. */
  sourceCount: number
}

const NO_MESSAGES: readonly Message[] = /* @__PURE__ */ Object.freeze([])
const NO_BLOCKS: readonly Block[] = /* @__PURE__ */ Object.freeze([])
const NO_NODES: readonly TraceNode[] = /* @__PURE__ */ Object.freeze([])
const NO_ITEMS: readonly TraceTreeItem[] = /* @__PURE__ */ Object.freeze([])
const NO_GATES: readonly Gate[] = /* @__PURE__ */ Object.freeze([])
const NO_STEPS: TraceSummary = /* @__PURE__ */ Object.freeze({ stepCount: 0, sourceCount: 0 })

/**
 * A turn by id.
 *
 * @example
 * selectTurn(state, 'turn-1')?.status // 'streaming'
 */
export function selectTurn(state: AgentState, id: string): Turn | undefined {
  return own(state.turns, id)
}

/**
 * A message by id.
 *
 * @example
 * selectMessage(state, 'm1')?.props.content // 'Hello'
 */
export function selectMessage(state: AgentState, id: string): Message | undefined {
  return messageIn(state.messages, id)
}

/**
 * A thread (a concurrent lane) by id.
 *
 * @example
 * selectThread(state, 'T1')?.status // 'open'
 */
export function selectThread(state: AgentState, id: string): Thread | undefined {
  return own(state.threads, id)
}

const turnMessages = new WeakMap<readonly string[], Memo<readonly Message[]>>()

/**
 * Every message of a turn, in order of first appearance.
 *
 * @example
 * selectTurnMessages(state, 'turn-1').map((m) => m.type) // ['reasoning', 'tool', 'text']
 */
export function selectTurnMessages(state: AgentState, turnId: string): readonly Message[] {
  const turn = own(state.turns, turnId)
  if (!turn) return NO_MESSAGES
  return memo(turnMessages, turn.messageIds, [state.messages], () => pickAll((id) => messageIn(state.messages, id), turn.messageIds))
}

const turnBlocks = new WeakMap<readonly string[], Memo<readonly Block[]>>()

/**
 * A turn's blocks (LLM calls, tool calls, steps), in order.
 *
 * @example
 * selectBlocks(state, 'turn-1').map((b) => b.label) // ['Searching the web']
 */
export function selectBlocks(state: AgentState, turnId: string): readonly Block[] {
  const turn = own(state.turns, turnId)
  if (!turn) return NO_BLOCKS
  return memo(turnBlocks, turn.blockIds, [state.blocks], () => pickAll((id) => own(state.blocks, id), turn.blockIds))
}

const turnGates = new WeakMap<readonly string[], Memo<readonly Gate[]>>()

/**
 * A turn's human-in-the-loop gates, in order.
 *
 * @example
 * selectGates(state, 'turn-1').filter((g) => g.status === 'pending')
 */
export function selectGates(state: AgentState, turnId: string): readonly Gate[] {
  const turn = own(state.turns, turnId)
  if (!turn) return NO_GATES
  return memo(turnGates, turn.gateIds, [state.gates], () => pickAll((id) => own(state.gates, id), turn.gateIds))
}

/** Tree items by node: an item is reused while its node and its children are. */
const treeItems = new WeakMap<TraceNode, TraceTreeItem>()
const traceTrees = new WeakMap<Turn, Memo<readonly TraceTreeItem[]>>()

/**
 * A turn's work timeline as a tree: top-level rows, each with the rows nested
 * under it. Unchanged branches keep their identity from one state to the next.
 *
 * @example
 * const tree = selectTraceTree(state, 'turn-1')
 * tree[0]?.node.label     // 'Delegating to Pipeline Analyst'
 * tree[0]?.children[0]?.node.label // 'Searched renewals'
 */
export function selectTraceTree(state: AgentState, turnId: string): readonly TraceTreeItem[] {
  const turn = own(state.turns, turnId)
  if (!turn || turn.traceRootIds.length === 0) return NO_ITEMS
  return memo(traceTrees, turn, [state.trace], () => {
    const seen = new Set<string>()
    const build = (ids: readonly string[]): TraceTreeItem[] => {
      const items: TraceTreeItem[] = []
      for (const id of ids) {
        const node = traceNodeIn(state.trace, id)
        if (!node || seen.has(id)) continue // a cycle from bad parent ids must not recurse forever
        seen.add(id)
        const children = node.childIds.length ? build(node.childIds) : NO_ITEMS
        const known = treeItems.get(node)
        if (known && sameItems(known.children, children)) {
          items.push(known)
        } else {
          const item: TraceTreeItem = { node, children }
          treeItems.set(node, item)
          items.push(item)
        }
      }
      return items
    }
    return build(turn.traceRootIds)
  })
}

const traceLists = new WeakMap<Turn, Memo<readonly TraceNode[]>>()

/**
 * A turn's work timeline as a flat list, depth first (a row, then the rows
 * under it, then the next row).
 *
 * @example
 * selectTraceList(state, 'turn-1').filter((n) => n.status === 'error')
 */
export function selectTraceList(state: AgentState, turnId: string): readonly TraceNode[] {
  const turn = own(state.turns, turnId)
  if (!turn || turn.traceRootIds.length === 0) return NO_NODES
  return memo(traceLists, turn, [state.trace], () => {
    const out: TraceNode[] = []
    const seen = new Set<string>()
    const visit = (id: string) => {
      const node = traceNodeIn(state.trace, id)
      if (!node || seen.has(id)) return
      seen.add(id)
      out.push(node)
      for (const child of node.childIds) visit(child)
    }
    for (const id of turn.traceRootIds) visit(id)
    return out
  })
}

/**
 * What the agent is doing now: while the turn runs, the first row (depth
 * first) that has not finished and is not reasoning. `undefined` once the
 * turn has ended or when nothing is running.
 *
 * @example
 * selectHeadline(state, 'turn-1')?.label // 'Searching…'
 */
export function selectHeadline(state: AgentState, turnId: string): TraceNode | undefined {
  const turn = own(state.turns, turnId)
  if (!turn || turn.status !== 'streaming') return undefined
  return selectTraceList(state, turnId).find((n) => n.kind !== 'reason' && (n.status === 'start' || n.status === 'progress'))
}

const summaries = new WeakMap<Turn, Memo<TraceSummary>>()

/**
 * The line the timeline folds to once a turn has landed: how many steps it
 * took (top-level rows, reasoning excluded) and how many sources it rests on
 * (the turn's sources; when it has none, the distinct citations on its rows).
 *
 * @example
 * const { stepCount, sourceCount } = selectTraceSummary(state, 'turn-1')
 * `${stepCount} steps · ${sourceCount} sources`
 */
export function selectTraceSummary(state: AgentState, turnId: string): TraceSummary {
  const turn = own(state.turns, turnId)
  if (!turn) return NO_STEPS
  return memo(summaries, turn, [state.trace], () => {
    let stepCount = 0
    for (const id of turn.traceRootIds) {
      const node = traceNodeIn(state.trace, id)
      if (node && node.kind !== 'reason') stepCount++
    }
    const sourceCount = turn.sources.length || countCitations(selectTraceList(state, turnId))
    return { stepCount, sourceCount }
  }, (a, b) => a.stepCount === b.stepCount && a.sourceCount === b.sourceCount)
}

/**
 * The source a `[n]` marker in a turn's answer points at: the source whose
 * `citationIndex` is `n`. When no source of the turn carries a citation index,
 * markers count the sources in order (`[1]` is the first).
 *
 * @example
 * selectCitation(state, 'turn-1', 2)?.title // 'Q3 pipeline review'
 */
export function selectCitation(state: AgentState, turnId: string, n: number): Source | undefined {
  const turn = own(state.turns, turnId)
  if (!turn || !Number.isInteger(n)) return undefined
  const indexed = turn.sources.find((s) => s.citationIndex === n)
  if (indexed) return indexed
  if (turn.sources.some((s) => s.citationIndex !== undefined)) return undefined
  return n >= 1 ? turn.sources[n - 1] : undefined
}

function pickAll<T>(find: (id: string) => T | undefined, ids: readonly string[]): T[] {
  const out: T[] = []
  for (const id of ids) {
    const item = find(id)
    if (item) out.push(item)
  }
  return out
}

function countCitations(nodes: readonly TraceNode[]): number {
  const seen = new Set<string>()
  for (const node of nodes) {
    for (const citation of node.citations) {
      const c = citation && typeof citation === 'object' ? (citation as Record<string, unknown>) : {}
      const key = typeof c.link === 'string' && c.link ? c.link : typeof c.title === 'string' ? c.title : JSON.stringify(citation)
      seen.add(key)
    }
  }
  return seen.size
}

// Ids come from the wire; an inherited name such as `constructor` must not resolve.

