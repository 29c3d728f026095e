/**
 * Exact ops of the AG-UI decoder's tool calls: the tool message and row a start
 * makes (and makes again when a run is replayed), the arguments as they stream and
 * when they are written, the problems of broken, unsafe and too deep arguments, the
 * result as `readToolResult` reads it, and an interrupt's hold on a call.
 */
import { describe, expect, it } from 'vitest'
import type { MessagePlace, Op } from '../../../src/core/model/ops'
import { protocolProblem } from '../../../src/core/protocol/problem'
import { createAgUiDecoder } from '../../../src/protocols/ag-ui/decoder'
import { parseJson, readToolResult } from '../../../src/protocols/ag-ui/tool-result'

const decoderFor = () => createAgUiDecoder({ turnId: 't1', scope: 't1' })
const problem = (message: string, raw?: unknown, code?: string): Op => protocolProblem('t1', message, raw, code)
const at = (messageId: string, threadId?: string): MessagePlace => ({ turnId: 't1', messageId, type: 'tool', role: 'assistant', blockId: undefined, threadId })
/** The `inputText` append of the pieces of arguments since the last write, joined (it names no type or role). */
const append = (messageId: string, value: string): Op => ({ op: 'message.delta', turnId: 't1', messageId, action: 'append', path: 'inputText', value })
const opened = (id: string, name: string, more: Record<string, unknown> = {}): Op[] => [
  { op: 'message.delta', ...at(id), action: 'set', path: '', value: { toolCallId: id, name, inputText: '', ...more, state: 'input-streaming' } },
  { op: 'trace.node', turnId: 't1', node: { id: `tool:${id}`, kind: 'tool', label: name, tool: name, parentId: undefined, status: 'start' } },
]
/** The arguments parsed so far, written at a batch's end. */
const snapshot = (messageId: string, value: unknown): Op => ({ op: 'message.delta', ...at(messageId), action: 'set', path: 'input', value })
const inputDone = (id: string, input: unknown): Op[] => [
  { op: 'message.delta', ...at(id), action: 'set', path: 'input', value: input },
  { op: 'message.delta', ...at(id), action: 'set', path: 'state', value: 'input-available' },
  { op: 'trace.node', turnId: 't1', node: { id: `tool:${id}`, args: input, status: 'progress' } },
]
/** `depth` arrays, each inside the one before. */
const nested = (depth: number): unknown => {
  let value: unknown[] = []
  for (let i = 1; i < depth; i++) value = [value]
  return value
}

