/**
 * The Yao decoder's lifecycle events, op by op: stream, block, thread and
 * message start and end, what each emits for its fields and the problem each
 * reports when its id is missing, and how the decoder ends.
 */
import { describe, expect, it } from 'vitest'
import { createYaoDecoder } from '../../../src/protocols/yao/decoder'
import type { Op } from '../../../src/core/model/ops'

type Ev = Record<string, unknown>
const decoder = () => createYaoDecoder({ turnId: 't1', scope: 't1' })
const run = (chunks: readonly unknown[], d = decoder()): Op[] => chunks.flatMap((c) => d.decode(c, {}))
const ev = (event: string, data: Ev = {}, chunk: Ev = {}): Ev => ({ type: 'event', props: { event, data }, ...chunk })
const problem = (message: string, raw: unknown, code?: string): Op => ({
  op: 'problem', turnId: 't1',
  error: { type: 'protocol', message, retryable: false, ...(code ? { code } : {}), detail: JSON.stringify(raw) },
})

describe('Yao lifecycle: stream_start and stream_end', () => {
  it('stream_start writes request_id, chat_id, trace_id and assistant to the turn as metadata', () => {
    expect(run([ev('stream_start', { request_id: 'R1', chat_id: 'c1', trace_id: 'tr', assistant: { name: 'A' } })])).toEqual([
      { op: 'turn.update', turnId: 't1', metadata: { requestId: 'R1', chatId: 'c1', traceId: 'tr', assistant: { name: 'A' } } },
    ])
  })

  it('stream_start leaves out the metadata fields it does not carry', () => {
    const [op] = run([ev('stream_start', { chat_id: 'c1' })])
    expect(op).toStrictEqual({ op: 'turn.update', turnId: 't1', metadata: { chatId: 'c1' } })
  })

  it('stream_end with usage and a duration updates the turn, then finishes it done', () => {
    expect(run([ev('stream_end', { status: 'completed', usage: { total_tokens: 9 }, duration_ms: 120 })])).toEqual([
      { op: 'turn.update', turnId: 't1', usage: { totalTokens: 9, raw: { total_tokens: 9 } } },
      { op: 'turn.update', turnId: 't1', metadata: { durationMs: 120 } },
      { op: 'turn.finish', turnId: 't1', status: 'done' },
    ])
  })

  it('stream_end with a usage that is not a record reports it, and with no numeric duration only finishes the turn', () => {
    expect(run([ev('stream_end', { usage: 'many', duration_ms: '120' })])).toEqual([
      { op: 'problem', turnId: 't1', error: expect.objectContaining({ type: 'protocol', code: 'invalid_usage', message: 'stream_end: usage is not an object' }) },
      { op: 'turn.finish', turnId: 't1', status: 'done' },
    ])
    expect(run([ev('stream_end', { duration_ms: '120' })])).toEqual([{ op: 'turn.finish', turnId: 't1', status: 'done' }])
  })

  it('stream_end cancelled finishes the turn aborted', () => {
    expect(run([ev('stream_end', { status: 'cancelled' })])).toEqual([{ op: 'turn.finish', turnId: 't1', status: 'aborted' }])
  })

  it('stream_end error with an error object keeps its message and code, not retryable', () => {
    expect(run([ev('stream_end', { status: 'error', error: { message: 'boom', code: 'E1' } })])).toEqual([
      { op: 'turn.finish', turnId: 't1', status: 'error', error: { type: 'internal', message: 'boom', code: 'E1', retryable: false } },
    ])
  })

  it('stream_end error with an error object without a message uses the default message', () => {
    const [op] = run([ev('stream_end', { status: 'error', error: { code: 'E1' } })])
    expect(op).toStrictEqual({ op: 'turn.finish', turnId: 't1', status: 'error', error: { type: 'internal', message: 'the agent stream ended with an error', code: 'E1', retryable: false } })
  })

  it('stream_end error with a string error uses it as the message', () => {
    const [op] = run([ev('stream_end', { status: 'error', error: 'quota exceeded' })])
    expect(op).toStrictEqual({ op: 'turn.finish', turnId: 't1', status: 'error', error: { type: 'internal', message: 'quota exceeded', retryable: false } })
  })

  it('stream_end error without an error uses the default message', () => {
    const [op] = run([ev('stream_end', { status: 'error' })])
    expect(op).toStrictEqual({ op: 'turn.finish', turnId: 't1', status: 'error', error: { type: 'internal', message: 'the agent stream ended with an error', retryable: false } })
  })

  it('a chunk after stream_end is a problem naming its type, or "chunk" without one', () => {
    const d = decoder()
    run([ev('stream_end')], d)
    const text = { type: 'text', props: { content: 'late' } }
    expect(run([text], d)).toEqual([problem('a "text" arrived after stream_end; it was ignored', text, 'after_end')])
    const untyped = { props: {} }
    expect(run([untyped], d)).toEqual([problem('a "chunk" arrived after stream_end; it was ignored', untyped, 'after_end')])
  })

  it('the lifecycle fields may sit in props itself, as older servers send them', () => {
    expect(run([{ type: 'event', props: { event: 'block_start', block_id: 'B1', type: 'llm' } }])[0]).toEqual(
      { op: 'block.open', turnId: 't1', blockId: 't1/B1', kind: 'llm', label: undefined },
    )
  })

  it('an event whose data is not an object is a problem, and its props are read instead', () => {
    const chunk = { type: 'event', props: { event: 'block_end', block_id: 'B1', data: 'x' } }
    expect(run([chunk])).toEqual([
      problem('block_end data must be an object', chunk, 'invalid'),
      { op: 'block.close', blockId: 't1/B1', status: 'done' },
      { op: 'trace.node', turnId: 't1', node: { id: 't1/B1', status: 'done' } },
    ])
  })

  it('an event without data reports no problem', () => {
    expect(run([{ type: 'event', props: { event: 'thread_end', thread_id: 'T1' } }])).toEqual([
      { op: 'thread.close', threadId: 't1/T1', status: 'done' },
    ])
  })

  it('an event of a name the decoder does not know is kept as a message of type event', () => {
    const d = decoder()
    expect(run([{ chunk_id: 'C1', type: 'event', props: { event: 'custom', block_id: 'B9' } }], d)).toEqual([
      { op: 'message.put', turnId: 't1', messageId: 't1/C1#1', type: 'event', role: 'assistant', blockId: undefined, threadId: undefined, props: { event: 'custom', block_id: 'B9' } },
    ])
  })

  it('a chunk of another type whose props name a lifecycle event is content, not an event', () => {
    expect(run([{ chunk_id: 'C1', type: 'text', props: { event: 'block_start', block_id: 'B1' } }])).toEqual([
      { op: 'message.put', turnId: 't1', messageId: 't1/C1#1', type: 'text', role: 'assistant', blockId: 't1/B1', threadId: undefined, props: { event: 'block_start', block_id: 'B1' } },
    ])
  })
})

