/**
 * Ids that would reach a prototype as record keys (`__proto__`, `constructor`,
 * `prototype`), wherever an op carries them: the op is refused as a whole, the
 * state stays as it was, and one problem names the id. The problem goes to the
 * op's turn when that id is usable, else to the active turn, else to the state.
 */
import { describe, expect, it } from 'vitest'
import { fold } from '../../../src/core/fold/fold'
import { emptyState, type AgentState } from '../../../src/core/model/model'
import type { HydratedTurn, Op } from '../../../src/core/model/ops'
import { traceRecord } from '../../../src/core/model/trace-table'

const refusal = (id: string, code: string) =>
  ({ type: 'protocol', message: `refused the id "${id}" sent by the server`, code, retryable: false })

const base = fold(emptyState(), [{ op: 'turn.open', turnId: 't1', role: 'assistant' }])
const withoutProblems = (state: AgentState): AgentState =>
  ({ ...state, turns: { ...state.turns, t1: { ...state.turns.t1!, problems: [] } } })

const gate = (id: string, turnId = 't1'): Op => ({ op: 'gate.open', gate: { id, turnId, kind: 'approval', question: '?', payload: null } })
const history = (turn: HydratedTurn['turn'], messages: HydratedTurn['messages'] = []): Op =>
  ({ op: 'hydrate', at: 'end', turns: [{ turn: { id: 'ok', role: 'user' }, messages: [{ id: 'fine', type: 'text' }] }, { turn, messages }] })

const cases: Array<[string, string, Op]> = [
  ['a timeline row id', '__proto__', { op: 'trace.node', turnId: 't1', node: { id: '__proto__', label: 'x' } }],
  ['a timeline row parent', 'constructor', { op: 'trace.node', turnId: 't1', node: { id: 'n1', parentId: 'constructor' } }],
  ['a gate id', 'prototype', gate('prototype')],
  ['the turn of a gate', '__proto__', gate('g1', '__proto__')],
  ['a history turn id', '__proto__', history({ id: '__proto__', role: 'assistant' })],
  ['a history message id', 'constructor', history({ id: 'h1', role: 'assistant' }, [{ id: 'constructor', type: 'text' }])],
  ['the block of a history message', 'prototype', history({ id: 'h1', role: 'assistant' }, [{ id: 'hm', type: 'text', blockId: 'prototype' }])],
  ['the lane of a history message', '__proto__', history({ id: 'h1', role: 'assistant' }, [{ id: 'hm', type: 'text', threadId: '__proto__' }])],
  ['a message id', 'prototype', { op: 'message.put', turnId: 't1', messageId: 'prototype', type: 'text', props: {} }],
  ['a block id', 'constructor', { op: 'block.close', blockId: 'constructor' }],
]

describe('an op that carries an unsafe id', () => {
  it.each(cases)('%s: refused as a whole, with one problem on the active turn', (_, id, op) => {
    const state = fold(base, [op])
    expect(state.turns.t1!.problems).toStrictEqual([refusal(id, op.op)])
    expect(withoutProblems(state)).toStrictEqual(base)
  })

  it('an unsafe turn id is not where the problem goes: the active turn takes it', () => {
    const state = fold(base, [{ op: 'block.open', turnId: '__proto__', blockId: 'b1', kind: 'step' }])
    expect(state.turns.t1!.problems).toStrictEqual([refusal('__proto__', 'block.open')])
    expect(withoutProblems(state)).toStrictEqual(base)
    expect(Object.getPrototypeOf(state.turns)).toBe(Object.prototype)
  })

  it('a turn id that is not a string is not where the problem goes either', () => {
    const op = { op: 'block.open', turnId: 7, blockId: 'constructor', kind: 'step' } as unknown as Op
    const state = fold(base, [op])
    expect(Object.keys(state.turns)).toEqual(['t1'])
    expect(state.turns.t1!.problems).toStrictEqual([refusal('constructor', 'block.open')])
  })

  it('the op names a usable turn: the problem goes there, even when another turn is active', () => {
    const two = fold(base, [{ op: 'turn.open', turnId: 't2', role: 'assistant' }])
    const state = fold(two, [{ op: 'trace.node', turnId: 't1', node: { id: '__proto__' } }])
    expect(state.turns.t1!.problems).toStrictEqual([refusal('__proto__', 'trace.node')])
    expect(state.turns.t2!.problems).toEqual([])
  })

  it('with no turn to go to, the problem is the state error', () => {
    const state = fold(emptyState(), [gate('__proto__', 'g')])
    expect(state.error).toStrictEqual(refusal('__proto__', 'gate.open'))
    expect(state.turns).toEqual({})
    expect(state.gates).toEqual({})
  })

  it('ids named like other members of Object.prototype are ordinary ids', () => {
    const state = fold(base, [gate('toString'), { op: 'trace.node', turnId: 't1', node: { id: 'valueOf', parentId: 'hasOwnProperty' } }])
    expect(Object.keys(state.gates)).toEqual(['toString'])
    expect(Object.keys(traceRecord(state.trace))).toEqual(['valueOf'])
    expect(state.turns.t1!.problems).toEqual([])
  })
})
