import { describe, expect, it } from 'vitest'
import { fold } from '../../../src/core/fold/fold'
import { emptyState } from '../../../src/core/model/model'
import type { Op } from '../../../src/core/model/ops'
import type { Decoder } from '../../../src/core/protocol/types'
import { IncrementalJsonParser } from '../../../src/core/util/partial-json'
import { createAgUiDecoder } from '../../../src/protocols/ag-ui/decoder'
import { createUIMessageDecoder } from '../../../src/protocols/ui-message/decoder'
import { messageList } from '../../../src/core/model/message-table'

/** A long tool input: a query and `count` items, as one JSON text. */
const longInput = (count: number) => ({ query: 'plan the week', items: Array.from({ length: count }, (_, i) => ({ id: i, title: `Item ${i}`, done: i % 3 === 0 })) })
const pieces = (text: string, size: number) => Array.from({ length: Math.ceil(text.length / size) }, (_, i) => text.slice(i * size, (i + 1) * size))
const toolInput = (state: ReturnType<typeof emptyState>) => messageList(state.messages).find((m) => m.type === 'tool')?.props.input
const inputSets = (ops: readonly Op[]) => ops.filter((op) => op.op === 'message.delta' && op.action === 'set' && op.path === 'input')

describe('snapshots of a growing array', () => {
  it('carry the final elements over and leave every earlier snapshot as it was', () => {
    const parser = new IncrementalJsonParser()
    const text = JSON.stringify(longInput(50))
    const snapshots: Array<{ items: unknown[] }> = []
    for (const piece of pieces(text, 7)) {
      parser.push(piece)
      const snapshot = parser.snapshot() as { items?: unknown[] } | undefined
      if (snapshot?.items) snapshots.push(snapshot as { items: unknown[] })
    }
    expect(snapshots.at(-1)).toEqual(longInput(50))
    // Each snapshot still holds what had been parsed when it was taken: a prefix of the final text's items.
    const final = longInput(50).items
    for (const snapshot of snapshots) {
      expect(Object.isFrozen(snapshot.items)).toBe(true)
      const complete = snapshot.items.slice(0, -1)
      expect(complete).toEqual(final.slice(0, complete.length))
    }
    // A finished element is the same object in every later snapshot.
    const first = snapshots.find((s) => s.items.length >= 3)!
    const last = snapshots.at(-1)!
    expect(last.items[0]).toBe(first.items[0])
    expect(last.items[1]).toBe(first.items[1])
  })

  it('an element still being parsed is copied again once it changes', () => {
    const parser = new IncrementalJsonParser()
    parser.push('[{"a":1},{"b":"x')
    const first = parser.snapshot() as unknown[]
    parser.push('yz"},{"c":')
    const second = parser.snapshot() as unknown[]
    expect(first).toEqual([{ a: 1 }, { b: 'x' }])
    expect(second).toEqual([{ a: 1 }, { b: 'xyz' }, {}])
    expect(second[0]).toBe(first[0])
    expect(second[1]).not.toBe(first[1])
  })
})

describe('snapshotDue', () => {
  it('is true on every flush while the input is short, then once the input has grown by an eighth', () => {
    const parser = new IncrementalJsonParser()
    parser.push('{"q":"' + 'a'.repeat(10_000))
    expect(parser.snapshotDue).toBe(true)
    parser.snapshot()
    parser.push('b'.repeat(6_000))
    expect(parser.snapshotDue).toBe(true) // 16,006 characters: still short
    parser.push('c'.repeat(64_000))
    expect(parser.snapshotDue).toBe(true) // grew by far more than an eighth
    parser.snapshot()
    parser.push('d'.repeat(9_000)) // 89,006 after 80,006: less than an eighth
    expect(parser.snapshotDue).toBe(false)
    parser.push('e'.repeat(2_200)) // 91,206: 11,200 more, an eighth of it is 11,400
    expect(parser.snapshotDue).toBe(false)
    parser.push('f'.repeat(300))
    expect(parser.snapshotDue).toBe(true)
  })
})