describe('Yao lifecycle: blocks', () => {
  it('block_start opens the block and a trace row that starts, with its type and label', () => {
    expect(run([ev('block_start', { block_id: 'B1', type: 'llm', label: 'Answering' })])).toEqual([
      { op: 'block.open', turnId: 't1', blockId: 't1/B1', kind: 'llm', label: 'Answering' },
      { op: 'trace.node', turnId: 't1', node: { id: 't1/B1', kind: 'llm', label: 'Answering', status: 'start' } },
    ])
  })

  it('block_start without a type or label is a "block" labelled by its kind', () => {
    expect(run([ev('block_start', { block_id: 'B1' })])).toEqual([
      { op: 'block.open', turnId: 't1', blockId: 't1/B1', kind: 'block', label: undefined },
      { op: 'trace.node', turnId: 't1', node: { id: 't1/B1', kind: 'block', label: 'block', status: 'start' } },
    ])
  })

  it('block_start takes the block id from the chunk when its data has none', () => {
    expect(run([ev('block_start', {}, { block_id: 'B2' })])[0]).toEqual({ op: 'block.open', turnId: 't1', blockId: 't1/B2', kind: 'block', label: undefined })
  })

  it('block_start without a block_id is a problem and opens nothing', () => {
    const chunk = ev('block_start', { type: 'llm' })
    expect(run([chunk])).toEqual([problem('block_start without a block_id', { event: 'block_start', data: { type: 'llm' }, type: 'llm' })])
  })

  it('block_end closes the block and its trace row done', () => {
    expect(run([ev('block_end', { block_id: 'B1', status: 'completed' })])).toEqual([
      { op: 'block.close', blockId: 't1/B1', status: 'done' },
      { op: 'trace.node', turnId: 't1', node: { id: 't1/B1', status: 'done' } },
    ])
  })

  it('block_end with status error closes the block and its trace row with an error', () => {
    expect(run([ev('block_end', { block_id: 'B1', status: 'error' })])).toEqual([
      { op: 'block.close', blockId: 't1/B1', status: 'error' },
      { op: 'trace.node', turnId: 't1', node: { id: 't1/B1', status: 'error' } },
    ])
  })

  it('block_end without a block_id is a problem', () => {
    expect(run([ev('block_end', { status: 'completed' })])).toEqual([problem('block_end without a block_id', { event: 'block_end', data: { status: 'completed' }, status: 'completed' })])
  })
})

