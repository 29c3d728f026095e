/**
 * Exact ops of the UI message stream's tool calls: what each tool chunk writes on
 * the call's message and timeline row, the problem (message and code) a chunk it
 * cannot use records, when streamed input is written, approval gates, and what a
 * reset step forgets.
 */
import { describe, expect, it } from 'vitest'
import type { Op } from '../../../src/core/model/ops'
import { protocolProblem } from '../../../src/core/protocol/problem'
import type { DecodeContext, Decoder } from '../../../src/core/protocol/types'
import { createUIMessageDecoder } from '../../../src/protocols/ui-message/decoder'

type Chunk = Record<string, unknown>
const TURN = 't1'
const MSG = 's/tool:c1'

const decoder = (context: Partial<DecodeContext> = {}): Decoder => createUIMessageDecoder({ turnId: TURN, scope: 's', ...context })
const feed = (d: Decoder, chunks: readonly unknown[]): Op[][] => chunks.map((chunk) => d.decode(chunk, {}))
/** The ops of the last chunk, after the others. */
const last = (chunks: readonly unknown[], context: Partial<DecodeContext> = {}): Op[] => feed(decoder(context), chunks).at(-1)!
const problem = (message: string, raw: unknown, code: string): Op => protocolProblem(TURN, message, raw, code)

const onTool = (action: 'set' | 'merge' | 'append', path: string, value: unknown, blockId?: string, messageId = MSG): Op => ({
  op: 'message.delta', turnId: TURN, messageId, type: 'tool', role: 'assistant', blockId, action, path, value,
})
const props = (value: Record<string, unknown>, blockId?: string): Op => onTool('set', '', value, blockId)
const row = (fields: Record<string, unknown>, name = 'search', label = name): Op => ({
  op: 'trace.node', turnId: TURN, node: { id: MSG, kind: 'tool', tool: name, label, ...fields },
})
const start: Chunk = { type: 'tool-input-start', toolCallId: 'c1', toolName: 'search' }
const startOps: Op[] = [
  props({ toolCallId: 'c1', name: 'search', state: 'input-streaming', inputText: '' }),
  row({ status: 'start' }),
]

describe('tool-input-start', () => {
  it('opens the call in input-streaming state with its timeline row under the step', () => {
    const ops = feed(decoder(), [{ type: 'start-step' }, start])[1]
    expect(ops).toEqual([
      props({ toolCallId: 'c1', name: 'search', state: 'input-streaming', inputText: '' }, 's/step:1'),
      row({ status: 'start', parentId: 's/step:1' }),
    ])
  })

  it('keeps a title, dynamic, providerExecuted, a known inputEncoding, the provider metadata and tool metadata', () => {
    const ops = last([{
      ...start, title: 'Web search', dynamic: true, providerExecuted: false, inputEncoding: 'json',
      providerMetadata: { acme: { id: 1 } }, toolMetadata: { origin: 'mcp' },
    }])
    expect(ops).toEqual([
      props({
        toolCallId: 'c1', name: 'search', state: 'input-streaming', inputText: '', title: 'Web search',
        dynamic: true, providerExecuted: false, inputEncoding: 'json',
      }),
      row({ status: 'start' }, 'search', 'Web search'),
      props({ toolMetadata: { origin: 'mcp' }, callProviderMetadata: { acme: { id: 1 } } }),
    ])
  })

  it('drops a dynamic that is not true and an inputEncoding it does not know', () => {
    expect(last([{ ...start, dynamic: 'yes', inputEncoding: 'xml' }])).toEqual(startOps)
  })

  it('writes the tool metadata alone when the chunk has no provider metadata', () => {
    expect(last([{ ...start, toolMetadata: { origin: 'mcp' } }])).toEqual([...startOps, props({ toolMetadata: { origin: 'mcp' } })])
  })

  it('writes nothing more for tool metadata that is not an object', () => {
    expect(last([{ ...start, toolMetadata: 'mcp' }])).toEqual(startOps)
  })

  it('merges a field it does not read into extra', () => {
    expect(last([{ ...start, serverTag: 'x' }])).toEqual([...startOps, onTool('merge', '', { extra: { serverTag: 'x' } })])
  })

  it('without a toolCallId is a missing_id problem', () => {
    const chunk = { type: 'tool-input-start', toolName: 'search' }
    expect(last([chunk])).toEqual([problem('tool-input-start without a toolCallId', chunk, 'missing_id')])
  })

  it('without a toolName is an invalid problem, and the call is named "tool"', () => {
    const chunk = { type: 'tool-input-start', toolCallId: 'c1' }
    expect(last([chunk])).toEqual([
      problem('tool-input-start without a toolName', chunk, 'invalid'),
      props({ toolCallId: 'c1', name: 'tool', state: 'input-streaming', inputText: '' }),
      row({ status: 'start' }, 'tool'),
    ])
  })
})

