/**
 * The exact rules of the resume pieces: which stored handles are read back, what
 * a storage that refuses does, where the default storage comes from, the
 * `Last-Event-ID` strategy's handles, requests, revival and replay start, how
 * strategies are found by name, the URL edits, the fingerprint's values, the
 * ledger's largest numeric key and the per-store turn memory.
 */
import fc from 'fast-check'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { WeftStreamError } from '../../../src/core/model/errors'
import type { ProtocolDefinition } from '../../../src/core/protocol/types'
import { fingerprint } from '../../../src/core/resume/fingerprint'
import { TurnLedger } from '../../../src/core/resume/ledger'
import {
  defaultResumeStorage, memoryStorage, readHandle, resumeStorageKey, writeHandle,
} from '../../../src/core/resume/storage'
import { builtInProtocols } from '../../../src/protocols/index'
import { lastEventIdResume, resolveResumeStrategy, type LastEventIdHandle } from '../../../src/core/resume/strategies/index'
import { closeTurnMemory, findTurnMemory, openTurnMemory } from '../../../src/core/resume/turn-memory'
import type { ReplayItem, ResumeHandle, ResumeState, ResumeStorage, ResumeStrategy } from '../../../src/core/resume/types'
import { joinPath, withQuery } from '../../../src/core/resume/url'
import type { SSEFrame } from '../../../src/core/transport/frames'

function item(data: string, key?: string): ReplayItem {
  const frame: SSEFrame = key === undefined ? { data } : { data, id: key }
  return { frame, event: undefined, json: false, fingerprint: fingerprint(data), counted: true, ...(key === undefined ? {} : { key }) }
}

function ledgerOf(items: ReplayItem[]): TurnLedger {
  const ledger = new TurnLedger()
  for (const i of items) ledger.record(i)
  return ledger
}

/** A strategy that takes any handle the storage lets through, so only the storage's own checks apply. */
const passThrough: ResumeStrategy = {
  name: 'own',
  replaysFromStart: false,
  identify: () => ({ counted: true }),
  handle: () => undefined,
  request: () => ({ url: '/x' }),
  dedupe: () => ({ push: (i) => [i], end: () => [] }),
  revive: (value) => value as unknown as ResumeHandle,
}

/** Read back whatever `stored` is, written as the raw text of the conversation's key. */
function readRaw(stored: unknown, strategy: ResumeStrategy = passThrough): ResumeHandle | undefined {
  const storage = memoryStorage()
  storage.setItem(resumeStorageKey('c1'), typeof stored === 'string' ? stored : JSON.stringify(stored))
  return readHandle(storage, 'c1', strategy)
}

const valid = { strategy: 'own', turnId: 't1', count: 2 }

describe('readHandle', () => {
  it('reads back a well-formed handle of its strategy', () => {
    expect(readRaw({ v: 1, handle: valid })).toStrictEqual(valid)
  })

  it('reads back a handle with no events counted yet', () => {
    expect(readRaw({ v: 1, handle: { ...valid, count: 0 } })).toStrictEqual({ ...valid, count: 0 })
  })

  it('ignores stored JSON that is not an object', () => {
    expect(readRaw('5')).toBeUndefined()
    expect(readRaw('null')).toBeUndefined()
    expect(readRaw('"text"')).toBeUndefined()
  })

  it('ignores a handle written by another version', () => {
    expect(readRaw({ v: 2, handle: valid })).toBeUndefined()
    expect(readRaw({ handle: valid })).toBeUndefined()
  })

  it('ignores a record without a handle object', () => {
    expect(readRaw({ v: 1, handle: 'h' })).toBeUndefined()
    expect(readRaw({ v: 1 })).toBeUndefined()
  })

  it('ignores a handle of another strategy', () => {
    expect(readRaw({ v: 1, handle: { ...valid, strategy: 'vocion' } })).toBeUndefined()
  })

  it('ignores a handle whose turn id is missing, not a string or empty', () => {
    expect(readRaw({ v: 1, handle: { strategy: 'own', count: 2 } })).toBeUndefined()
    expect(readRaw({ v: 1, handle: { ...valid, turnId: 5 } })).toBeUndefined()
    expect(readRaw({ v: 1, handle: { ...valid, turnId: '' } })).toBeUndefined()
  })

  it('ignores a handle whose count is not a whole number of zero or more', () => {
    expect(readRaw({ v: 1, handle: { ...valid, count: '2' } })).toBeUndefined()
    expect(readRaw({ v: 1, handle: { ...valid, count: 1.5 } })).toBeUndefined()
    expect(readRaw({ v: 1, handle: { ...valid, count: -1 } })).toBeUndefined()
  })

  it('ignores text that is empty or not JSON, and a storage that throws on read', () => {
    expect(readRaw('')).toBeUndefined()
    expect(readRaw('{not json')).toBeUndefined()
    const throwing: ResumeStorage = {
      getItem: () => { throw new Error('denied') },
      setItem: () => {},
      removeItem: () => {},
    }
    expect(readHandle(throwing, 'c1', passThrough)).toBeUndefined()
  })
})

