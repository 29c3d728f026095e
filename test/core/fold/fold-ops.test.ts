/**
 * Exact expectations for the fold's smaller op cases: what each one writes, what
 * it keeps, and the problem (type, message, code) it records when it cannot apply.
 */
import { describe, expect, it } from 'vitest'
import { foldStream, streamToOps } from '../../../src/core/protocol/fold-stream'
import { agUiProtocol } from '../../../src/protocols/ag-ui/protocol'
import { weftError } from '../../../src/core/model/errors'
import { fold, foldIsolated } from '../../../src/core/fold/fold'
import { emptyState, type AgentState, type Gate } from '../../../src/core/model/model'
import type { Op } from '../../../src/core/model/ops'
import { messageIn, messageRecord } from '../../../src/core/model/message-table'

const open: Op = { op: 'turn.open', turnId: 't1', role: 'assistant' }
const started = (...ops: Op[]): AgentState => fold(emptyState(), [open, ...ops])

describe('records an op names before they are opened', () => {
  it('a delta alone makes its turn, its block and itself, each with the defaults', () => {
    const state = fold(emptyState(), [
      { op: 'message.delta', turnId: 't1', messageId: 'm1', blockId: 'b1', action: 'append', path: 'content', value: 'hi' },
    ])
    expect(state.turns.t1).toStrictEqual({
      id: 't1', role: 'assistant', status: 'streaming', blockIds: ['b1'], messageIds: ['m1'], traceRootIds: [], gateIds: [],
      sources: [], metadata: {}, problems: [],
    })
    expect(state.blocks.b1).toStrictEqual({ id: 'b1', turnId: 't1', kind: 'block', status: 'open', messageIds: ['m1'], threadIds: [] })
    expect(messageIn(state.messages, 'm1')).toStrictEqual({
      id: 'm1', turnId: 't1', blockId: 'b1', role: 'assistant', type: 'text', props: { content: 'hi' }, status: 'streaming',
    })
    expect(state.turnIds).toEqual(['t1'])
  })

  it('a message keeps the role and type its first op names', () => {
    const state = started({ op: 'message.put', turnId: 't1', messageId: 'm1', role: 'user', type: 'note', props: { a: 1 } })
    expect(messageIn(state.messages, 'm1')).toStrictEqual({ id: 'm1', turnId: 't1', role: 'user', type: 'note', props: { a: 1 }, status: 'streaming' })
  })

  it('an empty block id places a message in no block', () => {
    const state = started({ op: 'message.delta', turnId: 't1', messageId: 'm1', blockId: '', action: 'append', path: 'content', value: 'x' })
    expect(state.blocks).toEqual({})
    expect(messageIn(state.messages, 'm1')).toStrictEqual({ id: 'm1', turnId: 't1', role: 'assistant', type: 'text', props: { content: 'x' }, status: 'streaming' })
    expect(state.turns.t1!.blockIds).toEqual([])
  })
})

describe('message.put and message.finish', () => {
  it('put sets the status it names and keeps the one it does not', () => {
    const put = (status?: 'done' | 'error'): Op =>
      ({ op: 'message.put', turnId: 't1', messageId: 'm1', type: 'text', props: { content: status ?? 'none' }, ...(status ? { status } : {}) })
    const done = started(put('done'))
    expect(messageIn(done.messages, 'm1')!.status).toBe('done')
    const again = fold(done, [put()])
    expect(messageIn(again.messages, 'm1')).toStrictEqual({ id: 'm1', turnId: 't1', role: 'assistant', type: 'text', props: { content: 'none' }, status: 'done' })
    expect(messageIn(started(put()).messages, 'm1')!.status).toBe('streaming')
  })

  it('finish sets the status of a known message; an unknown one is no problem', () => {
    const state = started(
      { op: 'message.put', turnId: 't1', messageId: 'm1', type: 'text', props: {} },
      { op: 'message.finish', messageId: 'm1', status: 'error' },
      { op: 'message.finish', messageId: 'ghost', status: 'done' },
    )
    expect(messageIn(state.messages, 'm1')!.status).toBe('error')
    expect(Object.keys(messageRecord(state.messages))).toEqual(['m1'])
    expect(state.turns.t1!.problems).toEqual([])
    expect(state.error).toBeUndefined()
  })

  it('removing a message is no problem', () => {
    const state = started(
      { op: 'message.put', turnId: 't1', messageId: 'm1', type: 'text', props: {} },
      { op: 'message.remove', messageId: 'm1' },
    )
    expect(messageRecord(state.messages)).toEqual({})
    expect(Object.keys(state.turns)).toEqual(['t1'])
    expect(state.turns.t1!.messageIds).toEqual([])
    expect(state.turns.t1!.problems).toEqual([])
  })
})

