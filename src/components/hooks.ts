/**
 * Selector hooks the components need beyond the React binding's own. Each
 * returns a value that keeps its identity while its slice is unchanged.
 */
import type { AgentState, Block, Turn } from '../core/model/model'
import { memo, type Memo } from '../core/util/memo'
import { useRef } from 'react'
import { useAgentSelector } from '../react/selectors'
import { own } from './format'
import { messageIn } from '../core/model/message-table'

/**
 * One entry of a turn's or block's outline: a message, a block or a thread,
 * as `m:<id>`, `b:<id>` or `t:<id>`. Plain strings, so a shallow compare keeps
 * the list stable while a message streams.
 *
 * @example
 * const key: OutlineKey = 'b:turn-1/B1'
 */
export type OutlineKey = `${'m' | 'b' | 't'}:${string}`

/**
 * What a turn shows, in order: its messages, with a block (and a lane outside
 * any block) standing where its first message arrived. A block with no message
 * yet follows the block opened before it.
 *
 * @example
 * turnOutline(state, 'turn-1') // ['m:turn-1/M0', 'b:turn-1/B1']
 */
export function turnOutline(state: AgentState, turnId: string): OutlineKey[] {
  const turn = own(state.turns, turnId)
  if (!turn) return []
  // A token changes only its message: the turn, blocks and threads keep their identity, so the outline is reused.
  return memo(turnOutlines, turn, [state.blocks, state.threads], () => buildOutline(state, turn.messageIds, turn.blockIds, 'b'))
}

/**
 * A block's outline: its messages outside any lane, with each lane where its first message arrived.
 *
 * @example
 * blockOutline(state, 'turn-1/B1') // ['t:turn-1/T1', 't:turn-1/T2']
 */
export function blockOutline(state: AgentState, blockId: string): OutlineKey[] {
  const block = own(state.blocks, blockId)
  if (!block) return []
  return memo(blockOutlines, block, [state.threads], () => buildOutline(state, block.messageIds, block.threadIds, 't'))
}

const turnOutlines = new WeakMap<Turn, Memo<OutlineKey[]>>()
const blockOutlines = new WeakMap<Block, Memo<OutlineKey[]>>()

/**
 * The outline of a turn (`inner` its blocks, `kind` 'b') or of a block (`inner`
 * its lanes, `kind` 't'): each message, or the block or lane it sits in where
 * that first shows; then the inner ones with no message yet, each after the one
 * opened before it.
 */
function buildOutline(state: AgentState, messageIds: readonly string[], inner: readonly string[], kind: 'b' | 't'): OutlineKey[] {
  const out: OutlineKey[] = []
  const placed = new Set<OutlineKey>()
  const place = (key: OutlineKey, at = out.length) => {
    if (placed.has(key)) return
    placed.add(key)
    out.splice(at, 0, key)
  }
  for (const id of messageIds) {
    const message = messageIn(state.messages, id)
    if (!message) continue
    const { blockId, threadId } = message
    if (kind === 'b' && blockId && own(state.blocks, blockId)) place(`b:${blockId}`)
    else if (threadId && own(state.threads, threadId)) place(`t:${threadId}`)
    else place(`m:${id}`)
  }
  let previous: OutlineKey | undefined
  for (const id of inner) {
    const key: OutlineKey = `${kind}:${id}`
    const at = previous ? out.indexOf(previous) + 1 : 0
    place(key, at === 0 ? out.length : at)
    previous = key
  }
  return out
}

/**
 * A selection that is a new list each time it is read (an outline, the sources
 * of some markers): the list the view already has, while its items are the same
 * ones, so a token streaming elsewhere draws nothing. An item-by-item compare is
 * all these lists need; the React binding's `useAgentSelectorShallow` also
 * compares maps, sets and objects.
 *
 * @example
 * const sources = useAgentList((s) => markers.map((n) => selectCitation(s, turnId, n)))
 */
export function useAgentList<T>(select: (state: AgentState) => T[]): T[] {
  const last = useRef<T[] | undefined>(undefined)
  return useAgentSelector((state) => {
    const next = select(state)
    const kept = last.current
    if (kept && kept.length === next.length && kept.every((item, i) => Object.is(item, next[i]))) return kept
    return (last.current = next)
  })
}

/**
 * A turn's outline (see `turnOutline`).
 *
 * @example
 * useTurnOutline(turnId).map((key) => <Item key={key} entry={key} />)
 */
export function useTurnOutline(turnId: string | undefined): OutlineKey[] {
  return useAgentList((s) => (turnId ? turnOutline(s, turnId) : []))
}

/**
 * A block's outline (see `blockOutline`).
 *
 * @example
 * useBlockOutline(blockId)
 */
export function useBlockOutline(blockId: string): OutlineKey[] {
  return useAgentList((s) => blockOutline(s, blockId))
}