describe('a tool call\'s start', () => {
  it('without a name is reported and called "tool"', () => {
    const e = { type: 'TOOL_CALL_START', toolCallId: 'c1' }
    expect(decoderFor().decode(e, {})).toStrictEqual([
      problem('TOOL_CALL_START "c1" without "toolCallName"', e, 'missing_name'),
      ...opened('c1', 'tool'),
    ])
  })

  it('keeps the parent message and the extra fields', () => {
    expect(decoderFor().decode({ type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'search', parentMessageId: 'm1', cost: 2 }, {})).toStrictEqual([
      ...opened('c1', 'search', { parentMessageId: 'm1' }),
      { op: 'message.delta', ...at('c1'), action: 'merge', path: 'extra', value: { cost: 2 } },
    ])
  })

  it('a second start of a call still open keeps the name and parent it does not send, takes the ones it does, and says it came out of order', () => {
    const renamed = (id: string, name: string, more: Record<string, unknown> = {}): Op[] => [
      { op: 'message.delta', ...at(id), action: 'merge', path: '', value: { name, ...more } },
      { op: 'trace.node', turnId: 't1', node: { id: `tool:${id}`, label: name, tool: name } },
    ]
    const outOfOrder = (e: Record<string, unknown>) => problem('TOOL_CALL_START for tool call "c1", which is still open; its arguments so far are kept', e, 'start_while_open')
    const d = decoderFor()
    d.decode({ type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'search', parentMessageId: 'm1' }, {})
    const nameless = { type: 'TOOL_CALL_START', toolCallId: 'c1' }
    expect(d.decode(nameless, {})).toStrictEqual([
      problem('TOOL_CALL_START "c1" without "toolCallName"', nameless, 'missing_name'),
      outOfOrder(nameless),
      ...renamed('c1', 'search', { parentMessageId: 'm1' }),
    ])
    const e = decoderFor()
    e.decode({ type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'search' }, {})
    const again = { type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'find', parentMessageId: 'm2' }
    expect(e.decode(again, {})).toStrictEqual([outOfOrder(again), ...renamed('c1', 'find', { parentMessageId: 'm2' })])
  })

  it('a second start opens an ended call again and forgets its arguments', () => {
    const d = decoderFor()
    d.decode({ type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'search' }, {})
    d.decode({ type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '{"q":1}' }, {})
    d.decode({ type: 'TOOL_CALL_END', toolCallId: 'c1' }, {})
    d.decode({ type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'search' }, {})
    d.decode({ type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '{"q":2}' }, {})
    // The run's end completes the call that is open again, with only its new arguments.
    expect(d.decode({ type: 'RUN_FINISHED' }, {})).toStrictEqual([
      append('c1', '{"q":2}'),
      snapshot('c1', { q: 2 }),
      ...inputDone('c1', { q: 2 }),
      { op: 'turn.finish', turnId: 't1', status: 'done' },
    ])
  })

  it('a second start of a call still open keeps its arguments; what is wrong with them is told at the end', () => {
    const d = decoderFor()
    d.decode({ type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'search' }, {})
    d.decode({ type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: 'x' }, {})
    const again = { type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'search' }
    const restart = d.decode(again, {})
    expect(restart.filter((op) => op.op === 'problem')).toStrictEqual([
      problem('TOOL_CALL_START for tool call "c1", which is still open; its arguments so far are kept', again, 'start_while_open'),
    ])
    expect(d.decode({ type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: 'y' }, {})).toStrictEqual([])
    const end = d.decode({ type: 'TOOL_CALL_END', toolCallId: 'c1' }, {})
    // The end writes the arguments' text since the last write first, then tells what is wrong with all of them.
    expect(end[0]).toStrictEqual(append('c1', 'y'))
    expect(end.filter((op) => op.op === 'problem')).toStrictEqual([
      problem('the arguments of tool call "c1" are not valid JSON: unexpected "x" where a value should start at 0', 'xy', 'tool_arguments'),
    ])
  })
})