describe('tool-input-delta', () => {
  it('gathers the text and the parsed input of a batch\'s deltas and writes both before the next chunk of another kind', () => {
    const d = decoder()
    const [, first, second, text] = feed(d, [
      start,
      { type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: '{"q":' },
      { type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: '"rain' },
      { type: 'text-start', id: 'a' },
    ])
    expect(first).toEqual([])
    expect(second).toEqual([])
    expect(text).toEqual([
      onTool('append', 'inputText', '{"q":"rain'),
      onTool('set', 'input', { q: 'rain' }),
      { op: 'message.put', turnId: TURN, messageId: 's/text:a', type: 'text', role: 'assistant', props: { content: '' }, status: 'streaming' },
    ])
  })

  it('text-encoded input is appended as a string, with nothing left to write later', () => {
    const d = decoder()
    const [, delta] = feed(d, [{ ...start, inputEncoding: 'text' }, { type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: 'ls -la' }])
    expect(delta).toEqual([onTool('append', 'inputText', 'ls -la'), onTool('append', 'input', 'ls -la')])
    expect(d.flush!()).toEqual([])
    expect(d.end('done')).toEqual([{ op: 'turn.finish', turnId: TURN, status: 'done' }])
  })

  it('merges a field it does not read into extra, and writes no metadata of its own', () => {
    const d = decoder()
    const [, ops] = feed(d, [start, { type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: '{', providerMetadata: { a: 1 } }])
    expect(ops).toEqual([onTool('merge', '', { extra: { providerMetadata: { a: 1 } } })])
    expect(d.flush!()).toEqual([onTool('append', 'inputText', '{'), onTool('set', 'input', {})])
  })

  it('without an inputTextDelta string is an invalid problem', () => {
    const chunk = { type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: 5 }
    expect(last([start, chunk])).toEqual([problem('tool-input-delta without an inputTextDelta string', chunk, 'invalid')])
  })

  it('without a toolCallId is a missing_id problem', () => {
    const chunk = { type: 'tool-input-delta', inputTextDelta: '{' }
    expect(last([chunk])).toEqual([problem('tool-input-delta without a toolCallId', chunk, 'missing_id')])
  })

  it('for a call never started starts it, named by the chunk or "tool"', () => {
    const chunk = { type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: '{' }
    expect(last([chunk])).toEqual([
      problem('tool-input-delta for "c1" came before the call; the call was started', chunk, 'repaired'),
      props({ toolCallId: 'c1', name: 'tool' }),
      row({ status: 'start' }, 'tool'),
    ])
    const named = { ...chunk, toolName: 'lookup' }
    expect(last([named])).toEqual([
      problem('tool-input-delta for "c1" came before the call; the call was started', named, 'repaired'),
      props({ toolCallId: 'c1', name: 'lookup' }),
      row({ status: 'start' }, 'lookup'),
      onTool('merge', '', { extra: { toolName: 'lookup' } }),
    ])
    const d = decoder()
    d.decode(named, {})
    expect(d.flush!()).toEqual([onTool('append', 'inputText', '{'), onTool('set', 'input', {})])
  })

  it('drops a key that could reach a prototype, and reports it once when the input ends', () => {
    const d = decoder()
    const [, first, second] = feed(d, [
      start,
      { type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: '{"__proto__":{"x":1},' },
      { type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: '"constructor":{"y":2},"ok":1}' },
    ])
    expect(first).toEqual([])
    expect(second).toEqual([])
    expect(d.flush!()).toEqual([
      onTool('append', 'inputText', '{"__proto__":{"x":1},"constructor":{"y":2},"ok":1}'),
      onTool('set', 'input', { ok: 1 }),
    ])
    const available = { type: 'tool-input-available', toolCallId: 'c1', toolName: 'search', input: { ok: 1 } }
    const [ended, again] = feed(d, [available, available])
    expect(ended![0]).toEqual(problem('the input of tool call "c1" has the key "__proto__", which is dropped', undefined, 'invalid'))
    expect(ended!.filter((op) => op.op === 'problem')).toHaveLength(1)
    expect(again!.filter((op) => op.op === 'problem')).toEqual([])
  })

  it('reports JSON it cannot read once, where it broke, when the stream ends', () => {
    const d = decoder()
    const bad = { type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: '{"q" 1' }
    const [, first, second] = feed(d, [start, bad, { type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: '}' }])
    expect(first).toEqual([])
    expect(second).toEqual([])
    expect(d.flush!()).toEqual([onTool('append', 'inputText', '{"q" 1}'), onTool('set', 'input', {})])
    const problems = d.end('done').filter((op) => op.op === 'problem')
    expect(problems).toEqual([problem('the input of tool call "c1" is not valid JSON: expected ":", got "1" (at 5)', '{"q" 1}', 'tool_input_json')])
  })

  it('input nested deeper than 65 levels is cut at 63 levels and reported once as too_deep when the stream ends', () => {
    const d = decoder()
    const [, first, second] = feed(d, [
      start,
      { type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: '['.repeat(66) },
      { type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: '[' },
    ])
    expect(first).toEqual([])
    expect(second).toEqual([])
    let expected: unknown = []
    for (let i = 0; i < 63; i++) expected = [expected]
    expect(d.flush!()).toEqual([onTool('append', 'inputText', '['.repeat(67)), onTool('set', 'input', expected)])
    const ended = d.end('done')
    expect(ended.filter((op) => op.op === 'problem')).toEqual([
      problem('the input of tool call "c1" nests deeper than 63 levels; the deeper part is dropped', undefined, 'too_deep'),
    ])
  })
})

