/**
 * The pieces of resume: the ledger, the replay alignment, backoff, URLs, handle
 * storage and the four strategies' answers, plus a host's own strategy end to end.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createResumeRoutes } from '../../../mock/resume'
import { syncScheduler } from '../../../src/core/store/batcher'
import { AgentClient } from '../../helpers/built-in-client'
import { alignReplay } from '../../../src/core/resume/align'
import { backoffDelay } from '../../../src/core/resume/backoff'
import { fingerprint } from '../../../src/core/resume/fingerprint'
import { TurnLedger } from '../../../src/core/resume/ledger'
import { clearHandle, memoryStorage, readHandle, resumeStorageKey, writeHandle } from '../../../src/core/resume/storage'
import { builtInProtocols } from '../../../src/protocols/index'
import { lastEventIdResume, resolveResumeStrategy } from '../../../src/core/resume/strategies/index'
import { aiSdkResume } from '../../../src/protocols/ui-message/index'
import { vocionResume, type VocionHandle } from '../../../src/protocols/vocion/index'
import { yaoResume } from '../../../src/protocols/yao/index'
import type { ReplayItem, ResumeHandle, ResumeState, ResumeStrategy } from '../../../src/core/resume/types'
import { joinPath, withQuery } from '../../../src/core/resume/url'
import { createAgentStore } from '../../../src/core/store/store'
import type { SSEFrame } from '../../../src/core/transport/frames'
import { startServer, type TestServer } from '../../helpers/server'
import { messageList } from '../../../src/core/model/message-table'

function item(data: string, extra: Partial<ReplayItem> = {}): ReplayItem {
  const frame: SSEFrame = { data, ...(extra.frame ?? {}) }
  return { frame, event: undefined, json: false, fingerprint: fingerprint(data), counted: true, ...extra }
}

const tok = (t: string) => item(JSON.stringify({ type: 'response_delta', delta: t }))
const long = (t: string) => item(JSON.stringify({ type: 'trace_node', id: t, label: `A row long enough to be distinctive: ${t}` }))

function ledgerOf(items: ReplayItem[]): TurnLedger {
  const ledger = new TurnLedger()
  for (const i of items) ledger.record(i)
  return ledger
}

/** Push a replay through a filter and end it; what would be folded, as data strings. */
function replay(filter: ReturnType<typeof alignReplay>, items: ReplayItem[], final = true): string[] {
  const out = items.flatMap((i) => filter.push(i))
  out.push(...filter.end(final))
  return out.map((i) => i.frame.data)
}

describe('TurnLedger', () => {
  it('counts only counted events and remembers keys, the last key and the largest numeric key', () => {
    const ledger = ledgerOf([
      item('a', { key: '3' }), item('meta', { counted: false }), item('b'), item('c', { key: '10' }), item('d', { key: '7' }),
    ])
    expect(ledger.count).toBe(4)
    expect(ledger.indexOfKey('10')).toBe(2)
    expect(ledger.indexOfKey('nope')).toBeUndefined()
    expect(ledger.lastKey).toBe('7')
    expect(ledger.maxNumericKey).toBe(10)
    expect(ledger.occurrences(fingerprint('b'))).toBe(1)
  })

  it('seeded events count but are not known', () => {
    const ledger = new TurnLedger()
    ledger.seed(3)
    ledger.record(item('x'))
    expect(ledger.count).toBe(4)
    expect(ledger.fingerprintAt(0)).toBe('')
    expect(ledger.fingerprintAt(3)).toBe(fingerprint('x'))
    expect(ledger.occurrences('')).toBe(0)
  })

  it('counts how often a fingerprint was folded, whenever it is asked', () => {
    const ledger = new TurnLedger()
    ledger.record(item('a'))
    ledger.record(item('b'))
    expect(ledger.occurrences(fingerprint('b'))).toBe(1)
    ledger.record(item('b'))
    ledger.record(item('meta', { counted: false }))
    expect(ledger.occurrences(fingerprint('b'))).toBe(2)
    expect(ledger.occurrences(fingerprint('a'))).toBe(1)
    expect(ledger.occurrences(fingerprint('meta'))).toBe(0)
  })
})