/** Feeds `events` to a decoder as a client does: each piece is one network read, flushed at its end. */
function asLiveClient(decoder: Decoder, events: readonly unknown[]): Op[] {
  const ops: Op[] = []
  for (const event of events) {
    ops.push(...decoder.decode(event, {}))
    ops.push(...(decoder.flush?.() ?? []))
  }
  return ops
}

const protocols = [
  {
    name: 'the UI message stream',
    decoder: () => createUIMessageDecoder({ turnId: 't1', scope: 't1' }),
    start: [{ type: 'start', messageId: 'm1' }, { type: 'tool-input-start', toolCallId: 'c1', toolName: 'plan' }],
    delta: (piece: string): unknown => ({ type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: piece }),
  },
  {
    name: 'AG-UI',
    decoder: () => createAgUiDecoder({ turnId: 't1', scope: 't1' }),
    start: [{ type: 'RUN_STARTED', threadId: 'th', runId: 'r1' }, { type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'plan' }],
    delta: (piece: string): unknown => ({ type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: piece }),
  },
] as const

describe.each(protocols)('a long tool input over $name, one read per piece', ({ decoder, start, delta }) => {
  const input = longInput(6_000)
  const text = JSON.stringify(input)
  const events: unknown[] = [...start, ...pieces(text, 100).map((piece) => delta(piece))]

  it('is written a bounded number of times, not once per read, and whole at the end', () => {
    const live = decoder()
    const ops = [...asLiveClient(live, events), ...live.end('done')]
    const sets = inputSets(ops)
    const reads = events.length - start.length
    // 163 reads of 100 characters into 16 KB each write; past it one write per eighth of growth.
    expect(reads).toBeGreaterThan(2_000)
    expect(sets.length).toBeLessThan(200)
    const state = fold(emptyState(), [{ op: 'turn.open', turnId: 't1', role: 'assistant' }, ...ops])
    expect(toolInput(state)).toEqual(input)
  })

  it('its text reaches the message at every read, in one append of the read\'s pieces', () => {
    const live = decoder()
    const opened = start.flatMap((event) => live.decode(event, {}))
    const sent = pieces(text, 100)
    let state = fold(emptyState(), [{ op: 'turn.open', turnId: 't1', role: 'assistant' }, ...opened, ...(live.flush?.() ?? [])])
    let received = ''
    // Three pieces to a read: each read's end writes them, joined, and nothing before it.
    for (let at = 0; at < 300; at += 3) {
      const read = sent.slice(at, at + 3)
      for (const piece of read) expect(live.decode(delta(piece), {})).toEqual([])
      const flushed = live.flush?.() ?? []
      const appends = flushed.filter((op) => op.op === 'message.delta' && op.path === 'inputText')
      expect(appends).toMatchObject([{ action: 'append', value: read.join('') }])
      received += read.join('')
      state = fold(state, flushed)
      expect(messageList(state.messages).find((message) => message.type === 'tool')?.props.inputText).toBe(received)
    }
  })

  it('a connection lost for good writes what was parsed up to the loss', () => {
    const live = decoder()
    const cut = events.slice(0, Math.floor(events.length * 0.9))
    const ops = [...asLiveClient(live, cut), ...(live.release?.() ?? [])]
    const received = pieces(text, 100).slice(0, cut.length - start.length).join('')
    const expected = new IncrementalJsonParser()
    expected.push(received)
    const state = fold(emptyState(), [{ op: 'turn.open', turnId: 't1', role: 'assistant' }, ...ops])
    expect(toolInput(state)).toEqual(expected.snapshot())
    // The last write is the release's: what the reads held back since the last snapshot.
    expect(inputSets(ops).at(-1)).toMatchObject({ value: expected.snapshot() })
  })
})
