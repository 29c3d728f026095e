/**
 * Exact expectations for the work timeline's fold: the defaults of a new row, which
 * fields a row op replaces, merges or may not touch, where rows are placed and moved
 * (parents that come later, cycles, rows of another turn), and how a tool failure
 * finds or makes the row it fails.
 */
import { describe, expect, it } from 'vitest'
import { fold } from '../../../src/core/fold/fold'
import { emptyState, type AgentState, type TraceNode } from '../../../src/core/model/model'
import type { Op, OpOf } from '../../../src/core/model/ops'
import { toTraceTable, traceRecord } from '../../../src/core/model/trace-table'

type NodePatch = OpOf<'trace.node'>['node']

const row = (node: NodePatch, delta?: string, turnId = 't1'): Op =>
  ({ op: 'trace.node', turnId, node, ...(delta !== undefined ? { delta } : {}) })
const fail = (fields: Omit<OpOf<'trace.fail'>, 'op' | 'turnId'>): Op => ({ op: 'trace.fail', turnId: 't1', ...fields })
const open: Op = { op: 'turn.open', turnId: 't1', role: 'assistant' }
const folded = (...ops: Op[]): AgentState => fold(emptyState(), [open, ...ops])

/** A row as the fold stores it, from the fields a test cares about. */
const stored = (fields: Partial<TraceNode> & { id: string }): TraceNode => ({
  turnId: 't1', kind: 'step', status: 'start', label: '', text: '', citations: [], childIds: [], ...fields,
})

describe('a new row', () => {
  it('named by its id alone, starts as an open step with an empty label, text, citations and children', () => {
    const state = folded(row({ id: 'n1' }))
    expect(traceRecord(state.trace).n1).toStrictEqual({
      id: 'n1', turnId: 't1', kind: 'step', status: 'start', label: '', text: '', citations: [], childIds: [],
    })
    expect(state.turns.t1!.traceRootIds).toEqual(['n1'])
    expect(state.turns.t1!.problems).toEqual([])
  })
})

describe('the fields a row op writes', () => {
  it('a field the op leaves out, or sends as undefined, keeps its value; one it names replaces it', () => {
    const state = folded(
      row({ id: 'n1', label: 'Searching', tool: 'search', status: 'progress' }),
      row({ id: 'n1', label: undefined, tool: undefined, status: 'done', result: { hits: 2 } }),
    )
    expect(traceRecord(state.trace).n1).toStrictEqual(stored({ id: 'n1', label: 'Searching', tool: 'search', status: 'done', result: { hits: 2 } }))
  })

  it('an op cannot rewrite a row\'s turn or its children', () => {
    const state = folded(
      row({ id: 'p' }),
      row({ id: 'c', parentId: 'p' }),
      row({ id: 'p', label: 'Plan', turnId: 't2', childIds: ['x'] } as NodePatch),
    )
    expect(traceRecord(state.trace).p).toStrictEqual(stored({ id: 'p', label: 'Plan', childIds: ['c'] }))
    expect(Object.keys(state.turns)).toEqual(['t1'])
  })

  it('extra merges key by key, and an extra that is not a record leaves it as it was', () => {
    const state = folded(
      row({ id: 'n1', extra: { a: 1, nested: { x: 1 } } }),
      row({ id: 'n1', extra: { nested: { y: 2 } } }),
      row({ id: 'n1', extra: 'oops' as unknown as Record<string, unknown> }),
      row({ id: 'n1', extra: [7] as unknown as Record<string, unknown> }),
    )
    expect(traceRecord(state.trace).n1!.extra).toStrictEqual({ a: 1, nested: { x: 1, y: 2 } })
  })

  it('a delta appends to the row\'s text', () => {
    const state = folded(row({ id: 'n1' }, 'Read'), row({ id: 'n1' }, 'ing'))
    expect(traceRecord(state.trace).n1!.text).toBe('Reading')
  })
})

