/**
 * Watching one entry of the store: a listener hears every change to its own
 * message, turn, thread, timeline row or gate (added, replaced, removed, reset),
 * and nothing of any other entry; unsubscribing stops it, once.
 */
import { describe, expect, it } from 'vitest'
import { subscribeEntry } from '../../../src/core/store/entry-subscriptions'
import { createAgentStore } from '../../../src/core/store/store'
import type { Op } from '../../../src/core/model/ops'
import { messageIn } from '../../../src/core/model/message-table'

const append = (messageId: string, value: string): Op => ({ op: 'message.delta', turnId: 't1', messageId, action: 'append', path: 'content', value })

function counter() {
  const calls: string[] = []
  return { calls, listen: (name: string) => () => calls.push(name) }
}

describe('subscribeEntry', () => {
  it('calls the listener of the message that changed and of no other', () => {
    const store = createAgentStore()
    store.getState().dispatch([{ op: 'turn.open', turnId: 't1', role: 'assistant' }, append('a', 'one'), append('b', 'two')])
    const { calls, listen } = counter()
    subscribeEntry(store, 'messages', 'a', listen('a'))
    subscribeEntry(store, 'messages', 'b', listen('b'))
    store.getState().dispatch([append('b', ' more')])
    store.getState().dispatch([append('b', ' and more')])
    store.getState().dispatch([append('a', '!')])
    expect(calls).toEqual(['b', 'b', 'a'])
  })

  it('hears an entry that did not exist yet appear, and hears it go', () => {
    const store = createAgentStore()
    const { calls, listen } = counter()
    subscribeEntry(store, 'messages', 'late', listen('late'))
    store.getState().dispatch([{ op: 'turn.open', turnId: 't1', role: 'assistant' }])
    expect(calls).toEqual([])
    store.getState().dispatch([append('late', 'here')])
    expect(calls).toEqual(['late'])
    store.getState().dispatch([{ op: 'message.remove', messageId: 'late' }])
    expect(calls).toEqual(['late', 'late'])
    expect(messageIn(store.getState().messages, 'late')).toBeUndefined()
  })

  it('a change that leaves the entry the same object calls nothing', () => {
    const store = createAgentStore()
    store.getState().dispatch([{ op: 'turn.open', turnId: 't1', role: 'assistant' }, append('a', 'one')])
    const { calls, listen } = counter()
    subscribeEntry(store, 'messages', 'a', listen('a'))
    subscribeEntry(store, 'turns', 't1', listen('t1'))
    store.getState().dispatch([{ op: 'stream.status', status: 'streaming' }])
    expect(calls).toEqual([])
    store.getState().dispatch([{ op: 'turn.finish', turnId: 't1', status: 'done' }])
    expect(calls).toEqual(['a', 't1'])
  })

  it('watches turns, threads, timeline rows and gates each in their own record', () => {
    const store = createAgentStore()
    const { calls, listen } = counter()
    subscribeEntry(store, 'turns', 't1', listen('turn'))
    subscribeEntry(store, 'threads', 'th1', listen('thread'))
    subscribeEntry(store, 'trace', 'n1', listen('row'))
    subscribeEntry(store, 'gates', 'g1', listen('gate'))
    store.getState().dispatch([{ op: 'turn.open', turnId: 't1', role: 'assistant' }])
    expect(calls).toEqual(['turn'])
    store.getState().dispatch([{ op: 'trace.node', turnId: 't1', node: { id: 'n1', label: 'Searched' } }])
    // A root row is listed on its turn, so the turn changed too.
    expect(calls).toEqual(['turn', 'turn', 'row'])
    store.getState().dispatch([{ op: 'message.delta', turnId: 't1', messageId: 'm1', blockId: 'b1', threadId: 'th1', action: 'append', path: 'content', value: 'x' }])
    expect(calls).toEqual(['turn', 'turn', 'row', 'turn', 'thread'])
  })

  it('a reset calls every listener whose entry it drops', () => {
    const store = createAgentStore()
    store.getState().dispatch([{ op: 'turn.open', turnId: 't1', role: 'assistant' }, append('a', 'one')])
    const { calls, listen } = counter()
    subscribeEntry(store, 'messages', 'a', listen('a'))
    subscribeEntry(store, 'messages', 'never', listen('never'))
    store.getState().reset()
    expect(calls).toEqual(['a'])
  })

  it('an unsubscribed listener hears nothing more, and unsubscribing twice changes nothing', () => {
    const store = createAgentStore()
    store.getState().dispatch([{ op: 'turn.open', turnId: 't1', role: 'assistant' }])
    const { calls, listen } = counter()
    const stopFirst = subscribeEntry(store, 'messages', 'a', listen('first'))
    subscribeEntry(store, 'messages', 'a', listen('second'))
    store.getState().dispatch([append('a', 'one')])
    stopFirst()
    stopFirst()
    store.getState().dispatch([append('a', ' two')])
    expect(calls).toEqual(['first', 'second', 'second'])
  })

  it('hears again after every listener left, on the same store', () => {
    const store = createAgentStore()
    store.getState().dispatch([{ op: 'turn.open', turnId: 't1', role: 'assistant' }])
    const { calls, listen } = counter()
    subscribeEntry(store, 'messages', 'a', listen('gone'))()
    store.getState().dispatch([append('a', 'one')])
    subscribeEntry(store, 'messages', 'a', listen('back'))
    store.getState().dispatch([append('a', ' two')])
    expect(calls).toEqual(['back'])
  })

  it('a listener that unsubscribes another of the same entry does not stop it this once', () => {
    const store = createAgentStore()
    store.getState().dispatch([{ op: 'turn.open', turnId: 't1', role: 'assistant' }])
    const calls: string[] = []
    let stopSecond = () => {}
    subscribeEntry(store, 'messages', 'a', () => {
      calls.push('first')
      stopSecond()
    })
    stopSecond = subscribeEntry(store, 'messages', 'a', () => calls.push('second'))
    store.getState().dispatch([append('a', 'one')])
    store.getState().dispatch([append('a', ' two')])
    expect(calls).toEqual(['first', 'second', 'first'])
  })

  it('an id such as __proto__ or constructor is an entry like any other, never the record\'s prototype', () => {
    const store = createAgentStore()
    store.getState().dispatch([{ op: 'turn.open', turnId: 't1', role: 'assistant' }])
    const { calls, listen } = counter()
    subscribeEntry(store, 'messages', '__proto__', listen('proto'))
    subscribeEntry(store, 'messages', 'constructor', listen('ctor'))
    store.getState().dispatch([append('a', 'one')])
    expect(calls).toEqual([])
  })
})
