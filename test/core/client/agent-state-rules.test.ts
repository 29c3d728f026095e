/**
 * What the page gives the agent beside the conversation, exactly: `setAgentState`
 * (a value or an updater, applied at once; refused whole, with nothing changed,
 * unless it is a plain object of JSON data with no prototype keys at any depth)
 * and `addContext` (a private copy, removed by its own `remove`, the same refusals).
 */
import { describe, expect, it } from 'vitest'
import { addContext, setAgentState } from '../../../src/core/client/agent-state'
import type { ContextEntry } from '../../../src/core/protocol/request'
import { createAgentStore } from '../../../src/core/store/store'

const NOT_JSON = 'the agent state must be a plain object of JSON data (no functions, class instances, cycles or prototype keys)'
const refusedState = { ok: false, error: { type: 'validation', message: NOT_JSON, code: 'not_json', retryable: false } }
const refusedEntry = { ok: false, error: { type: 'validation', message: 'a context entry is { description: string, value: JSON data }', code: 'not_json', retryable: false } }

/** A key the JSON text carries as an own property, as a server's or a page's parsed data would. */
const withKey = (key: string, nested = false) => JSON.parse(nested ? `{"a":[{"b":{"${key}":1}}]}` : `{"${key}":1}`) as Record<string, unknown>

describe('setAgentState', () => {
  it('a value replaces the agent state at once, and says ok', () => {
    const store = createAgentStore()
    store.getState().dispatch([{ op: 'agentState.set', value: { plan: ['a'] } }])
    expect(setAgentState(store, { theme: 'teal', steps: [1, { done: true }] })).toEqual({ ok: true })
    expect(store.getState().agentState).toEqual({ theme: 'teal', steps: [1, { done: true }] })
  })

  it('an updater is handed the current state and its result replaces it', () => {
    const store = createAgentStore()
    store.getState().dispatch([{ op: 'agentState.set', value: { count: 1 } }])
    const seen: unknown[] = []
    expect(setAgentState(store, (current) => {
      seen.push(current)
      return { ...current, count: Number(current.count) + 1 }
    })).toEqual({ ok: true })
    expect(seen).toEqual([{ count: 1 }])
    expect(store.getState().agentState).toEqual({ count: 2 })
  })

  it('an updater that throws is refused with what it threw, an Error\'s message or the value as text', () => {
    const store = createAgentStore()
    expect(setAgentState(store, () => {
      throw new Error('no plan')
    })).toEqual({ ok: false, error: { type: 'validation', message: 'the state update threw: no plan', code: 'not_json', retryable: false } })
    expect(setAgentState(store, () => {
      throw 'nope'
    })).toEqual({ ok: false, error: { type: 'validation', message: 'the state update threw: nope', code: 'not_json', retryable: false } })
    expect(store.getState().agentState).toEqual({})
  })

  it.each([
    ['an array', [1, 2]],
    ['a string', 'teal'],
    ['null', null],
    ['a function inside', { run: () => 1 }],
    ['a class instance inside', { at: new Date(0) }],
    ['a prototype key', withKey('__proto__')],
    ['a constructor key deep in an array', withKey('constructor', true)],
    ['a prototype key deep in an array', withKey('prototype', true)],
  ])('refuses %s and changes nothing', (_name, value) => {
    const store = createAgentStore()
    store.getState().dispatch([{ op: 'agentState.set', value: { kept: true } }])
    const before = store.getState().agentState
    expect(setAgentState(store, value as Record<string, unknown>)).toEqual(refusedState)
    expect(store.getState().agentState).toBe(before)
  })

  it('takes keys that only look like prototype keys, at any depth', () => {
    const store = createAgentStore()
    const value = { a: [{ b: { proto: 1, constructors: [2], __proto: 3 } }], list: [[{ x: 'y' }]] }
    expect(setAgentState(store, value)).toEqual({ ok: true })
    expect(store.getState().agentState).toEqual(value)
  })
})

describe('addContext', () => {
  it('adds a copy: a later change of the host\'s object is not sent; remove takes it out, and only it', () => {
    const entries = new Set<ContextEntry>()
    const value = { title: 'Q3 report', tags: ['a'] }
    const first = addContext(entries, { description: 'The open document', value })
    const second = addContext(entries, { description: 'Theme', value: 'dark' })
    expect(first.ok && second.ok).toBe(true)
    value.tags.push('b')
    expect([...entries]).toEqual([{ description: 'The open document', value: { title: 'Q3 report', tags: ['a'] } }, { description: 'Theme', value: 'dark' }])
    if (first.ok) first.remove()
    expect([...entries]).toEqual([{ description: 'Theme', value: 'dark' }])
    if (first.ok) first.remove()
    expect(entries.size).toBe(1)
  })

  it('keeps only the description and the value', () => {
    const entries = new Set<ContextEntry>()
    addContext(entries, { description: 'd', value: 1, extra: 'dropped' } as ContextEntry)
    expect([...entries]).toEqual([{ description: 'd', value: 1 }])
  })

  it.each([
    ['not an object', 'just text'],
    ['null', null],
    ['a description that is not text', { description: 3, value: 1 }],
    ['no description', { value: 1 }],
    ['a value that is not JSON data', { description: 'd', value: () => 1 }],
    ['a value with a prototype key', { description: 'd', value: withKey('__proto__') }],
    ['a value with a prototype key deep in an array', { description: 'd', value: withKey('constructor', true) }],
  ])('refuses %s and adds nothing', (_name, entry) => {
    const entries = new Set<ContextEntry>()
    expect(addContext(entries, entry as ContextEntry)).toEqual(refusedEntry)
    expect(entries.size).toBe(0)
  })
})