describe('placing and moving rows', () => {
  it('a row whose parent is known nests under it; a row without one stays at the top', () => {
    const state = folded(row({ id: 'a' }), row({ id: 'b', parentId: 'a' }), row({ id: 'c' }))
    expect(state.turns.t1!.traceRootIds).toEqual(['a', 'c'])
    expect(traceRecord(state.trace).a!.childIds).toEqual(['b'])
  })

  it('a row sent again with another parent leaves its old parent for the new one', () => {
    const state = folded(
      row({ id: 'a' }), row({ id: 'b' }),
      row({ id: 'c', parentId: 'a' }),
      row({ id: 'c', parentId: 'b' }),
    )
    expect(state.turns.t1!.traceRootIds).toEqual(['a', 'b'])
    expect(traceRecord(state.trace).a!.childIds).toEqual([])
    expect(traceRecord(state.trace).b!.childIds).toEqual(['c'])
    expect(state.turns.t1!.problems).toEqual([])
  })

  it('the first top row, given a known parent in a later batch, leaves the top and nests under it', () => {
    const before = folded(row({ id: 'a' }), row({ id: 'b' }), row({ id: 'c' }))
    const state = fold(before, [row({ id: 'a', parentId: 'c' })])
    expect(state.turns.t1!.traceRootIds).toEqual(['b', 'c'])
    expect(traceRecord(state.trace).c!.childIds).toEqual(['a'])
    expect(state.turns.t1!.problems).toEqual([])
  })

  it('a top row in the middle, given a known parent in the same batch, moves under it', () => {
    const state = folded(row({ id: 'a' }), row({ id: 'b' }), row({ id: 'c' }), row({ id: 'b', parentId: 'a' }))
    expect(state.turns.t1!.traceRootIds).toEqual(['a', 'c'])
    expect(traceRecord(state.trace).a!.childIds).toEqual(['b'])
  })

  it('a row is not nested under its own descendant: it stays at the top with its children', () => {
    const state = folded(row({ id: 'a' }), row({ id: 'b', parentId: 'a' }), row({ id: 'a', parentId: 'b' }))
    expect(state.turns.t1!.traceRootIds).toEqual(['a'])
    expect(traceRecord(state.trace).a!.childIds).toEqual(['b'])
    expect(traceRecord(state.trace).b!.childIds).toEqual([])
    expect(state.turns.t1!.problems).toEqual([])
  })

  it('a row that names itself as its parent stays at the top', () => {
    const state = folded(row({ id: 'a', parentId: 'a' }))
    expect(state.turns.t1!.traceRootIds).toEqual(['a'])
    expect(traceRecord(state.trace).a!.childIds).toEqual([])
  })

  it('a row nests under a parent that still waits for a parent of its own', () => {
    const state = folded(row({ id: 'p', parentId: 'missing' }), row({ id: 'c', parentId: 'p' }))
    expect(state.turns.t1!.traceRootIds).toEqual(['p'])
    expect(traceRecord(state.trace).p!.childIds).toEqual(['c'])
    expect(state.turns.t1!.problems).toEqual([])
  })

  it('a row nests under a parent caught in a loop of parents that does not reach it', () => {
    const state = folded(
      row({ id: 'a' }), row({ id: 'b', parentId: 'a' }), row({ id: 'a', parentId: 'b' }),
      row({ id: 'c', parentId: 'a' }),
    )
    expect(state.turns.t1!.traceRootIds).toEqual(['a'])
    expect(traceRecord(state.trace).a!.childIds).toEqual(['b', 'c'])
    expect(state.turns.t1!.problems).toEqual([])
  })

  it('ancestors are followed for ten thousand rows and no further when looking for a loop', () => {
    // A chain n0 <- n1 <- ... <- n{depth}, then n0 sent with n{depth} as its parent.
    const chain = (depth: number): AgentState => {
      const start = folded()
      const trace: Record<string, TraceNode> = {}
      for (let i = 0; i <= depth; i++) {
        trace[`n${i}`] = stored({ id: `n${i}`, ...(i > 0 ? { parentId: `n${i - 1}` } : {}), childIds: i < depth ? [`n${i + 1}`] : [] })
      }
      const state: AgentState = { ...start, trace: toTraceTable(trace), turns: { t1: { ...start.turns.t1!, traceRootIds: ['n0'] } } }
      return fold(state, [row({ id: 'n0', parentId: `n${depth}` })])
    }
    const near = chain(9_999)
    expect(near.turns.t1!.traceRootIds).toEqual(['n0'])
    expect(traceRecord(near.trace).n9999!.childIds).toEqual([])
    const far = chain(10_000)
    expect(far.turns.t1!.traceRootIds).toEqual([])
    expect(traceRecord(far.trace).n10000!.childIds).toEqual(['n0'])
  })
})