describe('alignReplay', () => {
  const report = (into: string[]) => (m: string) => into.push(m)

  it('a replay from the start skips the verified prefix and folds the rest', () => {
    const seen = [tok('a'), tok('b'), tok('c')]
    const problems: string[] = []
    const out = replay(alignReplay(ledgerOf(seen), { startAt: 0, report: report(problems) }), [tok('a'), tok('b'), tok('c'), tok('d')])
    expect(out).toEqual([tok('d').frame.data])
    expect(problems).toEqual([])
  })

  it('a replay that differs is reported and folded as new from there', () => {
    const problems: string[] = []
    const out = replay(alignReplay(ledgerOf([tok('a'), tok('b')]), { startAt: 0, report: report(problems) }), [tok('a'), tok('X'), tok('c')])
    expect(out).toEqual([tok('X'), tok('c')].map((i) => i.frame.data))
    expect(problems).toHaveLength(1)
    expect(problems[0]).toContain('event 2')
  })

  it('seeded positions are trusted, not compared', () => {
    const ledger = new TurnLedger()
    ledger.seed(2)
    const out = replay(alignReplay(ledger, { startAt: 0, report: () => {} }), [tok('a'), tok('b'), tok('c')])
    expect(out).toEqual([tok('c').frame.data])
  })

  it('keyed events are recognised by key wherever the replay starts', () => {
    const seen = [item('1', { key: 'e1' }), item('2', { key: 'e2' }), item('3', { key: 'e3' })]
    const out = replay(alignReplay(ledgerOf(seen), { startAt: 3, report: () => {} }), [
      item('2', { key: 'e2' }), item('3', { key: 'e3' }), item('4', { key: 'e4' }),
    ])
    expect(out).toEqual(['4'])
  })

  it('unkeyed events after a repeated key are aligned from that key', () => {
    const seen = [item('1', { key: 'e1' }), item('x'), item('2', { key: 'e2' }), item('y')]
    const out = replay(alignReplay(ledgerOf(seen), { startAt: 4, report: () => {} }), [
      item('1', { key: 'e1' }), item('x'), item('2', { key: 'e2' }), item('y'), item('z'),
    ])
    expect(out).toEqual(['z'])
  })

  it('recognises a replay from an earlier point by a distinctive event in the overlap', () => {
    const seen = [long('r1'), tok('a'), long('r2'), tok('b')]
    const out = replay(alignReplay(ledgerOf(seen), { startAt: 4, probeOlder: true, report: () => {} }), [
      long('r2'), tok('b'), tok('c'),
    ])
    expect(out).toEqual([tok('c').frame.data])
  })

  it('prefers the longest overlap when several fit', () => {
    // [A B A B]: a replay of all four must not be read as a replay of the last two.
    const seen = [long('A'), long('B'), long('A2'), long('B2')]
    const out = replay(alignReplay(ledgerOf(seen), { startAt: 4, probeOlder: true, report: () => {} }), [
      long('A'), long('B'), long('A2'), long('B2'), tok('new'),
    ])
    expect(out).toEqual([tok('new').frame.data])
  })

  it('new short tokens that repeat the last ones are new content, not a replay', () => {
    const seen = [tok('la'), tok('la'), tok(' ')]
    const out = replay(alignReplay(ledgerOf(seen), { startAt: 3, probeOlder: true, report: () => {} }), [tok('la'), tok('la'), tok(' '), tok('do')])
    expect(out).toEqual(['la', 'la', ' ', 'do'].map((t) => tok(t).frame.data))
  })

  it('a long event that was folded twice is no evidence of a replay: the run is new content', () => {
    // The same long row folded twice may well come a third time; only a once-seen event proves a replay.
    const seen = [long('L'), long('L'), tok('b')]
    const out = replay(alignReplay(ledgerOf(seen), { startAt: 3, probeOlder: true, report: () => {} }), [long('L'), tok('b'), tok('c')])
    expect(out).toEqual([long('L'), tok('b'), tok('c')].map((i) => i.frame.data))
  })

  it('the evidence rule needs 48 characters of data: 47 is not enough, 48 is', () => {
    const sized = (n: number) => item('x'.repeat(n))
    for (const [length, replayed] of [[47, false], [48, true]] as const) {
      const seen = [sized(length), tok('b')]
      const out = replay(alignReplay(ledgerOf(seen), { startAt: 2, probeOlder: true, report: () => {} }), [sized(length), tok('b'), tok('c')])
      expect(out, `${length} characters`).toEqual(replayed ? [tok('c').frame.data] : [sized(length), tok('b'), tok('c')].map((i) => i.frame.data))
    }
  })

  it('a run that matches the middle of the ledger but not its end is new content', () => {
    const seen = [long('r1'), long('r2'), long('r3')]
    const out = replay(alignReplay(ledgerOf(seen), { startAt: 3, probeOlder: true, report: () => {} }), [long('r1'), long('r2'), tok('x')])
    expect(out).toEqual([long('r1'), long('r2'), tok('x')].map((i) => i.frame.data))
  })

  it('held events are released when the stream ends normally and dropped when it breaks', () => {
    const seen = [long('r1'), long('r2'), long('r3')]
    const held = [long('r1'), long('r2')]
    expect(replay(alignReplay(ledgerOf(seen), { startAt: 3, probeOlder: true, report: () => {} }), held, true))
      .toEqual(held.map((i) => i.frame.data))
    // Broken: the next reconnect asks from the ledger's count again, so nothing is lost by dropping them.
    expect(replay(alignReplay(ledgerOf(seen), { startAt: 3, probeOlder: true, report: () => {} }), held, false)).toEqual([])
  })

  it('uncounted events pass through in order', () => {
    const out = replay(alignReplay(ledgerOf([tok('a')]), { startAt: 0, report: () => {} }), [item('meta', { counted: false }), tok('a'), tok('b')])
    expect(out).toEqual(['meta', tok('b').frame.data])
  })
})

