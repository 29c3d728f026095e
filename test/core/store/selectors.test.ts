import { describe, expect, it } from 'vitest'
import { fold } from '../../../src/core/fold/fold'
import { emptyState, type AgentState } from '../../../src/core/model/model'
import type { Op } from '../../../src/core/model/ops'
import { toTraceTable, traceRecord } from '../../../src/core/model/trace-table'
import {
  selectBlocks, selectCitation, selectGates, selectHeadline, selectMessage, selectThread, selectTraceList,
  selectTraceSummary, selectTraceTree, selectTurn, selectTurnMessages,
} from '../../../src/core/store/selectors'

const T = 't1'
const node = (id: string, fields: Record<string, unknown> = {}): Op =>
  ({ op: 'trace.node', turnId: T, node: { id, kind: 'tool', status: 'start', label: id, ...fields } }) as Op
const grow = (id: string, delta: string): Op => ({ op: 'trace.node', turnId: T, node: { id }, delta })

/** A turn mid-flight: reasoning, a delegate with two nested steps, a finished search, sources, a gate. */
function running(): AgentState {
  return fold(emptyState(), [
    { op: 'turn.open', turnId: T, role: 'assistant' },
    { op: 'block.open', turnId: T, blockId: 'b1', kind: 'llm', label: 'Answer' },
    { op: 'thread.open', turnId: T, threadId: 'th1', blockId: 'b1', label: 'Analyst' },
    { op: 'message.delta', turnId: T, messageId: 'm-r', type: 'reasoning', action: 'append', path: 'content', value: 'hmm' },
    { op: 'message.delta', turnId: T, messageId: 'm-t', type: 'text', action: 'append', path: 'content', value: 'Hi [1]' },
    node('reason', { kind: 'reason', label: 'Thinking' }),
    node('deleg', { kind: 'delegate', label: 'Delegating', status: 'progress' }),
    node('deleg-a', { parentId: 'deleg', label: 'Reading deals', status: 'done' }),
    node('deleg-b', { parentId: 'deleg', label: 'Searching notes', status: 'progress', kind: 'search' }),
    node('search', { kind: 'search', label: 'Searched', status: 'done' }),
    { op: 'source.add', turnId: T, source: { id: 's1', kind: 'document', title: 'One', citationIndex: 1 } },
    { op: 'source.add', turnId: T, source: { id: 's2', kind: 'document', title: 'Two', citationIndex: 2 } },
    { op: 'gate.open', gate: { id: 'g1', turnId: T, kind: 'hitl', question: 'OK?', payload: {} } },
  ])
}

describe('lookups', () => {
  it('finds turns, messages and threads by id, and nothing for an unknown or inherited id', () => {
    const state = running()
    expect(selectTurn(state, T)?.id).toBe(T)
    expect(selectMessage(state, 'm-t')?.props.content).toBe('Hi [1]')
    expect(selectThread(state, 'th1')?.label).toBe('Analyst')
    expect(selectTurn(state, 'nope')).toBeUndefined()
    expect(selectMessage(state, 'constructor')).toBeUndefined()
    expect(selectThread(state, 'toString')).toBeUndefined()
  })

  it('lists a turn\'s messages, blocks and gates in order', () => {
    const state = running()
    expect(selectTurnMessages(state, T).map((m) => m.id)).toEqual(['m-r', 'm-t'])
    expect(selectBlocks(state, T).map((b) => b.label)).toEqual(['Answer'])
    expect(selectGates(state, T).map((g) => g.question)).toEqual(['OK?'])
    expect(selectTurnMessages(state, 'nope')).toEqual([])
    expect(selectBlocks(state, 'nope')).toEqual([])
    expect(selectGates(state, 'nope')).toEqual([])
  })
})

