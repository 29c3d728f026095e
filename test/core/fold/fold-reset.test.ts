/**
 * `block.reset` (the UI stream's `reset-step`) drops what a block added: its
 * messages, from the turn and the lanes too, and the timeline rows nested under
 * the block's own row. The block itself, its lanes and the block's row stay, open
 * again and empty; nothing outside the block changes.
 */
import { describe, expect, it } from 'vitest'
import { fold } from '../../../src/core/fold/fold'
import { emptyState } from '../../../src/core/model/model'
import type { Op } from '../../../src/core/model/ops'
import { messageRecord } from '../../../src/core/model/message-table'
import { traceRecord } from '../../../src/core/model/trace-table'

const put = (messageId: string, place: { blockId?: string; threadId?: string } = {}): Op =>
  ({ op: 'message.put', turnId: 't1', messageId, type: 'text', props: { content: messageId }, ...place })

const setup: Op[] = [
  { op: 'turn.open', turnId: 't1', role: 'assistant' },
  { op: 'block.open', turnId: 't1', blockId: 'b1', kind: 'step' },
  { op: 'thread.open', turnId: 't1', threadId: 'lane', blockId: 'b1' },
  put('m1', { blockId: 'b1', threadId: 'lane' }),
  put('m2', { blockId: 'b1' }),
  put('m3'),
  { op: 'trace.node', turnId: 't1', node: { id: 'b1', kind: 'step', label: 'Step' } },
  { op: 'trace.node', turnId: 't1', node: { id: 'n1', parentId: 'b1', label: 'Search' } },
  { op: 'trace.node', turnId: 't1', node: { id: 'n2', parentId: 'n1', label: 'Hit' } },
  { op: 'trace.node', turnId: 't1', node: { id: 'r1', label: 'Other' } },
  { op: 'block.close', blockId: 'b1' },
]

describe('resetting a block', () => {
  it('drops its messages and the rows under its row; the block opens again, empty, with its lanes', () => {
    const before = fold(emptyState(), setup)
    expect(traceRecord(before.trace).b1!.childIds).toEqual(['n1'])
    const state = fold(before, [{ op: 'block.reset', blockId: 'b1' }])
    expect(Object.keys(messageRecord(state.messages))).toEqual(['m3'])
    expect(state.turns.t1).toStrictEqual({ ...before.turns.t1, messageIds: ['m3'] })
    expect(state.blocks.b1).toStrictEqual({ id: 'b1', turnId: 't1', kind: 'step', status: 'open', messageIds: [], threadIds: ['lane'] })
    expect(state.threads.lane).toStrictEqual({ ...before.threads.lane, messageIds: [] })
    expect(traceRecord(state.trace)).toStrictEqual({ b1: { ...traceRecord(before.trace).b1!, childIds: [] }, r1: traceRecord(before.trace).r1 })
    expect(state.turns.t1!.problems).toEqual([])
  })

  it('a block without a timeline row of its own loses its messages, and the timeline stays', () => {
    const before = fold(emptyState(), [...setup.slice(0, 6), { op: 'trace.node', turnId: 't1', node: { id: 'r1', label: 'Other' } }])
    const state = fold(before, [{ op: 'block.reset', blockId: 'b1' }])
    expect(state.blocks.b1).toStrictEqual({ id: 'b1', turnId: 't1', kind: 'step', status: 'open', messageIds: [], threadIds: ['lane'] })
    expect(Object.keys(messageRecord(state.messages))).toEqual(['m3'])
    expect(traceRecord(state.trace)).toStrictEqual(traceRecord(before.trace))
    expect(state.turns.t1!.problems).toEqual([])
  })

  it('an unknown block changes nothing and is no problem', () => {
    const before = fold(emptyState(), setup)
    expect(fold(before, [{ op: 'block.reset', blockId: 'ghost' }])).toStrictEqual(before)
  })

  it('the block takes new messages after it', () => {
    const state = fold(emptyState(), [...setup, { op: 'block.reset', blockId: 'b1' }, put('m4', { blockId: 'b1' })])
    expect(state.blocks.b1!.messageIds).toEqual(['m4'])
    expect(state.turns.t1!.messageIds).toEqual(['m3', 'm4'])
  })
})
