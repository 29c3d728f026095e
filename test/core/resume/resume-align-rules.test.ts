/**
 * The replay alignment's rules, event by event: when a resumed stream is probed
 * for a replay from an earlier point, how long the overlap must be, when held
 * events are released, and how uncounted and keyed events behave while a run is
 * held back.
 */
import { describe, expect, it } from 'vitest'
import { alignReplay, type AlignOptions } from '../../../src/core/resume/align'
import { fingerprint } from '../../../src/core/resume/fingerprint'
import { TurnLedger } from '../../../src/core/resume/ledger'
import type { ReplayFilter, ReplayItem } from '../../../src/core/resume/types'
import type { SSEFrame } from '../../../src/core/transport/frames'

function item(data: string, extra: Partial<ReplayItem> = {}): ReplayItem {
  const frame: SSEFrame = { data, ...(extra.frame ?? {}) }
  return { frame, event: undefined, json: false, fingerprint: fingerprint(data), counted: true, ...extra }
}

const tok = (t: string) => item(JSON.stringify({ type: 'response_delta', delta: t }))
const long = (t: string) => item(JSON.stringify({ type: 'trace_node', id: t, label: `A row long enough to be distinctive: ${t}` }))
const meta = (t: string) => item(JSON.stringify({ type: 'stream_meta', id: t }), { counted: false })
const data = (...items: ReplayItem[]) => items.map((i) => i.frame.data)

function ledgerOf(items: ReplayItem[]): TurnLedger {
  const ledger = new TurnLedger()
  for (const i of items) ledger.record(i)
  return ledger
}

/** What each push answers, in order, then what `end` answers; as data strings. */
function steps(filter: ReplayFilter, items: ReplayItem[], final = true): { pushes: string[][]; end: string[] } {
  const pushes = items.map((i) => filter.push(i).map((o) => o.frame.data))
  return { pushes, end: filter.end(final).map((o) => o.frame.data) }
}

/** Everything that would be folded, in order. */
function folded(filter: ReplayFilter, items: ReplayItem[], final = true): string[] {
  const { pushes, end } = steps(filter, items, final)
  return [...pushes.flat(), ...end]
}

function align(seen: ReplayItem[], options: Partial<AlignOptions> & { startAt: number }, problems: string[] = []): ReplayFilter {
  return alignReplay(ledgerOf(seen), { report: (m) => problems.push(m), ...options })
}

// A ledger whose last two events (a distinctive row, then a token) make a recognisable tail.
const tail = [long('r1'), tok('a'), long('r2'), tok('b')]

describe('when the alignment probes for a replay from an earlier point', () => {
  it('without probeOlder, events that repeat the end of the ledger are folded as new', () => {
    const problems: string[] = []
    expect(folded(align(tail, { startAt: 4 }, problems), [long('r2'), tok('b'), tok('c')])).toEqual(data(long('r2'), tok('b'), tok('c')))
    expect(problems).toEqual([])
  })

  it('probeOlder: false is the same as leaving it out', () => {
    expect(folded(align(tail, { startAt: 4, probeOlder: false }), [long('r2'), tok('b'), tok('c')])).toEqual(data(long('r2'), tok('b'), tok('c')))
  })

  it('with probeOlder and the same replay, the repeated tail is dropped', () => {
    expect(folded(align(tail, { startAt: 4, probeOlder: true }), [long('r2'), tok('b'), tok('c')])).toEqual(data(tok('c')))
  })

  it('probeOlder does not apply when the replay is expected inside the ledger: events are aligned by position', () => {
    const problems: string[] = []
    const out = folded(align([tok('a'), tok('b')], { startAt: 0, probeOlder: true }, problems), [tok('a'), tok('b'), tok('c')])
    expect(out).toEqual(data(tok('c')))
    expect(problems).toEqual([])
  })

  it('probeOlder does not apply inside the ledger: a differing event there is reported and folded as new', () => {
    const problems: string[] = []
    const out = folded(align([tok('a'), tok('b')], { startAt: 1, probeOlder: true }, problems), [tok('X'), tok('c')])
    expect(out).toEqual(data(tok('X'), tok('c')))
    expect(problems).toEqual(['the replay differs from what was already shown at event 2; what follows is shown as new'])
  })

  it('with an empty ledger every event is new, at once', () => {
    const filter = alignReplay(new TurnLedger(), { startAt: 0, probeOlder: true, report: () => {} })
    expect(steps(filter, [meta('m'), tok('a'), long('r')])).toEqual({ pushes: [data(meta('m')), data(tok('a')), data(long('r'))], end: [] })
  })
})