describe('backoffDelay', () => {
  it('doubles from baseMs, is capped by maxMs, and jitters between half and all of it', () => {
    const full = { baseMs: 100, maxMs: 1000, random: () => 1 }
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffDelay(n, full))).toEqual([100, 200, 400, 800, 1000, 1000])
    expect(backoffDelay(3, { ...full, random: () => 0 })).toBe(200)
    for (let i = 0; i < 50; i++) {
      const d = backoffDelay(4, { baseMs: 100, maxMs: 1000 })
      expect(d).toBeGreaterThanOrEqual(400)
      expect(d).toBeLessThanOrEqual(800)
    }
  })

  it('never goes below the server\'s retry', () => {
    expect(backoffDelay(1, { baseMs: 1 }, 3000)).toBe(3000)
    expect(backoffDelay(9, { baseMs: 100, maxMs: 500, random: () => 1 }, 50)).toBe(500)
  })
})

describe('URL helpers', () => {
  it('keep the host\'s query and hash', () => {
    expect(withQuery('/r?delay=30#x', { id: 's 1', after: 3 })).toBe('/r?delay=30&id=s+1&after=3#x')
    expect(withQuery('/r?after=1', { after: 5 })).toBe('/r?after=5')
    expect(joinPath('/api/chat/?x=1', 'a/b', 'stream')).toBe('/api/chat/a%2Fb/stream?x=1')
    expect(joinPath('http://h/api', 'c')).toBe('http://h/api/c')
  })
})

