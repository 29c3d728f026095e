/**
 * Exact expectations for how a batch's string appends are merged: which ops may
 * stand between two appends that merge, which end the merge for one message or
 * for all of them, which paths and places keep appends apart, and that a batch
 * too short to merge comes back as it was.
 */
import { describe, expect, it } from 'vitest'
import { weftError } from '../../../src/core/model/errors'
import { coalesce } from '../../../src/core/fold/coalesce'
import { fold } from '../../../src/core/fold/fold'
import { emptyState } from '../../../src/core/model/model'
import type { Op, OpOf } from '../../../src/core/model/ops'
import { messageIn } from '../../../src/core/model/message-table'

type Delta = OpOf<'message.delta'>

const append = (value: string, extra: Partial<Delta> = {}): Delta =>
  ({ op: 'message.delta', turnId: 't', messageId: 'm', action: 'append', path: 'content', value, ...extra })

const set = (path: string, value: unknown, extra: Partial<Delta> = {}): Delta =>
  ({ op: 'message.delta', turnId: 't', messageId: 'm', action: 'set', path, value, ...extra })

/** The merged form of appends: the first op, carrying the joined text and its pieces. */
const merged = (first: Delta, ...rest: string[]): Delta & { parts: string[] } =>
  ({ ...first, value: [first.value as string, ...rest].join(''), parts: [first.value as string, ...rest] })

const oneByOne = (ops: Op[]) => ops.reduce((state, op) => fold(state, [op]), emptyState())

describe('batches too short to merge', () => {
  it('an empty batch and a batch of one op come back as the very same array', () => {
    const none: Op[] = []
    expect(coalesce(none)).toBe(none)
    const one: Op[] = [{ op: 'cursor', cursor: { eventCount: 3 } }]
    expect(coalesce(one)).toBe(one)
    const single: Op[] = [append('a')]
    expect(coalesce(single)).toBe(single)
  })

  it('a batch of exactly two appends to one path becomes one append', () => {
    const first = append('He')
    expect(coalesce([first, append('llo')])).toEqual([merged(first, 'llo')])
  })
})

describe('ops that may stand between appends being merged', () => {
  const between: Op[] = [
    { op: 'trace.node', turnId: 't', node: { id: 'n1', status: 'progress' } },
    { op: 'trace.fail', turnId: 't', tool: 'search', message: 'timed out' },
    { op: 'source.add', turnId: 't', source: { id: 's1', kind: 'url', url: 'https://example.com' } },
    { op: 'problem', turnId: 't', error: weftError('protocol', 'odd chunk') },
    { op: 'stream.status', status: 'streaming' },
    { op: 'gate.open', gate: { id: 'g1', turnId: 't', kind: 'approval', question: 'Go?', payload: null } },
    { op: 'gate.resolve', gateId: 'g1', status: 'approved' },
    { op: 'agentState.set', value: { step: 1 } },
    { op: 'turn.open', turnId: 't2', role: 'user' },
    { op: 'turn.update', turnId: 't', runId: 'run-1' },
    { op: 'block.open', turnId: 't', blockId: 'b1', kind: 'step' },
    { op: 'block.close', blockId: 'b1' },
    { op: 'thread.open', turnId: 't', threadId: 'th1' },
    { op: 'thread.close', threadId: 'th1' },
  ]

  it.each(between.map((op) => [op.op, op] as const))('%s does not end the merge, and the merged batch folds alike', (_name, op) => {
    const first = append('a')
    const ops: Op[] = [first, op, append('b')]
    expect(coalesce(ops)).toEqual([merged(first, 'b'), op])
    expect(fold(emptyState(), ops)).toEqual(oneByOne(ops))
  })

  it('cursors between appends collapse into the first cursor, which takes the last values', () => {
    const first = append('a')
    const ops: Op[] = [
      first,
      { op: 'cursor', cursor: { eventCount: 1 } },
      append('b'),
      { op: 'cursor', cursor: { eventCount: 2, lastEventId: 'e2' } },
      append('c'),
    ]
    expect(coalesce(ops)).toEqual([merged(first, 'b', 'c'), { op: 'cursor', cursor: { eventCount: 2, lastEventId: 'e2' } }])
  })
})