describe('rows that arrive before their parent', () => {
  it('nest under it when it comes, in the order they had at the top, and rows waiting for others stay', () => {
    const state = folded(
      row({ id: 'r' }),
      row({ id: 'c1', parentId: 'p' }),
      row({ id: 'c2', parentId: 'q' }),
      row({ id: 'c3', parentId: 'p' }),
      row({ id: 'p' }),
    )
    expect(state.turns.t1!.traceRootIds).toEqual(['r', 'c2', 'p'])
    expect(traceRecord(state.trace).p!.childIds).toEqual(['c1', 'c3'])
    expect(traceRecord(state.trace).r!.childIds).toEqual([])
  })

  it('nest under a parent that names itself as its parent, which stays at the top', () => {
    const state = folded(row({ id: 'c', parentId: 'p' }), row({ id: 'p', parentId: 'p' }))
    expect(state.turns.t1!.traceRootIds).toEqual(['p'])
    expect(traceRecord(state.trace).p!.childIds).toEqual(['c'])
  })

  it('nest under it when it comes in a later batch', () => {
    const before = folded(row({ id: 'r' }), row({ id: 'c', parentId: 'p' }))
    const state = fold(before, [row({ id: 'p' })])
    expect(state.turns.t1!.traceRootIds).toEqual(['r', 'p'])
    expect(traceRecord(state.trace).p!.childIds).toEqual(['c'])
  })

  it('a row nested under a known parent leaves its turn as it was, while other rows wait', () => {
    const before = folded(row({ id: 'p' }), row({ id: 'w', parentId: 'missing' }))
    const state = fold(before, [row({ id: 'c', parentId: 'p' })])
    expect(state.turns.t1).toBe(before.turns.t1)
    expect(traceRecord(state.trace).p!.childIds).toEqual(['c'])
    expect(state.turns.t1!.traceRootIds).toEqual(['p', 'w'])
  })

  it('a waiting row sent under another turn\'s block and cleared with it breaks neither turn', () => {
    const state = folded(
      row({ id: 'c', parentId: 'p' }),
      row({ id: 'd', parentId: 'p' }),
      { op: 'block.open', turnId: 't2', blockId: 'B', kind: 'step' },
      row({ id: 'A' }, undefined, 't2'),
      row({ id: 'B' }, undefined, 't2'),
      row({ id: 'c', parentId: 'B' }, undefined, 't2'),
      { op: 'block.reset', blockId: 'B' },
      row({ id: 'p' }),
    )
    expect(Object.keys(traceRecord(state.trace)).sort()).toEqual(['A', 'B', 'd', 'p'])
    // `c` left t1's top level when it moved under B, so clearing B leaves no id behind.
    expect(state.turns.t1!.traceRootIds).toEqual(['p'])
    expect(traceRecord(state.trace).p!.childIds).toEqual(['d'])
    expect(state.turns.t2!.traceRootIds).toEqual(['A', 'B'])
    expect(traceRecord(state.trace).B!.childIds).toEqual([])
    expect(state.turns.t1!.problems).toEqual([])
    expect(state.turns.t2!.problems).toEqual([])
    const later = fold(state, [row({ id: 'e', parentId: 'p' })])
    expect(traceRecord(later.trace).p!.childIds).toEqual(['d', 'e'])
    expect(later.turns.t1!.problems).toEqual([])
  })
})

describe('a row named "undefined" is a row like any other', () => {
  it('rows without a parent do not nest under it', () => {
    const state = folded(row({ id: 'undefined' }), row({ id: 'r' }))
    expect(state.turns.t1!.traceRootIds).toEqual(['undefined', 'r'])
    expect(traceRecord(state.trace).undefined!.childIds).toEqual([])
  })

  it('it is not taken for the end of a chain of parents', () => {
    const state = folded(row({ id: 'undefined', parentId: 'c' }), row({ id: 'p' }), row({ id: 'c', parentId: 'p' }))
    expect(state.turns.t1!.traceRootIds).toEqual(['p'])
    expect(traceRecord(state.trace).p!.childIds).toEqual(['c'])
    expect(traceRecord(state.trace).c!.childIds).toEqual(['undefined'])
  })

  it('a tool failure fails the latest open row of the tool, not it', () => {
    const state = folded(
      row({ id: 'undefined', tool: 'search', status: 'progress' }),
      row({ id: 'n2', tool: 'search', status: 'progress' }),
      fail({ tool: 'search', message: 'boom' }),
    )
    expect(traceRecord(state.trace).undefined!.status).toBe('progress')
    expect(traceRecord(state.trace).n2).toStrictEqual(stored({ id: 'n2', tool: 'search', status: 'error', resultDetail: 'boom', text: 'boom' }))
  })
})