describe('when streamed input is written', () => {
  const delta = (inputTextDelta: string, toolCallId = 'c1'): Chunk => ({ type: 'tool-input-delta', toolCallId, inputTextDelta })
  const inputSet = (value: unknown, messageId = MSG): Op => onTool('set', 'input', value, undefined, messageId)

  it('not when the next chunk sets the same call\'s whole input (tool-input-available)', () => {
    const ops = last([start, delta('{"q":"ra'), { type: 'tool-input-available', toolCallId: 'c1', toolName: 'search', input: { q: 'rain' } }])
    expect(ops).toEqual([
      onTool('append', 'inputText', '{"q":"ra'),
      props({ toolCallId: 'c1', name: 'search', state: 'input-available', input: { q: 'rain' } }),
      row({ status: 'progress', args: { q: 'rain' } }),
    ])
  })

  it('not when the next chunk sets the same call\'s whole input (tool-input-error)', () => {
    const ops = last([start, delta('{"q":"ra'), { type: 'tool-input-error', toolCallId: 'c1', input: { q: 'ra' }, errorText: 'bad' }])
    expect(ops).toEqual([
      onTool('append', 'inputText', '{"q":"ra'),
      props({ toolCallId: 'c1', name: 'search', state: 'output-error', input: { q: 'ra' }, errorText: 'bad' }),
      row({ args: { q: 'ra' } }),
      { op: 'trace.fail', turnId: TURN, nodeId: MSG, tool: 'search', message: 'bad' },
    ])
  })

  it('yes when the next chunk names the call but carries no input', () => {
    const chunk = { type: 'tool-input-available', toolCallId: 'c1' }
    const ops = last([start, delta('{"q":"ra'), chunk])
    expect(ops).toEqual([
      onTool('append', 'inputText', '{"q":"ra'),
      inputSet({ q: 'ra' }),
      problem('tool-input-available for "c1" without an input', chunk, 'invalid'),
      props({ toolCallId: 'c1', name: 'search', state: 'input-available' }),
      row({ status: 'progress' }),
    ])
  })

  it('yes when the next chunk settles another call', () => {
    const ops = last([
      start, delta('{"q":"ra'),
      { type: 'tool-input-available', toolCallId: 'c2', toolName: 'other', input: {} },
    ])
    const other = 's/tool:c2'
    expect(ops).toEqual([
      onTool('append', 'inputText', '{"q":"ra'),
      inputSet({ q: 'ra' }),
      onTool('set', '', { toolCallId: 'c2', name: 'other', state: 'input-available', input: {}, inputText: '{}' }, undefined, other),
      { op: 'trace.node', turnId: TURN, node: { id: other, kind: 'tool', tool: 'other', label: 'other', status: 'progress', args: {} } },
    ])
  })

  it('a long input\'s text is written at every flush, its value once it has grown enough; the end and a release write the rest', () => {
    /** The length of the written `q` or text, so a failure does not print the whole input. */
    const lengths = (ops: readonly Op[]) => ops.map((op) => (op.op !== 'message.delta'
      ? op.op
      : op.path === 'input' ? (op.value as { q: string }).q.length : `${op.path} +${(op.value as string).length}`))
    const long = '{"q":"' + 'a'.repeat(20_000)
    for (const close of ['end', 'release'] as const) {
      const d = decoder()
      feed(d, [start, delta(long)])
      expect(lengths(d.flush!())).toEqual([`inputText +${long.length}`, 20_000])
      feed(d, [delta('bb')])
      expect(d.flush!()).toEqual([onTool('append', 'inputText', 'bb')])
      expect(lengths(d.decode({ type: 'text-start', id: 'a' }, {}))).toEqual(['message.put'])
      const rest = close === 'end' ? d.end('done') : d.release!()
      expect(lengths(rest)).toEqual(close === 'end' ? [20_002, 'message.finish', 'turn.finish'] : [20_002])
      expect(d.flush!()).toEqual([])
    }
  })
})