describe('handle storage', () => {
  const strategy = vocionResume()
  const handle: VocionHandle = { strategy: 'vocion', turnId: 't1', protocol: 'vocion', count: 4, streamId: 's1' }

  it('round-trips a handle under the conversation key and forgets it', () => {
    const storage = memoryStorage()
    writeHandle(storage, 'c1', handle)
    expect(storage.getItem(resumeStorageKey('c1'))).not.toBeNull()
    expect(readHandle(storage, 'c1', strategy)).toEqual(handle)
    expect(readHandle(storage, 'c2', strategy)).toBeUndefined()
    clearHandle(storage, 'c1')
    expect(readHandle(storage, 'c1', strategy)).toBeUndefined()
  })

  it('ignores what is not a handle of this strategy', () => {
    const storage = memoryStorage()
    for (const text of ['{', '"x"', '{"v":1}', '{"v":2,"handle":{}}', JSON.stringify({ v: 1, handle: { ...handle, count: -1 } })]) {
      storage.setItem(resumeStorageKey('c'), text)
      expect(readHandle(storage, 'c', strategy), text).toBeUndefined()
    }
    writeHandle(storage, 'c', handle)
    expect(readHandle(storage, 'c', yaoResume())).toBeUndefined()
    writeHandle(storage, 'c', { ...handle, streamId: '' } as VocionHandle)
    expect(readHandle(storage, 'c', strategy)).toBeUndefined()
  })

  it('a storage that throws never breaks anything', () => {
    const broken = { getItem: () => { throw new Error('denied') }, setItem: () => { throw new Error('full') }, removeItem: () => { throw new Error('denied') } }
    expect(writeHandle(broken, 'c', handle)).toBeUndefined()
    expect(readHandle(broken, 'c', strategy)).toBeUndefined()
    expect(() => clearHandle(broken, 'c')).not.toThrow()
  })
})

describe('the built-in strategies', () => {
  const state = <H extends ResumeHandle>(over: Partial<ResumeState<H>> = {}): ResumeState<H> => ({
    turnId: 't1', conversationKey: 'chat-1', cursor: { eventCount: 0 }, ledger: ledgerOf([item('a', { key: '5' }), item('b', { key: '9' })]), ...over,
  })

  it('vocion: no handle before stream_meta; after=<count>; stream_meta does not count', () => {
    const s = vocionResume()
    expect(s.handle(state())).toBeUndefined()
    const h = s.handle(state({ cursor: { eventCount: 2, streamId: 'st' } }))!
    expect(h).toEqual({ strategy: 'vocion', turnId: 't1', protocol: 'vocion', count: 2, streamId: 'st' })
    expect(s.request(h, { conversationKey: 'c', resumeUrl: '/resume?x=1', fromStart: false }).url).toBe('/resume?x=1&id=st&after=2')
    expect(s.request(h, { conversationKey: 'c', resumeUrl: '/resume', fromStart: true }).url).toBe('/resume?id=st&after=0')
    expect(() => s.request(h, { conversationKey: 'c', fromStart: false })).toThrow(/resumeUrl/)
    expect(s.identify({ data: '' }, { type: 'stream_meta', streamId: 'st' }).counted).toBe(false)
    expect(s.identify({ data: '' }, { type: 'done' }).counted).toBe(true)
    // The stream id survives a state that lost it (a fresh store after a reload).
    expect(s.handle(state({ previous: h }))?.streamId).toBe('st')
  })

  it('sse: Last-Event-ID from the last id folded; no header when asking from the start', () => {
    const s = lastEventIdResume()
    const h = s.handle(state({ streamUrl: '/events' }))!
    expect(h).toMatchObject({ url: '/events', lastEventId: '9', count: 2 })
    expect(s.request(h, { conversationKey: 'c', fromStart: false })).toEqual({ url: '/events', lastEventId: '9' })
    expect(s.request(h, { conversationKey: 'c', fromStart: true })).toEqual({ url: '/events' })
    expect(s.identify({ data: '', id: 'x' }, undefined)).toEqual({ counted: true, key: 'x' })
  })

  it('ai-sdk: GET <api>/<chatId>/stream, the chat id from the conversation key', () => {
    const s = aiSdkResume()
    const h = s.handle(state({ streamUrl: '/api/chat?x=1' }))!
    expect(s.request(h, { conversationKey: 'chat-1', fromStart: false }).url).toBe('/api/chat/chat-1/stream?x=1')
    const custom = aiSdkResume({ chatId: (key) => key.toUpperCase() })
    expect(custom.handle(state({ streamUrl: '/api' }))?.chatId).toBe('CHAT-1')
  })

  it('yao: since=<largest sequence>; read_complete does not count; live:false settles', () => {
    const s = yaoResume()
    const h = s.handle(state({ resumeUrl: '/task/stream' }))!
    expect(h.since).toBe(9)
    expect(s.request(h, { conversationKey: 'c', fromStart: false }).url).toBe('/task/stream?since=9')
    expect(s.request(h, { conversationKey: 'c', fromStart: true }).url).toBe('/task/stream?since=0')
    expect(s.identify({ data: '', event: 'read_complete' }, { last_seq: 3 }).counted).toBe(false)
    expect(s.identify({ data: '' }, { metadata: { sequence: 12 } })).toEqual({ counted: true, key: '12' })
    const filter = s.dedupe(ledgerOf([]), { handle: h, fromStart: false, report: () => {} })
    filter.push(item('{"last_seq":9,"live":true}', { frame: { data: '', event: 'read_complete' }, event: { last_seq: 9, live: true }, counted: false }))
    expect(filter.settled).toBe(false)
    filter.push(item('{"last_seq":9,"live":false}', { frame: { data: '', event: 'read_complete' }, event: { last_seq: 9, live: false }, counted: false }))
    expect(filter.settled).toBe(true)
  })

  it('names resolve to strategies; a host strategy passes through', () => {
    expect(['vocion', 'sse', 'ai-sdk', 'yao'].map((n) => resolveResumeStrategy(n as 'sse', builtInProtocols).name)).toEqual(['vocion', 'sse', 'ai-sdk', 'yao'])
    const own = vocionResume()
    expect(resolveResumeStrategy(own)).toBe(own)
    expect(() => resolveResumeStrategy('nope' as 'sse')).toThrow(/no resume strategy/)
  })
})