describe('Yao lifecycle: threads', () => {
  it('thread_start opens the thread in its block, with its label', () => {
    expect(run([ev('thread_start', { thread_id: 'T1', block_id: 'B1', label: 'Weather' })])).toEqual([
      { op: 'thread.open', turnId: 't1', threadId: 't1/T1', blockId: 't1/B1', label: 'Weather' },
    ])
  })

  it('thread_start without a block opens the thread with no block', () => {
    expect(run([ev('thread_start', { thread_id: 'T1' })])).toStrictEqual([
      { op: 'thread.open', turnId: 't1', threadId: 't1/T1', blockId: undefined, label: undefined },
    ])
  })

  it('thread_start without a thread_id is a problem', () => {
    expect(run([ev('thread_start', { block_id: 'B1' })])).toEqual([problem('thread_start without a thread_id', { event: 'thread_start', data: { block_id: 'B1' }, block_id: 'B1' })])
  })

  it('thread_end closes the thread done', () => {
    expect(run([ev('thread_end', { thread_id: 'T1', status: 'completed' })])).toStrictEqual([{ op: 'thread.close', threadId: 't1/T1', status: 'done' }])
  })

  it('thread_end with status error closes the thread with an error', () => {
    expect(run([ev('thread_end', { thread_id: 'T1', status: 'error' })])).toStrictEqual([{ op: 'thread.close', threadId: 't1/T1', status: 'error' }])
  })

  it('thread_end takes the thread id from the chunk when its data has none', () => {
    expect(run([ev('thread_end', {}, { thread_id: 'T2' })])).toStrictEqual([{ op: 'thread.close', threadId: 't1/T2', status: 'done' }])
  })

  it('thread_end without a thread_id is a problem', () => {
    expect(run([ev('thread_end', { status: 'error' })])).toEqual([problem('thread_end without a thread_id', { event: 'thread_end', data: { status: 'error' }, status: 'error' })])
  })
})