describe('tool-input-available', () => {
  it('for a streamed call sets the input without its text, and the row keeps its parent', () => {
    const ops = feed(decoder(), [
      { type: 'start-step' }, start,
      { type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: '{}' },
      { type: 'tool-input-available', toolCallId: 'c1', input: {}, title: 'Search', dynamic: true, providerExecuted: true },
    ]).at(-1)
    expect(ops).toEqual([
      onTool('append', 'inputText', '{}', 's/step:1'),
      props({ toolCallId: 'c1', name: 'search', state: 'input-available', title: 'Search', input: {}, dynamic: true, providerExecuted: true }, 's/step:1'),
      row({ status: 'progress', args: {} }, 'search', 'Search'),
    ])
  })

  it('for a call never started makes it, named "tool" without a toolName, under the step', () => {
    const ops = feed(decoder(), [{ type: 'start-step' }, { type: 'tool-input-available', toolCallId: 'c1', input: { a: 1 }, dynamic: 'no' }])[1]
    expect(ops).toEqual([
      props({ toolCallId: 'c1', name: 'tool', state: 'input-available', input: { a: 1 }, inputText: '{"a":1}' }, 's/step:1'),
      row({ status: 'progress', args: { a: 1 }, parentId: 's/step:1' }, 'tool'),
    ])
  })

  it('keeps the name it was started with when the chunk has none', () => {
    const ops = last([start, { type: 'tool-input-available', toolCallId: 'c1', input: 1 }])
    expect(ops).toEqual([
      props({ toolCallId: 'c1', name: 'search', state: 'input-available', input: 1, inputText: '1' }),
      row({ status: 'progress', args: 1 }),
    ])
  })

  it('keeps the provider metadata as the call\'s', () => {
    const ops = last([start, { type: 'tool-input-available', toolCallId: 'c1', input: 1, providerMetadata: { p: 1 } }])
    expect(ops.at(-1)).toEqual(props({ callProviderMetadata: { p: 1 } }))
  })

  it('without a toolCallId is a missing_id problem', () => {
    const chunk = { type: 'tool-input-available', input: {} }
    expect(last([chunk])).toEqual([problem('tool-input-available without a toolCallId', chunk, 'missing_id')])
  })
})

describe('tool-input-error', () => {
  it('for a call never started makes it, named "tool", with a default error text', () => {
    const ops = feed(decoder(), [{ type: 'start-step' }, { type: 'tool-input-error', toolCallId: 'c1', title: 'Lookup', dynamic: true, providerExecuted: false }])[1]
    expect(ops).toEqual([
      props({
        toolCallId: 'c1', name: 'tool', state: 'output-error', errorText: 'the tool input was not valid', title: 'Lookup',
        dynamic: true, providerExecuted: false,
      }, 's/step:1'),
      row({ parentId: 's/step:1' }, 'tool', 'Lookup'),
      { op: 'trace.fail', turnId: TURN, nodeId: MSG, tool: 'tool', message: 'the tool input was not valid' },
    ])
  })

  it('on a started call keeps its name and title, takes a new title, and keeps the provider metadata as the result\'s', () => {
    const ops = last([
      { ...start, title: 'Search' },
      { type: 'tool-input-error', toolCallId: 'c1', toolName: 'ignored', title: 'Search again', dynamic: 1, errorText: 'no', providerMetadata: { p: 1 } },
    ])
    expect(ops).toEqual([
      props({ toolCallId: 'c1', name: 'search', state: 'output-error', errorText: 'no', title: 'Search again' }),
      row({}, 'search', 'Search again'),
      { op: 'trace.fail', turnId: TURN, nodeId: MSG, tool: 'search', message: 'no' },
      props({ resultProviderMetadata: { p: 1 } }),
    ])
  })

  it('without a toolCallId is a missing_id problem', () => {
    const chunk = { type: 'tool-input-error', errorText: 'x' }
    expect(last([chunk])).toEqual([problem('tool-input-error without a toolCallId', chunk, 'missing_id')])
  })
})

