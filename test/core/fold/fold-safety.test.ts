/**
 * A batch is never lost and streamed text is never erased: the reproductions of
 * issue 7's classes 2 and 4, each a named regression test.
 */
import { describe, expect, it } from 'vitest'
import { createBatcher, frameScheduler, syncScheduler, type Scheduler } from '../../../src/core/store/batcher'
import { AgentClient } from '../../helpers/built-in-client'
import { applyOps, fold, foldIsolated } from '../../../src/core/fold/fold'
import { applyDelta, DeltaError } from '../../../src/core/fold/deltas'
import { MAX_PATH_SEGMENTS, PathError } from '../../../src/core/util/paths'
import { foldStream } from '../../../src/umbrella/defaults'
import { emptyState, type AgentState } from '../../../src/core/model/model'
import type { Op } from '../../../src/core/model/ops'
import { MAX_EVENT_DEPTH } from '../../../src/core/protocol/frame-decoder'
import { createAgentStore } from '../../../src/core/store/store'
import { liveFold, piecesFetch } from '../../helpers/live-fold'
import { contents, sse } from '../../helpers/yao'
import { messageIn, messageRecord } from '../../../src/core/model/message-table'
import { STREAM_TRUNCATED } from '../../../src/core/model/errors'

const yao = (events: unknown[]) => foldStream(events, { protocol: 'yao' })
// Most fragments here stop short of the stream's end; that rule has its own tests (truncated-stream.test.ts).
const codes = (state: AgentState, turnId = 'turn-1') => state.turns[turnId]!.problems.map((p) => p.code).filter((code) => code !== STREAM_TRUNCATED)

function nested(depth: number): Record<string, unknown> {
  let node: Record<string, unknown> = { leaf: true }
  for (let i = 0; i < depth; i++) node = { child: node }
  return node
}

const hello = [
  { chunk_id: 'C1', message_id: 'M1', type: 'text', props: { content: 'Hel' }, delta: true },
  { chunk_id: 'C2', message_id: 'M1', type: 'text', props: { content: 'lo' }, delta: true },
]