describe('Yao lifecycle: messages', () => {
  it('message_start creates the message empty, of its type, in its block and thread', () => {
    expect(run([ev('message_start', { message_id: 'M1', type: 'thinking' }, { block_id: 'B1', thread_id: 'T1' })])).toEqual([
      { op: 'message.delta', action: 'merge', path: '', value: {}, turnId: 't1', messageId: 't1/M1', type: 'reasoning', role: 'assistant', blockId: 't1/B1', threadId: 't1/T1' },
    ])
  })

  it('message_start without a type is a text message', () => {
    expect(run([ev('message_start', { message_id: 'M1' })])).toEqual([
      { op: 'message.delta', action: 'merge', path: '', value: {}, turnId: 't1', messageId: 't1/M1', type: 'text', role: 'assistant', blockId: undefined, threadId: undefined },
    ])
  })

  it('message_start without a message_id is a problem', () => {
    expect(run([ev('message_start', { type: 'text' })])).toEqual([problem('message_start without a message_id', { event: 'message_start', data: { type: 'text' }, type: 'text' })])
  })

  it('message_end finishes the message done', () => {
    expect(run([ev('message_end', { message_id: 'M1', status: 'completed' })])).toEqual([{ op: 'message.finish', messageId: 't1/M1', status: 'done' }])
  })

  it('message_end with status error finishes the message with an error', () => {
    expect(run([ev('message_end', { message_id: 'M1', status: 'error' })])).toEqual([{ op: 'message.finish', messageId: 't1/M1', status: 'error' }])
  })

  it('message_end without a message_id is a problem', () => {
    expect(run([ev('message_end', { status: 'completed' })])).toEqual([problem('message_end without a message_id', { event: 'message_end', data: { status: 'completed' }, status: 'completed' })])
  })

  it('message_end sets the final text of a text message from extra.content', () => {
    const d = decoder()
    run([ev('message_start', { message_id: 'M1', type: 'text' })], d)
    expect(run([ev('message_end', { message_id: 'M1', extra: { content: 'Hello World' } })], d)).toEqual([
      { op: 'message.delta', turnId: 't1', messageId: 't1/M1', action: 'set', path: 'content', value: 'Hello World' },
      { op: 'message.finish', messageId: 't1/M1', status: 'done' },
    ])
  })

  it('message_end sets the final text of a thinking message from extra.content', () => {
    const d = decoder()
    run([ev('message_start', { message_id: 'M1', type: 'thinking' })], d)
    expect(run([ev('message_end', { message_id: 'M1', extra: { content: 'Hmm' } })], d)[0]).toEqual(
      { op: 'message.delta', turnId: 't1', messageId: 't1/M1', action: 'set', path: 'content', value: 'Hmm' },
    )
  })

  it('message_end does not set content on a message of another type, nor on one it never saw', () => {
    const d = decoder()
    run([ev('message_start', { message_id: 'M1', type: 'loading' })], d)
    expect(run([ev('message_end', { message_id: 'M1', extra: { content: 'x' } })], d)).toEqual([{ op: 'message.finish', messageId: 't1/M1', status: 'done' }])
    expect(run([ev('message_end', { message_id: 'M9', extra: { content: 'x' } })], d)).toEqual([{ op: 'message.finish', messageId: 't1/M9', status: 'done' }])
  })

  it('message_end does not set content when extra.content is not a string', () => {
    const d = decoder()
    run([ev('message_start', { message_id: 'M1', type: 'text' })], d)
    expect(run([ev('message_end', { message_id: 'M1', extra: { content: 5 } })], d)).toEqual([{ op: 'message.finish', messageId: 't1/M1', status: 'done' }])
  })
})

describe('Yao lifecycle: how the decoder ends', () => {
  it('end after a clean close finishes the turn done and marks the decoder ended', () => {
    for (const reason of ['done', 'eof'] as const) {
      const d = decoder()
      expect(d.ended).toBe(false)
      expect(d.end(reason)).toEqual([{ op: 'turn.finish', turnId: 't1', status: 'done' }])
      expect(d.ended).toBe(true)
      expect(d.end(reason)).toEqual([])
    }
  })

  it('end after stream_end emits nothing: the turn is finished already', () => {
    const d = decoder()
    run([ev('stream_end')], d)
    expect(d.ended).toBe(true)
    expect(d.end('done')).toEqual([])
  })
})