describe('tool output', () => {
  it('output-available sets the output and finishes the row; preliminary output keeps it in progress', () => {
    const d = decoder()
    const [, early, final] = feed(d, [
      start,
      { type: 'tool-output-available', toolCallId: 'c1', output: 'half', preliminary: true, dynamic: true, providerExecuted: true },
      { type: 'tool-output-available', toolCallId: 'c1', output: 'all', providerMetadata: { p: 1 } },
    ])
    expect(early).toEqual([
      props({ state: 'output-available', output: 'half', preliminary: true, providerExecuted: true, dynamic: true }),
      row({ status: 'progress', result: 'half' }),
    ])
    expect(final).toEqual([
      props({ state: 'output-available', output: 'all', preliminary: false }),
      row({ status: 'done', result: 'all' }),
      props({ resultProviderMetadata: { p: 1 } }),
    ])
  })

  it('output-available without an output is an invalid problem', () => {
    const chunk = { type: 'tool-output-available', toolCallId: 'c1' }
    expect(last([start, chunk])).toEqual([
      problem('tool-output-available for "c1" without an output', chunk, 'invalid'),
      props({ state: 'output-available' }),
      row({ status: 'done' }),
    ])
  })

  it('output for a call never started starts it', () => {
    const chunk = { type: 'tool-output-available', toolCallId: 'c1', output: 1 }
    expect(last([chunk])).toEqual([
      problem('tool-output-available for "c1" came before the call; the call was started', chunk, 'repaired'),
      props({ toolCallId: 'c1', name: 'tool' }),
      row({ status: 'start' }, 'tool'),
      props({ state: 'output-available', output: 1 }),
      row({ status: 'done', result: 1 }, 'tool'),
    ])
  })

  it('output of a call an earlier stream made lands on that call\'s message, outside any step', () => {
    const priorToolCall = (id: string) => (id === 'c1' ? { messageId: 'old/tool:c1', name: 'lookup' } : undefined)
    const ops = feed(decoder({ priorToolCall }), [{ type: 'start-step' }, { type: 'tool-output-available', toolCallId: 'c1', output: 1 }])[1]
    expect(ops).toEqual([
      onTool('set', '', { state: 'output-available', output: 1 }, undefined, 'old/tool:c1'),
      { op: 'trace.node', turnId: TURN, node: { id: 'old/tool:c1', kind: 'tool', tool: 'lookup', label: 'lookup', status: 'done', result: 1 } },
    ])
  })

  it('output-error sets the error text, or a default one', () => {
    const d = decoder()
    const [, first, second] = feed(d, [
      start,
      { type: 'tool-output-error', toolCallId: 'c1', dynamic: true, providerExecuted: true, providerMetadata: { p: 1 } },
      { type: 'tool-output-error', toolCallId: 'c1', errorText: 'timed out', dynamic: false },
    ])
    expect(first).toEqual([
      props({ state: 'output-error', errorText: 'the tool failed', providerExecuted: true, dynamic: true }),
      { op: 'trace.fail', turnId: TURN, nodeId: MSG, tool: 'search', message: 'the tool failed' },
      props({ resultProviderMetadata: { p: 1 } }),
    ])
    expect(second).toEqual([
      props({ state: 'output-error', errorText: 'timed out' }),
      { op: 'trace.fail', turnId: TURN, nodeId: MSG, tool: 'search', message: 'timed out' },
    ])
  })

  it('output-error for a call never started starts it', () => {
    const chunk = { type: 'tool-output-error', toolCallId: 'c1', errorText: 'x' }
    expect(last([chunk])[0]).toEqual(problem('tool-output-error for "c1" came before the call; the call was started', chunk, 'repaired'))
  })

  it('output-denied marks the call denied; without a gate nothing is resolved', () => {
    expect(last([start, { type: 'tool-output-denied', toolCallId: 'c1' }])).toEqual([
      props({ state: 'output-denied' }),
      row({ status: 'done', resultDetail: 'denied' }),
    ])
  })

  it('output-denied keeps tool metadata, never provider metadata of its own', () => {
    const ops = last([start, { type: 'tool-output-denied', toolCallId: 'c1', toolMetadata: { a: 1 }, providerMetadata: { p: 1 } }])
    expect(ops).toEqual([
      props({ state: 'output-denied' }),
      row({ status: 'done', resultDetail: 'denied' }),
      props({ toolMetadata: { a: 1 } }),
      onTool('merge', '', { extra: { toolMetadata: { a: 1 }, providerMetadata: { p: 1 } } }),
    ])
  })

  it('output-denied for a call never started starts it', () => {
    const chunk = { type: 'tool-output-denied', toolCallId: 'c1' }
    expect(last([chunk])[0]).toEqual(problem('tool-output-denied for "c1" came before the call; the call was started', chunk, 'repaired'))
  })
})