describe('blocks and lanes', () => {
  it('a block opened again takes the new kind and keeps its label unless it names one', () => {
    const state = started(
      { op: 'block.open', turnId: 't1', blockId: 'b1', kind: 'tool', label: 'Search' },
      { op: 'block.open', turnId: 't1', blockId: 'b1', kind: 'step' },
      { op: 'block.open', turnId: 't1', blockId: 'b2', kind: 'step' },
    )
    expect(state.blocks.b1).toStrictEqual({ id: 'b1', turnId: 't1', kind: 'step', label: 'Search', status: 'open', messageIds: [], threadIds: [] })
    expect(state.blocks.b2).toStrictEqual({ id: 'b2', turnId: 't1', kind: 'step', status: 'open', messageIds: [], threadIds: [] })
    const renamed = fold(state, [{ op: 'block.open', turnId: 't1', blockId: 'b1', kind: 'step', label: 'Read' }])
    expect(renamed.blocks.b1!.label).toBe('Read')
    expect(state.turns.t1!.blockIds).toEqual(['b1', 'b2'])
  })

  it('close sets done, or the status it names; closing an unknown block is no problem', () => {
    const state = started(
      { op: 'block.open', turnId: 't1', blockId: 'b1', kind: 'step' },
      { op: 'block.open', turnId: 't1', blockId: 'b2', kind: 'step' },
      { op: 'block.close', blockId: 'b1' },
      { op: 'block.close', blockId: 'b2', status: 'error' },
      { op: 'block.close', blockId: 'ghost' },
    )
    expect(state.blocks.b1!.status).toBe('done')
    expect(state.blocks.b2!.status).toBe('error')
    expect(Object.keys(state.blocks)).toEqual(['b1', 'b2'])
    expect(state.turns.t1!.problems).toEqual([])
    expect(state.error).toBeUndefined()
  })

  it('a lane opened again keeps its label unless it names one', () => {
    const state = started(
      { op: 'thread.open', turnId: 't1', threadId: 'lane', label: 'Researcher' },
      { op: 'thread.open', turnId: 't1', threadId: 'lane' },
      { op: 'thread.open', turnId: 't1', threadId: 'plain' },
    )
    expect(state.threads.lane).toStrictEqual({ id: 'lane', turnId: 't1', label: 'Researcher', status: 'open', messageIds: [] })
    expect(state.threads.plain).toStrictEqual({ id: 'plain', turnId: 't1', status: 'open', messageIds: [] })
    expect(fold(state, [{ op: 'thread.open', turnId: 't1', threadId: 'lane', label: 'Writer' }]).threads.lane!.label).toBe('Writer')
  })

  it('a lane without a block makes none; a lane keeps the first block it was placed in', () => {
    const loose = started({ op: 'thread.open', turnId: 't1', threadId: 'lane' })
    expect(loose.blocks).toEqual({})
    const placed = fold(loose, [
      { op: 'thread.open', turnId: 't1', threadId: 'lane', blockId: 'b1' },
      { op: 'thread.open', turnId: 't1', threadId: 'lane', blockId: 'b2' },
    ])
    expect(placed.threads.lane).toStrictEqual({ id: 'lane', turnId: 't1', blockId: 'b1', status: 'open', messageIds: [] })
    expect(placed.blocks).toStrictEqual({ b1: { id: 'b1', turnId: 't1', kind: 'block', status: 'open', messageIds: [], threadIds: ['lane'] } })
    expect(placed.turns.t1!.blockIds).toEqual(['b1'])
  })

  it('a block that already lists a lane does not list it twice', () => {
    const base = started({ op: 'block.open', turnId: 't1', blockId: 'b1', kind: 'step' }, { op: 'thread.open', turnId: 't1', threadId: 'lane' })
    // A lane that lost its block while the block kept it (a damaged or hand-made state).
    const damaged: AgentState = { ...base, blocks: { b1: { ...base.blocks.b1!, threadIds: ['lane'] } } }
    const state = fold(damaged, [{ op: 'thread.open', turnId: 't1', threadId: 'lane', blockId: 'b1' }])
    expect(state.blocks.b1!.threadIds).toEqual(['lane'])
    expect(state.threads.lane!.blockId).toBe('b1')
  })

  it('close sets done, or the status it names; closing an unknown lane is no problem', () => {
    const state = started(
      { op: 'thread.open', turnId: 't1', threadId: 'a' },
      { op: 'thread.open', turnId: 't1', threadId: 'b' },
      { op: 'thread.close', threadId: 'a' },
      { op: 'thread.close', threadId: 'b', status: 'error' },
      { op: 'thread.close', threadId: 'ghost' },
    )
    expect(state.threads).toStrictEqual({
      a: { id: 'a', turnId: 't1', status: 'done', messageIds: [] },
      b: { id: 'b', turnId: 't1', status: 'error', messageIds: [] },
    })
    expect(messageRecord(state.messages)).toEqual({})
    expect(state.turns.t1!.problems).toEqual([])
    expect(state.error).toBeUndefined()
  })
})

