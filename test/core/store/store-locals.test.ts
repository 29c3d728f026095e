/**
 * Per-store locals live on the store object, out of its model: never enumerable,
 * never in the state or a snapshot, one set per store, and still there when a
 * host freezes a store made by `createAgentStore`.
 */
import { describe, expect, it } from 'vitest'
import { createStore } from 'zustand/vanilla'
import { findStoreLocal, storeLocal, storeLocalKey } from '../../../src/core/store/store-locals'
import { createAgentStore, snapshot } from '../../../src/core/store/store'
import { subscribeEntry } from '../../../src/core/store/entry-subscriptions'
import { findTurnMemory, openTurnMemory } from '../../../src/core/resume/turn-memory'

const COUNT = storeLocalKey<{ n: number }>('test count')

describe('store locals', () => {
  it('are made once per store and kept apart between stores', () => {
    const a = createAgentStore()
    const b = createAgentStore()
    const local = storeLocal(a, COUNT, () => ({ n: 1 }))
    expect(storeLocal(a, COUNT, () => ({ n: 2 }))).toBe(local)
    expect(findStoreLocal(b, COUNT)).toBeUndefined()
    expect(storeLocal(b, COUNT, () => ({ n: 3 })).n).toBe(3)
  })

  it('are neither enumerable, nor in the state, nor in a snapshot', () => {
    const store = createAgentStore()
    openTurnMemory(store, 't1')
    subscribeEntry(store, 'messages', 'm1', () => {})
    const keys = Object.keys(store)
    expect(keys.sort()).toEqual(Object.keys(createStore(() => ({}))).sort())
    expect(Object.getOwnPropertySymbols(store).every((s) => !Object.getOwnPropertyDescriptor(store, s)!.enumerable)).toBe(true)
    expect(JSON.parse(JSON.stringify(snapshot(store.getState())))).toEqual(snapshot(createAgentStore().getState()))
  })

  it('still work on a store its host froze after making it', () => {
    const store = Object.freeze(createAgentStore())
    const memory = openTurnMemory(store, 't1')
    expect(findTurnMemory(store, 't1')).toBe(memory)
    const calls: string[] = []
    subscribeEntry(store, 'turns', 't1', () => calls.push('t1'))
    store.getState().dispatch([{ op: 'turn.open', turnId: 't1', role: 'assistant' }])
    expect(calls).toEqual(['t1'])
  })

  it('are given on first use to an owner that is not a weft store', () => {
    const owner = {}
    expect(findTurnMemory(owner, 't1')).toBeUndefined()
    const memory = openTurnMemory(owner, 't1')
    expect(findTurnMemory(owner, 't1')).toBe(memory)
    expect(Object.keys(owner)).toEqual([])
  })

  it('are refused with a clear error by an owner that cannot take them', () => {
    const frozen = Object.freeze({})
    expect(findTurnMemory(frozen, 't1')).toBeUndefined()
    expect(() => openTurnMemory(frozen, 't1')).toThrow(/frozen or sealed/)
  })
})