describe('approval gates', () => {
  const request: Chunk = { type: 'tool-approval-request', approvalId: 'a1', toolCallId: 'c1' }
  const gate = (question: string, payload: Record<string, unknown> = {}): Op => ({
    op: 'gate.open',
    gate: { id: 's/approval:a1', turnId: TURN, kind: 'tool-approval', question, payload: { approvalId: 'a1', toolCallId: 'c1', toolName: 'search', ...payload }, toolCallId: 'c1' },
  })

  it('a request opens a gate that asks about the call by title, else by name', () => {
    expect(last([start, request])).toEqual([
      gate('Allow search?'),
      props({ state: 'approval-requested', approval: { id: 'a1' } }),
      row({ status: 'progress' }),
    ])
    expect(last([{ ...start, title: 'Web search' }, request])[0]).toEqual(gate('Allow Web search?'))
  })

  it('a request with a reason asks it and keeps what the approval carries', () => {
    const ops = last([start, {
      ...request, reason: 'costly', approvalDescriptor: { d: 1 }, signature: 'sig', inputSchemaInput: { q: 1 }, isAutomatic: false,
    }])
    expect(ops).toEqual([
      gate('costly', { reason: 'costly' }),
      props({ state: 'approval-requested', approval: { id: 'a1', reason: 'costly', descriptor: { d: 1 }, signature: 'sig', inputSchemaInput: { q: 1 }, isAutomatic: false } }),
      row({ status: 'progress' }),
    ])
  })

  it('a response resolves the gate once: the output that follows resolves nothing more', () => {
    const [, , response, output] = feed(decoder(), [
      start, request,
      { type: 'tool-approval-response', approvalId: 'a1', approved: true, reason: 'fine' },
      { type: 'tool-output-available', toolCallId: 'c1', output: 1 },
    ])
    expect(response).toEqual([
      { op: 'gate.resolve', gateId: 's/approval:a1', status: 'approved', response: { approved: true, reason: 'fine' } },
      props({ state: 'approval-responded' }),
      onTool('merge', 'approval', { id: 'a1', approved: true, reason: 'fine' }),
    ])
    expect(output).toEqual([props({ state: 'output-available', output: 1 }), row({ status: 'done', result: 1 })])
  })

  it('a refusal rejects the gate, and a denial after it resolves nothing more', () => {
    const [, , response, denied] = feed(decoder(), [
      start, request,
      { type: 'tool-approval-response', approvalId: 'a1', approved: false },
      { type: 'tool-output-denied', toolCallId: 'c1' },
    ])
    expect(response).toEqual([
      { op: 'gate.resolve', gateId: 's/approval:a1', status: 'rejected', response: { approved: false } },
      props({ state: 'approval-responded' }),
      onTool('merge', 'approval', { id: 'a1', approved: false }),
    ])
    expect(denied).toEqual([props({ state: 'output-denied' }), row({ status: 'done', resultDetail: 'denied' })])
  })

  it('output while the gate waits approves it; a denial rejects it', () => {
    expect(last([start, request, { type: 'tool-output-available', toolCallId: 'c1', output: 1 }]).at(-1))
      .toEqual({ op: 'gate.resolve', gateId: 's/approval:a1', status: 'approved', response: undefined })
    expect(last([start, request, { type: 'tool-output-denied', toolCallId: 'c1' }]).at(-1))
      .toEqual({ op: 'gate.resolve', gateId: 's/approval:a1', status: 'rejected', response: undefined })
  })

  it('a request without an approvalId, or for an unnamed call, is a missing_id problem', () => {
    const noId = { type: 'tool-approval-request', toolCallId: 'c1' }
    expect(last([start, noId])).toEqual([problem('tool-approval-request without an approvalId', noId, 'missing_id')])
    const noCall = { type: 'tool-approval-request', approvalId: 'a1' }
    expect(last([start, noCall])).toEqual([problem('tool-approval-request without a toolCallId', noCall, 'missing_id')])
  })

  it('a request for a call never started starts it', () => {
    expect(last([request])[0]).toEqual(problem('tool-approval-request for "c1" came before the call; the call was started', request, 'repaired'))
  })

  it('a response without an approvalId, without a boolean, or never requested is a problem', () => {
    const noId = { type: 'tool-approval-response', approved: true }
    expect(last([start, request, noId])).toEqual([problem('tool-approval-response without an approvalId', noId, 'missing_id')])
    const noBoolean = { type: 'tool-approval-response', approvalId: 'a1', approved: 'yes' }
    expect(last([start, request, noBoolean])).toEqual([problem('tool-approval-response without a boolean "approved"', noBoolean, 'invalid')])
    const unknown = { type: 'tool-approval-response', approvalId: 'a2', approved: true }
    expect(last([start, request, unknown])).toEqual([problem('tool-approval-response for "a2", which was never requested', unknown, 'invalid')])
  })
})