describe('a tool call\'s arguments', () => {
  it('need a string delta', () => {
    const e = { type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: 5 }
    expect(decoderFor().decode(e, {})).toStrictEqual([problem('TOOL_CALL_ARGS needs a string "delta"', e, 'delta')])
  })

  it('before the start create the call', () => {
    const e = { type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '{' }
    const d = decoderFor()
    expect(d.decode(e, {})).toStrictEqual([
      problem('arguments for tool call "c1" before its start; the call was created', e, 'repaired'),
      ...opened('c1', 'tool'),
    ])
    // The piece reaches the call's message at the next write point.
    expect(d.flush!()).toStrictEqual([append('c1', '{'), snapshot('c1', {})])
  })

  it('are written as parsed so far before the next event that is not more arguments', () => {
    const d = decoderFor()
    d.decode({ type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'search' }, {})
    expect(d.decode({ type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '{"q":"we' }, {})).toStrictEqual([])
    expect(d.decode({ type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: 'ather' }, {})).toStrictEqual([])
    // The pieces are written in one append, then the value they parse to.
    expect(d.decode({ type: 'STATE_DELTA', delta: [] }, {})).toStrictEqual([
      append('c1', '{"q":"weather'),
      snapshot('c1', { q: 'weather' }),
      { op: 'agentState.set', value: {} },
    ])
    expect(d.decode({ type: 'STATE_DELTA', delta: [] }, {})).toStrictEqual([{ op: 'agentState.set', value: {} }])
  })

  it('are not written between the chunks of a call', () => {
    const d = decoderFor()
    expect(d.decode({ type: 'TOOL_CALL_CHUNK', toolCallId: 'c1', toolCallName: 'search', delta: '{"q":' }, {})).toStrictEqual(opened('c1', 'search'))
    expect(d.decode({ type: 'TOOL_CALL_CHUNK', toolCallId: 'c1', delta: '1' }, {})).toStrictEqual([])
    // Both chunks' pieces are written at the read's end, joined.
    expect(d.flush!()).toStrictEqual([append('c1', '{"q":1'), snapshot('c1', { q: 1 })])
  })

  it('a result writes the other calls\' arguments first, its own call\'s too', () => {
    const d = decoderFor()
    d.decode({ type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'search' }, {})
    d.decode({ type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '{"q":"a' }, {})
    expect(d.decode({ type: 'TOOL_CALL_RESULT', toolCallId: 'c1', content: 'done' }, {}).slice(0, 2)).toStrictEqual([
      append('c1', '{"q":"a'),
      snapshot('c1', { q: 'a' }),
    ])
  })

  it('an end writes its own call\'s arguments once, as a whole value', () => {
    const d = decoderFor()
    d.decode({ type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'search' }, {})
    d.decode({ type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '{"q":1}' }, {})
    expect(d.decode({ type: 'TOOL_CALL_END', toolCallId: 'c1', cost: 1 }, {})).toStrictEqual([
      append('c1', '{"q":1}'),
      ...inputDone('c1', { q: 1 }),
      { op: 'message.delta', ...at('c1'), action: 'merge', path: 'extra', value: { cost: 1 } },
    ])
  })

  it('an end of a call never started is reported', () => {
    const e = { type: 'TOOL_CALL_END', toolCallId: 'c1' }
    expect(decoderFor().decode(e, {})).toStrictEqual([problem('TOOL_CALL_END for "c1", which was not started', e, 'end_without_start')])
  })

  it('only white space reads as no arguments', () => {
    const d = decoderFor()
    d.decode({ type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'search' }, {})
    d.decode({ type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '  ' }, {})
    expect(d.decode({ type: 'TOOL_CALL_END', toolCallId: 'c1' }, {})).toStrictEqual([append('c1', '  '), ...inputDone('c1', {})])
  })

  it('that stop before the JSON ends stay as far as they parsed, with one problem', () => {
    const d = decoderFor()
    d.decode({ type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'search' }, {})
    d.decode({ type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '{"q":"a' }, {})
    const halfway = problem('the arguments of tool call "c1" are not valid JSON: the arguments stop before the JSON ends', '{"q":"a', 'tool_arguments')
    expect(d.decode({ type: 'TOOL_CALL_END', toolCallId: 'c1' }, {})).toStrictEqual([
      append('c1', '{"q":"a'),
      { op: 'message.delta', ...at('c1'), action: 'set', path: 'input', value: { q: 'a' } },
      halfway,
      { op: 'message.delta', ...at('c1'), action: 'set', path: 'state', value: 'input-available' },
      { op: 'trace.node', turnId: 't1', node: { id: 'tool:c1', status: 'progress' } },
    ])
    // A second end has nothing new to write and reports nothing again.
    expect(d.decode({ type: 'TOOL_CALL_END', toolCallId: 'c1' }, {})).toStrictEqual([
      { op: 'message.delta', ...at('c1'), action: 'set', path: 'state', value: 'input-available' },
      { op: 'trace.node', turnId: 't1', node: { id: 'tool:c1', status: 'progress' } },
    ])
  })

  it('already written are not written again at the end', () => {
    const d = decoderFor()
    d.decode({ type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'search' }, {})
    d.decode({ type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '{"q":' }, {})
    d.decode({ type: 'STATE_DELTA', delta: [] }, {})
    expect(d.decode({ type: 'TOOL_CALL_END', toolCallId: 'c1' }, {})).toStrictEqual([
      problem('the arguments of tool call "c1" are not valid JSON: the arguments stop before the JSON ends', '{"q":', 'tool_arguments'),
      { op: 'message.delta', ...at('c1'), action: 'set', path: 'state', value: 'input-available' },
      { op: 'trace.node', turnId: 't1', node: { id: 'tool:c1', status: 'progress' } },
    ])
  })

  it('that are not JSON are reported once at the call\'s end, where the parse failed', () => {
    const d = decoderFor()
    d.decode({ type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'search' }, {})
    const e = { type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '{"q" 1' }
    expect(d.decode(e, {})).toStrictEqual([])
    expect(d.decode({ type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '}' }, {})).toStrictEqual([])
    expect(d.decode({ type: 'TOOL_CALL_END', toolCallId: 'c1' }, {})).toStrictEqual([
      append('c1', '{"q" 1}'),
      { op: 'message.delta', ...at('c1'), action: 'set', path: 'input', value: {} },
      problem('the arguments of tool call "c1" are not valid JSON: expected ":", got "1" at 5', '{"q" 1}', 'tool_arguments'),
      { op: 'message.delta', ...at('c1'), action: 'set', path: 'state', value: 'input-available' },
      { op: 'trace.node', turnId: 't1', node: { id: 'tool:c1', status: 'progress' } },
    ])
  })

  it('that a snapshot brought are the call\'s arguments at its end', () => {
    const d = decoderFor()
    const call = (args: string) => ({ id: 'c1', type: 'function', function: { name: 'search', arguments: args } })
    d.decode({ type: 'MESSAGES_SNAPSHOT', messages: [{ id: 'a1', role: 'assistant', content: '', toolCalls: [call('{"q":1}')] }] }, {})
    expect(d.decode({ type: 'TOOL_CALL_END', toolCallId: 'c1' }, {})).toStrictEqual(inputDone('c1', { q: 1 }))
  })

  it('that a snapshot brought broken are reported at the call\'s end, naming where the parse failed', () => {
    const d = decoderFor()
    const call = { id: 'c1', type: 'function', function: { name: 'search', arguments: '{"q" 1' } }
    d.decode({ type: 'MESSAGES_SNAPSHOT', messages: [{ id: 'a1', role: 'assistant', content: '', toolCalls: [call] }] }, {})
    expect(d.decode({ type: 'TOOL_CALL_END', toolCallId: 'c1' }, {})).toStrictEqual([
      problem('the arguments of tool call "c1" are not valid JSON: expected ":", got "1" at 5', '{"q" 1', 'tool_arguments'),
      { op: 'message.delta', ...at('c1'), action: 'set', path: 'state', value: 'input-available' },
      { op: 'trace.node', turnId: 't1', node: { id: 'tool:c1', status: 'progress' } },
    ])
  })

  it('with a key that could reach a prototype lose the key, which is reported once at the call\'s end', () => {
    const d = decoderFor()
    d.decode({ type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'search' }, {})
    const e = { type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '{"__proto__":1,' }
    expect(d.decode(e, {})).toStrictEqual([])
    expect(d.decode({ type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '"a":2}' }, {})).toStrictEqual([])
    const [input, ...rest] = inputDone('c1', { a: 2 })
    expect(d.decode({ type: 'TOOL_CALL_END', toolCallId: 'c1' }, {})).toStrictEqual([
      append('c1', '{"__proto__":1,"a":2}'),
      input,
      problem('the arguments of tool call "c1" have the key "__proto__", which is dropped', undefined, 'tool_arguments'),
      ...rest,
    ])
    expect(d.decode({ type: 'TOOL_CALL_END', toolCallId: 'c1' }, {}).filter((op) => op.op === 'problem')).toStrictEqual([])
  })

  it('nested as deep as a path can go are kept whole', () => {
    const d = decoderFor()
    d.decode({ type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'deep' }, {})
    const text = JSON.stringify(nested(64))
    expect(d.decode({ type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: text }, {})).toStrictEqual([])
    expect(d.decode({ type: 'TOOL_CALL_END', toolCallId: 'c1' }, {})).toStrictEqual([append('c1', text), ...inputDone('c1', nested(64))])
  })

  it('nested deeper are reported once, and the deeper part is dropped', () => {
    const d = decoderFor()
    d.decode({ type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'deep' }, {})
    const text = JSON.stringify(nested(66))
    const head = text.slice(0, 66)
    expect(d.decode({ type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: head }, {})).toStrictEqual([])
    expect(d.decode({ type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: text.slice(66) }, {})).toStrictEqual([])
    const [input, ...rest] = inputDone('c1', nested(64))
    expect(d.decode({ type: 'TOOL_CALL_END', toolCallId: 'c1' }, {})).toStrictEqual([
      append('c1', text),
      input,
      problem('the arguments of tool call "c1" nest deeper than 63 levels; the deeper part is dropped', undefined, 'too_deep'),
      ...rest,
    ])
  })
})

