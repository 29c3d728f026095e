/**
 * Exact expectations for the tree of turns: where a new turn is attached and what
 * the active path becomes, what selecting a branch records, how the path is
 * walked when a selection is missing, stale or loops, and how history handed in
 * at the start is hung above the turns already there, including states that were
 * saved before turns knew their parents or that a host built by hand.
 */
import { describe, expect, it } from 'vitest'
import { pathTo, prependChain, selectTurnBranch } from '../../../src/core/fold/branches'
import { fold, produceWith } from '../../../src/core/fold/fold'
import { emptyState, type AgentState, type Turn } from '../../../src/core/model/model'
import type { Op } from '../../../src/core/model/ops'
import { checkRecord, conversationRecord, stateOf as recordState } from '../../../src/core/conversations/record'

const open = (turnId: string, role: 'user' | 'assistant', parentId?: string | null): Op =>
  parentId === undefined ? { op: 'turn.open', turnId, role } : { op: 'turn.open', turnId, role, parentId }

/** u1 → a1 → u2 → a2, then a regenerated a1b under u1, then an edited u1b at the root with its answer a3. */
function conversation(): AgentState {
  return fold(emptyState(), [
    open('u1', 'user'), open('a1', 'assistant'), open('u2', 'user'), open('a2', 'assistant'),
    open('a1b', 'assistant', 'u1'),
    open('u1b', 'user', null), open('a3', 'assistant'),
  ])
}

/** A finished turn record, as a stored state holds it. */
const turn = (id: string, role: Turn['role'], parentId?: string): Turn => ({
  id, role, status: 'done', ...(parentId === undefined ? {} : { parentId }),
  blockIds: [], messageIds: [], traceRootIds: [], gateIds: [], sources: [], metadata: {}, problems: [],
})

/** A state holding these turns and the given tree fields, everything else empty. */
const stateOf = (turns: Turn[], fields: Partial<AgentState>): AgentState =>
  ({ ...emptyState(), turns: Object.fromEntries(turns.map((t) => [t.id, t])), ...fields })

const tree = (state: AgentState) => ({ turnIds: state.turnIds, branches: state.branches, selected: state.selected })

describe('attaching a new turn', () => {
  it('a parent that names no turn makes the new turn a root, on a path of its own', () => {
    const state = fold(emptyState(), [open('u1', 'user'), open('a1', 'assistant'), open('x', 'user', 'ghost')])
    expect(tree(state)).toEqual({
      turnIds: ['x'],
      branches: { '': ['u1', 'x'], u1: ['a1'] },
      selected: { '': 'x', u1: 'a1' },
    })
    expect(state.turns.x).toStrictEqual({
      id: 'x', role: 'user', status: 'streaming', blockIds: [], messageIds: [], traceRootIds: [], gateIds: [],
      sources: [], metadata: {}, problems: [],
    })
  })

  it('in a state saved before turns had parents, a turn opened at the end is added to the path as it is', () => {
    const saved = stateOf([turn('u1', 'user'), turn('a1', 'assistant')], { turnIds: ['u1', 'a1'] })
    const state = fold(saved, [open('u2', 'user')])
    expect(tree(state)).toEqual({ turnIds: ['u1', 'a1', 'u2'], branches: { a1: ['u2'] }, selected: { a1: 'u2' } })
    expect(state.turns.u2!.parentId).toBe('a1')
  })

  it('with turns known but no path shown, a turn opened under one of them shows the path down to it', () => {
    const saved = { ...fold(emptyState(), [open('u1', 'user'), open('a1', 'assistant')]), turnIds: [] }
    const state = fold(saved, [open('a1b', 'assistant', 'u1')])
    expect(tree(state)).toEqual({
      turnIds: ['u1', 'a1b'],
      branches: { '': ['u1'], u1: ['a1', 'a1b'] },
      selected: { '': 'u1', u1: 'a1b' },
    })
  })

  it('with no turns at all, the first turn starts the path at the root', () => {
    const state = fold(emptyState(), [open('u1', 'user', null)])
    expect(tree(state)).toEqual({ turnIds: ['u1'], branches: { '': ['u1'] }, selected: { '': 'u1' } })
  })
})