describe('gates', () => {
  const gate = (id: string, fields: Partial<Gate> = {}): Op =>
    ({ op: 'gate.open', gate: { id, turnId: 't1', kind: 'approval', question: 'Go?', payload: { n: 1 }, ...fields } })

  it('a gate opens pending unless it names a status, and its turn lists it once', () => {
    const state = started(gate('g1'), gate('g2', { status: 'approved' }), gate('g1', { question: 'Really?' }))
    expect(state.gates).toStrictEqual({
      g1: { id: 'g1', turnId: 't1', kind: 'approval', question: 'Really?', payload: { n: 1 }, status: 'pending' },
      g2: { id: 'g2', turnId: 't1', kind: 'approval', question: 'Go?', payload: { n: 1 }, status: 'approved' },
    })
    expect(state.turns.t1!.gateIds).toEqual(['g1', 'g2'])
  })

  it('resolving sets the status and the response; a later resolve without one keeps it; a gate opened again keeps both', () => {
    const resolved = started(gate('g1'), { op: 'gate.resolve', gateId: 'g1', status: 'approved', response: { ok: true } })
    expect(resolved.gates.g1).toStrictEqual({
      id: 'g1', turnId: 't1', kind: 'approval', question: 'Go?', payload: { n: 1 }, status: 'approved', response: { ok: true },
    })
    const again = fold(resolved, [{ op: 'gate.resolve', gateId: 'g1', status: 'answered' }])
    expect(again.gates.g1).toStrictEqual({ ...resolved.gates.g1, status: 'answered' })
    const reopened = fold(again, [gate('g1', { question: 'Still?' })])
    expect(reopened.gates.g1).toStrictEqual({ ...resolved.gates.g1, status: 'answered', question: 'Still?' })
    expect(reopened.turns.t1!.problems).toEqual([])
  })

  it('a gate resolved without a response has none', () => {
    const state = started(gate('g1'), { op: 'gate.resolve', gateId: 'g1', status: 'rejected' })
    expect(state.gates.g1).toStrictEqual({ id: 'g1', turnId: 't1', kind: 'approval', question: 'Go?', payload: { n: 1 }, status: 'rejected' })
  })

  it('resolving an unknown gate is a problem on the active turn, and makes no gate', () => {
    const state = started({ op: 'gate.resolve', gateId: 'ghost', status: 'approved' })
    expect(state.gates).toEqual({})
    expect(state.turns.t1!.problems).toStrictEqual([
      { type: 'protocol', message: 'could not apply gate.resolve: no gate "ghost"', code: 'gate.resolve', retryable: false },
    ])
  })
})

describe('sources', () => {
  it('a source sent again by id merges into the one the turn has, first or not; a new one goes last', () => {
    const state = started(
      { op: 'source.add', turnId: 't1', source: { id: 's1', kind: 'url', url: 'https://a.example', title: 'A' } },
      { op: 'source.add', turnId: 't1', source: { id: 's2', kind: 'document', title: 'B' } },
      { op: 'source.add', turnId: 't1', source: { id: 's1', kind: 'url', url: 'https://b.example' } },
      { op: 'source.add', turnId: 't1', source: { id: 's2', kind: 'document', snippet: 'b' } },
    )
    expect(state.turns.t1!.sources).toStrictEqual([
      { id: 's1', kind: 'url', url: 'https://b.example', title: 'A' },
      { id: 's2', kind: 'document', title: 'B', snippet: 'b' },
    ])
  })
})

