import { describe, expect, it } from 'vitest'
import { weftError } from '../../../src/core/model/errors'
import { fold } from '../../../src/core/fold/fold'
import { emptyState, type AgentState } from '../../../src/core/model/model'
import type { Op } from '../../../src/core/model/ops'
import { messageIn, messageRecord } from '../../../src/core/model/message-table'

const open = (turnId: string): Op => ({ op: 'turn.open', turnId, role: 'assistant' })
const text = (turnId: string, messageId: string, place: { blockId?: string; threadId?: string } = {}): Op =>
  ({ op: 'message.put', turnId, messageId, type: 'text', props: { content: messageId }, ...place })
const statuses = (state: AgentState, table: 'blocks' | 'threads') =>
  Object.fromEntries(Object.values(state[table]).map((span) => [span.id, span.status]))

describe('a turn that finishes closes what it left open, and only that', () => {
  const setup: Op[] = [
    open('t1'),
    { op: 'block.open', turnId: 't1', blockId: 'b-open', kind: 'step' },
    { op: 'block.open', turnId: 't1', blockId: 'b-failed', kind: 'step' },
    { op: 'block.close', blockId: 'b-failed', status: 'error' },
    { op: 'thread.open', turnId: 't1', threadId: 'lane-open', blockId: 'b-open' },
    { op: 'thread.open', turnId: 't1', threadId: 'lane-failed', blockId: 'b-open' },
    { op: 'thread.close', threadId: 'lane-failed', status: 'error' },
    { op: 'thread.open', turnId: 't1', threadId: 'sub-agent' },
    { op: 'thread.open', turnId: 't1', threadId: 'sub-agent-failed' },
    { op: 'thread.close', threadId: 'sub-agent-failed', status: 'error' },
    open('t2'),
    { op: 'thread.open', turnId: 't2', threadId: 'other-turn' },
    text('t1', 'm1', { blockId: 'b-open', threadId: 'lane-open' }),
  ]

  it('open blocks and lanes, in blocks or not, become done; failed ones stay failed; another turn keeps its own', () => {
    const state = fold(emptyState(), [...setup, { op: 'turn.finish', turnId: 't1', status: 'done' }])
    expect(statuses(state, 'blocks')).toEqual({ 'b-open': 'done', 'b-failed': 'error' })
    expect(statuses(state, 'threads')).toEqual({
      'lane-open': 'done', 'lane-failed': 'error', 'sub-agent': 'done', 'sub-agent-failed': 'error', 'other-turn': 'open',
    })
    expect(messageIn(state.messages, 'm1')!.status).toBe('done')
    expect(state.turns.t1!.problems).toEqual([])
  })

  it('the active turn stops being active; finishing another turn leaves it', () => {
    const started = fold(emptyState(), setup)
    expect(started.activeTurnId).toBe('t2')
    const other = fold(started, [{ op: 'turn.finish', turnId: 't1', status: 'done' }])
    expect(other.activeTurnId).toBe('t2')
    const active = fold(other, [{ op: 'turn.finish', turnId: 't2', status: 'done' }])
    expect(active.activeTurnId).toBeUndefined()
    expect('activeTurnId' in active).toBe(false)
  })

  it('an error and a finish reason are kept when a later finish names none', () => {
    const error = weftError('network', 'lost')
    const state = fold(emptyState(), [
      open('t1'),
      { op: 'turn.finish', turnId: 't1', status: 'error', error, finishReason: 'length' },
      { op: 'turn.finish', turnId: 't1', status: 'done' },
    ])
    expect(state.turns.t1).toMatchObject({ status: 'done', finishReason: 'length' })
    expect(state.turns.t1!.error).toEqual(error)
    const renamed = fold(state, [{ op: 'turn.finish', turnId: 't1', status: 'done', finishReason: 'stop' }])
    expect(renamed.turns.t1!.finishReason).toBe('stop')
  })

  it('a turn that names a block or a lane the store lacks still finishes, with no problem', () => {
    const base = fold(emptyState(), [open('t1'), { op: 'block.open', turnId: 't1', blockId: 'b1', kind: 'step' }])
    const damaged: AgentState = {
      ...base,
      turns: { ...base.turns, t1: { ...base.turns.t1!, blockIds: ['ghost', 'b1'] } },
      blocks: { b1: { ...base.blocks.b1!, threadIds: ['ghost-lane'] } },
    }
    const state = fold(damaged, [{ op: 'turn.finish', turnId: 't1', status: 'done' }])
    expect(state.turns.t1!.status).toBe('done')
    expect(state.blocks.b1!.status).toBe('done')
    expect(state.turns.t1!.problems).toEqual([])
  })
})

