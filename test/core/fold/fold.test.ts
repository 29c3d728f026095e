import { describe, expect, it } from 'vitest'
import { foldStream } from '../../../src/core/protocol/fold-stream'
import { agUiProtocol } from '../../../src/protocols/ag-ui/protocol'
import { fold } from '../../../src/core/fold/fold'
import { applyDelta } from '../../../src/core/fold/deltas'
import { parsePath } from '../../../src/core/util/paths'
import { clean } from '../../../src/core/util/record'
import { emptyState, type AgentState } from '../../../src/core/model/model'
import type { Op } from '../../../src/core/model/ops'
import { messageIn } from '../../../src/core/model/message-table'
import { traceRecord } from '../../../src/core/model/trace-table'

const open: Op = { op: 'turn.open', turnId: 't1', role: 'assistant' }

function run(ops: Op[], state: AgentState = emptyState()): AgentState {
  return fold(state, [open, ...ops])
}

describe('paths', () => {
  it('reads dot and bracket paths', () => {
    expect(parsePath('items.0.title')).toEqual(['items', '0', 'title'])
    expect(parsePath('items[0].title')).toEqual(['items', '0', 'title'])
    expect(parsePath('a[1][2]')).toEqual(['a', '1', '2'])
    expect(parsePath('')).toEqual([])
  })

  it('refuses prototype keys and malformed paths', () => {
    for (const bad of ['__proto__', 'a.__proto__.x', 'constructor.prototype', 'a[__proto__]', 'a..b', 'a[0']) {
      expect(() => parsePath(bad), bad).toThrow()
    }
  })

  it('cleans forbidden keys out of wire data at any depth', () => {
    const dirty = JSON.parse('{"a":{"__proto__":{"polluted":1},"b":2},"list":[{"constructor":{"x":1}}]}')
    const dropped: string[] = []
    const cleaned = clean(dirty, (k) => dropped.push(k))
    expect(cleaned).toEqual({ a: { b: 2 }, list: [{}] })
    expect(dropped).toEqual(['__proto__', 'constructor'])
    const tidy = { a: 1, b: [1, 2] }
    expect(clean(tidy)).toBe(tidy)
  })
})

describe('delta actions', () => {
  it('append concatenates strings, extends arrays, appends objects key by key, sets the rest', () => {
    const props: Record<string, unknown> = { content: 'Hel', items: [1], n: 1, nested: { text: 'a' } }
    applyDelta(props, 'append', 'content', 'lo')
    applyDelta(props, 'append', 'items', [2, 3])
    applyDelta(props, 'append', 'items', 4)
    applyDelta(props, 'append', 'n', 5)
    applyDelta(props, 'append', '', { nested: { text: 'b' }, fresh: 'x' })
    expect(props).toEqual({ content: 'Hello', items: [1, 2, 3, 4], n: 5, nested: { text: 'ab' }, fresh: 'x' })
  })

  it('replace swaps the value at the path, or all of props', () => {
    const props: Record<string, unknown> = { a: { b: 1, c: 2 }, keep: true }
    applyDelta(props, 'replace', 'a', { z: 1 })
    expect(props).toEqual({ a: { z: 1 }, keep: true })
    applyDelta(props, 'replace', '', { only: 1 })
    expect(props).toEqual({ only: 1 })
  })

  it('merge deep-merges objects and replaces arrays', () => {
    const props: Record<string, unknown> = { a: { b: { c: 1, d: 2 }, list: [1, 2] } }
    applyDelta(props, 'merge', 'a', { b: { d: 3 }, list: [9] })
    expect(props).toEqual({ a: { b: { c: 1, d: 3 }, list: [9] } })
    applyDelta(props, 'merge', '', { top: 1 })
    expect(props).toMatchObject({ top: 1, a: { b: { c: 1 } } })
  })

  it('set writes the field at a path, creating arrays for numeric segments, or assigns shallowly', () => {
    const props: Record<string, unknown> = { a: 1 }
    applyDelta(props, 'set', 'items[0].title', 'First')
    expect(props).toEqual({ a: 1, items: [{ title: 'First' }] })
    applyDelta(props, 'set', '', { a: 2 })
    expect(props).toEqual({ a: 2, items: [{ title: 'First' }] })
  })
})

