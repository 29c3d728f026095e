/**
 * The conversation as a tree of turns. Every turn knows its parent; siblings
 * (a regenerated answer, an edited question) share one. `turnIds` is the active
 * path, the only part the transcript, the selectors and a request ever see.
 * Nothing on another branch is deleted.
 */
import type { AgentState, Turn } from '../model/model'
import { ROOT_BRANCH as ROOT } from '../store/branches'
import { own } from '../util/record'

/**
 * Put a new turn in the tree under `parentId` (the end of the active path when
 * not given) and make the path through it the active one.
 *
 * @example
 * attachTurn(state, turn, undefined) // appended to the active path
 */
export function attachTurn(state: AgentState, turn: Turn, parentId: string | null | undefined): void {
  const parent = parentId === undefined ? state.turnIds.at(-1) : parentId ?? undefined
  const known = parent !== undefined && own(state.turns, parent) ? parent : undefined
  if (known !== undefined) turn.parentId = known
  else delete turn.parentId
  const key = known ?? ROOT
  const siblings = (state.branches[key] ??= [])
  siblings.push(turn.id)
  state.selected[key] = turn.id
  if (known === state.turnIds.at(-1) || (known === undefined && state.turnIds.length === 0)) state.turnIds.push(turn.id)
  else state.turnIds = walkDown(state, [...pathTo(state, known), turn.id])
}

/**
 * Make `turnId`'s branch the active one: the path to it, then below it the
 * child each turn last had selected.
 *
 * @example
 * selectTurnBranch(state, 'turn-2b')
 */
export function selectTurnBranch(state: AgentState, turnId: string): void {
  const turn = own(state.turns, turnId)
  if (!turn) throw new Error(`no turn "${turnId}"`)
  const path = pathTo(state, turnId)
  // The choice is kept at every turn above it, not only at its parent: coming back to any
  // of them later shows this path again.
  path.forEach((id, i) => {
    state.selected[i === 0 ? ROOT : path[i - 1]!] = id
  })
  state.turnIds = walkDown(state, path)
}

/**
 * The turns from the root down to `turnId`, inclusive (empty for `undefined`).
 *
 * @example
 * pathTo(state, 'turn-3') // ['turn-1', 'turn-2', 'turn-3']
 */
export function pathTo(state: AgentState, turnId: string | undefined): string[] {
  const path: string[] = []
  const seen = new Set<string>()
  let id = turnId
  while (id !== undefined && !seen.has(id)) {
    const turn = own(state.turns, id)
    if (!turn) break
    seen.add(id)
    path.push(id)
    id = turn.parentId
  }
  return path.reverse()
}

/**
 * Move turns that history handed in ahead of the others: the first of the old
 * roots now hangs under the last of them.
 *
 * @example
 * prependChain(state, ['old-1', 'old-2'])
 */
export function prependChain(state: AgentState, ids: readonly string[]): void {
  if (ids.length === 0) return
  const first = state.turnIds[0]
  const last = ids[ids.length - 1] as string
  if (first !== undefined) {
    const turn = own(state.turns, first)
    const roots = state.branches[ROOT] ?? []
    // Every old root moves under the prepended chain, so siblings stay siblings.
    for (const id of roots) {
      const root = own(state.turns, id)
      if (root && !ids.includes(id)) root.parentId = last
    }
    state.branches[last] = roots.filter((id) => !ids.includes(id))
    if (turn) state.selected[last] = first
  }
  let parent: string | undefined
  for (const id of ids) {
    const turn = own(state.turns, id)
    if (!turn) continue
    if (parent === undefined) delete turn.parentId
    else {
      turn.parentId = parent
      state.branches[parent] = [id]
      state.selected[parent] = id
    }
    parent = id
  }
  state.branches[ROOT] = [ids[0] as string]
  state.selected[ROOT] = ids[0] as string
  state.turnIds = [...ids, ...state.turnIds]
}

function walkDown(state: AgentState, path: string[]): string[] {
  const seen = new Set(path)
  let at = path.at(-1)
  while (at !== undefined) {
    const children = own(state.branches, at)
    if (!children || children.length === 0) break
    const chosen = own(state.selected, at)
    const next = chosen !== undefined && children.includes(chosen) ? chosen : children[children.length - 1]
    if (next === undefined || seen.has(next)) break
    seen.add(next)
    path.push(next)
    at = next
  }
  return path
}