describe('a tool call\'s block', () => {
  it('is the one current when the call was first seen: a step that begins later never takes it, however batches end', () => {
    const steps = (flushMidway: boolean) => {
      const d = decoderFor()
      const ops = [
        ...d.decode({ type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'search' }, {}),
        ...d.decode({ type: 'STEP_STARTED', stepName: 'plan' }, {}),
        ...d.decode({ type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '{"q":' }, {}),
        ...(flushMidway ? d.flush!() : []),
        ...d.decode({ type: 'TOOL_CALL_END', toolCallId: 'c1' }, {}),
      ]
      return ops.filter((op) => op.op === 'message.delta' && op.messageId === 'c1').map((op) => (op as { blockId?: string }).blockId)
    }
    expect(new Set(steps(false))).toStrictEqual(new Set([undefined]))
    expect(new Set(steps(true))).toStrictEqual(new Set([undefined]))
  })
})

describe('long arguments', () => {
  /** A call with arguments long enough that a few more characters are not worth a copy. */
  const longCall = () => {
    const d = decoderFor()
    d.decode({ type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'write' }, {})
    d.decode({ type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: `{"text":"${'x'.repeat(20_000)}` }, {})
    expect(d.flush!()).toStrictEqual([append('c1', `{"text":"${'x'.repeat(20_000)}`), snapshot('c1', { text: 'x'.repeat(20_000) })])
    d.decode({ type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: 'yy' }, {})
    return d
  }
  const grown = snapshot('c1', { text: `${'x'.repeat(20_000)}yy` })

  it('wait at a read\'s end and before other events until they grew enough', () => {
    const d = longCall()
    // Their text is written at every read's end; only the parsed value waits.
    expect(d.flush!()).toStrictEqual([append('c1', 'yy')])
    expect(d.decode({ type: 'STATE_DELTA', delta: [] }, {})).toStrictEqual([{ op: 'agentState.set', value: {} }])
  })

  it('are written when the connection is released', () => {
    expect(longCall().release!()).toStrictEqual([append('c1', 'yy'), grown])
  })

  it('taken after the call\'s end are ignored with a problem: the stream\'s end writes nothing more', () => {
    const d = longCall()
    d.decode({ type: 'TOOL_CALL_END', toolCallId: 'c1' }, {})
    const late = { type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: 'zz' }
    expect(d.decode(late, {})).toStrictEqual([
      problem('TOOL_CALL_ARGS for tool call "c1" after its end; it and any later arguments were ignored', late, 'tool_arguments'),
    ])
    expect(d.end('eof')).toStrictEqual([{ op: 'turn.finish', turnId: 't1', status: 'done' }])
  })

  it('taken after the call\'s end are ignored with a problem, once: neither the run\'s end nor the stream\'s writes them', () => {
    const d = longCall()
    d.decode({ type: 'TOOL_CALL_END', toolCallId: 'c1' }, {})
    expect(d.decode({ type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: 'zz' }, {}).map((op) => op.op)).toStrictEqual(['problem'])
    expect(d.decode({ type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: 'zz' }, {})).toStrictEqual([])
    expect(d.decode({ type: 'RUN_FINISHED' }, {})).toStrictEqual([{ op: 'turn.finish', turnId: 't1', status: 'done' }])
    expect(d.ended).toBe(true)
    expect(d.end('eof')).toStrictEqual([])
  })
})