describe('a tool failure', () => {
  it('that names a row fails that row, even when a later row of the same tool is open', () => {
    const state = folded(
      row({ id: 's1', kind: 'tool', tool: 'search', status: 'progress' }),
      row({ id: 's2', kind: 'tool', tool: 'search', status: 'progress' }),
      fail({ nodeId: 's1', tool: 'search', message: 'boom' }),
    )
    expect(traceRecord(state.trace).s1).toStrictEqual(stored({ id: 's1', kind: 'tool', tool: 'search', status: 'error', resultDetail: 'boom', text: 'boom' }))
    expect(traceRecord(state.trace).s2).toStrictEqual(stored({ id: 's2', kind: 'tool', tool: 'search', status: 'progress' }))
  })

  it('that names a tool fails its latest open row, passing over later rows of other tools and finished ones', () => {
    const state = folded(
      row({ id: 's1', tool: 'search', status: 'progress' }),
      row({ id: 's2', tool: 'search', status: 'start' }),
      row({ id: 'f1', tool: 'fetch', status: 'progress' }),
      row({ id: 's3', tool: 'search', status: 'done' }),
      fail({ tool: 'search', message: 'timed out' }),
    )
    expect(Object.values(traceRecord(state.trace)).map((n) => [n.id, n.status]).sort()).toEqual([
      ['f1', 'progress'], ['s1', 'progress'], ['s2', 'error'], ['s3', 'done'],
    ])
    expect(traceRecord(state.trace).s2!.resultDetail).toBe('timed out')
  })

  it('looks through nested rows too', () => {
    const state = folded(
      row({ id: 'a' }),
      row({ id: 's1', parentId: 'a', tool: 'search', status: 'progress' }),
      row({ id: 'b' }),
      fail({ tool: 'search', message: 'x' }),
    )
    expect(traceRecord(state.trace).s1!.status).toBe('error')
    expect(Object.keys(traceRecord(state.trace)).sort()).toEqual(['a', 'b', 's1'])
  })

  it('with no open row of its tool adds a failed tool row, named after the turn and its count of top rows', () => {
    const state = folded(
      row({ id: 'r', status: 'done' }),
      row({ id: 's1', tool: 'search', status: 'done' }),
      fail({ tool: 'search', message: 'timed out' }),
    )
    expect(traceRecord(state.trace)['t1:tool-error:2']).toStrictEqual({
      id: 't1:tool-error:2', turnId: 't1', kind: 'tool', status: 'error', label: 'search', text: 'timed out',
      citations: [], childIds: [], tool: 'search', resultDetail: 'timed out',
    })
    expect(state.turns.t1!.traceRootIds).toEqual(['r', 's1', 't1:tool-error:2'])
    expect(state.turns.t1!.problems).toEqual([])
  })

  it('naming neither a row nor a tool adds a failed row labelled Tool', () => {
    const state = folded(fail({ message: 'crashed' }))
    expect(traceRecord(state.trace)).toStrictEqual({
      't1:tool-error:0': {
        id: 't1:tool-error:0', turnId: 't1', kind: 'tool', status: 'error', label: 'Tool', text: 'crashed',
        citations: [], childIds: [], resultDetail: 'crashed',
      },
    })
    expect(state.turns.t1!.traceRootIds).toEqual(['t1:tool-error:0'])
  })

  it('naming a row that does not exist adds a failed row under that id', () => {
    const state = folded(fail({ nodeId: 'tool-9', tool: 'fetch', message: '404' }))
    expect(traceRecord(state.trace)).toStrictEqual({
      'tool-9': stored({ id: 'tool-9', kind: 'tool', status: 'error', label: 'fetch', text: '404', tool: 'fetch', resultDetail: '404' }),
    })
  })

  it('adds its message on a line below the row\'s text, once', () => {
    const state = folded(
      row({ id: 's1', tool: 'search', status: 'progress' }, 'Searching'),
      fail({ nodeId: 's1', message: 'timed out' }),
      fail({ nodeId: 's1', message: 'timed out' }),
    )
    expect(traceRecord(state.trace).s1!.text).toBe('Searching\ntimed out')
    expect(traceRecord(state.trace).s1!.resultDetail).toBe('timed out')
  })
})

describe('a row updated by an op that names another turn', () => {
  it('stays in its own turn and nests under the parent it names the same way in one batch as op by op', () => {
    const ops: Op[] = [
      { op: 'turn.open', turnId: 't1', role: 'assistant' },
      { op: 'turn.open', turnId: 't2', role: 'assistant' },
      { op: 'trace.node', turnId: 't1', node: { id: 'c' } },
      { op: 'trace.node', turnId: 't2', node: { id: 'c', parentId: 'z' } },
      { op: 'trace.node', turnId: 't1', node: { id: 'z' } },
    ]
    const oneByOne = ops.reduce((state, op) => fold(state, [op]), emptyState())
    const together = fold(emptyState(), ops)
    for (const state of [oneByOne, together]) {
      expect(traceRecord(state.trace).z!.childIds).toEqual(['c'])
      expect(state.turns.t1!.traceRootIds).toEqual(['z'])
      expect(state.turns.t2!.traceRootIds).toEqual([])
      expect(traceRecord(state.trace).c!.turnId).toBe('t1')
    }
  })
})
