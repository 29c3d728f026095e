/**
 * Reading the tree of turns: where a turn stands among its siblings.
 */
import type { AgentState } from '../model/model'
import { own } from '../util/record'

/**
 * The `branches` key of the turns that have no parent.
 *
 * @example
 * state.branches?.[ROOT_BRANCH] // the first turns of each branch at the top
 */
export const ROOT_BRANCH = ''

/**
 * Where a turn stands among its siblings (the answers a regenerate made, the
 * questions an edit made).
 *
 * @example
 * const { index, count } = selectBranch(state, turnId) // "‹ index + 1 / count ›"
 */
export interface BranchInfo {
  /** The turn's place among its siblings, from 0. */
  index: number
  count: number
  /** The siblings in the order they were made, the turn included. */
  siblingIds: readonly string[]
}

/** A turn with no siblings: one per turn object, so a selector's result stays the same while the turn does. */
const alone = new WeakMap<object, BranchInfo>()
const NO_BRANCH: BranchInfo = Object.freeze({ index: 0, count: 0, siblingIds: Object.freeze([]) })
const infos = new WeakMap<readonly string[], Map<string, BranchInfo>>()

/**
 * The branch a turn is on. The object is reused while its siblings are the same.
 *
 * @example
 * selectBranch(state, 'turn-2') // { index: 1, count: 2, siblingIds: ['turn-2a', 'turn-2'] }
 */
export function selectBranch(state: AgentState, turnId: string): BranchInfo {
  const turn = own(state.turns, turnId)
  const siblings = turn ? own(state.branches ?? {}, turn.parentId ?? ROOT_BRANCH) : undefined
  if (!siblings || !siblings.includes(turnId)) {
    if (!turn) return NO_BRANCH
    let info = alone.get(turn)
    if (!info) alone.set(turn, (info = { index: 0, count: 1, siblingIds: [turnId] }))
    return info
  }
  let byTurn = infos.get(siblings)
  if (!byTurn) infos.set(siblings, (byTurn = new Map()))
  let info = byTurn.get(turnId)
  if (!info) byTurn.set(turnId, (info = { index: siblings.indexOf(turnId), count: siblings.length, siblingIds: siblings }))
  return info
}

/**
 * The sibling of `turnId` at `index` (clamped), to switch to.
 *
 * @example
 * siblingAt(state, 'turn-2', 0) // 'turn-2a'
 */
export function siblingAt(state: AgentState, turnId: string, index: number): string | undefined {
  const { siblingIds } = selectBranch(state, turnId)
  if (siblingIds.length === 0 || !Number.isInteger(index)) return undefined
  return siblingIds[Math.min(Math.max(index, 0), siblingIds.length - 1)]
}
