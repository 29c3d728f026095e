/**
 * Exact expectations for `hydrate`: where history's turns go (after the active
 * path, or before it as one chain; under a parent the store knows), the status
 * a new turn and each message gets, and what a turn or message the store
 * already holds keeps.
 */
import { describe, expect, it } from 'vitest'
import { fold } from '../../../src/core/fold/fold'
import { emptyState, type Turn } from '../../../src/core/model/model'
import type { HydratedTurn, Op } from '../../../src/core/model/ops'
import { messageIn, messageRecord } from '../../../src/core/model/message-table'

const bare = (id: string, fields: Partial<Turn> = {}): Turn => ({
  id, role: 'assistant', status: 'done', blockIds: [], messageIds: [], traceRootIds: [], gateIds: [],
  sources: [], metadata: {}, problems: [], ...fields,
})
const opened = (...ids: string[]): Op[] => ids.flatMap((turnId): Op[] => [
  { op: 'turn.open', turnId, role: 'assistant' }, { op: 'turn.finish', turnId, status: 'done' },
])
const hydrate = (at: 'start' | 'end', ...turns: HydratedTurn[]): Op => ({ op: 'hydrate', at, turns })

const h1: HydratedTurn = { turn: { id: 'h1', role: 'user' }, messages: [{ id: 'hm1', type: 'text', role: 'user', props: { content: 'hi' } }] }
const h2: HydratedTurn = { turn: { id: 'h2', role: 'assistant', status: 'error' }, messages: [{ id: 'hm2', type: 'text', status: 'error' }] }

describe('where history goes', () => {
  it('at the end it joins the active path after its last turn, in order', () => {
    const state = fold(fold(emptyState(), opened('t1')), [hydrate('end', h1, h2)])
    expect(state.turnIds).toEqual(['t1', 'h1', 'h2'])
    expect(state.branches).toEqual({ '': ['t1'], t1: ['h1'], h1: ['h2'] })
    expect(state.turns.h1).toStrictEqual(bare('h1', { role: 'user', parentId: 't1', messageIds: ['hm1'] }))
    expect(state.turns.h2).toStrictEqual(bare('h2', { status: 'error', parentId: 'h1', messageIds: ['hm2'] }))
    expect(messageRecord(state.messages)).toStrictEqual({
      hm1: { id: 'hm1', turnId: 'h1', role: 'user', type: 'text', props: { content: 'hi' }, status: 'done' },
      hm2: { id: 'hm2', turnId: 'h2', role: 'assistant', type: 'text', props: {}, status: 'error' },
    })
  })

  it('at the start it goes before the active path, as one chain', () => {
    const state = fold(fold(emptyState(), opened('t1')), [hydrate('start', h1, h2)])
    expect(state.turnIds).toEqual(['h1', 'h2', 't1'])
    expect(state.branches).toEqual({ '': ['h1'], h1: ['h2'], h2: ['t1'] })
    expect(state.turns.h1).toStrictEqual(bare('h1', { role: 'user', messageIds: ['hm1'] }))
    expect(state.turns.t1!.parentId).toBe('h2')
  })

  it('a turn whose parent the store knows goes under it, as a branch', () => {
    const state = fold(fold(emptyState(), opened('t1', 't2')), [hydrate('end', { turn: { id: 'h1', role: 'assistant', parentId: 't1' }, messages: [] })])
    expect(state.turnIds).toEqual(['t1', 'h1'])
    expect(state.branches).toEqual({ '': ['t1'], t1: ['t2', 'h1'] })
    expect(state.turns.h1).toStrictEqual(bare('h1', { parentId: 't1' }))
  })

  it('a parent the store does not know is no parent: the turn joins the end', () => {
    const state = fold(fold(emptyState(), opened('t1', 't2')), [hydrate('end', { turn: { id: 'h1', role: 'assistant', parentId: 'gone' }, messages: [] })])
    expect(state.turnIds).toEqual(['t1', 't2', 'h1'])
    expect(state.turns.h1).toStrictEqual(bare('h1', { parentId: 't2' }))
  })

  it('a parent id that is not a string is no parent, even beside a turn named after it', () => {
    const turn = { id: 'h1', role: 'assistant', parentId: null } as unknown as HydratedTurn['turn']
    const state = fold(fold(emptyState(), opened('first', 'null')), [hydrate('end', { turn, messages: [] })])
    expect(state.turnIds).toEqual(['first', 'null', 'h1'])
    expect(state.turns.h1!.parentId).toBe('null')
    expect(state.branches['']).toEqual(['first'])
  })
})