describe('a reset step forgets the calls it made', () => {
  it('a call of the reset step is unknown afterwards; a call from before the step is kept', () => {
    const d = decoder()
    feed(d, [
      { type: 'tool-input-start', toolCallId: 'c0', toolName: 'early' },
      { type: 'start-step' }, start,
      { type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: '{"q":"' + 'a'.repeat(20_000) },
    ])
    expect(d.flush!()).toHaveLength(2)
    // Too little growth for the value to be written yet: only the end would write it, and the reset drops it.
    feed(d, [{ type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: 'bb' }])
    expect(d.decode({ type: 'reset-step' }, {})).toEqual([
      onTool('append', 'inputText', 'bb', 's/step:1'),
      { op: 'block.reset', blockId: 's/step:1' },
    ])
    const output = { type: 'tool-output-available', toolCallId: 'c1', output: 1 }
    expect(d.decode(output, {})).toEqual([
      problem('tool-output-available for "c1" came before the call; the call was started', output, 'repaired'),
      props({ toolCallId: 'c1', name: 'tool' }, 's/step:1'),
      row({ status: 'start', parentId: 's/step:1' }, 'tool'),
      props({ state: 'output-available', output: 1 }, 's/step:1'),
      row({ status: 'done', result: 1 }, 'tool'),
    ])
    expect(d.decode({ type: 'tool-output-available', toolCallId: 'c0', output: 2 }, {})).toEqual([
      onTool('set', '', { state: 'output-available', output: 2 }, undefined, 's/tool:c0'),
      { op: 'trace.node', turnId: TURN, node: { id: 's/tool:c0', kind: 'tool', tool: 'early', label: 'early', status: 'done', result: 2 } },
    ])
    expect(d.end('done').map((op) => op.op)).toEqual(['block.close', 'trace.node', 'turn.finish'])
  })

  it('an approval the reset step asked for is forgotten; one from before the step is kept', () => {
    const d = decoder()
    feed(d, [
      { type: 'tool-input-start', toolCallId: 'c0', toolName: 'early' },
      { type: 'tool-approval-request', approvalId: 'a0', toolCallId: 'c0' },
      { type: 'start-step' }, start, { type: 'tool-approval-request', approvalId: 'a1', toolCallId: 'c1' },
      { type: 'reset-step' },
    ])
    const forgotten = { type: 'tool-approval-response', approvalId: 'a1', approved: true }
    expect(d.decode(forgotten, {})).toEqual([problem('tool-approval-response for "a1", which was never requested', forgotten, 'invalid')])
    expect(d.decode({ type: 'tool-approval-response', approvalId: 'a0', approved: true }, {})[0])
      .toEqual({ op: 'gate.resolve', gateId: 's/approval:a0', status: 'approved', response: { approved: true } })
  })
})
