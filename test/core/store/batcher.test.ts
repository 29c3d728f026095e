/**
 * The batcher and its schedulers, with exact expectations: how many flushes a
 * request makes, what a cancel stops, which scheduler an environment gets. The
 * frame scheduler runs on a stubbed `requestAnimationFrame` and fake timers, so
 * nothing here waits on a real clock.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createBatcher, defaultScheduler, frameScheduler, microtaskScheduler, type Scheduler } from '../../../src/core/store/batcher'
import type { Op } from '../../../src/core/model/ops'
import { manualScheduler } from '../../helpers/manual-scheduler'

const op = (status: 'connecting' | 'streaming'): Op => ({ op: 'stream.status', status })

const manual = manualScheduler

/** A stubbed animation frame: callbacks are kept by id and run by the test. */
function stubFrames() {
  const frames = new Map<number, () => void>()
  let next = 0
  const cancelled: number[] = []
  vi.stubGlobal('requestAnimationFrame', (callback: () => void) => {
    frames.set(++next, callback)
    return next
  })
  vi.stubGlobal('cancelAnimationFrame', (id: number) => {
    cancelled.push(id)
  })
  return { frames, cancelled }
}

afterEach(() => {
  vi.unstubAllGlobals()
  vi.useRealTimers()
})

describe('createBatcher', () => {
  it('asks its scheduler once for any number of pushes before the flush, and dispatches them as one batch', () => {
    const { scheduler, requests } = manual()
    const batches: Op[][] = []
    const batcher = createBatcher((ops) => batches.push([...ops]), scheduler)
    batcher.push([op('connecting')])
    batcher.push([op('streaming')])
    expect(requests).toHaveLength(1)
    requests[0]!.run()
    expect(batches).toEqual([[op('connecting'), op('streaming')]])
    batcher.push([op('streaming')])
    expect(requests).toHaveLength(2)
  })

  it('asks for nothing when pushed no ops, and a flush with nothing queued dispatches nothing', () => {
    const { scheduler, requests } = manual()
    const batches: Op[][] = []
    const batcher = createBatcher((ops) => batches.push([...ops]), scheduler)
    batcher.push([])
    batcher.flush()
    expect(requests).toHaveLength(0)
    expect(batches).toEqual([])
  })

  it('a flush by hand cancels the pending request; its late callback then finds nothing to dispatch', () => {
    const { scheduler, requests } = manual()
    const batches: Op[][] = []
    const batcher = createBatcher((ops) => batches.push([...ops]), scheduler)
    batcher.push([op('connecting')])
    batcher.flush()
    expect(requests[0]!.cancelled).toBe(true)
    requests[0]!.run()
    expect(batches).toEqual([[op('connecting')]])
  })

  it('dispose hands over what is queued, once, and cancels the request', () => {
    const { scheduler, requests } = manual()
    const batches: Op[][] = []
    const batcher = createBatcher((ops) => batches.push([...ops]), scheduler)
    batcher.push([op('streaming')])
    batcher.dispose()
    expect(batches).toEqual([[op('streaming')]])
    expect(requests.map((r) => r.cancelled)).toEqual([true])
  })

  it('a scheduler that runs the flush inline leaves no request pending: the next push asks again', () => {
    const batches: Op[][] = []
    let asked = 0
    const inline: Scheduler = (flush) => {
      asked += 1
      flush()
      return () => {
        throw new Error('an inline flush must not be cancelled later')
      }
    }
    const batcher = createBatcher((ops) => batches.push([...ops]), inline)
    batcher.push([op('connecting')])
    batcher.push([op('streaming')])
    batcher.flush()
    expect(asked).toBe(2)
    expect(batches).toEqual([[op('connecting')], [op('streaming')]])
  })

  it('afterFlush runs its callback right after the next batch is dispatched, in the same flush, once', () => {
    const { scheduler, requests } = manual()
    const seen: string[] = []
    const batcher = createBatcher((ops) => seen.push(`batch of ${ops.length}`), scheduler)
    batcher.push([op('streaming')])
    batcher.afterFlush(() => seen.push('after'))
    batcher.push([op('streaming')])
    // One request serves the pushes and the callback.
    expect(requests).toHaveLength(1)
    expect(seen).toEqual([])
    requests[0]!.run()
    expect(seen).toEqual(['batch of 2', 'after'])
    batcher.push([op('connecting')])
    requests[1]!.run()
    expect(seen).toEqual(['batch of 2', 'after', 'batch of 1'])
  })

  it('afterFlush with nothing queued still waits for a scheduled flush; a flush by hand runs it at once', () => {
    const { scheduler, requests } = manual()
    const seen: string[] = []
    const batcher = createBatcher(() => seen.push('batch'), scheduler)
    batcher.afterFlush(() => seen.push('first'))
    expect(requests).toHaveLength(1)
    expect(seen).toEqual([])
    requests[0]!.run()
    expect(seen).toEqual(['first'])
    batcher.afterFlush(() => seen.push('second'))
    batcher.flush()
    expect(seen).toEqual(['first', 'second'])
    expect(requests[1]!.cancelled).toBe(true)
  })

  it('a callback that throws goes to onError; the callbacks after it still run', () => {
    const { scheduler, requests } = manual()
    const errors: unknown[] = []
    const seen: string[] = []
    const batcher = createBatcher(() => {}, scheduler, (thrown, ops) => errors.push([thrown, ops.length]))
    const failure = new Error('listener failed')
    batcher.afterFlush(() => {
      throw failure
    })
    batcher.afterFlush(() => seen.push('still runs'))
    requests[0]!.run()
    expect(errors).toEqual([[failure, 0]])
    expect(seen).toEqual(['still runs'])
  })
})