describe('writeHandle', () => {
  it('returns the text written', () => {
    const storage = memoryStorage()
    const text = writeHandle(storage, 'c1', valid)
    expect(text).toBe('{"v":1,"handle":{"strategy":"own","turnId":"t1","count":2}}')
    expect(storage.getItem('weft:resume:c1')).toBe(text)
  })

  it('returns undefined when the storage refuses to write', () => {
    const full: ResumeStorage = {
      getItem: () => null,
      setItem: () => { throw new Error('quota exceeded') },
      removeItem: () => {},
    }
    expect(writeHandle(full, 'c1', valid)).toBeUndefined()
  })
})

describe('defaultResumeStorage', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
  })

  it('is the page’s sessionStorage when there is one', () => {
    const tab = memoryStorage()
    vi.stubGlobal('sessionStorage', tab)
    expect(defaultResumeStorage()).toBe(tab)
  })

  it('is one shared in-memory storage when the page has none', () => {
    vi.stubGlobal('sessionStorage', undefined)
    const first = defaultResumeStorage()
    expect(first).toBeDefined()
    expect(defaultResumeStorage()).toBe(first)
    first.setItem('k', 'v')
    expect(defaultResumeStorage().getItem('k')).toBe('v')
    first.removeItem('k')
  })

  it('falls back to the shared in-memory storage when touching sessionStorage throws', () => {
    vi.stubGlobal('sessionStorage', undefined)
    const shared = defaultResumeStorage()
    Object.defineProperty(globalThis, 'sessionStorage', {
      configurable: true,
      get() { throw new Error('sandboxed') },
    })
    try {
      expect(defaultResumeStorage()).toBe(shared)
    } finally {
      Reflect.deleteProperty(globalThis, 'sessionStorage')
    }
  })
})

function state(partial: Partial<ResumeState<LastEventIdHandle>>): ResumeState<LastEventIdHandle> {
  return {
    turnId: 't1',
    conversationKey: 'c1',
    cursor: undefined as unknown as ResumeState['cursor'],
    ledger: new TurnLedger(),
    ...partial,
  }
}