describe('the stream status', () => {
  const error = weftError('network', 'lost')

  it('an error stays through a status that names none, until the stream connects or streams again', () => {
    const failed = fold(emptyState(), [{ op: 'stream.status', status: 'error', error }])
    expect(failed.error).toEqual(error)
    for (const status of ['done', 'reconnecting', 'aborted', 'idle'] as const) {
      const state = fold(failed, [{ op: 'stream.status', status }])
      expect(state.status).toBe(status)
      expect(state.error).toEqual(error)
    }
    for (const status of ['connecting', 'streaming'] as const) {
      const state = fold(failed, [{ op: 'stream.status', status }])
      expect(state.status).toBe(status)
      expect('error' in state).toBe(false)
    }
  })
})

describe('problems', () => {
  it('a problem with no turn to go to becomes the state error; the first one stays', () => {
    const first = weftError('protocol', 'first')
    const state = fold(emptyState(), [{ op: 'problem', error: first }, { op: 'problem', error: weftError('protocol', 'second') }])
    expect(state.error).toEqual(first)
    expect(state.turns).toEqual({})
  })

  it('selecting an unknown turn is a validation error on the state, and makes no turn', () => {
    const state = fold(emptyState(), [{ op: 'branch.select', turnId: 'ghost' }])
    expect(state.error).toStrictEqual({ type: 'validation', message: 'no turn "ghost" to select', code: 'branch.select', retryable: false })
    expect(state.turns).toEqual({})
    expect(state.turnIds).toEqual([])
  })

  it('a forbidden key in wire data is dropped and named in a problem on the op turn', () => {
    const props = JSON.parse('{"content":"x","__proto__":{"polluted":1}}') as Record<string, unknown>
    const state = started({ op: 'message.put', turnId: 't1', messageId: 'm1', type: 'text', props })
    expect(messageIn(state.messages, 'm1')!.props).toStrictEqual({ content: 'x' })
    expect(state.turns.t1!.problems).toStrictEqual([
      { type: 'protocol', message: 'refused the key "__proto__" sent by the server', retryable: false },
    ])
  })

  it('an op that throws out of the fold itself becomes a fold_failed problem on its turn', () => {
    const state = foldIsolated(emptyState(), [open], () => {
      throw new Error('too deep')
    })
    expect(state.turns.t1!.problems).toStrictEqual([
      { type: 'protocol', message: 'could not apply turn.open: too deep', code: 'fold_failed', retryable: false },
    ])
  })
})

describe('shared agent state', () => {
  const agUi = (events: unknown[], state?: ReturnType<typeof emptyState>) => foldStream(events, { protocol: agUiProtocol, protocols: [agUiProtocol], ...(state ? { state } : {}) })

  it('is set whole; a patch that makes the root something other than an object keeps it under value', () => {
    expect(fold(emptyState(), [{ op: 'agentState.set', value: { a: 1 } }]).agentState).toStrictEqual({ a: 1 })
    const state = agUi([{ type: 'STATE_SNAPSHOT', snapshot: { a: 1 } }, { type: 'STATE_DELTA', delta: [{ op: 'replace', path: '', value: [1, 2] }] }])
    expect(state.agentState).toStrictEqual({ value: [1, 2] })
  })

  it('a patch with no snapshot before it in its stream applies to the state the store had, and the ops stay plain data', () => {
    const before = fold(emptyState(), [{ op: 'agentState.set', value: { a: 1, list: [1] } }])
    const events = [{ type: 'STATE_DELTA', delta: [{ op: 'replace', path: '/a', value: 2 }, { op: 'add', path: '/list/-', value: 2 }] }]
    expect(agUi(events, before).agentState).toStrictEqual({ a: 2, list: [1, 2] })
    const ops = streamToOps(events, { protocol: agUiProtocol, protocols: [agUiProtocol], state: before })
    expect(JSON.parse(JSON.stringify(ops))).toEqual(ops)
    expect(ops.filter((op) => op.op === 'agentState.set')).toEqual([{ op: 'agentState.set', value: { a: 2, list: [1, 2] } }])
  })
})

describe('the state the fold returns', () => {
  it('is not frozen: freezing each batch would cost more than folding it', () => {
    const state = started({ op: 'message.put', turnId: 't1', messageId: 'm1', type: 'text', props: { content: 'a' } })
    expect(Object.isFrozen(state)).toBe(false)
    expect(Object.isFrozen(state.turns.t1)).toBe(false)
    expect(Object.isFrozen(messageIn(state.messages, 'm1')!.props)).toBe(false)
  })
})
