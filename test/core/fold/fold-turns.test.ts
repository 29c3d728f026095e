/**
 * Exact expectations for opening a turn (again) and for the run fields a
 * `turn.open` or `turn.update` carries: each one it names is set, each one it
 * does not name keeps its value.
 */
import { describe, expect, it } from 'vitest'
import { weftError } from '../../../src/core/model/errors'
import { fold } from '../../../src/core/fold/fold'
import { emptyState, type AgentState, type Turn } from '../../../src/core/model/model'
import type { Op } from '../../../src/core/model/ops'

const bare = (id: string, fields: Partial<Turn> = {}): Turn => ({
  id, role: 'assistant', status: 'streaming', blockIds: [], messageIds: [], traceRootIds: [], gateIds: [],
  sources: [], metadata: {}, problems: [], ...fields,
})

describe('opening a turn', () => {
  it('a finished turn opened again streams again, without the error it finished with; its problems stay', () => {
    const problem = weftError('protocol', 'odd frame')
    const state = fold(emptyState(), [
      { op: 'turn.open', turnId: 't1', role: 'assistant' },
      { op: 'problem', turnId: 't1', error: problem },
      { op: 'turn.finish', turnId: 't1', status: 'error', error: weftError('network', 'lost') },
      { op: 'turn.open', turnId: 't1', role: 'assistant' },
    ])
    expect(state.turns.t1).toStrictEqual(bare('t1', { problems: [problem] }))
    expect(state.activeTurnId).toBe('t1')
  })

  it('a turn that still streams keeps what it has, an error included, and takes the role the open names', () => {
    const base = fold(emptyState(), [{ op: 'turn.open', turnId: 't1', role: 'assistant' }])
    const error = weftError('network', 'lost')
    // A streaming turn with an error: restored by a host, or handed over by history.
    const restored: AgentState = { ...base, turns: { t1: { ...base.turns.t1!, error } } }
    const state = fold(restored, [{ op: 'turn.open', turnId: 't1', role: 'system' }])
    expect(state.turns.t1).toStrictEqual(bare('t1', { role: 'system', error }))
  })
})

describe('the run fields of a turn', () => {
  const full: Op = {
    op: 'turn.open', turnId: 't1', role: 'assistant', runId: 'r1', threadId: 'th1', protocol: 'yao',
    usage: { input: 3 }, finishReason: 'stop', suggestions: ['More?'], metadata: { a: 1 },
  }
  const fields = {
    runId: 'r1', threadId: 'th1', protocol: 'yao', usage: { input: 3 }, finishReason: 'stop', suggestions: ['More?'], metadata: { a: 1 },
  }

  it('an open sets each field it names', () => {
    expect(fold(emptyState(), [full]).turns.t1).toStrictEqual(bare('t1', fields))
  })

  it('an update that names none of them keeps them all; metadata merges', () => {
    const state = fold(emptyState(), [full, { op: 'turn.update', turnId: 't1', metadata: { b: 2 } }])
    expect(state.turns.t1).toStrictEqual(bare('t1', { ...fields, metadata: { a: 1, b: 2 } }))
    const opened = fold(state, [{ op: 'turn.open', turnId: 't1', role: 'assistant' }])
    expect(opened.turns.t1).toStrictEqual(state.turns.t1)
  })

  it('an update replaces the fields it names', () => {
    const state = fold(emptyState(), [full, {
      op: 'turn.update', turnId: 't1', runId: 'r2', threadId: 'th2', protocol: 'ag-ui', usage: { output: 5 },
      finishReason: 'length', suggestions: [], metadata: { a: 9 },
    }])
    expect(state.turns.t1).toStrictEqual(bare('t1', {
      runId: 'r2', threadId: 'th2', protocol: 'ag-ui', usage: { output: 5 }, finishReason: 'length', suggestions: [], metadata: { a: 9 },
    }))
  })

  it('suggestions keep only their strings, in order', () => {
    const suggestions = ['a', 1, 'b', null, { text: 'c' }, 'c'] as unknown as string[]
    const state = fold(emptyState(), [{ op: 'turn.update', turnId: 't1', suggestions }])
    expect(state.turns.t1!.suggestions).toStrictEqual(['a', 'b', 'c'])
  })

  it('metadata that is not a record is left out', () => {
    for (const metadata of [['x'], 'ab', null, 7]) {
      const state = fold(emptyState(), [full, { op: 'turn.update', turnId: 't1', metadata: metadata as unknown as Record<string, unknown> }])
      expect(state.turns.t1!.metadata, JSON.stringify(metadata)).toStrictEqual({ a: 1 })
      expect(state.turns.t1!.problems).toEqual([])
    }
  })

  it('an update of an unknown turn makes it, after the last turn, without making it active', () => {
    const state = fold(emptyState(), [{ op: 'turn.open', turnId: 't1', role: 'user' }, { op: 'turn.update', turnId: 't2', runId: 'r2' }])
    expect(state.turns.t2).toStrictEqual(bare('t2', { parentId: 't1', runId: 'r2' }))
    expect(state.turnIds).toEqual(['t1', 't2'])
    expect(state.activeTurnId).toBe('t1')
  })
})
