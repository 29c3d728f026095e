/**
 * Selector hooks the components need beyond the React binding's own. Each
 * returns a value that keeps its identity while its slice is unchanged.
 */
import type { AgentState, Block, Turn } from '../core/model'
import { memo, type Memo } from '../core/util/memo'
import { useAgentSelectorShallow } from '../react/selectors'
import { own } from './format'

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
 * Splits an outline key into its kind and id.
 *
 * @example
 * readOutlineKey('t:turn-1/T1') // { kind: 't', id: 'turn-1/T1' }
 */
export function readOutlineKey(key: OutlineKey): { kind: 'm' | 'b' | 't'; id: string } {
  return { kind: key[0] as 'm' | 'b' | 't', id: key.slice(2) }
}

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
  return memo(turnOutlines, turn, [state.blocks, state.threads], () => buildTurnOutline(state, turn))
}

function buildTurnOutline(state: AgentState, turn: Turn): OutlineKey[] {
  const out: OutlineKey[] = []
  const placed = new Set<string>()
  for (const id of turn.messageIds) {
    const message = own(state.messages, id)
    if (!message) continue
    if (message.blockId && own(state.blocks, message.blockId)) {
      if (!placed.has(message.blockId)) {
        placed.add(message.blockId)
        out.push(`b:${message.blockId}`)
      }
    } else if (message.threadId && own(state.threads, message.threadId)) {
      const key: OutlineKey = `t:${message.threadId}`
      if (!out.includes(key)) out.push(key)
    } else {
      out.push(`m:${id}`)
    }
  }
  placeEmpty(out, turn.blockIds, placed, 'b')
  return out
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
  return memo(blockOutlines, block, [state.threads], () => buildBlockOutline(state, block))
}

function buildBlockOutline(state: AgentState, block: Block): OutlineKey[] {
  const out: OutlineKey[] = []
  const placed = new Set<string>()
  for (const id of block.messageIds) {
    const message = own(state.messages, id)
    if (!message) continue
    if (message.threadId && own(state.threads, message.threadId)) {
      if (!placed.has(message.threadId)) {
        placed.add(message.threadId)
        out.push(`t:${message.threadId}`)
      }
    } else {
      out.push(`m:${id}`)
    }
  }
  placeEmpty(out, block.threadIds, placed, 't')
  return out
}

const turnOutlines = new WeakMap<Turn, Memo<OutlineKey[]>>()
const blockOutlines = new WeakMap<Block, Memo<OutlineKey[]>>()

function placeEmpty(out: OutlineKey[], ids: readonly string[], placed: Set<string>, kind: 'b' | 't'): void {
  let previous: OutlineKey | undefined
  for (const id of ids) {
    const key: OutlineKey = `${kind}:${id}`
    if (!placed.has(id)) {
      placed.add(id)
      const at = previous ? out.indexOf(previous) + 1 : out.length
      out.splice(at === 0 ? out.length : at, 0, key)
    }
    previous = key
  }
}

/**
 * A turn's outline (see `turnOutline`).
 *
 * @example
 * useTurnOutline(turnId).map((key) => <Item key={key} entry={key} />)
 */
export function useTurnOutline(turnId: string | undefined): OutlineKey[] {
  return useAgentSelectorShallow((s) => (turnId ? turnOutline(s, turnId) : []))
}

/**
 * A block's outline (see `blockOutline`).
 *
 * @example
 * useBlockOutline(blockId)
 */
export function useBlockOutline(blockId: string): OutlineKey[] {
  return useAgentSelectorShallow((s) => blockOutline(s, blockId))
}