describe('lastEventIdResume', () => {
  const sse = lastEventIdResume()

  it('is named sse and replays from the start when no id is sent', () => {
    expect(sse.name).toBe('sse')
    expect(sse.replaysFromStart).toBe(true)
  })

  it('counts every event and keys it by its id when it has one', () => {
    expect(sse.identify({ data: 'x', id: 'run_1:0001' }, undefined)).toStrictEqual({ counted: true, key: 'run_1:0001' })
    expect(sse.identify({ data: 'x' }, undefined)).toStrictEqual({ counted: true })
    expect(sse.identify({ data: 'x', id: '' }, undefined)).toStrictEqual({ counted: true })
  })

  it('makes a handle with the last id folded and the resume URL first', () => {
    const ledger = ledgerOf([item('a', 'e1'), item('b', 'e2'), item('c')])
    expect(sse.handle(state({ ledger, protocol: 'ag-ui', streamUrl: '/s', resumeUrl: '/r' }))).toStrictEqual({
      strategy: 'sse', turnId: 't1', protocol: 'ag-ui', count: 3, url: '/r', lastEventId: 'e2',
    })
  })

  it('has no lastEventId when events were folded but none had an id', () => {
    const ledger = ledgerOf([item('a'), item('b')])
    const previous: LastEventIdHandle = { strategy: 'sse', turnId: 't1', count: 0, url: '/old', lastEventId: 'p9' }
    expect(sse.handle(state({ ledger, streamUrl: '/s', previous }))).toStrictEqual({
      strategy: 'sse', turnId: 't1', protocol: undefined, count: 2, url: '/s',
    })
  })

  it('keeps the previous handle’s id and URL while nothing was folded yet', () => {
    const previous: LastEventIdHandle = { strategy: 'sse', turnId: 't1', count: 0, url: '/old', lastEventId: 'p9' }
    expect(sse.handle(state({ previous }))).toStrictEqual({
      strategy: 'sse', turnId: 't1', protocol: undefined, count: 0, url: '/old', lastEventId: 'p9',
    })
  })

  it('has no lastEventId with nothing folded and no previous handle', () => {
    expect(sse.handle(state({ streamUrl: '/s' }))).toStrictEqual({
      strategy: 'sse', turnId: 't1', protocol: undefined, count: 0, url: '/s',
    })
  })

  it('makes no handle when there is no URL to reconnect to', () => {
    expect(sse.handle(state({ ledger: ledgerOf([item('a', 'e1')]) }))).toBeUndefined()
  })

  it('asks for what came after the last id, or for everything when starting over', () => {
    const handle: LastEventIdHandle = { strategy: 'sse', turnId: 't1', count: 3, url: '/h', lastEventId: 'e3' }
    expect(sse.request(handle, { conversationKey: 'c1', fromStart: false })).toStrictEqual({ url: '/h', lastEventId: 'e3' })
    expect(sse.request(handle, { conversationKey: 'c1', fromStart: true })).toStrictEqual({ url: '/h' })
    expect(sse.request(handle, { conversationKey: 'c1', resumeUrl: '/r', fromStart: false })).toStrictEqual({ url: '/r', lastEventId: 'e3' })
    const { lastEventId: _, ...noId } = handle
    expect(sse.request(noId, { conversationKey: 'c1', fromStart: false })).toStrictEqual({ url: '/h' })
  })

  describe('dedupe', () => {
    const report = () => {}
    const run = (ledger: TurnLedger, handle: LastEventIdHandle, fromStart: boolean, replayed: ReplayItem[]): string[] => {
      const filter = sse.dedupe(ledger, { handle, fromStart, report })
      const out = replayed.flatMap((i) => filter.push(i))
      out.push(...filter.end(true))
      return out.map((i) => i.frame.data)
    }
    const base = { strategy: 'sse', turnId: 't1', url: '/h' } as const

    it('aligns a replay from the start when starting over', () => {
      const ledger = ledgerOf([item('x'), item('y'), item('z', 'k')])
      expect(run(ledger, { ...base, count: 3, lastEventId: 'k' }, true, [item('x'), item('y'), item('z', 'k'), item('w')])).toEqual(['w'])
    })

    it('aligns a replay from the start when the handle has no id', () => {
      const ledger = ledgerOf([item('x'), item('y')])
      expect(run(ledger, { ...base, count: 2 }, false, [item('x'), item('y'), item('z')])).toEqual(['z'])
    })

    it('aligns a replay from just after the event with the handle’s id', () => {
      const ledger = ledgerOf([item('a'), item('b', 'kb'), item('c')])
      expect(run(ledger, { ...base, count: 3, lastEventId: 'kb' }, false, [item('c'), item('d')])).toEqual(['d'])
    })

    it('takes everything as new when the handle’s id was never folded', () => {
      const ledger = ledgerOf([item('a'), item('b')])
      expect(run(ledger, { ...base, count: 2, lastEventId: 'gone' }, false, [item('b'), item('c')])).toEqual(['b', 'c'])
    })
  })

  describe('revive', () => {
    it('takes a handle with a URL and an optional string id as it is', () => {
      const withId = { strategy: 'sse', turnId: 't1', count: 1, url: '/h', lastEventId: 'e1' }
      const withoutId = { strategy: 'sse', turnId: 't1', count: 1, url: '/h' }
      expect(sse.revive(withId)).toBe(withId)
      expect(sse.revive(withoutId)).toBe(withoutId)
    })

    it('refuses a handle without a non-empty string URL, or with an id that is not a string', () => {
      const base = { strategy: 'sse', turnId: 't1', count: 1 }
      expect(sse.revive(base)).toBeUndefined()
      expect(sse.revive({ ...base, url: '' })).toBeUndefined()
      expect(sse.revive({ ...base, url: 5 })).toBeUndefined()
      expect(sse.revive({ ...base, url: '/h', lastEventId: 5 })).toBeUndefined()
      expect(sse.revive({ ...base, url: '/h', lastEventId: null })).toBeUndefined()
    })

    it('reads back a handle it wrote through storage', () => {
      const storage = memoryStorage()
      const handle: LastEventIdHandle = { strategy: 'sse', turnId: 't1', count: 4, url: '/h', lastEventId: 'e4' }
      writeHandle(storage, 'c1', handle)
      expect(readHandle(storage, 'c1', sse)).toStrictEqual(handle)
    })
  })
})

