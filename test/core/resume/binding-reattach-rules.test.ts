/**
 * What the resume binding decides when a page re-attaches (`memoryFor`), how it shows a
 * new decoder what a saved store already holds (`prime`), and the continuation's scope
 * in the handle, each compared exactly.
 */
import { describe, expect, it } from 'vitest'
import type { StreamCursor } from '../../../src/core/model/model'
import { FrameDecoder } from '../../../src/core/protocol/frame-decoder'
import { ResumeBinding } from '../../../src/core/resume/binding'
import { fingerprint } from '../../../src/core/resume/fingerprint'
import { lastEventIdResume } from '../../../src/core/resume/strategies/last-event-id'
import { memoryStorage } from '../../../src/core/resume/storage'
import type { ReplayItem, ResumeHandle, ResumeStrategy } from '../../../src/core/resume/types'
import { builtInProtocols } from '../../../src/protocols/index'

const binding = (strategy: ResumeStrategy = lastEventIdResume()) => new ResumeBinding(strategy, 'chat', memoryStorage(), { conversationKey: 'chat' })
const stored: ResumeHandle = { strategy: 'sse', turnId: 't1', count: 3 }
const cursor = (fields: Partial<StreamCursor>): StreamCursor => ({ eventCount: 0, ...fields })

function item(data: unknown, id?: string): ReplayItem {
  const text = JSON.stringify(data)
  return { frame: { data: text, ...(id ? { id } : {}) }, event: data, json: true, fingerprint: fingerprint(text), counted: true, ...(id ? { key: id } : {}) }
}

describe('memoryFor: the memory a re-attach reads into', () => {
  it('a fresh store: a new memory, the whole turn asked for, nothing to prime', () => {
    const owner = {}
    const { memory, fromStart } = binding().memoryFor(owner, stored, undefined)
    expect(fromStart).toBe(true)
    expect(memory.primeUntil).toBeUndefined()
    expect(memory.ledger.count).toBe(0)
  })

  it('a store whose page kept the memory (a remount): that memory, only what is missing asked for', () => {
    const owner = {}
    const b = binding()
    const kept = b.openMemory(owner, 't1')
    kept.ledger.record(item({ type: 'start' }))
    const { memory, fromStart } = b.memoryFor(owner, stored, cursor({ turnId: 't1', eventCount: 1 }))
    expect(memory).toBe(kept)
    expect(fromStart).toBe(false)
    expect(memory.primeUntil).toBeUndefined()
  })

  it('a saved copy: the whole turn asked for, as many events primed as its cursor counts for the turn', () => {
    for (const [eventCount, expected] of [[2, 2], [0, 0], [7, 7]] as const) {
      const { memory, fromStart } = binding().memoryFor({}, stored, cursor({ turnId: 't1', eventCount }))
      expect(fromStart, `eventCount ${eventCount}`).toBe(true)
      expect(memory.primeUntil, `eventCount ${eventCount}`).toBe(expected)
      expect(memory.ledger.count, `eventCount ${eventCount}`).toBe(0)
    }
  })

  it("a saved copy whose cursor is another turn's, or is not a count: the handle's count", () => {
    const cursors: StreamCursor[] = [
      cursor({ turnId: 't0', eventCount: 2 }), cursor({ eventCount: 2 }), cursor({ turnId: '', eventCount: 2 }),
      cursor({ turnId: 't1', eventCount: -1 }), { turnId: 't1', eventCount: '2' } as unknown as StreamCursor, { turnId: 't1' } as StreamCursor,
    ]
    for (const kept of cursors) expect(binding().memoryFor({}, stored, kept).memory.primeUntil, JSON.stringify(kept)).toBe(3)
  })

  it('a strategy that cannot replay from the start: the count trusted, only what follows asked for', () => {
    const { memory, fromStart } = binding({ ...lastEventIdResume(), replaysFromStart: false }).memoryFor({}, stored, cursor({ turnId: 't1', eventCount: 2 }))
    expect(fromStart).toBe(false)
    expect(memory.primeUntil).toBeUndefined()
    expect(memory.ledger.count).toBe(2)
    expect(memory.ledger.fingerprintAt(0)).toBe('')
  })
})