describe('depth limits are refused before the fold, each as a problem', () => {
  it('a Yao delta_path of 2,000 segments is a delta_path problem; the text stays', () => {
    const path = Array.from({ length: 2000 }, () => 'a').join('.')
    const state = yao([...hello, { chunk_id: 'C3', message_id: 'M1', type: 'text', props: {}, delta: true, delta_path: path, delta_action: 'set' }])
    expect(contents(state)).toEqual(['Hello'])
    expect(codes(state)).toEqual(['delta_path'])
    expect(state.turns['turn-1']!.problems[0]!.message).toContain(`limit of ${MAX_PATH_SEGMENTS}`)
  })

  it('a path one segment over the limit throws PathError; at the limit it is used', () => {
    const at = Array.from({ length: MAX_PATH_SEGMENTS }, () => 'a')
    const props: Record<string, unknown> = {}
    applyDelta(props, 'set', at.join('.'), 1)
    expect(JSON.stringify(props).split('{').length - 1).toBe(MAX_PATH_SEGMENTS)
    expect(() => applyDelta({}, 'set', [...at, 'a'].join('.'), 1)).toThrow(PathError)
  })

  it('Yao props nested 1,500 deep are refused as too_deep; the text stays', () => {
    const state = yao([...hello, { chunk_id: 'C3', message_id: 'M2', type: 'card', props: nested(1500) }])
    expect(contents(state)).toEqual(['Hello'])
    expect(codes(state)).toEqual(['too_deep'])
  })

  it('an event exactly at the depth limit is folded; one level more is refused', () => {
    // The event's own object, props and the chain: depth counts every nested level.
    const atLimit = { chunk_id: 'C3', message_id: 'M2', type: 'card', props: nested(MAX_EVENT_DEPTH - 2) }
    const over = { chunk_id: 'C4', message_id: 'M3', type: 'card', props: nested(MAX_EVENT_DEPTH - 1) }
    const state = yao([atLimit, over])
    expect(Object.keys(messageRecord(state.messages))).toEqual(['turn-1/M2'])
    expect(codes(state)).toEqual(['too_deep'])
  })
  it('the shortest frame nested one level too deep is refused, from its text as from its parsed value', () => {
    // Every level takes two characters, so this is the shortest text over the limit.
    const over = '['.repeat(MAX_EVENT_DEPTH + 1) + ']'.repeat(MAX_EVENT_DEPTH + 1)
    const atLimit = '['.repeat(MAX_EVENT_DEPTH) + ']'.repeat(MAX_EVENT_DEPTH)
    const frames = (data: string) => `data: ${JSON.stringify(hello[0])}\n\ndata: ${data}\n\n`
    expect(codes(foldStream(frames(over), { protocol: 'yao' }))).toEqual(['too_deep'])
    expect(codes(foldStream([hello[0], JSON.parse(over)], { protocol: 'yao' }))).toEqual(['too_deep'])
    expect(codes(foldStream(frames(atLimit), { protocol: 'yao' }))).not.toContain('too_deep')
    expect(codes(foldStream(frames(atLimit), { protocol: 'yao' }))).toEqual(codes(foldStream([hello[0], JSON.parse(atLimit)], { protocol: 'yao' })))
  })

  it('the live client, which parses each frame once, refuses the same frame and folds the one at the limit', async () => {
    const over = '['.repeat(MAX_EVENT_DEPTH + 1) + ']'.repeat(MAX_EVENT_DEPTH + 1)
    const atLimit = '['.repeat(MAX_EVENT_DEPTH) + ']'.repeat(MAX_EVENT_DEPTH)
    const body = (data: string) => [new TextEncoder().encode(`data: ${JSON.stringify(hello[0])}\n\ndata: ${data}\n\n`)]
    const refused = await liveFold(body(over), { protocol: 'yao' })
    expect(codes(refused.state, refused.turnId)).toEqual(['too_deep'])
    const folded = await liveFold(body(atLimit), { protocol: 'yao' })
    expect(codes(folded.state, folded.turnId)).not.toContain('too_deep')
  })
})