describe('ops that end the merge', () => {
  const ending: Op[] = [
    { op: 'turn.finish', turnId: 't', status: 'done' },
    { op: 'branch.select', turnId: 't' },
    { op: 'block.reset', blockId: 'b1' },
    { op: 'hydrate', turns: [], at: 'end' },
  ]

  it.each(ending.map((op) => [op.op, op] as const))('%s ends the merge of every message', (_name, op) => {
    const ops: Op[] = [append('a'), append('x', { messageId: 'other' }), op, append('b'), append('y', { messageId: 'other' })]
    expect(coalesce(ops)).toEqual(ops)
  })

  it('after a turn finishes, the next append streams the message again, as one op at a time would', () => {
    const ops: Op[] = [append('a'), { op: 'turn.finish', turnId: 't', status: 'done' }, append('b')]
    expect(fold(emptyState(), ops)).toEqual(oneByOne(ops))
    expect(messageIn(fold(emptyState(), ops).messages, 'm')!.status).toBe('streaming')
  })

  const messageOps: Op[] = [
    { op: 'message.put', turnId: 't', messageId: 'other', type: 'text', props: { content: 'P' } },
    { op: 'message.finish', messageId: 'other', status: 'done' },
    { op: 'message.remove', messageId: 'other' },
  ]

  it.each(messageOps.map((op) => [op.op, op] as const))('%s ends the merge of the message it names only', (_name, op) => {
    const first = append('a')
    const otherFirst = append('x', { messageId: 'other' })
    const otherLater = append('y', { messageId: 'other' })
    const ops: Op[] = [first, otherFirst, op, append('b'), otherLater]
    expect(coalesce(ops)).toEqual([merged(first, 'b'), otherFirst, op, otherLater])
    expect(fold(emptyState(), ops)).toEqual(oneByOne(ops))
  })

  it('a message op whose id is not a string ends the merge of every message', () => {
    const odd = { op: 'message.finish', messageId: 7, status: 'done' } as unknown as Op
    const ops: Op[] = [append('a'), odd, append('b')]
    expect(coalesce(ops)).toEqual(ops)
  })

  it('a delta that writes the message root ends the merge of all its props', () => {
    const ops: Op[] = [append('a'), append('x', { path: 'title' }), set('', { content: '', title: '' }), append('b'), append('y', { path: 'title' })]
    expect(coalesce(ops)).toEqual(ops)
    expect(messageIn(fold(emptyState(), ops).messages, 'm')!.props).toEqual({ content: 'b', title: 'y' })
  })

  it('a delta under one prop ends that prop\'s merge and leaves the others merging', () => {
    const content = append('a')
    const title = append('x', { path: 'title' })
    const reset = set('content', '')
    const ops: Op[] = [content, title, reset, append('b'), append('y', { path: 'title' })]
    expect(coalesce(ops)).toEqual([content, merged(title, 'y'), reset, append('b')])
    expect(messageIn(fold(emptyState(), ops).messages, 'm')!.props).toEqual({ content: 'b', title: 'xy' })
  })

  it('a delta to a message with nothing merging is passed through as it is', () => {
    const ops: Op[] = [set('content', 'x'), append('y'), set('title', 'T', { messageId: 'fresh' })]
    expect(coalesce(ops)).toEqual(ops)
  })
})

describe('appends that stay apart', () => {
  it('appends to the message root are never merged', () => {
    const ops: Op[] = [append('a', { path: '' }), append('b', { path: '' })]
    expect(coalesce(ops)).toEqual(ops)
  })

  it('appends to several props of one message each merge on their own', () => {
    const content = append('a')
    const title = append('x', { path: 'title' })
    const ops: Op[] = [content, title, append('b'), append('y', { path: 'title' })]
    expect(coalesce(ops)).toEqual([merged(content, 'b'), merged(title, 'y')])
  })

  it('an index into a prop belongs to that prop: setting the prop ends the merge of its items', () => {
    const ops: Op[] = [append('a', { path: 'items[0]' }), set('items', ['']), append('b', { path: 'items[0]' })]
    expect(coalesce(ops)).toEqual(ops)
    expect(messageIn(fold(emptyState(), ops).messages, 'm')!.props).toEqual({ items: ['b'] })
  })

  it('an append to another item of the same prop ends the merge of the first item', () => {
    const ops: Op[] = [append('a', { path: 'items[0]' }), append('x', { path: 'items[1]' }), append('b', { path: 'items[0]' })]
    expect(coalesce(ops)).toEqual(ops)
  })

  it.each([
    ['turn', { turnId: 't2' }],
    ['role', { role: 'user' }],
    ['type', { type: 'reasoning' }],
    ['block', { blockId: 'b1' }],
    ['thread', { threadId: 'th1' }],
  ] as const)('appends that name another %s are not merged', (_name, place) => {
    const ops: Op[] = [append('a'), append('b', place)]
    expect(coalesce(ops)).toEqual(ops)
  })
})
