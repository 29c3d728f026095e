/**
 * The Yao decoder's tool calls, op by op: a `tool_call` message's id, name and
 * arguments as they stream (appended, replaced, or given whole as an object),
 * the trace row each call keeps, how message_end finishes it, and `execute`
 * messages' trace rows.
 */
import { describe, expect, it } from 'vitest'
import { createYaoDecoder } from '../../../src/protocols/yao/decoder'
import type { Op } from '../../../src/core/model/ops'

type Ev = Record<string, unknown>
const decoder = () => createYaoDecoder({ turnId: 't1', scope: 't1' })
const run = (chunks: readonly unknown[], d = decoder()): Op[] => chunks.flatMap((c) => d.decode(c, {}))
const ev = (event: string, data: Ev = {}, chunk: Ev = {}): Ev => ({ type: 'event', props: { event, data }, ...chunk })
/** The two ops a tool call's chunk ends with: the message's tool fields, and its trace row. */
const toolOps = (messageId: string, toolCallId: string, name: string, inputText: string, input?: unknown): Op[] => {
  const ok = input !== undefined
  return [
    {
      op: 'message.delta', turnId: 't1', messageId: `t1/${messageId}`, action: 'set', path: '',
      value: { toolCallId, name, inputText, ...(ok ? { input } : {}), state: ok ? 'input-available' : 'input-streaming' },
    },
    { op: 'trace.node', turnId: 't1', node: { id: `t1/tool:${messageId}`, kind: 'tool', tool: name, label: name, status: 'progress', ...(ok ? { args: input } : {}) } },
  ]
}
const tail = (ops: Op[], n = 2) => ops.slice(-n)