describe('a fold that throws loses nothing but the op that threw', () => {
  it('an op the fold does not know (a host decoder of another version) is a problem on its turn; the batch goes on', () => {
    const stranger = { op: 'message.shout', turnId: 't' } as unknown as Op
    const state = fold(emptyState(), [
      { op: 'turn.open', turnId: 't', role: 'assistant' },
      stranger,
      { op: 'message.put', turnId: 't', messageId: 'a', type: 'text', props: { content: 'kept' } },
    ])
    expect(state.turns.t!.problems.map((p) => [p.code, p.message])).toEqual([['message.shout', 'could not apply message.shout: unknown op message.shout']])
    expect(messageIn(state.messages, 'a')!.props.content).toBe('kept')
  })

  const around = (deep: Op): Op[] => [
    { op: 'turn.open', turnId: 't', role: 'assistant' },
    { op: 'message.put', turnId: 't', messageId: 'a', type: 'text', props: { content: 'before' } },
    deep,
    { op: 'message.put', turnId: 't', messageId: 'b', type: 'text', props: { content: 'after' } },
  ]

  it('an op that throws inside the produce is isolated: the ops before and after it are applied, in order', () => {
    // Stands in for immer overflowing the stack while it finalizes a deep structure,
    // which happens at a depth that depends on the engine's stack size.
    const apply = (draft: AgentState, some: readonly Op[]) => {
      applyOps(draft, some)
      if (some.some((op) => op.op === 'message.put' && op.messageId === 'bad')) throw new RangeError('Maximum call stack size exceeded')
    }
    const ops = around({ op: 'message.put', turnId: 't', messageId: 'bad', type: 'card', props: {} })
    const state = foldIsolated(emptyState(), [...ops, { op: 'message.put', turnId: 't', messageId: 'c', type: 'text', props: { content: 'last' } }], apply)
    expect(state.turns.t!.messageIds).toEqual(['a', 'b', 'c'])
    expect(state.turns.t!.problems.map((p) => [p.code, p.message])).toEqual([
      ['fold_failed', 'could not apply message.put: Maximum call stack size exceeded'],
    ])
  })

  it('props deep enough to overflow immer (3,000 levels) never throw out of fold and never cost the rest of the batch', () => {
    const state = fold(emptyState(), around({ op: 'message.put', turnId: 't', messageId: 'deep', type: 'card', props: nested(3000) }))
    expect(messageIn(state.messages, 'a')!.props.content).toBe('before')
    expect(messageIn(state.messages, 'b')!.props.content).toBe('after')
    // Where the stack gives out depends on the engine: either the op was applied or it is a problem.
    const applied = state.turns.t!.messageIds.includes('deep')
    expect(state.turns.t!.problems).toHaveLength(applied ? 0 : 1)
  })

  it('an op whose props cannot even be copied (20,000 deep) is a problem, and leaves no empty message', () => {
    const state = fold(emptyState(), around({ op: 'message.put', turnId: 't', messageId: 'deep', type: 'card', props: nested(20_000) }))
    expect(state.turns.t!.messageIds).toEqual(['a', 'b'])
    expect(state.turns.t!.problems).toHaveLength(1)
    expect(state.turns.t!.problems[0]!.message).toMatch(/^could not apply message\.put/)
  })

  it('the store isolates the same way', () => {
    const store = createAgentStore()
    store.getState().dispatch(around({ op: 'message.put', turnId: 't', messageId: 'deep', type: 'card', props: nested(20_000) }))
    expect(store.getState().turns.t!.messageIds).toEqual(['a', 'b'])
    expect(store.getState().turns.t!.problems).toHaveLength(1)
  })

  it('through the store and a frame scheduler: no error escapes the callback, the frame\'s text stays, the stream ends done', async () => {
    const callbacks: Array<() => void> = []
    const scheduler: Scheduler = (flush) => {
      callbacks.push(flush)
      return () => {}
    }
    const text = sse([
      ...hello,
      { chunk_id: 'C3', message_id: 'M2', type: 'card', props: nested(1500) },
      { chunk_id: 'C4', message_id: 'M1', type: 'text', props: { content: '!' }, delta: true },
      { type: 'event', props: { event: 'stream_end', status: 'completed' } },
    ])
    const store = createAgentStore()
    const client = new AgentClient(store, {
      url: '/x', protocol: 'yao', scheduler, idleTimeoutMs: 0, fetch: piecesFetch([new TextEncoder().encode(text)]),
    })
    const sending = client.send()
    // Run the frame callbacks as a browser would: any throw here would be uncaught.
    for (let i = 0; i < 50 && callbacks.length === 0; i++) await new Promise((r) => setTimeout(r, 0))
    while (callbacks.length > 0) expect(() => callbacks.shift()!()).not.toThrow()
    await sending
    const state = store.getState()
    const turnId = state.turnIds[0]!
    expect(contents(state, turnId)).toEqual(['Hello!'])
    expect(codes(state, turnId)).toEqual(['too_deep'])
    expect(state.status).toBe('done')
  })
})

describe('the batcher', () => {
  it('dispose() flushes what is queued', () => {
    const seen: Op[][] = []
    const never: Scheduler = () => () => {}
    const batcher = createBatcher((ops) => seen.push([...ops]), never)
    batcher.push([{ op: 'stream.status', status: 'streaming' }])
    batcher.push([{ op: 'stream.status', status: 'done' }])
    expect(seen).toEqual([])
    batcher.dispose()
    expect(seen).toEqual([[{ op: 'stream.status', status: 'streaming' }, { op: 'stream.status', status: 'done' }]])
  })

  it('a dispatch that throws goes to onError, never out of the scheduler callback, and later batches still flow', () => {
    const seen: Op[][] = []
    const errors: unknown[] = []
    let fail = true
    const batcher = createBatcher((ops) => {
      if (fail) throw new Error('listener broke')
      seen.push([...ops])
    }, syncScheduler, (thrown) => errors.push(thrown))
    expect(() => batcher.push([{ op: 'stream.status', status: 'streaming' }])).not.toThrow()
    fail = false
    batcher.push([{ op: 'stream.status', status: 'done' }])
    expect(errors).toHaveLength(1)
    expect((errors[0] as Error).message).toBe('listener broke')
    expect(seen).toEqual([[{ op: 'stream.status', status: 'done' }]])
  })

  it('frameScheduler runs the flush once, on the frame or on the fallback timer', async () => {
    let frames = 0
    const g = globalThis as unknown as { requestAnimationFrame?: unknown; cancelAnimationFrame?: unknown }
    const saved = [g.requestAnimationFrame, g.cancelAnimationFrame]
    g.requestAnimationFrame = () => 1
    g.cancelAnimationFrame = () => {}
    try {
      frameScheduler(1)(() => frames++)
      await new Promise((r) => setTimeout(r, 20))
      expect(frames).toBe(1)
    } finally {
      ;[g.requestAnimationFrame, g.cancelAnimationFrame] = saved
    }
  })
})

