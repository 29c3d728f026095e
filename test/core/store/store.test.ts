import { describe, expect, it } from 'vitest'
import { createBatcher, syncScheduler } from '../../../src/core/store/batcher'
import { weftError } from '../../../src/core/model/errors'
import { createAgentStore, snapshot } from '../../../src/core/store/store'
import { messageIn } from '../../../src/core/model/message-table'

describe('createAgentStore', () => {
  it('makes independent stores', () => {
    const a = createAgentStore()
    const b = createAgentStore()
    a.getState().dispatch([{ op: 'turn.open', turnId: 't', role: 'user' }])
    expect(a.getState().turnIds).toEqual(['t'])
    expect(b.getState().turnIds).toEqual([])
  })

  it('a key the fold deletes stays deleted (an old error does not outlive a new stream)', () => {
    const store = createAgentStore()
    store.getState().dispatch([{ op: 'stream.status', status: 'error', error: weftError('network', 'lost') }])
    expect(store.getState().error?.type).toBe('network')
    store.getState().dispatch([{ op: 'stream.status', status: 'connecting' }])
    expect(store.getState().error).toBeUndefined()
    expect('error' in store.getState()).toBe(false)
    expect(typeof store.getState().dispatch).toBe('function')
  })

  it('one dispatch is one update, whatever the number of ops', () => {
    const store = createAgentStore()
    let updates = 0
    store.subscribe(() => {
      updates += 1
    })
    store.getState().dispatch(Array.from({ length: 50 }, (_, i) => ({ op: 'message.delta' as const, turnId: 't', messageId: 'm', action: 'append' as const, path: 'content', value: `${i}` })))
    expect(updates).toBe(1)
    expect(messageIn(store.getState().messages, 'm')!.props.content).toBe(Array.from({ length: 50 }, (_, i) => i).join(''))
  })

  it('reset empties the model and keeps the store usable', () => {
    const store = createAgentStore()
    store.getState().dispatch([{ op: 'turn.open', turnId: 't', role: 'user' }])
    store.getState().reset()
    expect(snapshot(store.getState()).turnIds).toEqual([])
    store.getState().dispatch([{ op: 'turn.open', turnId: 'u', role: 'user' }])
    expect(store.getState().turnIds).toEqual(['u'])
  })

  it('starts from a snapshot a server folded', () => {
    const first = createAgentStore()
    first.getState().dispatch([{ op: 'turn.open', turnId: 't', role: 'assistant' }])
    const second = createAgentStore({ initialState: snapshot(first.getState()) })
    expect(second.getState().turnIds).toEqual(['t'])
  })
})

describe('createBatcher', () => {
  it('holds ops until the scheduler flushes, then dispatches them as one batch', () => {
    const batches: number[] = []
    let pending: (() => void) | undefined
    const batcher = createBatcher((ops) => batches.push(ops.length), (flush) => {
      pending = flush
      return () => {
        pending = undefined
      }
    })
    batcher.push([{ op: 'stream.status', status: 'streaming' }])
    batcher.push([{ op: 'stream.status', status: 'streaming' }, { op: 'stream.status', status: 'done' }])
    expect(batches).toEqual([])
    pending!()
    expect(batches).toEqual([3])
    batcher.push([{ op: 'stream.status', status: 'done' }])
    batcher.flush()
    expect(batches).toEqual([3, 1])
  })

  it('flushes at once with the synchronous scheduler', () => {
    const batches: number[] = []
    const batcher = createBatcher((ops) => batches.push(ops.length), syncScheduler)
    batcher.push([{ op: 'stream.status', status: 'streaming' }])
    batcher.push([{ op: 'stream.status', status: 'done' }])
    expect(batches).toEqual([1, 1])
  })
})