describe('prime: a new decoder shown what the store holds', () => {
  const uiDecoder = (onData?: () => void) => new FrameDecoder({ turnId: 't1', protocol: 'ui-message', protocols: builtInProtocols, onData })

  it('takes events until the ledger holds the count, then lets the rest be folded, and forgets the count', () => {
    const b = binding()
    const memory = b.openMemory({}, 't1')
    memory.primeUntil = 2
    const reader = uiDecoder()
    expect(b.prime(memory, reader, item({ type: 'start', messageId: 'm1' }, 'e1'))).toBe(true)
    expect(b.prime(memory, reader, item({ type: 'text-start', id: 't' }, 'e2'))).toBe(true)
    expect(memory.ledger.count).toBe(2)
    expect(memory.ledger.indexOfKey('e2')).toBe(1)
    expect(b.prime(memory, reader, item({ type: 'text-delta', id: 't', delta: 'x' }))).toBe(false)
    expect(memory.primeUntil).toBeUndefined()
    expect(memory.ledger.count).toBe(2)
    // The decoder knows the part: the delta is a plain append, with no part started again.
    const ops = [...reader.parsed({ type: 'text-delta', id: 't', delta: 'x' }, { data: '' }), ...reader.flush()]
    expect(ops.map((op) => op.op)).toEqual(['message.delta'])
  })

  it('without a count it takes nothing', () => {
    const b = binding()
    const memory = b.openMemory({}, 't1')
    expect(b.prime(memory, uiDecoder(), item({ type: 'start' }))).toBe(false)
    expect(memory.ledger.count).toBe(0)
  })

  it('drops what the decoder gathered, so nothing of it reaches the next batch', () => {
    const b = binding()
    const memory = b.openMemory({}, 't1')
    memory.primeUntil = 3
    const reader = uiDecoder()
    for (const data of [{ type: 'start', messageId: 'm1' }, { type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'held' }]) b.prime(memory, reader, item(data))
    expect(reader.flush()).toEqual([])
  })

  it('is quiet only while it primes, even when the decoder throws', () => {
    const b = binding()
    const memory = b.openMemory({}, 't1')
    memory.primeUntil = 1
    const throwing = { parsed: () => { throw new Error('decoder broke') }, frame: () => [], flush: () => [] } as unknown as FrameDecoder
    expect(() => b.prime(memory, throwing, item({ type: 'start' }))).toThrow('decoder broke')
    expect(memory.priming).toBe(false)
    memory.primeUntil = 1
    const watched: boolean[] = []
    const watching = { parsed: () => (watched.push(memory.priming === true), []), frame: () => [], flush: () => [] } as unknown as FrameDecoder
    b.prime(memory, watching, item({ type: 'start' }))
    expect(watched).toEqual([true])
    expect(memory.priming).toBe(false)
  })
})

describe("the handle keeps a continuation's scope", () => {
  const input = { turnId: 't1', cursor: cursor({}), protocol: undefined, streamUrl: '/chat', previous: undefined }

  it('added to what the strategy made, only when the run has one', () => {
    const b = binding()
    const ledger = b.openMemory({}, 't1').ledger
    expect(b.handle({ ...input, ledger, scope: 't1~2' })).toEqual({ strategy: 'sse', turnId: 't1', count: 0, url: '/chat', scope: 't1~2' })
    expect(Object.keys(b.handle({ ...input, ledger, scope: undefined })!)).not.toContain('scope')
  })

  it('no handle yet (no URL to reconnect to): none, scope or not', () => {
    const b = binding()
    const ledger = b.openMemory({}, 't1').ledger
    expect(b.handle({ ...input, streamUrl: undefined, ledger, scope: 't1~2' })).toBeUndefined()
  })
})
