/**
 * The timeline's rows in buckets: a commit copies the bucket list and one bucket,
 * never every row (counted, not timed), and a stored conversation keeps the rows
 * as one record by id, so records written before the buckets load as they did.
 */
import { describe, expect, it } from 'vitest'
import { checkRecord, conversationRecord, stateOf, type ConversationRecord } from '../../../src/core/conversations/record'
import { fold } from '../../../src/core/fold/fold'
import { emptyState, type AgentState, type TraceNode } from '../../../src/core/model/model'
import type { Op } from '../../../src/core/model/ops'
import { toTraceTable, traceList, traceNodeIn, traceRecord, type TraceTable } from '../../../src/core/model/trace-table'
import { selectTraceList } from '../../../src/core/store/selectors'

/** Entries of the trace's containers that a commit made anew: the bucket list and each bucket that changed. */
function copied(before: TraceTable, after: TraceTable): number {
  if (after === before) return 0
  let entries = Object.keys(after).length
  for (const [bucket, rows] of Object.entries(after)) {
    if (rows !== (before as Record<string, unknown>)[bucket]) entries += Object.keys(rows).length
  }
  return entries
}

/** `calls` tool calls committed one op at a time, as the client does under `syncScheduler`; the entries each commit copied. */
function commitCalls(calls: number, nested: boolean): number[] {
  let state = fold(emptyState(), [
    { op: 'turn.open', turnId: 't1', role: 'assistant' },
    { op: 'trace.node', turnId: 't1', node: { id: 'step', kind: 'step', label: 'Step', status: 'start' } },
  ])
  const copies: number[] = []
  for (let i = 0; i < calls; i++) {
    const ops: Op[][] = [
      [{ op: 'trace.node', turnId: 't1', node: { id: `tool:${i}`, kind: 'tool', tool: 'plan', label: 'plan', status: 'start', ...(nested ? { parentId: 'step' } : {}) } }],
      [{ op: 'trace.node', turnId: 't1', node: { id: `tool:${i}`, status: 'done', args: { step: i } } }],
    ]
    for (const batch of ops) {
      const next = fold(state, batch)
      copies.push(copied(state.trace, next.trace))
      state = next
    }
  }
  expect(traceList(state.trace)).toHaveLength(calls + 1)
  return copies
}

describe('the timeline in buckets', () => {
  for (const nested of [false, true]) {
    it(`a commit that adds or changes a row copies the bucket list and one bucket, not the timeline (${nested ? 'under a step' : 'top level'})`, () => {
      const rows = 4_000
      const copies = commitCalls(rows, nested)
      const total = copies.reduce((a, b) => a + b, 0)
      // A flat record copied every row on every commit: about rows² entries (16M here). In 64 buckets a
      // commit copies the bucket list (64) and the bucket of each row it writes (the new row's and, under
      // a step, the step's): about rows / 64 each, 63 here, with room for the hash's spread.
      expect(Math.max(...copies)).toBeLessThanOrEqual(64 + 2 * ((2 * rows) / 64))
      expect(total).toBeLessThan((rows * rows) / 10)
    })
  }

  it('a record stored before the buckets (rows as one record by id) loads, and a save writes that shape again', () => {
    const row = (id: string, fields: Partial<TraceNode> = {}): TraceNode => ({
      id, turnId: 't1', kind: 'step', status: 'done', label: id, text: '', citations: [], childIds: [], ...fields,
    })
    const old = {
      format: 'weft.conversation', version: 1, id: 'c1', title: 'Trip', createdAt: 1, updatedAt: 2, revision: 3,
      state: {
        turnIds: ['t1'], branches: { '': ['t1'] }, selected: { '': 't1' },
        turns: { t1: { id: 't1', role: 'assistant', status: 'done', blockIds: [], messageIds: [], traceRootIds: ['search'], gateIds: [], sources: [], metadata: {}, problems: [] } },
        blocks: {}, threads: {}, messages: {}, gates: {}, agentState: {}, cursor: { eventCount: 0 },
        trace: { search: row('search', { childIds: ['hit'] }), hit: row('hit', { parentId: 'search', kind: 'tool' }) },
      },
    }
    const checked = checkRecord(JSON.parse(JSON.stringify(old)), 'c1')
    expect(checked.ok).toBe(true)
    const state: AgentState = stateOf((checked as { value: ConversationRecord }).value)
    expect(traceNodeIn(state.trace, 'hit')).toMatchObject({ parentId: 'search', kind: 'tool' })
    expect(selectTraceList(state, 't1').map((n) => n.id)).toEqual(['search', 'hit'])
    expect(state.trace).toEqual(toTraceTable(old.state.trace))
    const saved = conversationRecord({ id: 'c1', title: 'Trip', createdAt: 1, updatedAt: 3, revision: 4 }, state)
    expect(saved.state.trace).toEqual(old.state.trace)
    expect(traceRecord(state.trace)).toEqual(old.state.trace)
  })
})