describe('Yao tool calls: arguments as they stream', () => {
  it('a whole tool call in one chunk has its id, name and parsed input', () => {
    const props = { id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' }
    expect(run([{ chunk_id: 'C1', message_id: 'M1', type: 'tool_call', props }])).toEqual([
      { op: 'message.put', turnId: 't1', messageId: 't1/M1', type: 'tool', role: 'assistant', blockId: undefined, threadId: undefined, props },
      ...toolOps('M1', 'call_1', 'get_weather', '{"city":"Paris"}', { city: 'Paris' }),
    ])
  })

  it('streamed argument text is appended chunk by chunk and parsed once it is whole', () => {
    const d = decoder()
    const first = run([{ message_id: 'M1', type: 'tool_call', delta: true, props: { id: 'call_1', name: 'search', arguments: '{"q":' } }], d)
    expect(tail(first)).toEqual(toolOps('M1', 'call_1', 'search', '{"q":'))
    const second = run([{ message_id: 'M1', type: 'tool_call', delta: true, props: { arguments: '"x"}' } }], d)
    expect(tail(second)).toEqual(toolOps('M1', 'call_1', 'search', '{"q":"x"}', { q: 'x' }))
  })

  it('argument text in a delta that replaces is not appended to the text before', () => {
    const d = decoder()
    run([{ message_id: 'M1', type: 'tool_call', delta: true, props: { id: 'c', name: 'n', arguments: '{"a":' } }], d)
    const ops = run([{ message_id: 'M1', type: 'tool_call', delta: true, delta_action: 'replace', props: { arguments: '{"b":2}' } }], d)
    expect(tail(ops)).toEqual(toolOps('M1', 'c', 'n', '{"b":2}', { b: 2 }))
  })

  it('argument text in a chunk that is not a delta replaces the text before', () => {
    const d = decoder()
    run([{ message_id: 'M1', type: 'tool_call', delta: true, props: { id: 'c', name: 'n', arguments: '{"a":' } }], d)
    const ops = run([{ message_id: 'M1', type: 'tool_call', delta: false, props: { arguments: '{"b":2}' } }], d)
    expect(tail(ops)).toEqual(toolOps('M1', 'c', 'n', '{"b":2}', { b: 2 }))
  })

  it('arguments given as an object are its JSON', () => {
    const ops = run([{ message_id: 'M1', type: 'tool_call', props: { id: 'c', name: 'n', arguments: { city: 'Oslo' } } }])
    expect(tail(ops)).toEqual(toolOps('M1', 'c', 'n', '{"city":"Oslo"}', { city: 'Oslo' }))
  })

  it('arguments that are neither text nor an object leave the text as it was', () => {
    const d = decoder()
    run([{ message_id: 'M1', type: 'tool_call', delta: true, props: { id: 'c', name: 'n', arguments: '{"a":1}' } }], d)
    const ops = run([{ message_id: 'M1', type: 'tool_call', delta: true, props: { arguments: 7 } }], d)
    expect(tail(ops)).toEqual(toolOps('M1', 'c', 'n', '{"a":1}', { a: 1 }))
    const list = run([{ message_id: 'M1', type: 'tool_call', delta: true, props: { arguments: [1] } }], d)
    expect(tail(list)).toEqual(toolOps('M1', 'c', 'n', '{"a":1}', { a: 1 }))
  })

  it('a tool call without an id or a name is named by its message and "tool", and no text is no input', () => {
    const ops = run([{ message_id: 'M1', type: 'tool_call', props: {} }])
    expect(tail(ops)).toEqual(toolOps('M1', 'M1', 'tool', ''))
  })

  it('an id or a name that arrives later replaces the one the call started with', () => {
    const d = decoder()
    run([{ message_id: 'M1', type: 'tool_call', delta: true, props: { arguments: '' } }], d)
    const ops = run([{ message_id: 'M1', type: 'tool_call', delta: true, props: { id: 'call_9', name: 'late' } }], d)
    expect(tail(ops)).toEqual(toolOps('M1', 'call_9', 'late', ''))
  })

  it('argument text that does not parse stays streaming, without an input', () => {
    const ops = run([{ message_id: 'M1', type: 'tool_call', props: { id: 'c', name: 'n', arguments: '{"a":1' } }])
    expect(tail(ops)).toEqual(toolOps('M1', 'c', 'n', '{"a":1'))
  })

  it('argument text that parses to a falsy value is still an input', () => {
    const ops = run([{ message_id: 'M1', type: 'tool_call', props: { id: 'c', name: 'n', arguments: '0' } }])
    expect(tail(ops)).toEqual(toolOps('M1', 'c', 'n', '0', 0))
  })
})

describe('Yao tool calls: message_start and message_end', () => {
  it('message_start of a tool_call with its tool_call starts the call, its arguments not appended', () => {
    const ops = run([ev('message_start', { message_id: 'M1', type: 'tool_call', tool_call: { id: 'call_1', name: 'get', arguments: '{}' } })])
    expect(ops).toEqual([
      { op: 'message.delta', action: 'merge', path: '', value: {}, turnId: 't1', messageId: 't1/M1', type: 'tool', role: 'assistant', blockId: undefined, threadId: undefined },
      ...toolOps('M1', 'call_1', 'get', '{}', {}),
    ])
  })

  it('message_start of a tool_call replaces argument text the call already had', () => {
    const d = decoder()
    run([{ message_id: 'M1', type: 'tool_call', delta: true, props: { id: 'c', name: 'n', arguments: '{"a":' } }], d)
    const ops = run([ev('message_start', { message_id: 'M1', type: 'tool_call', tool_call: { arguments: '{"b":1}' } })], d)
    expect(tail(ops)).toEqual(toolOps('M1', 'c', 'n', '{"b":1}', { b: 1 }))
  })

  it('message_start of a tool_call without a tool_call object, or of another type with one, starts no call', () => {
    expect(run([ev('message_start', { message_id: 'M1', type: 'tool_call' })])).toHaveLength(1)
    expect(run([ev('message_start', { message_id: 'M1', type: 'text', tool_call: { id: 'c' } })])).toHaveLength(1)
    expect(run([ev('message_start', { message_id: 'M1', type: 'tool_call', tool_call: 'c' })])).toHaveLength(1)
  })

  it('message_end of a tool call finishes its input and its trace row done', () => {
    const d = decoder()
    run([{ message_id: 'M1', type: 'tool_call', props: { id: 'c', name: 'n', arguments: '{"a":1}' } }], d)
    expect(run([ev('message_end', { message_id: 'M1' })], d)).toEqual([
      { op: 'message.finish', messageId: 't1/M1', status: 'done' },
      { op: 'message.delta', turnId: 't1', messageId: 't1/M1', action: 'set', path: '', value: { state: 'input-available', input: { a: 1 } } },
      { op: 'trace.node', turnId: 't1', node: { id: 't1/tool:M1', status: 'done' } },
    ])
  })

  it('message_end of a failed tool call is an output error, without an input it could not parse', () => {
    const d = decoder()
    run([{ message_id: 'M1', type: 'tool_call', props: { id: 'c', name: 'n', arguments: '{"a":' } }], d)
    expect(run([ev('message_end', { message_id: 'M1', status: 'error' })], d)).toStrictEqual([
      { op: 'message.finish', messageId: 't1/M1', status: 'error' },
      { op: 'message.delta', turnId: 't1', messageId: 't1/M1', action: 'set', path: '', value: { state: 'output-error' } },
      { op: 'trace.node', turnId: 't1', node: { id: 't1/tool:M1', status: 'error' } },
    ])
  })

  it('a tool call in a later request is a new call, its trace row under the new scope', () => {
    const d = decoder()
    run([ev('stream_start', { request_id: 'R1' }), { message_id: 'M1', type: 'tool_call', props: { id: 'c', name: 'n', arguments: '{"a":' } }], d)
    const ops = run([ev('stream_start', { request_id: 'R2' }), { message_id: 'M1', type: 'tool_call', delta: true, props: { arguments: '{}' } }], d)
    expect(tail(ops)).toEqual([
      { op: 'message.delta', turnId: 't1', messageId: 't1/r2/M1', action: 'set', path: '', value: { toolCallId: 'M1', name: 'tool', inputText: '{}', input: {}, state: 'input-available' } },
      { op: 'trace.node', turnId: 't1', node: { id: 't1/r2/tool:M1', kind: 'tool', tool: 'tool', label: 'tool', status: 'progress', args: {} } },
    ])
  })
})

describe('Yao execute messages', () => {
  const exec = (props: Ev) => run([{ message_id: 'X1', type: 'execute', props }]).at(-1)
  it('an execute message is a tool row with its tool, input and output', () => {
    expect(exec({ tool: 'shell', input: { cmd: 'ls' }, output: 'a b', status: 'completed' })).toStrictEqual({
      op: 'trace.node', turnId: 't1',
      node: { id: 't1/execute:X1', kind: 'tool', label: 'shell', tool: 'shell', args: { cmd: 'ls' }, result: 'a b', status: 'done' },
    })
  })

  it('an execute message without a tool is labelled "execute"', () => {
    expect(exec({ status: 'error' })).toStrictEqual({
      op: 'trace.node', turnId: 't1',
      node: { id: 't1/execute:X1', kind: 'tool', label: 'execute', tool: undefined, args: undefined, result: undefined, status: 'error' },
    })
  })

  it('an execute message still running, or of a status it does not know, is in progress', () => {
    expect(exec({ tool: 't', status: 'running' })).toMatchObject({ node: { status: 'progress' } })
    expect(exec({ tool: 't' })).toMatchObject({ node: { status: 'progress' } })
  })

  it('a message of another type has no trace row', () => {
    expect(run([{ message_id: 'X1', type: 'executor', props: { tool: 't' } }]).map((op) => op.op)).toEqual(['message.put'])
  })
})
