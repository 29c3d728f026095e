/**
 * The watchdog keeps one timer for all of a request's waits: a read moves the
 * deadline, the timer waits again for what is left when it fires early, and it is
 * replaced only when a wait needs an earlier deadline than the timer's.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { Lifeline, LifelineAbort } from '../../../src/core/transport/lifeline'
import { caught } from '../../helpers/fake-fetch'

const never = <T>(): Promise<T> => new Promise<T>(() => {})
const after = <T>(ms: number, value: T): Promise<T> => new Promise((resolve) => setTimeout(() => resolve(value), ms))

// Spies first: a spy on a faked setTimeout restores the fake, and only then do the real timers come back.
afterEach(() => {
  vi.restoreAllMocks()
  vi.useRealTimers()
})

describe('one watchdog timer for every wait', () => {
  it('sets a timer once for a hundred reads, and clears none until it is disposed', async () => {
    vi.useFakeTimers()
    const line = new Lifeline(undefined, 1000)
    const set = vi.spyOn(globalThis, 'setTimeout')
    const cleared = vi.spyOn(globalThis, 'clearTimeout')
    for (let i = 0; i < 100; i++) expect(await line.within(Promise.resolve(i))).toBe(i)
    expect(set).toHaveBeenCalledTimes(1)
    expect(cleared).not.toHaveBeenCalled()
    line.dispose()
    expect(cleared).toHaveBeenCalledTimes(1)
  })

  it('each wait gets the whole idle time from its own start, however many waits came before', async () => {
    vi.useFakeTimers()
    const line = new Lifeline(undefined, 100)
    // Reads 60 ms apart: each alone is under the limit, together they pass it many times.
    for (let i = 0; i < 10; i++) {
      const read = line.within(after(60, i))
      await vi.advanceTimersByTimeAsync(60)
      expect(await read).toBe(i)
    }
    expect(line.signal.aborted).toBe(false)
    const silent = caught(line.within(never()))
    await vi.advanceTimersByTimeAsync(99)
    expect(line.signal.aborted).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect(await silent).toBeInstanceOf(LifelineAbort)
    expect([line.timedOut, line.graceOver]).toEqual([true, false])
    expect((line.signal.reason as DOMException).message).toBe('no data for 100 ms')
  })

  it('time between waits does not count: a consumer slower than the idle time is not a silent server', async () => {
    vi.useFakeTimers()
    const line = new Lifeline(undefined, 100)
    expect(await line.within(Promise.resolve('first'))).toBe('first')
    await vi.advanceTimersByTimeAsync(5000)
    expect(line.signal.aborted).toBe(false)
    const next = line.within(after(90, 'second'))
    await vi.advanceTimersByTimeAsync(90)
    expect(await next).toBe('second')
    expect(line.signal.aborted).toBe(false)
  })

  it('a grace shorter than the pending timer ends the wait at the grace, not at the idle time', async () => {
    vi.useFakeTimers()
    const line = new Lifeline(undefined, 10_000)
    expect(await line.within(Promise.resolve(1))).toBe(1)
    line.settle(30)
    const waiting = caught(line.within(never()))
    await vi.advanceTimersByTimeAsync(30)
    expect(await waiting).toBeInstanceOf(LifelineAbort)
    expect([line.timedOut, line.graceOver]).toEqual([false, true])
    expect((line.signal.reason as DOMException).message).toBe('no data for 30 ms')
  })

  it('going back from a grace to a longer idle time waits the idle time', async () => {
    vi.useFakeTimers()
    const line = new Lifeline(undefined, 100)
    line.settle(30)
    expect(await line.within(Promise.resolve(1))).toBe(1)
    line.settle(undefined)
    const waiting = caught(line.within(never()))
    await vi.advanceTimersByTimeAsync(99)
    expect(line.signal.aborted).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect(await waiting).toBeInstanceOf(LifelineAbort)
    expect([line.timedOut, line.graceOver]).toEqual([true, false])
  })
})

describe('the timer and a Node process', () => {
  // The watchdog's own timer, read from the instance: whether it holds the process is Node's `hasRef()`.
  const held = (line: Lifeline) => (Reflect.get(line, 'timer') as NodeJS.Timeout | undefined)?.hasRef()

  it('holds the process open only while a wait is under way', async () => {
    const line = new Lifeline(undefined, 60_000)
    expect(await line.within(Promise.resolve(1))).toBe(1)
    // The timer is still set (the next read reuses it) but no longer holds the process.
    expect(held(line)).toBe(false)
    const waiting = caught(line.within(never()))
    expect(held(line)).toBe(true)
    line.dispose()
    expect(held(line)).toBeUndefined()
    void waiting
  })
})