describe('selecting a branch', () => {
  it('selecting an unknown turn directly throws an Error naming it', () => {
    let thrown: unknown
    try {
      selectTurnBranch(emptyState(), 'nope')
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(Error)
    expect((thrown as Error).constructor).toBe(Error)
    expect((thrown as Error).message).toBe('no turn "nope"')
  })

  it('selecting a turn records it as its parent\'s choice', () => {
    const state = fold(emptyState(), [
      open('u1', 'user'), open('a1', 'assistant'), open('u2', 'user'), open('a2', 'assistant'), open('a1b', 'assistant', 'u1'),
    ])
    expect(state.selected).toEqual({ '': 'u1', u1: 'a1b', a1: 'u2', u2: 'a2' })
    const next = fold(state, [{ op: 'branch.select', turnId: 'a1' }])
    expect(tree(next)).toEqual({
      turnIds: ['u1', 'a1', 'u2', 'a2'],
      branches: { '': ['u1'], u1: ['a1', 'a1b'], a1: ['u2'], u2: ['a2'] },
      selected: { '': 'u1', u1: 'a1', a1: 'u2', u2: 'a2' },
    })
  })

  it('selecting a root turn records it as the choice at the root', () => {
    const next = fold(conversation(), [{ op: 'branch.select', turnId: 'u1' }])
    expect(next.selected).toEqual({ '': 'u1', u1: 'a1b', a1: 'u2', u2: 'a2', u1b: 'a3' })
    expect(next.turnIds).toEqual(['u1', 'a1b'])
  })

  it('coming back to a turn walks down through the older child it had selected, not the newest one', () => {
    const state = fold(conversation(), [
      { op: 'branch.select', turnId: 'a1' },
      { op: 'branch.select', turnId: 'u1b' },
      { op: 'branch.select', turnId: 'u1' },
    ])
    expect(state.turnIds).toEqual(['u1', 'a1', 'u2', 'a2'])
  })

  it('a turn with children but no selection recorded walks down to its newest child', () => {
    const saved = stateOf([turn('u1', 'user'), turn('a1', 'assistant', 'u1'), turn('a1b', 'assistant', 'u1')], {
      turnIds: ['u1', 'a1'],
      branches: { '': ['u1'], u1: ['a1', 'a1b'] },
    })
    const state = fold(saved, [{ op: 'branch.select', turnId: 'u1' }])
    expect(tree(state)).toEqual({ turnIds: ['u1', 'a1b'], branches: { '': ['u1'], u1: ['a1', 'a1b'] }, selected: { '': 'u1' } })
  })

  it('a selection that names a turn which is not a child is ignored for the newest child', () => {
    const saved = stateOf([turn('u1', 'user'), turn('a1', 'assistant', 'u1'), turn('u2', 'user', 'a1'), turn('a1b', 'assistant', 'u1')], {
      turnIds: ['u1', 'a1', 'u2'],
      branches: { '': ['u1'], u1: ['a1', 'a1b'], a1: ['u2'] },
      selected: { '': 'u1', u1: 'u2', a1: 'u2' },
    })
    const state = fold(saved, [{ op: 'branch.select', turnId: 'u1' }])
    expect(state.turnIds).toEqual(['u1', 'a1b'])
  })

  it('a child list that leads back onto the path stops the walk there', () => {
    const saved = stateOf([turn('u1', 'user'), turn('a1', 'assistant', 'u1')], {
      turnIds: ['u1', 'a1'],
      branches: { '': ['u1'], u1: ['a1'], a1: ['u1'] },
      selected: { '': 'u1', u1: 'a1', a1: 'u1' },
    })
    const state = fold(saved, [{ op: 'branch.select', turnId: 'a1' }])
    expect(state.turnIds).toEqual(['u1', 'a1'])
  })
})

describe('the path to a turn', () => {
  it('is empty for no turn and for a turn that does not exist', () => {
    const state = conversation()
    expect(pathTo(state, undefined)).toEqual([])
    expect(pathTo(state, 'ghost')).toEqual([])
  })

  it('runs from the root down to the turn', () => {
    expect(pathTo(conversation(), 'a2')).toEqual(['u1', 'a1', 'u2', 'a2'])
  })

  it('stops at a parent that no longer exists', () => {
    const state = stateOf([turn('u2', 'user', 'gone'), turn('a2', 'assistant', 'u2')], {})
    expect(pathTo(state, 'a2')).toEqual(['u2', 'a2'])
  })

  it('stops where parents loop back', () => {
    const state = stateOf([turn('a', 'user', 'b'), turn('b', 'assistant', 'a')], {})
    expect(pathTo(state, 'a')).toEqual(['b', 'a'])
  })

  it('ends at a root even when a turn is named "undefined"', () => {
    const state = stateOf([turn('undefined', 'user'), turn('u1', 'user'), turn('a1', 'assistant', 'u1')], {})
    expect(pathTo(state, 'a1')).toEqual(['u1', 'a1'])
  })
})

describe('history handed in at the start', () => {
  const history: Op = {
    op: 'hydrate', at: 'start',
    turns: [{ turn: { id: 'h1', role: 'user' }, messages: [] }, { turn: { id: 'h2', role: 'assistant' }, messages: [] }],
  }

  it('into an empty state it becomes the whole tree, one chain', () => {
    const state = fold(emptyState(), [history])
    expect(tree(state)).toEqual({ turnIds: ['h1', 'h2'], branches: { '': ['h1'], h1: ['h2'] }, selected: { '': 'h1', h1: 'h2' } })
  })

  it('above a conversation, every old root hangs under its last turn and the shown root stays selected', () => {
    const state = fold(conversation(), [history])
    expect(tree(state)).toEqual({
      turnIds: ['h1', 'h2', 'u1b', 'a3'],
      branches: { '': ['h1'], h1: ['h2'], h2: ['u1', 'u1b'], u1: ['a1', 'a1b'], a1: ['u2'], u2: ['a2'], u1b: ['a3'] },
      selected: { '': 'h1', h1: 'h2', h2: 'u1b', u1: 'a1b', a1: 'u2', u2: 'a2', u1b: 'a3' },
    })
    expect(state.turns.u1!.parentId).toBe('h2')
    expect(state.turns.u1b!.parentId).toBe('h2')
    expect(state.turns.h1!.parentId).toBeUndefined()
    expect(state.turns.h2!.parentId).toBe('h1')
  })

  it('above a state saved before turns had parents, every branch entry names a turn', () => {
    const saved = stateOf([turn('u1', 'user'), turn('a1', 'assistant')], { turnIds: ['u1', 'a1'] })
    const state = fold(saved, [history])
    expect(state.turnIds).toEqual(['h1', 'h2', 'u1', 'a1'])
    const listed = Object.values(state.branches).flat()
    expect(listed.filter((id) => !Object.hasOwn(state.turns, id))).toEqual([])
  })

  it('a root entry whose turn is gone is skipped and the others still move', () => {
    const saved = stateOf([turn('u1', 'user'), turn('h1', 'user')], {
      turnIds: ['u1'], branches: { '': ['gone', 'u1'] }, selected: { '': 'u1' },
    })
    const state = produceWith(saved, (draft) => prependChain(draft, ['h1']))
    expect(tree(state)).toEqual({ turnIds: ['h1', 'u1'], branches: { '': ['h1'], h1: ['gone', 'u1'] }, selected: { '': 'h1', h1: 'u1' } })
    expect(state.turns.u1!.parentId).toBe('h1')
  })

  it('a chain that ends in a turn already at the root takes the other roots below it, not itself', () => {
    const base = fold(emptyState(), [open('r0', 'user'), open('r1', 'user', null), open('a1', 'assistant')])
    const saved: AgentState = { ...base, turns: { ...base.turns, h1: turn('h1', 'user') } }
    const state = produceWith(saved, (draft) => prependChain(draft, ['h1', 'r0']))
    expect(tree(state)).toEqual({
      turnIds: ['h1', 'r0', 'r1', 'a1'],
      branches: { '': ['h1'], h1: ['r0'], r0: ['r1'], r1: ['a1'] },
      selected: { '': 'h1', h1: 'r0', r0: 'r1', r1: 'a1' },
    })
    expect(state.turns.r0!.parentId).toBe('h1')
    expect(state.turns.r1!.parentId).toBe('r0')
  })

  it('a shown path whose first turn is gone selects nothing below the chain', () => {
    const saved = stateOf([turn('h1', 'user')], { turnIds: ['gone'] })
    const state = produceWith(saved, (draft) => prependChain(draft, ['h1']))
    expect(tree(state)).toEqual({ turnIds: ['h1', 'gone'], branches: { '': ['h1'], h1: [] }, selected: { '': 'h1' } })
  })

  it('an id in the chain that names no turn is passed over when linking the others', () => {
    const saved = stateOf([turn('h1', 'user'), turn('h2', 'assistant')], {})
    const state = produceWith(saved, (draft) => prependChain(draft, ['h1', 'gone', 'h2']))
    expect(state.branches).toEqual({ '': ['h1'], h1: ['h2'] })
    expect(state.selected).toEqual({ '': 'h1', h1: 'h2' })
    expect(state.turns.h2!.parentId).toBe('h1')
    expect(state.turns.h1!.parentId).toBeUndefined()
  })

  it('an empty chain changes nothing', () => {
    const before = conversation()
    const state = produceWith(before, (draft) => prependChain(draft, []))
    expect(state).toBe(before)
  })
})

describe('the active path keeps what was shown', () => {
  it('a conversation saved before branches loads as one chain, so regenerating its last answer keeps the turns above', () => {
    const saved = conversationRecord({ id: 'c1', title: 'Old', createdAt: 1, updatedAt: 1, revision: 1 }, {
      ...emptyState(),
      turns: { u1: turn('u1', 'user'), a1: turn('a1', 'assistant'), u2: turn('u2', 'user'), a2: turn('a2', 'assistant') },
      turnIds: ['u1', 'a1', 'u2', 'a2'],
    })
    delete (saved.state as { branches?: unknown; selected?: unknown }).branches
    delete (saved.state as { branches?: unknown; selected?: unknown }).selected
    const checked = checkRecord(structuredClone(saved), 'c1')
    if (!checked.ok) throw new Error(checked.error.message)
    const loaded = recordState(checked.value)
    expect(tree(loaded)).toEqual({
      turnIds: ['u1', 'a1', 'u2', 'a2'],
      branches: { '': ['u1'], u1: ['a1'], a1: ['u2'], u2: ['a2'] },
      selected: { '': 'u1', u1: 'a1', a1: 'u2', u2: 'a2' },
    })
    expect(['u1', 'a1', 'u2', 'a2'].map((id) => loaded.turns[id]!.parentId)).toEqual([undefined, 'u1', 'a1', 'u2'])
    const regenerated = fold(loaded, [open('a2b', 'assistant', 'u2')])
    expect(regenerated.turnIds).toEqual(['u1', 'a1', 'u2', 'a2b'])
    // A record that has its tree loads as it was saved.
    const current = checkRecord(conversationRecord({ id: 'c2', title: 'New', createdAt: 1, updatedAt: 1, revision: 1 }, regenerated), 'c2')
    if (!current.ok) throw new Error(current.error.message)
    expect(tree(recordState(current.value))).toEqual(tree(regenerated))
  })

  it('selecting a turn deep in another branch keeps the choice at every turn above it: coming back to its root shows that path', () => {
    const state = fold(emptyState(), [
      open('u1', 'user'), open('a1', 'assistant'), open('u2', 'user'), open('a2', 'assistant'),
      open('a1b', 'assistant', 'u1'),
      open('u1b', 'user', null), open('a3', 'assistant'),
      { op: 'branch.select', turnId: 'a2' },
    ])
    expect(state.turnIds).toEqual(['u1', 'a1', 'u2', 'a2'])
    expect(state.selected).toEqual({ '': 'u1', u1: 'a1', a1: 'u2', u2: 'a2', u1b: 'a3' })
    const back = fold(state, [{ op: 'branch.select', turnId: 'u1b' }, { op: 'branch.select', turnId: 'u1' }])
    expect(back.turnIds).toEqual(['u1', 'a1', 'u2', 'a2'])
  })
})
