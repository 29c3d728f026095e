import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { selectBranch, siblingAt } from '../../../src/core/store/branches'
import { fold } from '../../../src/core/fold/fold'
import { emptyState, type AgentState } from '../../../src/core/model/model'
import type { Op } from '../../../src/core/model/ops'

const open = (turnId: string, role: 'user' | 'assistant', parentId?: string | null): Op =>
  parentId === undefined ? { op: 'turn.open', turnId, role } : { op: 'turn.open', turnId, role, parentId }

/** u1 → a1, then a regenerated a1b under u1, then an edited u1b at the root with its answer. */
function conversation(): AgentState {
  return fold(emptyState(), [
    open('u1', 'user'), open('a1', 'assistant'), open('u2', 'user'), open('a2', 'assistant'),
    open('a1b', 'assistant', 'u1'),
    open('u1b', 'user', null), open('a3', 'assistant'),
  ])
}

describe('tree of turns', () => {
  it('appends to the active path by default and keeps every branch', () => {
    const state = conversation()
    expect(state.turnIds).toEqual(['u1b', 'a3'])
    expect(state.branches['']).toEqual(['u1', 'u1b'])
    expect(state.branches.u1).toEqual(['a1', 'a1b'])
    expect(Object.keys(state.turns).sort()).toEqual(['a1', 'a1b', 'a2', 'a3', 'u1', 'u1b', 'u2'])
    expect(state.turns.a1b?.parentId).toBe('u1')
    expect(state.turns.u1b?.parentId).toBeUndefined()
  })

  it('a regenerated answer replaces the path below its parent', () => {
    const state = fold(emptyState(), [open('u1', 'user'), open('a1', 'assistant'), open('u2', 'user'), open('a2', 'assistant'), open('a1b', 'assistant', 'u1')])
    expect(state.turnIds).toEqual(['u1', 'a1b'])
    expect(selectBranch(state, 'a1b')).toMatchObject({ index: 1, count: 2 })
  })

  it('switching back restores the path the branch last showed', () => {
    let state = conversation()
    state = fold(state, [{ op: 'branch.select', turnId: 'u1' }])
    // Under u1 the regenerated answer was the last one selected.
    expect(state.turnIds).toEqual(['u1', 'a1b'])
    state = fold(state, [{ op: 'branch.select', turnId: 'a1' }])
    expect(state.turnIds).toEqual(['u1', 'a1', 'u2', 'a2'])
    state = fold(state, [{ op: 'branch.select', turnId: 'u1b' }])
    expect(state.turnIds).toEqual(['u1b', 'a3'])
  })

  it('selecting an unknown turn is a problem and changes nothing', () => {
    const state = conversation()
    const next = fold(state, [{ op: 'branch.select', turnId: 'nope' }])
    expect(next.turnIds).toEqual(state.turnIds)
    expect(next.error?.type).toBe('validation')
    expect(next.turns.nope).toBeUndefined()
  })

  it('siblingAt clamps', () => {
    const state = conversation()
    expect(siblingAt(state, 'a1', 5)).toBe('a1b')
    expect(siblingAt(state, 'a1b', -1)).toBe('a1')
    expect(selectBranch(state, 'a3')).toMatchObject({ index: 0, count: 1 })
    expect(selectBranch(state, 'a1')).toBe(selectBranch(state, 'a1'))
  })

  it('history prepended at the start becomes the root of the tree', () => {
    let state = fold(emptyState(), [open('u3', 'user'), open('a3', 'assistant')])
    state = fold(state, [{
      op: 'hydrate', at: 'start',
      turns: [{ turn: { id: 'u1', role: 'user' }, messages: [] }, { turn: { id: 'a1', role: 'assistant' }, messages: [] }],
    }])
    expect(state.turnIds).toEqual(['u1', 'a1', 'u3', 'a3'])
    expect(state.turns.u3?.parentId).toBe('a1')
    state = fold(state, [open('a3b', 'assistant', 'u3'), { op: 'branch.select', turnId: 'a3' }])
    expect(state.turnIds).toEqual(['u1', 'a1', 'u3', 'a3'])
  })

  it('any sequence of opens and selects keeps the active path a chain of parents, and loses no turn', () => {
    const action = fc.oneof(
      fc.record({ kind: fc.constant('open' as const), parent: fc.nat(20), root: fc.boolean() }),
      fc.record({ kind: fc.constant('select' as const), at: fc.nat(20) }),
    )
    fc.assert(fc.property(fc.array(action, { maxLength: 40 }), (actions) => {
      let state = emptyState()
      const made: string[] = []
      for (const a of actions) {
        if (a.kind === 'open') {
          const id = `t${made.length}`
          const parent = a.root ? null : made.length ? made[a.parent % made.length] : undefined
          state = fold(state, [open(id, made.length % 2 ? 'assistant' : 'user', parent)])
          made.push(id)
          expect(state.turnIds.at(-1)).toBe(id)
        } else if (made.length) {
          const id = made[a.at % made.length] as string
          state = fold(state, [{ op: 'branch.select', turnId: id }])
          expect(state.turnIds).toContain(id)
        }
        state.turnIds.forEach((id, i) => expect(state.turns[id]?.parentId).toBe(i === 0 ? undefined : state.turnIds[i - 1]))
      }
      const listed = Object.values(state.branches).flat().sort()
      expect(listed).toEqual([...made].sort())
    }))
  })
})

describe('selectBranch of a turn alone', () => {
  it('a turn asked about before it exists is counted once it does, and in each store on its own', () => {
    const before = selectBranch(emptyState(), 'solo')
    expect(before).toEqual({ index: 0, count: 0, siblingIds: [] })
    const state = fold(emptyState(), [{ op: 'turn.open', turnId: 'solo', role: 'user' }])
    const after = selectBranch(state, 'solo')
    expect(after).toEqual({ index: 0, count: 1, siblingIds: ['solo'] })
    // The same while the turn is the same: a selector that returns it does not re-render.
    expect(selectBranch(state, 'solo')).toBe(after)
    expect(selectBranch(emptyState(), 'solo')).toEqual({ index: 0, count: 0, siblingIds: [] })
  })
})