describe('a wrongly typed delta never erases text', () => {
  for (const [name, value] of [['null', null], ['a number', 42], ['an object', { x: 1 }], ['1e309', 1e309], ['an array', ['x']], ['true', true]] as const) {
    it(`Yao: appending ${name} to "Hello" keeps "Hello" and records a problem`, () => {
      const state = yao([...hello, { chunk_id: 'C3', message_id: 'M1', type: 'text', props: { content: value }, delta: true }])
      expect(contents(state)).toEqual(['Hello'])
      expect(codes(state)).toEqual(['message.delta'])
      expect(state.turns['turn-1']!.problems[0]!.message).toContain('the text was kept')
    })
  }

  it('1e309 from the wire (JSON Infinity) is refused the same way', () => {
    const text = `${sse(hello)}data: {"chunk_id":"C3","message_id":"M1","type":"text","props":{"content":1e309},"delta":true}\n\n`
    const state = foldStream(text, { protocol: 'yao' })
    expect(contents(state)).toEqual(['Hello'])
    expect(codes(state)).toEqual(['message.delta'])
  })

  it('two refused appends in one batch are two problems, as in two batches (found by the differential test)', () => {
    const append = (value: string): Op => ({ op: 'message.delta', turnId: 't', messageId: 'm', action: 'append', path: 'content', value })
    const start: Op[] = [{ op: 'message.put', turnId: 't', messageId: 'm', type: 'card', props: { content: {} } }]
    const together = fold(emptyState(), [...start, append('a'), append('b')])
    const apart = fold(fold(fold(emptyState(), start), [append('a')]), [append('b')])
    expect(together.turns.t!.problems).toHaveLength(2)
    expect(together).toEqual(apart)
  })

  it('appending a non-object to an object keeps the object', () => {
    const props: Record<string, unknown> = { data: { a: 1 } }
    expect(() => applyDelta(props, 'append', 'data', 'x')).toThrow(DeltaError)
    expect(props).toEqual({ data: { a: 1 } })
  })

  it('a root append keeps every key that can combine and refuses the one that cannot', () => {
    const props: Record<string, unknown> = { content: 'Hi', title: 'T' }
    expect(() => applyDelta(props, 'append', '', { content: 5, title: '!' })).toThrow(DeltaError)
    expect(props).toEqual({ content: 'Hi', title: 'T!' })
  })

  for (const [name, flag] of [['null', null], ['""', ''], ['0', 0], ['[]', []], ['"false"', 'false']] as const) {
    it(`Yao: a delta flag of ${name} counts as no flag (the message goes on), not as a replace`, () => {
      const state = yao([...hello, { chunk_id: 'C3', message_id: 'M1', type: 'text', props: { content: '!' }, delta: flag }])
      expect(contents(state)).toEqual(['Hello!'])
      expect(codes(state)).toEqual([])
    })
  }

  it('delta: false is still a replace', () => {
    const state = yao([...hello, { chunk_id: 'C3', message_id: 'M1', type: 'text', props: { content: 'Bye' }, delta: false }])
    expect(contents(state)).toEqual(['Bye'])
  })
})