describe('frameScheduler', () => {
  it('flushes once, on the frame, and stops the fallback timer', () => {
    vi.useFakeTimers()
    const { frames, cancelled } = stubFrames()
    let flushes = 0
    frameScheduler(50)(() => flushes++)
    const [id, frame] = [...frames][0]!
    frame()
    frame()
    vi.runAllTimers()
    expect(flushes).toBe(1)
    expect(cancelled).toEqual([id])
  })

  it('flushes once on the fallback timer when no frame comes (a hidden tab)', () => {
    vi.useFakeTimers()
    const { frames } = stubFrames()
    let flushes = 0
    frameScheduler(50)(() => flushes++)
    vi.advanceTimersByTime(50)
    expect(flushes).toBe(1)
    for (const frame of frames.values()) frame()
    expect(flushes).toBe(1)
  })

  it('a cancelled request never flushes, from the frame or the timer', () => {
    vi.useFakeTimers()
    const { frames, cancelled } = stubFrames()
    let flushes = 0
    const cancel = frameScheduler(50)(() => flushes++)
    cancel()
    for (const frame of frames.values()) frame()
    vi.runAllTimers()
    expect(flushes).toBe(0)
    expect(cancelled).toEqual([...frames.keys()])
  })
})

describe('microtaskScheduler', () => {
  it('flushes after the current synchronous work, and not at all once cancelled', async () => {
    let flushes = 0
    microtaskScheduler(() => flushes++)
    const cancel = microtaskScheduler(() => flushes++)
    cancel()
    expect(flushes).toBe(0)
    await Promise.resolve()
    expect(flushes).toBe(1)
  })
})

describe('defaultScheduler', () => {
  it('frames where there are frames and a document; microtasks anywhere else', () => {
    expect(defaultScheduler()).toBe(microtaskScheduler)
    stubFrames()
    expect(defaultScheduler()).toBe(microtaskScheduler)
    vi.stubGlobal('document', {})
    expect(defaultScheduler()).not.toBe(microtaskScheduler)
    vi.stubGlobal('requestAnimationFrame', undefined)
    expect(defaultScheduler()).toBe(microtaskScheduler)
  })

  it('in a browser-like environment, the default is the frame scheduler', () => {
    vi.useFakeTimers()
    const { frames } = stubFrames()
    vi.stubGlobal('document', {})
    let flushes = 0
    defaultScheduler()(() => flushes++)
    expect(frames.size).toBe(1)
    for (const frame of frames.values()) frame()
    expect(flushes).toBe(1)
  })
})
