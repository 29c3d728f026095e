import { describe, expect, it } from 'vitest'
import { memo, sameItems, type Memo } from '../../../src/core/util/memo'

describe('memo: one value per key, recomputed only when a dependency changes identity', () => {
  it('reuses the value while the dependencies are the same objects', () => {
    const cache = new WeakMap<object, Memo<number[]>>()
    const key = {}
    const deps = [{}, {}]
    let runs = 0
    const first = memo(cache, key, deps, () => [++runs])
    expect(memo(cache, key, [...deps], () => [++runs])).toBe(first)
    expect(runs).toBe(1)
  })

  it('recomputes when a dependency is replaced, and keeps the old array when its items did not change', () => {
    const cache = new WeakMap<object, Memo<object[]>>()
    const key = {}
    const a = {}
    const first = memo(cache, key, [{}], () => [a])
    const second = memo(cache, key, [{}], () => [a])
    expect(second).toBe(first)
    const b = {}
    const third = memo(cache, key, [{}], () => [a, b])
    expect(third).not.toBe(first)
    expect(third).toEqual([a, b])
  })

  it('a `same` that says equal keeps the previous value; each key has its own entry', () => {
    const cache = new WeakMap<object, Memo<{ n: number }>>()
    const one = {}
    const two = {}
    const kept = memo(cache, one, [1], () => ({ n: 1 }), (x, y) => x.n === y.n)
    expect(memo(cache, one, [2], () => ({ n: 1 }), (x, y) => x.n === y.n)).toBe(kept)
    expect(memo(cache, two, [2], () => ({ n: 1 }), (x, y) => x.n === y.n)).not.toBe(kept)
  })

  it('sameItems compares by identity and order', () => {
    const x = {}
    const y = {}
    expect(sameItems([x, y], [x, y])).toBe(true)
    expect(sameItems([x, y], [y, x])).toBe(false)
    expect(sameItems([x], [x, y])).toBe(false)
    expect(sameItems([{}], [{}])).toBe(false)
  })
})