describe('the shortest overlap taken as a replay', () => {
  const seen = [tok('a'), long('L')]

  it('is one event by default: a single distinctive event at the end of the ledger is a replay', () => {
    expect(folded(align(seen, { startAt: 2, probeOlder: true }), [long('L'), tok('c')])).toEqual(data(tok('c')))
  })

  it('with minOverlap 2, a single matching event is new content', () => {
    expect(folded(align(seen, { startAt: 2, probeOlder: true, minOverlap: 2 }), [long('L'), tok('c')])).toEqual(data(long('L'), tok('c')))
  })

  it('with minOverlap 2, two matching events are a replay', () => {
    expect(folded(align(seen, { startAt: 2, probeOlder: true, minOverlap: 2 }), [tok('a'), long('L'), tok('c')])).toEqual(data(tok('c')))
  })

  it('a fractional minOverlap is rounded down', () => {
    expect(folded(align(seen, { startAt: 2, probeOlder: true, minOverlap: 2.9 }), [long('L'), tok('c')])).toEqual(data(long('L'), tok('c')))
    expect(folded(align(seen, { startAt: 2, probeOlder: true, minOverlap: 2.9 }), [tok('a'), long('L'), tok('c')])).toEqual(data(tok('c')))
  })

  it('a minOverlap below one counts as one', () => {
    expect(folded(align(seen, { startAt: 2, probeOlder: true, minOverlap: 0 }), [long('L'), tok('c')])).toEqual(data(tok('c')))
  })
})

describe('when held events are released', () => {
  it('an event that matches nothing folded is released at once, and so is everything after it', () => {
    const filter = align([long('r1'), long('r2')], { startAt: 2, probeOlder: true })
    expect(steps(filter, [tok('x'), long('r1'), long('r2')], false)).toEqual({
      pushes: [data(tok('x')), data(long('r1')), data(long('r2'))], end: [],
    })
  })

  it('a confirmed overlap is dropped as soon as it reaches the end of the ledger, and the next event is folded at once', () => {
    const filter = align(tail, { startAt: 4, probeOlder: true })
    expect(steps(filter, [long('r2'), tok('b'), tok('c'), tok('d')], false)).toEqual({
      pushes: [[], [], data(tok('c')), data(tok('d'))], end: [],
    })
  })

  it('a run that stops matching is released whole at the event that breaks it', () => {
    const filter = align([long('r1'), long('r2'), long('r3')], { startAt: 3, probeOlder: true })
    expect(steps(filter, [long('r1'), long('r2'), tok('x'), tok('y')], false)).toEqual({
      pushes: [[], [], data(long('r1'), long('r2'), tok('x')), data(tok('y'))], end: [],
    })
  })
})

describe('uncounted events while the alignment probes', () => {
  it('one that comes before anything is held passes at once and the probe goes on', () => {
    const filter = align(tail, { startAt: 4, probeOlder: true })
    expect(steps(filter, [meta('m'), long('r2'), tok('b'), tok('c')])).toEqual({
      pushes: [data(meta('m')), [], [], data(tok('c'))], end: [],
    })
  })

  it('one inside a confirmed overlap is held with it and kept when the overlap is dropped', () => {
    const filter = align(tail, { startAt: 4, probeOlder: true })
    expect(steps(filter, [long('r2'), meta('m'), tok('b'), tok('c')])).toEqual({
      pushes: [[], [], data(meta('m')), data(tok('c'))], end: [],
    })
  })

  it('one inside a run that turns out new keeps its place among the released events', () => {
    const filter = align([long('r1'), long('r2'), long('r3')], { startAt: 3, probeOlder: true })
    expect(steps(filter, [long('r1'), meta('m'), long('r2'), tok('x')])).toEqual({
      pushes: [[], [], [], data(long('r1'), meta('m'), long('r2'), tok('x'))], end: [],
    })
  })

  it('one held at the end of a normal stream is released in its place', () => {
    const filter = align([long('r1'), long('r2'), long('r3')], { startAt: 3, probeOlder: true })
    expect(steps(filter, [long('r1'), meta('m')], true)).toEqual({ pushes: [[], []], end: data(long('r1'), meta('m')) })
  })
})