describe('a host\'s own strategy', () => {
  let srv: TestServer
  beforeAll(async () => {
    srv = await startServer({ routes: createResumeRoutes() })
  })
  afterAll(() => srv.close())

  interface OffsetHandle extends ResumeHandle {
    streamId: string
  }
  /** Resumes Vocion's endpoint with an offset of its own naming, to show the interface is all a strategy needs. */
  const offsetStrategy: ResumeStrategy<OffsetHandle> = {
    name: 'offset',
    replaysFromStart: true,
    identify: (_frame, event) => ({ counted: (event as { type?: string } | undefined)?.type !== 'stream_meta' }),
    handle: ({ turnId, cursor, ledger, previous }) => {
      const streamId = cursor.streamId ?? previous?.streamId
      return streamId ? { strategy: 'offset', turnId, count: ledger.count, streamId } : undefined
    },
    request: (h, { resumeUrl, fromStart }) => ({ url: withQuery(resumeUrl ?? '', { id: h.streamId, after: fromStart ? 0 : h.count }) }),
    dedupe: (ledger, { handle, report }) => alignReplay(ledger, { startAt: handle.count, report }),
    revive: (value) => (typeof value.streamId === 'string' ? (value as unknown as OffsetHandle) : undefined),
  }

  it('drives a cut stream to its end', async () => {
    const store = createAgentStore()
    const storage = memoryStorage()
    const client = new AgentClient(store, {
      url: `${srv.url}/mock/stream/vocion/answer?cut=9`, protocol: 'vocion', scheduler: syncScheduler,
      resume: { strategy: offsetStrategy as unknown as ResumeStrategy, conversationKey: 'own', storage, resumeUrl: `${srv.url}/mock/resume/vocion/answer`, backoff: { baseMs: 1 } },
    })
    await client.send('go')
    const state = store.getState()
    expect(state.status).toBe('done')
    const answer = messageList(state.messages).find((m) => m.id.endsWith('/answer'))
    expect(answer?.props.content).toBe('Contoso renews on 30 September [1]. The champion asked for a two-year term at the current price [2], so a draft note to Nadia is ready below.')
    expect(srv.requests.map((r) => r.path)).toContain('/mock/resume/vocion/answer?id=stream-answer-1&after=8')
  })
})