describe('trace selectors', () => {
  it('builds the tree from root ids and child ids', () => {
    const tree = selectTraceTree(running(), T)
    expect(tree.map((i) => [i.node.id, i.children.map((c) => c.node.id)])).toEqual([
      ['reason', []], ['deleg', ['deleg-a', 'deleg-b']], ['search', []],
    ])
  })

  it('lists the rows depth first', () => {
    expect(selectTraceList(running(), T).map((n) => n.id)).toEqual(['reason', 'deleg', 'deleg-a', 'deleg-b', 'search'])
  })

  it('does not loop on a parent cycle', () => {
    const state = running()
    // Corrupt the tree by hand: no op can make this, but a selector must not hang on it.
    const looped: AgentState = {
      ...state,
      trace: toTraceTable({ ...traceRecord(state.trace), 'deleg-a': { ...traceRecord(state.trace)['deleg-a']!, childIds: ['deleg'] } }),
    }
    expect(selectTraceList(looped, T).map((n) => n.id)).toEqual(['reason', 'deleg', 'deleg-a', 'deleg-b', 'search'])
    expect(selectTraceTree(looped, T)[1]!.children[0]!.children).toEqual([])
  })

  it('heads the running timeline with the first unfinished row that is not reasoning', () => {
    const state = running()
    // `reason` is open but reasoning; `deleg` is the first open work row.
    expect(selectHeadline(state, T)?.id).toBe('deleg')
    const delegDone = fold(state, [node('deleg', { status: 'done' })])
    expect(selectHeadline(delegDone, T)?.id).toBe('deleg-b')
    const allDone = fold(delegDone, [node('deleg-b', { status: 'done' })])
    expect(selectHeadline(allDone, T)).toBeUndefined()
  })

  it('has no headline once the turn has landed', () => {
    const landed = fold(running(), [{ op: 'turn.finish', turnId: T, status: 'done' }])
    expect(selectHeadline(landed, T)).toBeUndefined()
  })

  it('summarises a landed turn as top-level steps (reasoning excluded) and sources', () => {
    const landed = fold(running(), [{ op: 'turn.finish', turnId: T, status: 'done' }])
    expect(selectTraceSummary(landed, T)).toEqual({ stepCount: 2, sourceCount: 2 })
  })

  it('counts distinct row citations as sources when the turn has none of its own', () => {
    const state = fold(emptyState(), [
      node('a', { status: 'done', citations: [{ title: 'A', link: 'https://a' }, { title: 'B' }] }),
      node('b', { status: 'done', citations: [{ title: 'A again', link: 'https://a' }] }),
    ])
    expect(selectTraceSummary(state, T)).toEqual({ stepCount: 2, sourceCount: 2 })
  })

  it('answers empty for a turn without rows', () => {
    const state = fold(emptyState(), [{ op: 'turn.open', turnId: T, role: 'assistant' }])
    expect(selectTraceTree(state, T)).toEqual([])
    expect(selectTraceList(state, T)).toEqual([])
    expect(selectTraceSummary(state, T)).toEqual({ stepCount: 0, sourceCount: 0 })
    expect(selectHeadline(state, T)).toBeUndefined()
  })
})

describe('selectCitation', () => {
  it('maps [n] to the source with that citation index', () => {
    const state = running()
    expect(selectCitation(state, T, 2)?.id).toBe('s2')
    expect(selectCitation(state, T, 3)).toBeUndefined()
    expect(selectCitation(state, T, 1.5)).toBeUndefined()
  })

  it('counts sources in order when none carries an index', () => {
    const state = fold(emptyState(), [
      { op: 'source.add', turnId: T, source: { id: 'u1', kind: 'url', url: 'https://a' } },
      { op: 'source.add', turnId: T, source: { id: 'u2', kind: 'url', url: 'https://b' } },
    ])
    expect(selectCitation(state, T, 2)?.id).toBe('u2')
    expect(selectCitation(state, T, 0)).toBeUndefined()
  })
})

describe('stable results', () => {
  it('returns the same list while its items are the same objects', () => {
    const state = running()
    const messages = selectTurnMessages(state, T)
    const list = selectTraceList(state, T)
    const tree = selectTraceTree(state, T)
    // A change elsewhere in the state (another turn's message) leaves these slices alone.
    const other = fold(state, [
      { op: 'message.delta', turnId: 't2', messageId: 'x', type: 'text', action: 'append', path: 'content', value: 'x' },
      { op: 'trace.node', turnId: 't2', node: { id: 'x-node', label: 'x' } },
    ])
    expect(selectTurnMessages(other, T)).toBe(messages)
    expect(selectTraceList(other, T)).toBe(list)
    expect(selectTraceTree(other, T)).toBe(tree)
    expect(selectTurnMessages(state, T)).toBe(messages)
  })

  it('rebuilds only the changed branch of the tree', () => {
    const state = running()
    const before = selectTraceTree(state, T)
    const after = selectTraceTree(fold(state, [grow('deleg-b', 'more')]), T)
    expect(after).not.toBe(before)
    expect(after[0]).toBe(before[0]) // reasoning row untouched
    expect(after[2]).toBe(before[2]) // search row untouched
    expect(after[1]).not.toBe(before[1])
    expect(after[1]!.children[0]).toBe(before[1]!.children[0])
    expect(after[1]!.children[1]!.node.text).toBe('more')
  })

  it('returns a new list when an item changed', () => {
    const state = running()
    const before = selectTurnMessages(state, T)
    const next = fold(state, [{ op: 'message.delta', turnId: T, messageId: 'm-t', action: 'append', path: 'content', value: '!' }])
    const after = selectTurnMessages(next, T)
    expect(after).not.toBe(before)
    expect(after[0]).toBe(before[0])
    expect(after[1]!.props.content).toBe('Hi [1]!')
  })

  it('keeps the summary object while the counts hold', () => {
    const state = running()
    const before = selectTraceSummary(state, T)
    expect(selectTraceSummary(fold(state, [grow('deleg-b', 'x')]), T)).toBe(before)
  })
})