function toyProtocol(name: string, strategyName: string, resume = true): ProtocolDefinition {
  const made = (): ResumeStrategy => ({ ...passThrough, name: strategyName })
  return {
    name,
    create: () => { throw new Error('not used') },
    sniff: () => 0,
    ...(resume ? { resume: made } : {}),
  }
}

describe('resolveResumeStrategy', () => {
  it('gives the kit’s own strategy for sse, even when a candidate’s strategy is also named sse', () => {
    const strategy = resolveResumeStrategy('sse', [toyProtocol('toy', 'sse')])
    expect(strategy.name).toBe('sse')
    expect(strategy.replaysFromStart).toBe(true)
    expect(strategy.identify({ data: 'x', id: 'e1' }, undefined)).toStrictEqual({ counted: true, key: 'e1' })
  })

  it('finds a candidate by its protocol’s name and by its strategy’s name, skipping protocols that do not resume', () => {
    const candidates = [toyProtocol('plain', 'plain', false), toyProtocol('toy', 'toy-resume')]
    expect(resolveResumeStrategy('toy', candidates).name).toBe('toy-resume')
    expect(resolveResumeStrategy('toy-resume', candidates).name).toBe('toy-resume')
    // Only the candidates count: a built-in's name is unknown unless it is given.
    expect(() => resolveResumeStrategy('vocion', candidates)).toThrow(/no resume strategy named "vocion"/)
    expect(resolveResumeStrategy('vocion', [...candidates, ...builtInProtocols]).name).toBe('vocion')
  })

  it('takes the first candidate of a name: a host protocol before a built-in of the same name', () => {
    expect(resolveResumeStrategy('vocion', [toyProtocol('vocion', 'mine'), ...builtInProtocols]).name).toBe('mine')
  })

  it('throws a validation error naming an unknown strategy', () => {
    let thrown: unknown
    try {
      resolveResumeStrategy('nope')
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(WeftStreamError)
    expect((thrown as WeftStreamError).message).toBe('no resume strategy named "nope"')
    expect((thrown as WeftStreamError).info).toStrictEqual({
      type: 'validation',
      message: 'no resume strategy named "nope"',
      retryable: false,
      detail: 'give the client the protocol whose strategy it is (`protocols`), or pass the strategy itself',
    })
  })
})

describe('withQuery and joinPath', () => {
  it('leaves a URL without a query as it is when no parameters are set', () => {
    expect(withQuery('/a', {})).toBe('/a')
    expect(withQuery('/a#top', {})).toBe('/a#top')
  })

  it('treats a URL that is only a hash or only a query as one', () => {
    expect(withQuery('#h', { a: 1 })).toBe('?a=1#h')
    expect(withQuery('?x=1', { a: 2 })).toBe('?x=1&a=2')
    expect(withQuery('?x=1#h', { x: 3 })).toBe('?x=3#h')
  })

  it('drops every trailing slash before the joined segments', () => {
    expect(joinPath('/api//', 'x')).toBe('/api/x')
    expect(joinPath('/api///?q=1#f', 'a b')).toBe('/api/a%20b?q=1#f')
  })
})

describe('fingerprint', () => {
  /** The 53-bit hash and the length, 14 bits per character from U+4E00. */
  const encoded = (hash: number, length: number) => {
    const low = hash % 2 ** 32
    const high = Math.floor(hash / 2 ** 32)
    return String.fromCharCode(
      0x4e00 + (low & 0x3fff), 0x4e00 + ((low >>> 14) & 0x3fff), 0x4e00 + ((low >>> 28) | ((high & 0x3ff) << 4)), 0x4e00 + ((high >>> 10) & 0x7ff),
      0x4e00 + (length & 0x3fff), 0x4e00 + ((length >>> 14) & 0x3fff), 0x4e00 + ((length >>> 28) & 0xf),
    )
  }

  it('is the cyrb53 hash of the data with its length', () => {
    expect(fingerprint('a')).toBe(encoded(7929297801672961, 1))
    expect(fingerprint('b')).toBe(encoded(8684336938537663, 1))
    expect(fingerprint('revenge')).toBe(encoded(4051478007546757, 7))
    expect(fingerprint('')).toBe(encoded(parseInt('wvjl67o803', 36), 0))
    expect(fingerprint('{"type":"response_delta","delta":"Hi"}')).toBe(encoded(parseInt('13py7298wmw', 36), 38))
  })

  it('tells a named event from an unnamed one whose data holds the name', () => {
    expect(fingerprint('{}', 'message')).toBe(encoded(cyrb53('message\r{}'), 2))
    expect(fingerprint('{}', 'message')).not.toBe(fingerprint('message\n{}'))
    expect(fingerprint('{}', 'message')).not.toBe(fingerprint('{}'))
  })

  it('has no character a surrogate could break, whatever the data', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), fc.string(), (data, name) => {
      const print = fingerprint(data, name)
      expect(print).toHaveLength(7)
      expect(/[\uD800-\uDFFF]/.test(print)).toBe(false)
    }))
  })
})