describe('removing a message', () => {
  const setup: Op[] = [
    open('t1'),
    { op: 'block.open', turnId: 't1', blockId: 'b1', kind: 'step' },
    { op: 'thread.open', turnId: 't1', threadId: 'lane', blockId: 'b1' },
    text('t1', 'first', { blockId: 'b1', threadId: 'lane' }),
    text('t1', 'middle', { blockId: 'b1', threadId: 'lane' }),
    text('t1', 'last', { blockId: 'b1', threadId: 'lane' }),
    text('t1', 'loose'),
  ]
  // The table keeps no order of its own: its ids are listed in the order they were made.
  const made = ['first', 'middle', 'last', 'loose']
  const inOrderMade = (ids: string[]) => ids.sort((a, b) => made.indexOf(a) - made.indexOf(b))
  const lists = (state: AgentState) => ({
    turn: state.turns.t1!.messageIds, block: state.blocks.b1!.messageIds, lane: state.threads.lane!.messageIds, messages: inOrderMade(Object.keys(messageRecord(state.messages))),
  })

  it('takes it out of its turn, its block and its lane, wherever it stands in them', () => {
    const start = fold(emptyState(), setup)
    expect(lists(start)).toEqual({
      turn: ['first', 'middle', 'last', 'loose'], block: ['first', 'middle', 'last'], lane: ['first', 'middle', 'last'], messages: ['first', 'middle', 'last', 'loose'],
    })
    expect(lists(fold(start, [{ op: 'message.remove', messageId: 'first' }]))).toEqual({
      turn: ['middle', 'last', 'loose'], block: ['middle', 'last'], lane: ['middle', 'last'], messages: ['middle', 'last', 'loose'],
    })
    expect(lists(fold(start, [{ op: 'message.remove', messageId: 'last' }]))).toEqual({
      turn: ['first', 'middle', 'loose'], block: ['first', 'middle'], lane: ['first', 'middle'], messages: ['first', 'middle', 'loose'],
    })
    expect(lists(fold(start, [{ op: 'message.remove', messageId: 'loose' }]))).toEqual({
      turn: ['first', 'middle', 'last'], block: ['first', 'middle', 'last'], lane: ['first', 'middle', 'last'], messages: ['first', 'middle', 'last'],
    })
  })

  it('an unknown message changes nothing, and one whose block or lane is gone still goes', () => {
    const start = fold(emptyState(), setup)
    const unknown = fold(start, [{ op: 'message.remove', messageId: 'nobody' }])
    expect(lists(unknown)).toEqual(lists(start))
    expect(unknown.turns.t1!.problems).toEqual([])
    const orphan: AgentState = { ...start, blocks: {}, threads: {} }
    const removed = fold(orphan, [{ op: 'message.remove', messageId: 'middle' }])
    expect(removed.turns.t1!.messageIds).toEqual(['first', 'last', 'loose'])
    expect(inOrderMade(Object.keys(messageRecord(removed.messages)))).toEqual(['first', 'last', 'loose'])
    expect(removed.turns.t1!.problems).toEqual([])
  })

  it('a list that does not hold the message keeps every id it has, and a message whose turn is gone still goes', () => {
    const start = fold(emptyState(), setup)
    // A block and a turn that lost track of the message (a damaged or hand-made state).
    const untracked: AgentState = {
      ...start,
      turns: { ...start.turns, t1: { ...start.turns.t1!, messageIds: ['first', 'last', 'loose'] } },
      blocks: { ...start.blocks, b1: { ...start.blocks.b1!, messageIds: ['first', 'last'] } },
    }
    const removed = fold(untracked, [{ op: 'message.remove', messageId: 'middle' }])
    expect(lists(removed)).toEqual({ turn: ['first', 'last', 'loose'], block: ['first', 'last'], lane: ['first', 'last'], messages: ['first', 'last', 'loose'] })
    const { t1: _gone, ...turns } = start.turns
    const turnless = fold({ ...start, turns }, [{ op: 'message.remove', messageId: 'loose' }, open('t9')])
    expect(Object.keys(messageRecord(turnless.messages))).toEqual(['first', 'middle', 'last'])
    expect(turnless.turns.t9!.problems).toEqual([])
    expect(Object.values(turnless.turns).flatMap((turn) => turn.problems)).toEqual([])
    expect(turnless.error).toBeUndefined()
  })
})