describe('a tool call\'s result', () => {
  it('of a call this stream never opened names the call after the result and finishes it', () => {
    expect(decoderFor().decode({ type: 'TOOL_CALL_RESULT', toolCallId: 'c1', toolCallName: 'lookup', messageId: 'r1', content: 'ok' }, {})).toStrictEqual([
      {
        op: 'message.delta', ...at('c1'), action: 'set', path: '',
        value: { resultContent: 'ok', output: 'ok', state: 'output-available', toolCallId: 'c1', resultMessageId: 'r1', name: 'lookup' },
      },
      { op: 'message.finish', messageId: 'c1', status: 'done' },
      { op: 'trace.node', turnId: 't1', node: { id: 'tool:c1', kind: 'tool', label: 'lookup', tool: 'lookup', parentId: undefined, status: 'done', result: 'ok' } },
    ])
  })

  it('without a name or message id of its own keeps the call\'s, and its extra fields go under resultExtra', () => {
    const d = decoderFor()
    d.decode({ type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'search', subagentRunId: 'sa1' }, {})
    d.decode({ type: 'TOOL_CALL_END', toolCallId: 'c1' }, {})
    expect(d.decode({ type: 'TOOL_CALL_RESULT', toolCallId: 'c1', error: 'no network', took: 3 }, {})).toStrictEqual([
      { op: 'message.delta', ...at('c1', 'sa1'), action: 'set', path: '', value: { state: 'output-error', errorText: 'no network', toolCallId: 'c1' } },
      { op: 'message.delta', ...at('c1', 'sa1'), action: 'merge', path: 'resultExtra', value: { took: 3 } },
      { op: 'message.finish', messageId: 'c1', status: 'error' },
      {
        op: 'trace.node', turnId: 't1',
        node: { id: 'tool:c1', kind: 'tool', label: 'search', tool: 'search', parentId: undefined, status: 'error', result: undefined, resultDetail: 'no network' },
      },
    ])
  })

  it('of an unnamed call never opened calls it "tool"', () => {
    expect(decoderFor().decode({ type: 'TOOL_CALL_RESULT', toolCallId: 'c1' }, {})[2]).toStrictEqual({
      op: 'trace.node', turnId: 't1', node: { id: 'tool:c1', kind: 'tool', label: 'tool', tool: 'tool', parentId: undefined, status: 'done', result: undefined },
    })
  })

  it('reports each refused navigation, quoting the schema or else the content', () => {
    const action = { type: 'navigation', path: 'https://evil.example' }
    const reason = 'navigation action refused: the path "https://evil.example" is not internal (it must start with "/")'
    const schema = { actions: [action] }
    expect(decoderFor().decode({ type: 'TOOL_CALL_RESULT', toolCallId: 'c1', content: 'x', ui_schema: schema }, {})[3]).toStrictEqual(
      problem(reason, schema, 'navigation'),
    )
    const content = JSON.stringify({ ui_schema: schema })
    expect(decoderFor().decode({ type: 'TOOL_CALL_RESULT', toolCallId: 'c1', content }, {})[3]).toStrictEqual(problem(reason, content, 'navigation'))
  })

  it('moves the call on for good: a later start and end leave its state and row status alone', () => {
    const d = decoderFor()
    d.decode({ type: 'TOOL_CALL_RESULT', toolCallId: 'c1', content: 'ok' }, {})
    expect(d.decode({ type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'search' }, {})).toStrictEqual([
      { op: 'message.delta', ...at('c1'), action: 'set', path: '', value: { toolCallId: 'c1', name: 'search', inputText: '' } },
      { op: 'trace.node', turnId: 't1', node: { id: 'tool:c1', kind: 'tool', label: 'search', tool: 'search', parentId: undefined } },
    ])
    expect(d.decode({ type: 'TOOL_CALL_END', toolCallId: 'c1' }, {})).toStrictEqual([
      { op: 'message.delta', ...at('c1'), action: 'set', path: 'input', value: {} },
      { op: 'trace.node', turnId: 't1', node: { id: 'tool:c1', args: {} } },
    ])
  })
})