describe('keyed events while the alignment probes', () => {
  const keyed = [item('1', { key: 'e1' }), item('2', { key: 'e2' }), item('3', { key: 'e3' })]

  it('are aligned by their key, not held as a possible replay', () => {
    const filter = align(keyed, { startAt: 3, probeOlder: true })
    expect(steps(filter, [item('2', { key: 'e2' }), item('3', { key: 'e3' }), item('4', { key: 'e4' })])).toEqual({
      pushes: [[], [], ['4']], end: [],
    })
  })

  it('a new keyed event is folded at once', () => {
    const filter = align(keyed, { startAt: 3, probeOlder: true })
    expect(steps(filter, [item('4', { key: 'e4' })])).toEqual({ pushes: [['4']], end: [] })
  })

  it('a keyed event releases what was held before it, then follows it', () => {
    const filter = align([long('r1'), long('r2'), long('r3')], { startAt: 3, probeOlder: true })
    expect(steps(filter, [long('r1'), item('k', { key: 'k1' })])).toEqual({ pushes: [[], [long('r1').frame.data, 'k']], end: [] })
  })

  it('a keyed event already folded releases what was held and is itself dropped', () => {
    const filter = align([long('r1'), long('r2'), item('k', { key: 'k1' })], { startAt: 3, probeOlder: true })
    expect(steps(filter, [long('r1'), item('k', { key: 'k1' }), tok('z')])).toEqual({
      pushes: [[], data(long('r1')), data(tok('z'))], end: [],
    })
  })
})

describe('dropping a confirmed overlap that is shorter than what was held', () => {
  // [a a]: after one `a` the run already reaches the end (an overlap of one), while a
  // replay from the start is still possible; the next event decides.
  const seen = [tok('a'), tok('a')]

  it('drops only the overlap and releases the events held after it', () => {
    const calls: Array<[string, number]> = []
    const distinctive = (i: ReplayItem, occurrences: number) => {
      calls.push([i.frame.data, occurrences])
      return true
    }
    const filter = align(seen, { startAt: 2, probeOlder: true, distinctive })
    expect(steps(filter, [tok('a'), tok('n'), tok('m')])).toEqual({ pushes: [[], data(tok('n')), data(tok('m'))], end: [] })
    expect(calls).toEqual([[tok('a').frame.data, 2]])
  })

  it('keeps uncounted events held inside or after the overlap', () => {
    const filter = align(seen, { startAt: 2, probeOlder: true, distinctive: () => true })
    expect(steps(filter, [tok('a'), meta('m'), tok('n'), tok('o')])).toEqual({
      pushes: [[], [], data(meta('m'), tok('n')), data(tok('o'))], end: [],
    })
  })

  it('drops the longer overlap when the run goes on to complete it', () => {
    const filter = align(seen, { startAt: 2, probeOlder: true, distinctive: () => true })
    expect(steps(filter, [tok('a'), tok('a'), tok('n')])).toEqual({ pushes: [[], [], data(tok('n'))], end: [] })
  })

  it('releases the held events after the overlap when the stream ends normally', () => {
    const filter = align(seen, { startAt: 2, probeOlder: true, distinctive: () => true })
    expect(steps(filter, [tok('a')], true)).toEqual({ pushes: [[]], end: [] })
    const longer = align([tok('a'), tok('b'), tok('a')], { startAt: 3, probeOlder: true, distinctive: () => true })
    expect(steps(longer, [tok('a'), tok('b')], true)).toEqual({ pushes: [[], []], end: data(tok('b')) })
  })
})