describe('fold', () => {
  it('leaves the input state untouched and shares what did not change', () => {
    const before = run([{ op: 'message.put', turnId: 't1', messageId: 'm1', type: 'text', props: { content: 'a' } },
      { op: 'message.put', turnId: 't1', messageId: 'm2', type: 'text', props: { content: 'b' } }])
    const after = fold(before, [{ op: 'message.delta', turnId: 't1', messageId: 'm1', action: 'append', path: 'content', value: '!' }])
    expect(messageIn(before.messages, 'm1')!.props.content).toBe('a')
    expect(messageIn(after.messages, 'm1')!.props.content).toBe('a!')
    expect(messageIn(after.messages, 'm2')).toBe(messageIn(before.messages, 'm2'))
    expect(after.turns.t1).toBe(before.turns.t1)
  })

  it('creates a message for a delta nobody announced, and its block and thread', () => {
    const s = run([{ op: 'message.delta', turnId: 't1', messageId: 'm1', blockId: 'b1', threadId: 'th1', type: 'text', action: 'append', path: 'content', value: 'x' }])
    expect(messageIn(s.messages, 'm1')).toMatchObject({ type: 'text', blockId: 'b1', threadId: 'th1', props: { content: 'x' } })
    expect(s.blocks.b1).toMatchObject({ messageIds: ['m1'], threadIds: ['th1'] })
    expect(s.threads.th1).toMatchObject({ blockId: 'b1', messageIds: ['m1'] })
    expect(s.turns.t1!.blockIds).toEqual(['b1'])
  })

  it('records a refused path as a typed problem and leaves everything else alone', () => {
    const s = run([
      { op: 'message.put', turnId: 't1', messageId: 'm1', type: 'text', props: { content: 'keep' } },
      { op: 'message.delta', turnId: 't1', messageId: 'm1', action: 'set', path: '__proto__.polluted', value: 'yes' },
      { op: 'message.delta', turnId: 't1', messageId: 'm1', action: 'set', path: 'constructor.prototype.polluted', value: 'yes' },
      { op: 'message.delta', turnId: 't1', messageId: 'm1', action: 'merge', path: '', value: JSON.parse('{"__proto__":{"polluted":"yes"}}') },
      { op: 'message.delta', turnId: 't1', messageId: 'm1', action: 'set', path: '', value: JSON.parse('{"__proto__":{"polluted":"yes"}}') },
    ])
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(Object.prototype).not.toHaveProperty('polluted')
    expect(messageIn(s.messages, 'm1')!.props).toEqual({ content: 'keep' })
    expect(Object.getPrototypeOf(messageIn(s.messages, 'm1')!.props)).toBe(Object.prototype)
    expect(s.turns.t1!.problems.map((p) => p.type)).toEqual(['protocol', 'protocol', 'protocol', 'protocol'])
  })

  it('finishing a turn closes its messages, blocks, threads and timeline rows', () => {
    const s = run([
      { op: 'block.open', turnId: 't1', blockId: 'b1', kind: 'llm' },
      { op: 'thread.open', turnId: 't1', threadId: 'th1', blockId: 'b1' },
      { op: 'message.delta', turnId: 't1', messageId: 'm1', threadId: 'th1', blockId: 'b1', action: 'append', path: 'content', value: 'x' },
      { op: 'trace.node', turnId: 't1', node: { id: 'n1', label: 'Searching…', status: 'progress' } },
      { op: 'turn.finish', turnId: 't1', status: 'done' },
    ])
    expect(s.turns.t1!.status).toBe('done')
    expect(messageIn(s.messages, 'm1')!.status).toBe('done')
    expect(s.blocks.b1!.status).toBe('done')
    expect(s.threads.th1!.status).toBe('done')
    expect(traceRecord(s.trace).n1!.status).toBe('done')
  })

  it('folds trace nodes: delta appends, absent fields keep, late parents adopt their children', () => {
    const s = run([
      { op: 'trace.node', turnId: 't1', node: { id: 'child', parentId: 'root', label: 'Reading', status: 'start' } },
      { op: 'trace.node', turnId: 't1', node: { id: 'root', label: 'Searching…', status: 'start', detail: 'q=weather' } },
      { op: 'trace.node', turnId: 't1', node: { id: 'root', status: 'progress' }, delta: 'found 3' },
      { op: 'trace.node', turnId: 't1', node: { id: 'root', status: 'done', result: 3 }, delta: ', done' },
    ])
    expect(traceRecord(s.trace).root).toMatchObject({ label: 'Searching…', status: 'done', detail: 'q=weather', result: 3, text: 'found 3, done', childIds: ['child'] })
    expect(s.turns.t1!.traceRootIds).toEqual(['root'])
  })

  it('fails a tool row from a tool error, with the message visible', () => {
    const s = run([
      { op: 'trace.node', turnId: 't1', node: { id: 'n1', kind: 'tool', tool: 'search', label: 'Searching', status: 'start' } },
      { op: 'trace.fail', turnId: 't1', tool: 'search', message: 'endpoint unreachable' },
      { op: 'turn.finish', turnId: 't1', status: 'done' },
    ])
    expect(traceRecord(s.trace).n1).toMatchObject({ status: 'error', text: 'endpoint unreachable' })
  })

  it('applies a JSON Patch to the agent state atomically (AG-UI applies it in its decoder)', () => {
    const s = foldStream([
      { type: 'RUN_STARTED', threadId: 'th', runId: 'r' },
      { type: 'STATE_SNAPSHOT', snapshot: { count: 1, items: [] } },
      { type: 'STATE_DELTA', delta: [{ op: 'replace', path: '/count', value: 2 }, { op: 'add', path: '/items/-', value: 'a' }] },
      { type: 'STATE_DELTA', delta: [{ op: 'replace', path: '/count', value: 99 }, { op: 'remove', path: '/missing' }] },
      { type: 'RUN_FINISHED', threadId: 'th', runId: 'r' },
    ], { protocol: agUiProtocol, protocols: [agUiProtocol] })
    expect(s.agentState).toEqual({ count: 2, items: ['a'] })
    expect(s.turns['turn-1']!.problems).toEqual([expect.objectContaining({ type: 'protocol', code: 'agentState.patch' })])
  })

  it('hydrates history in order before the live turns, updating known ids in place', () => {
    const live = run([{ op: 'message.put', turnId: 't1', messageId: 'm9', type: 'text', props: { content: 'live' } }])
    const s = fold(live, [{
      op: 'hydrate', at: 'start',
      turns: [
        { turn: { id: 'h1', role: 'user' }, messages: [{ id: 'u1', type: 'text', role: 'user', props: { content: 'q' } }] },
        { turn: { id: 'h2', role: 'assistant' }, messages: [{ id: 'a1', type: 'text', props: { content: 'a' } }] },
        { turn: { id: 't1', role: 'assistant' }, messages: [{ id: 'm9', type: 'text', props: { content: 'live (saved)' } }] },
      ],
    }])
    expect(s.turnIds).toEqual(['h1', 'h2', 't1'])
    expect(s.turns.t1!.messageIds).toEqual(['m9'])
    expect(messageIn(s.messages, 'm9')!.props.content).toBe('live (saved)')
  })

  it('reports an op it does not know instead of throwing', () => {
    const s = run([{ op: 'nonsense' } as unknown as Op])
    expect(s.turns.t1!.problems[0]).toMatchObject({ type: 'protocol' })
  })

  it('merges a turn\'s metadata.extra, where its other metadata is replaced key by key', () => {
    const s = run([
      { op: 'turn.update', turnId: 't1', metadata: { runId: 'r1', extra: { run: { region: 'eu' }, a: 1 } } },
      { op: 'turn.update', turnId: 't1', metadata: { runId: 'r2', extra: { run: { tier: 2 } } } },
    ])
    expect(s.turns.t1!.metadata).toEqual({ runId: 'r2', extra: { run: { region: 'eu', tier: 2 }, a: 1 } })
  })

  it('merges a thread\'s extra on open and close, a later value winning, and copies it from the op', () => {
    const extra = { lane: { region: 'eu', tier: 1 } }
    const s = run([
      { op: 'thread.open', turnId: 't1', threadId: 'th1', extra },
      { op: 'thread.close', threadId: 'th1', extra: { lane: { tier: 2 }, cost: 3 } },
      { op: 'thread.close', threadId: 'th-unknown', extra: { cost: 1 } },
    ])
    expect(s.threads.th1!.extra).toEqual({ lane: { region: 'eu', tier: 2 }, cost: 3 })
    expect(extra).toEqual({ lane: { region: 'eu', tier: 1 } })
    expect(s.threads['th-unknown']).toBeUndefined()
  })
})