/** cyrb53 as published, over a whole string, for the named case. */
function cyrb53(text: string): number {
  let h1 = 0xdeadbeef
  let h2 = 0x41c6ce57
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    h1 = Math.imul(h1 ^ c, 2654435761)
    h2 = Math.imul(h2 ^ c, 1597334677)
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909)
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909)
  return 4294967296 * (2097151 & h2) + (h1 >>> 0)
}

describe('TurnLedger.maxNumericKey', () => {
  it('ignores keys that are blank or not numbers', () => {
    expect(ledgerOf([item('a', ' ')]).maxNumericKey).toBeUndefined()
    expect(ledgerOf([item('a', 'x')]).maxNumericKey).toBeUndefined()
    expect(ledgerOf([item('a', 'x'), item('b', '4'), item('c', 'y'), item('d', ' ')]).maxNumericKey).toBe(4)
  })

  it('keeps the first of equal largest keys', () => {
    expect(ledgerOf([item('a', '0'), item('b', '-0')]).maxNumericKey).toBe(0)
    expect(ledgerOf([item('a', '2'), item('b', '7'), item('c', '3')]).maxNumericKey).toBe(7)
  })
})

describe('turn memory', () => {
  it('is found again for the same owner and turn, and not for another owner', () => {
    const owner = {}
    const memory = openTurnMemory(owner, 't1')
    expect(findTurnMemory(owner, 't1')).toBe(memory)
    expect(findTurnMemory(owner, 't2')).toBeUndefined()
    expect(findTurnMemory({}, 't1')).toBeUndefined()
  })

  it('keeps every turn an owner opened', () => {
    const owner = {}
    const first = openTurnMemory(owner, 't1')
    const second = openTurnMemory(owner, 't2')
    expect(findTurnMemory(owner, 't1')).toBe(first)
    expect(findTurnMemory(owner, 't2')).toBe(second)
  })

  it('opens a fresh, empty memory over an earlier one', () => {
    const owner = {}
    const first = openTurnMemory(owner, 't1')
    first.ledger.record(item('a'))
    const again = openTurnMemory(owner, 't1')
    expect(again).not.toBe(first)
    expect(again.ledger.count).toBe(0)
    expect(findTurnMemory(owner, 't1')).toBe(again)
  })

  it('is forgotten when closed, leaving the owner’s other turns', () => {
    const owner = {}
    openTurnMemory(owner, 't1')
    const other = openTurnMemory(owner, 't2')
    closeTurnMemory(owner, 't1')
    expect(findTurnMemory(owner, 't1')).toBeUndefined()
    expect(findTurnMemory(owner, 't2')).toBe(other)
  })

  it('closing a turn of an owner that never opened one does nothing', () => {
    expect(() => closeTurnMemory({}, 't1')).not.toThrow()
  })
})