describe('what a turn or message the store holds keeps', () => {
  const live: Op[] = [
    { op: 'turn.open', turnId: 't1', role: 'assistant', runId: 'r1' },
    { op: 'message.delta', turnId: 't1', messageId: 'm1', action: 'append', path: 'content', value: 'live' },
  ]

  it('a known turn keeps its place, its status and every field history does not name', () => {
    const before = fold(emptyState(), live)
    const state = fold(before, [hydrate('start', { turn: { id: 't1', role: 'assistant', finishReason: 'stop' }, messages: [] })])
    expect(state.turnIds).toEqual(['t1'])
    expect(state.turns.t1).toStrictEqual({ ...before.turns.t1, finishReason: 'stop' })
  })

  it('a known message keeps its props when history sends none, is listed once, and is done unless history names a status', () => {
    const before = fold(emptyState(), live)
    const state = fold(before, [hydrate('end', { turn: { id: 't1', role: 'assistant' }, messages: [{ id: 'm1', type: 'text' }] })])
    expect(messageIn(state.messages, 'm1')).toStrictEqual({ id: 'm1', turnId: 't1', role: 'assistant', type: 'text', props: { content: 'live' }, status: 'done' })
    expect(state.turns.t1!.messageIds).toEqual(['m1'])
    const replaced = fold(before, [hydrate('end', {
      turn: { id: 't1', role: 'assistant' }, messages: [{ id: 'm1', type: 'reasoning', props: { content: 'kept' }, status: 'streaming' }],
    })])
    expect(messageIn(replaced.messages, 'm1')).toStrictEqual({ id: 'm1', turnId: 't1', role: 'assistant', type: 'reasoning', props: { content: 'kept' }, status: 'streaming' })
  })

  it('a message history places in a block and a lane is listed there', () => {
    const state = fold(emptyState(), [hydrate('end', { turn: { id: 'h1', role: 'assistant' }, messages: [{ id: 'hm', type: 'text', blockId: 'b1', threadId: 'l1' }] })])
    expect(state.turns.h1).toStrictEqual(bare('h1', { messageIds: ['hm'], blockIds: ['b1'] }))
    expect(state.blocks.b1!.messageIds).toEqual(['hm'])
    expect(state.threads.l1).toStrictEqual({ id: 'l1', turnId: 'h1', blockId: 'b1', status: 'open', messageIds: ['hm'] })
  })
})

describe('a history turn whose fields are present but undefined', () => {
  // A host's loader writes `{ id, role, status: row.status }` when its row has no status.
  const sparse = { id: 'h1', role: 'user', status: undefined, metadata: undefined, problems: undefined, sources: undefined } as unknown as HydratedTurn['turn']

  it('is read as if it had none of them: a new turn gets the defaults', () => {
    const state = fold(emptyState(), [hydrate('end', { turn: sparse, messages: [] })])
    expect(state.turns.h1).toStrictEqual(bare('h1', { role: 'user' }))
  })

  it('a known turn keeps the values it had', () => {
    const before = fold(emptyState(), [{ op: 'turn.open', turnId: 't1', role: 'assistant', runId: 'r1', metadata: { a: 1 } }])
    const state = fold(before, [hydrate('end', { turn: { id: 't1', role: 'assistant', status: undefined, runId: undefined, metadata: undefined }, messages: [] })])
    expect(state.turns.t1).toStrictEqual(before.turns.t1)
  })

  it('the turn still takes problems afterwards, and the fold does not throw', () => {
    const state = fold(emptyState(), [hydrate('end', { turn: sparse, messages: [] })])
    const after = fold(state, [{ op: 'problem', turnId: 'h1', error: { type: 'protocol', message: 'late', retryable: false } }])
    expect(after.turns.h1!.problems).toStrictEqual([{ type: 'protocol', message: 'late', retryable: false }])
  })
})