describe('an interrupt on a tool call', () => {
  it('asks for approval of a call without a result', () => {
    const d = decoderFor()
    d.decode({ type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'delete' }, {})
    d.decode({ type: 'TOOL_CALL_END', toolCallId: 'c1' }, {})
    const item = { id: 'i1', toolCallId: 'c1', reason: 'Sure?' }
    expect(d.decode({ type: 'RUN_FINISHED', outcome: { type: 'interrupt', interrupts: [item] } }, {})).toStrictEqual([
      { op: 'gate.open', gate: { id: 'i1', turnId: 't1', kind: 'interrupt', question: 'Sure?', payload: item, toolCallId: 'c1' } },
      { op: 'message.delta', ...at('c1'), action: 'set', path: 'state', value: 'approval-requested' },
      { op: 'turn.finish', turnId: 't1', status: 'done', finishReason: 'interrupt' },
    ])
  })
})

describe('readToolResult', () => {
  it('keeps the result as the output, and the content exactly as sent', () => {
    expect(readToolResult({ result: { n: 1 }, content: '{"n":2}' })).toStrictEqual({
      props: { resultContent: '{"n":2}', output: { n: 1 }, state: 'output-available' }, refused: [],
    })
    expect(readToolResult({})).toStrictEqual({ props: { state: 'output-available' }, refused: [] })
  })

  it('parses content that holds JSON objects or arrays, after leading white space, and nothing else', () => {
    expect(readToolResult({ content: '  {"n":1}' }).props).toStrictEqual({ resultContent: '  {"n":1}', output: { n: 1 }, state: 'output-available' })
    expect(readToolResult({ content: '[1]' }).props.output).toStrictEqual([1])
    expect(readToolResult({ content: '"quoted"' }).props.output).toBe('"quoted"')
    expect(readToolResult({ content: '42' }).props.output).toBe('42')
    expect(readToolResult({ content: '{broken' }).props.output).toBe('{broken')
  })

  it('joins content that is all text parts, and keeps any other content as sent', () => {
    expect(readToolResult({ content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] }).props).toStrictEqual({
      resultContent: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }], output: 'ab', state: 'output-available',
    })
    const mixed = [{ type: 'text', text: 'a' }, { type: 'image', url: 'u' }]
    expect(readToolResult({ content: mixed }).props.output).toBe(mixed)
    const untexted = [{ type: 'text', text: 1 }]
    expect(readToolResult({ content: untexted }).props.output).toBe(untexted)
    const captioned = [{ type: 'text', text: 'a' }, { type: 'image', text: 'alt' }]
    expect(readToolResult({ content: captioned }).props.output).toBe(captioned)
    const bare = ['a']
    expect(readToolResult({ content: bare }).props.output).toBe(bare)
    const holes = [null, { type: 'text', text: 'a' }]
    expect(readToolResult({ content: holes }).props.output).toBe(holes)
    expect(readToolResult({ content: [] }).props.output).toBe('')
    expect(readToolResult({ content: 7 }).props.output).toBe(7)
  })

  it('keeps the metadata', () => {
    expect(readToolResult({ metadata: { k: 1 } }).props).toStrictEqual({ metadata: { k: 1 }, state: 'output-available' })
  })

  it('reads the call\'s arguments as an object or as JSON text', () => {
    expect(readToolResult({ tool_call_args: { q: 1 } }).props).toStrictEqual({ input: { q: 1 }, inputText: '{"q":1}', state: 'output-available' })
    expect(readToolResult({ toolCallArgs: '{"q":1}' }).props).toStrictEqual({ inputText: '{"q":1}', input: { q: 1 }, state: 'output-available' })
    expect(readToolResult({ toolCallArgs: 'q=1' }).props).toStrictEqual({ inputText: 'q=1', state: 'output-available' })
    expect(readToolResult({ toolCallArgs: 5 }).props).toStrictEqual({ state: 'output-available' })
  })

  it('fails only on an error that is non-empty text', () => {
    expect(readToolResult({ error: 'broke' }).props).toStrictEqual({ state: 'output-error', errorText: 'broke' })
    expect(readToolResult({ error: '' }).props).toStrictEqual({ state: 'output-available' })
    expect(readToolResult({ error: true }).props).toStrictEqual({ state: 'output-available' })
  })
})

describe('parseJson', () => {
  it('reports text that is not JSON instead of throwing', () => {
    expect(parseJson('{"a":1}')).toStrictEqual({ ok: true, value: { a: 1 } })
    expect(parseJson('{a')).toStrictEqual({ ok: false })
  })
})
