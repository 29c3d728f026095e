import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { protocolProblem } from '../../../src/core/protocol/problem'
import { recordOf } from '../../../src/core/util/record'
import { defined, finiteNumber, idOf, nonEmpty, safeJson, stringOf } from '../../../src/core/util/values'

describe('shared value helpers', () => {
  it('read ids, text and numbers the same way for every decoder', () => {
    expect(idOf('a')).toBe('a')
    expect(idOf(3)).toBe('3')
    expect(idOf('')).toBeUndefined()
    expect(idOf(Number.NaN)).toBeUndefined()
    expect(nonEmpty('')).toBeUndefined()
    expect(nonEmpty(1)).toBeUndefined()
    expect(stringOf('')).toBe('')
    expect(finiteNumber(Infinity)).toBeUndefined()
    expect(recordOf([])).toBeUndefined()
    expect(defined({ a: 1, b: undefined })).toEqual({ a: 1 })
    expect(Object.keys(defined({ a: undefined }))).toEqual([])
  })

  it('safeJson never throws and spells JSON values as JSON.stringify does', () => {
    fc.assert(fc.property(fc.jsonValue(), (value) => {
      expect(safeJson(value)).toBe(JSON.stringify(value))
    }))
    const cycle: Record<string, unknown> = {}
    cycle.self = cycle
    expect(safeJson(cycle)).toBe('[object Object]')
    expect(safeJson(10n)).toBe('10')
    expect(safeJson(undefined)).toBe('undefined')
  })

  it('a protocol problem quotes what arrived, and nothing when nothing did', () => {
    const op = protocolProblem('t1', 'a chunk without a type', { delta: 'x' }, 'missing_type')
    expect(op).toMatchObject({ op: 'problem', turnId: 't1', error: { type: 'protocol', code: 'missing_type', detail: '{"delta":"x"}' } })
    expect(protocolProblem('t1', 'bad').error).not.toHaveProperty('detail')
    expect(protocolProblem('t1', 'bad').error).not.toHaveProperty('code')
  })
})
