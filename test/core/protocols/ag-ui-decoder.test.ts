import { describe, expect, it } from 'vitest'
import { encodeFrame } from '../../../mock/scenario'
import { findScenario } from '../../../mock/scenarios/index'
import { createAgUiDecoder, agUiInputMessageId } from '../../../src/protocols/ag-ui/decoder'
import { sniffAgUi, AG_UI_EVENT_TYPES } from '../../../src/protocols/ag-ui/event-types'
import type { DataPart } from '../../../src/core/protocol/types'
import { foldStream, streamToOps } from '../../../src/umbrella/defaults'
import type { AgentState, Message } from '../../../src/core/model/model'
import { messageIn, messageList, messageRecord } from '../../../src/core/model/message-table'
import { STREAM_TRUNCATED } from '../../../src/core/model/errors'
import { traceRecord } from '../../../src/core/model/trace-table'

type Ev = Record<string, unknown>

const fold = (events: Ev[], state?: AgentState) => foldStream(events, { protocol: 'ag-ui', state })
const turnOf = (s: AgentState, id = 'turn-1') => s.turns[id]!
const message = (s: AgentState, id: string): Message => {
  const found = messageIn(s.messages, id)
  if (!found) throw new Error(`no message ${id}; have ${Object.keys(messageRecord(s.messages)).join(', ')}`)
  return found
}
// Most fragments here stop short of the stream's end; that rule has its own tests (truncated-stream.test.ts).
const problemCodes = (s: AgentState, id = 'turn-1') => turnOf(s, id).problems.map((p) => p.code).filter((code) => code !== STREAM_TRUNCATED)
const run = (...events: Ev[]): Ev[] => [
  { type: 'RUN_STARTED', threadId: 'th1', runId: 'r1' },
  ...events,
  { type: 'RUN_FINISHED', threadId: 'th1', runId: 'r1' },
]

describe('AG-UI runs', () => {
  it('RUN_STARTED records the run and thread; RUN_FINISHED finishes the turn and ends the protocol', () => {
    const decoder = createAgUiDecoder({ turnId: 't1', scope: 't1' })
    expect(decoder.decode({ type: 'RUN_STARTED', threadId: 'th1', runId: 'r1', parentRunId: 'r0' }, {})).toEqual([
      { op: 'turn.update', turnId: 't1', runId: 'r1', threadId: 'th1', metadata: { parentRunId: 'r0' } },
    ])
    expect(decoder.ended).toBe(false)
    const ops = decoder.decode({ type: 'RUN_FINISHED', threadId: 'th1', runId: 'r1', result: { ok: true } }, {})
    expect(ops).toContainEqual({ op: 'turn.finish', turnId: 't1', status: 'done' })
    expect(ops).toContainEqual({ op: 'turn.update', turnId: 't1', metadata: { result: { ok: true } } })
    expect(decoder.ended).toBe(true)
    expect(decoder.end('eof')).toEqual([])

    const s = fold(run())
    expect(turnOf(s)).toMatchObject({ status: 'done', runId: 'r1', threadId: 'th1', protocol: 'ag-ui' })
  })

  it('an interrupt outcome raises one gate per interrupt and marks the held tool call', () => {
    const s = fold([
      { type: 'RUN_STARTED', threadId: 'th1', runId: 'r1' },
      { type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'todo.delete' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '{"id":1}' },
      { type: 'TOOL_CALL_END', toolCallId: 'c1' },
      {
        type: 'RUN_FINISHED', threadId: 'th1', runId: 'r1',
        outcome: {
          type: 'interrupt',
          interrupts: [
            { id: 'i1', reason: 'approval', message: 'Delete it?', toolCallId: 'c1' },
            { id: 'i2', reason: 'Pick a date' },
          ],
        },
      },
    ])
    expect(turnOf(s)).toMatchObject({ status: 'done', finishReason: 'interrupt', gateIds: ['i1', 'i2'] })
    expect(s.gates.i1).toMatchObject({ kind: 'interrupt', question: 'Delete it?', toolCallId: 'c1', status: 'pending', turnId: 'turn-1' })
    expect(s.gates.i1!.payload).toMatchObject({ reason: 'approval' })
    expect(s.gates.i2).toMatchObject({ question: 'Pick a date' })
    expect(s.gates.i2!.toolCallId).toBeUndefined()
    expect(message(s, 'c1').props.state).toBe('approval-requested')
  })

  it('a cancelled outcome aborts the turn', () => {
    const s = fold([{ type: 'RUN_STARTED', threadId: 'th1', runId: 'r1' }, { type: 'RUN_FINISHED', threadId: 'th1', runId: 'r1', outcome: { type: 'cancelled' } }])
    expect(turnOf(s).status).toBe('aborted')
  })

  it('RUN_ERROR ends the turn with a typed error and keeps the code', () => {
    const s = fold([{ type: 'RUN_STARTED', threadId: 'th1', runId: 'r1' }, { type: 'RUN_ERROR', message: 'model overloaded', code: 'E_OVERLOAD' }])
    expect(turnOf(s).status).toBe('error')
    expect(turnOf(s).error).toMatchObject({ type: 'internal', message: 'model overloaded', code: 'E_OVERLOAD' })
    const limited = fold([{ type: 'RUN_ERROR', message: 'slow down', code: 'rate_limit' }])
    expect(turnOf(limited).error).toMatchObject({ type: 'rate_limit', code: 'rate_limit', retryable: true })
  })

  it('keeps usage totals and the per-model list', () => {
    const s = fold([{
      type: 'RUN_FINISHED', threadId: 'th1', runId: 'r1',
      usage: [{ model: 'a', inputTokens: 10, outputTokens: 2 }, { model: 'b', inputTokens: 5, outputTokens: 1, totalTokens: 6 }],
    }])
    expect(turnOf(s).usage).toMatchObject({ inputTokens: 15, outputTokens: 3, totalTokens: 6 })
    expect(turnOf(s).usage?.byModel?.map((entry) => entry.model)).toEqual(['a', 'b'])
    expect(turnOf(s).usage?.raw).toHaveLength(2)
  })

  it('a stream that closes without RUN_FINISHED closes its messages, and the turn is cut off', () => {
    const s = fold([{ type: 'RUN_STARTED', threadId: 'th1', runId: 'r1' }, { type: 'TEXT_MESSAGE_START', messageId: 'm1' }, { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'Hi' }])
    expect(turnOf(s).status).toBe('aborted')
    expect(turnOf(s).problems.map((p) => p.code)).toEqual([STREAM_TRUNCATED])
    expect(message(s, 'm1')).toMatchObject({ status: 'done', props: { content: 'Hi' } })
  })

  it('a second run on the same stream streams the turn again', () => {
    const ops = streamToOps([
      { type: 'RUN_STARTED', threadId: 'th1', runId: 'r1' },
      { type: 'RUN_FINISHED', threadId: 'th1', runId: 'r1' },
      { type: 'RUN_STARTED', threadId: 'th1', runId: 'r2' },
      { type: 'TEXT_MESSAGE_START', messageId: 'm2' },
    ], { protocol: 'ag-ui' })
    const reopen = ops.findIndex((op) => op.op === 'turn.open' && ops.indexOf(op) > 0)
    expect(reopen).toBeGreaterThan(0)
    const s = fold([
      { type: 'RUN_STARTED', threadId: 'th1', runId: 'r1' },
      { type: 'RUN_ERROR', message: 'first failed' },
      { type: 'RUN_STARTED', threadId: 'th1', runId: 'r2' },
      { type: 'TEXT_MESSAGE_START', messageId: 'm2' },
      { type: 'TEXT_MESSAGE_END', messageId: 'm2', content: 'second' },
      { type: 'RUN_FINISHED', threadId: 'th1', runId: 'r2' },
    ])
    expect(turnOf(s)).toMatchObject({ status: 'done', runId: 'r2' })
    expect(turnOf(s).error).toBeUndefined()
    expect(message(s, 'm2').props.content).toBe('second')
  })
})

describe('AG-UI text messages', () => {
  it('streams a message by its global id and keeps its role', () => {
    const s = fold(run(
      { type: 'TEXT_MESSAGE_START', messageId: 'msg_1', role: 'assistant', name: 'helper' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'msg_1', delta: 'Hel' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'msg_1', delta: 'lo' },
      { type: 'TEXT_MESSAGE_END', messageId: 'msg_1' },
      { type: 'TEXT_MESSAGE_START', messageId: 'msg_2', role: 'developer' },
      { type: 'TEXT_MESSAGE_END', messageId: 'msg_2', content: 'Be brief.' },
      { type: 'TEXT_MESSAGE_START', messageId: 'msg_3', role: 'user' },
      { type: 'TEXT_MESSAGE_END', messageId: 'msg_3', content: 'Hi' },
    ))
    expect(turnOf(s).messageIds).toEqual(['msg_1', 'msg_2', 'msg_3'])
    expect(message(s, 'msg_1')).toMatchObject({ type: 'text', role: 'assistant', status: 'done', props: { content: 'Hello', name: 'helper' } })
    expect(message(s, 'msg_2')).toMatchObject({ role: 'system', props: { content: 'Be brief.', sourceRole: 'developer' } })
    expect(message(s, 'msg_3').role).toBe('user')
    expect(turnOf(s).problems).toEqual([])
  })

  it.each(['content', 'text', 'delta'])('TEXT_MESSAGE_END carrying the whole text in "%s" sets the content', (field) => {
    const s = fold(run(
      { type: 'TEXT_MESSAGE_START', messageId: 'm1' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'partial' },
      { type: 'TEXT_MESSAGE_END', messageId: 'm1', [field]: 'The whole answer.' },
    ))
    expect(message(s, 'm1').props.content).toBe('The whole answer.')
  })

  it('TEXT_MESSAGE_END with the whole text and no start creates the message without a problem', () => {
    const s = fold(run({ type: 'TEXT_MESSAGE_END', messageId: 'm1', content: 'Done.' }))
    expect(message(s, 'm1')).toMatchObject({ status: 'done', props: { content: 'Done.' } })
    expect(turnOf(s).problems).toEqual([])
  })

  it('TEXT_MESSAGE_END with a structured result keeps it', () => {
    const s = fold(run({ type: 'TEXT_MESSAGE_START', messageId: 'm1' }, { type: 'TEXT_MESSAGE_END', messageId: 'm1', content: { summary: 'ok' } }))
    expect(message(s, 'm1').props.result).toEqual({ summary: 'ok' })
  })

  it('repairs content before its start by creating the message, and says so', () => {
    const s = fold(run({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'Hi' }, { type: 'TEXT_MESSAGE_END', messageId: 'm1' }))
    expect(message(s, 'm1').props.content).toBe('Hi')
    expect(problemCodes(s)).toEqual(['repaired'])
  })

  it('reports an end for a message never started and creates nothing', () => {
    const s = fold(run({ type: 'TEXT_MESSAGE_END', messageId: 'ghost' }))
    expect(messageIn(s.messages, 'ghost')).toBeUndefined()
    expect(problemCodes(s)).toEqual(['end_without_start'])
  })

  it('reports a missing id or a delta that is not text', () => {
    const s = fold(run({ type: 'TEXT_MESSAGE_START' }, { type: 'TEXT_MESSAGE_START', messageId: 'm1' }, { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 5 }))
    expect(problemCodes(s)).toEqual(['missing_id', 'delta'])
  })

  it('TEXT_MESSAGE_CHUNK starts, continues and ends a message implicitly', () => {
    const s = fold(run(
      { type: 'TEXT_MESSAGE_CHUNK', messageId: 'm1', role: 'assistant', delta: 'Hel' },
      { type: 'TEXT_MESSAGE_CHUNK', delta: 'lo' },
      { type: 'TEXT_MESSAGE_CHUNK', messageId: 'm2', delta: 'Second' },
      { type: 'STEP_STARTED', stepName: 'next' },
      { type: 'TEXT_MESSAGE_CHUNK', delta: 'orphan' },
      { type: 'STEP_FINISHED', stepName: 'next' },
    ))
    expect(message(s, 'm1')).toMatchObject({ status: 'done', props: { content: 'Hello' } })
    expect(message(s, 'm2')).toMatchObject({ status: 'done', props: { content: 'Second' } })
    // The step ended the implicit message; a chunk without an id cannot start a new one.
    expect(problemCodes(s)).toEqual(['missing_id'])
  })

  it('an implicit message ends as soon as another event arrives in its lane', () => {
    const ops = streamToOps([
      { type: 'TEXT_MESSAGE_CHUNK', messageId: 'm1', delta: 'a' },
      { type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'x' },
    ], { protocol: 'ag-ui' })
    const finish = ops.findIndex((op) => op.op === 'message.finish' && op.messageId === 'm1')
    const toolStart = ops.findIndex((op) => op.op === 'message.delta' && op.messageId === 'c1')
    expect(finish).toBeGreaterThan(0)
    expect(finish).toBeLessThan(toolStart)
  })
})

describe('AG-UI reasoning', () => {
  it('reasoning messages become reasoning messages and a timeline row', () => {
    const s = fold(run(
      { type: 'REASONING_START', messageId: 'rs1' },
      { type: 'REASONING_MESSAGE_START', messageId: 'rm1', role: 'reasoning' },
      { type: 'REASONING_MESSAGE_CONTENT', messageId: 'rm1', delta: 'Think' },
      { type: 'REASONING_MESSAGE_CONTENT', messageId: 'rm1', delta: 'ing' },
      { type: 'REASONING_MESSAGE_END', messageId: 'rm1' },
      { type: 'REASONING_ENCRYPTED_VALUE', subtype: 'message', entityId: 'rm1', encryptedValue: 'enc' },
      { type: 'REASONING_END', messageId: 'rs1' },
    ))
    expect(message(s, 'rm1')).toMatchObject({ type: 'reasoning', props: { content: 'Thinking', encryptedValue: 'enc' } })
    expect(traceRecord(s.trace)['reason:rs1']).toMatchObject({ kind: 'reason', status: 'done', label: 'Reasoning' })
    expect(turnOf(s).traceRootIds).toEqual(['reason:rs1'])
  })

  it('REASONING_MESSAGE_CHUNK streams implicitly', () => {
    const s = fold(run(
      { type: 'REASONING_MESSAGE_CHUNK', messageId: 'rm1', delta: 'a' },
      { type: 'REASONING_MESSAGE_CHUNK', delta: 'b' },
      { type: 'TEXT_MESSAGE_END', messageId: 'm1', content: 'answer' },
    ))
    expect(message(s, 'rm1')).toMatchObject({ type: 'reasoning', status: 'done', props: { content: 'ab' } })
    expect(traceRecord(s.trace)['reason:rm1']).toMatchObject({ kind: 'reason', status: 'done' })
  })

  it('reads the deprecated THINKING_* events of 0.0.x as reasoning', () => {
    const s = fold(run(
      { type: 'THINKING_START', title: 'Planning' },
      { type: 'THINKING_TEXT_MESSAGE_START' },
      { type: 'THINKING_TEXT_MESSAGE_CONTENT', delta: 'First ' },
      { type: 'THINKING_TEXT_MESSAGE_CONTENT', delta: 'the calendar.' },
      { type: 'THINKING_TEXT_MESSAGE_END' },
      { type: 'THINKING_END' },
    ))
    const reasoning = messageList(s.messages).filter((m) => m.type === 'reasoning')
    expect(reasoning).toHaveLength(1)
    expect(reasoning[0]!.props.content).toBe('First the calendar.')
    const row = Object.values(traceRecord(s.trace)).find((n) => n.kind === 'reason')
    expect(row).toMatchObject({ label: 'Planning', status: 'done' })
    expect(turnOf(s).problems).toEqual([])
  })

  it('reports THINKING_END without a start', () => {
    expect(problemCodes(fold(run({ type: 'THINKING_END' })))).toEqual(['end_without_start'])
  })
})

describe('AG-UI tool calls', () => {
  const parallel: Ev[] = [
    { type: 'RUN_STARTED', threadId: 'th1', runId: 'r1' },
    { type: 'TEXT_MESSAGE_END', messageId: 'msg_plan', content: 'On it.' },
    { type: 'STEP_STARTED', stepName: 'act' },
    { type: 'TOOL_CALL_START', toolCallId: 'c_cal', toolCallName: 'calendar.search', parentMessageId: 'msg_plan' },
    { type: 'TOOL_CALL_START', toolCallId: 'c_todo', toolCallName: 'todo.create', parentMessageId: 'msg_plan' },
    { type: 'TOOL_CALL_ARGS', toolCallId: 'c_cal', delta: '{"day":"2026-' },
    { type: 'TOOL_CALL_ARGS', toolCallId: 'c_todo', delta: '{"title":"Buy' },
  ]
  const rest: Ev[] = [
    { type: 'TOOL_CALL_ARGS', toolCallId: 'c_cal', delta: '03-16"}' },
    { type: 'TOOL_CALL_ARGS', toolCallId: 'c_todo', delta: ' milk"}' },
    { type: 'TOOL_CALL_END', toolCallId: 'c_todo' },
    { type: 'TOOL_CALL_END', toolCallId: 'c_cal' },
    { type: 'TOOL_CALL_RESULT', messageId: 'res_todo', toolCallId: 'c_todo', content: 'Created todo 123', ui_schema: { type: 'card', actions: [{ type: 'navigation', label: 'Edit', path: '/todo/123/edit', params: { from: 'chat' } }] } },
    { type: 'TOOL_CALL_RESULT', messageId: 'res_cal', toolCallId: 'c_cal', content: '{"events":2}' },
    { type: 'STEP_FINISHED', stepName: 'act' },
    { type: 'RUN_FINISHED', threadId: 'th1', runId: 'r1' },
  ]

  it('keeps several calls open at once, each under its parent message, with a partial parse while streaming', () => {
    const midway = fold(parallel)
    // The fold closes the turn at the end of this partial stream; the inputs are what the pieces said so far.
    expect(message(midway, 'c_cal').props).toMatchObject({ name: 'calendar.search', parentMessageId: 'msg_plan', inputText: '{"day":"2026-', input: { day: '2026-' } })
    expect(message(midway, 'c_todo').props).toMatchObject({ input: { title: 'Buy' } })

    const decoder = createAgUiDecoder({ turnId: 't', scope: 't' })
    for (const e of parallel) decoder.decode(e, {})
    expect(decoder.ended).toBe(false)

    const s = fold([...parallel, ...rest])
    expect(turnOf(s).messageIds).toEqual(['msg_plan', 'c_cal', 'c_todo'])
    expect(message(s, 'c_cal')).toMatchObject({
      type: 'tool', role: 'assistant', status: 'done',
      props: { toolCallId: 'c_cal', name: 'calendar.search', parentMessageId: 'msg_plan', input: { day: '2026-03-16' }, inputText: '{"day":"2026-03-16"}', state: 'output-available', output: { events: 2 }, resultContent: '{"events":2}', resultMessageId: 'res_cal' },
    })
    expect(message(s, 'c_todo').props).toMatchObject({
      input: { title: 'Buy milk' }, output: 'Created todo 123', state: 'output-available',
      uiSchema: { type: 'card', actions: [{ type: 'navigation', label: 'Edit', path: '/todo/123/edit', params: { from: 'chat' } }] },
      actions: [{ type: 'navigation', label: 'Edit', path: '/todo/123/edit', params: { from: 'chat' } }],
    })
    const step = turnOf(s).blockIds[0]!
    expect(s.blocks[step]).toMatchObject({ kind: 'step', label: 'act', status: 'done', messageIds: ['c_cal', 'c_todo'] })
    expect(traceRecord(s.trace)[step]).toMatchObject({ kind: 'step', label: 'act', status: 'done', childIds: ['tool:c_cal', 'tool:c_todo'] })
    expect(traceRecord(s.trace)['tool:c_todo']).toMatchObject({ kind: 'tool', tool: 'todo.create', label: 'todo.create', status: 'done', args: { title: 'Buy milk' }, result: 'Created todo 123' })
    expect(turnOf(s).problems).toEqual([])
  })

  it('writes the parsed arguments once per batch, never an edit per JSON value', () => {
    const ops = streamToOps([
      { type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'x' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '{"q":"wea' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: 'ther"}' },
    ], { protocol: 'ag-ui' })
    const inputOps = ops.filter((op) => op.op === 'message.delta' && op.path.startsWith('input') && op.path !== 'inputText')
    // TOOL_CALL_END is implied by the stream's end: the final value, once.
    expect(inputOps.map((op) => op.op === 'message.delta' && [op.action, op.path, op.value])).toEqual([['set', 'input', { q: 'weather' }]])
  })

  it('a read that ends mid-arguments shows them as far as they parsed, sharing what did not change', () => {
    const decoder = createAgUiDecoder({ turnId: 't1', scope: 't1' })
    decoder.decode({ type: 'RUN_STARTED', threadId: 'th1', runId: 'r1' }, {})
    decoder.decode({ type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'plan' }, {})
    const inputOf = (ops: ReturnType<typeof decoder.decode>) =>
      ops.flatMap((op) => (op.op === 'message.delta' && op.path === 'input' ? [op.value as { done: { a: number }; q: string }] : []))
    expect(decoder.decode({ type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '{"done":{"a":1},"q":"wea' }, {})
      .filter((op) => op.op === 'message.delta' && op.path === 'input')).toEqual([])
    const [first] = inputOf(decoder.flush!())
    expect(first).toEqual({ done: { a: 1 }, q: 'wea' })
    expect(decoder.flush!()).toEqual([])
    decoder.decode({ type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: 'ther' }, {})
    const [second] = inputOf(decoder.flush!())
    expect(second).toEqual({ done: { a: 1 }, q: 'weather' })
    decoder.decode({ type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '"}' }, {})
    expect(second!.done).toBe(first!.done)
    expect(Object.isFrozen(second)).toBe(true)
    // The end writes the finished value; a flush before it has nothing left.
    const end = decoder.decode({ type: 'TOOL_CALL_END', toolCallId: 'c1' }, {})
    expect(inputOf(end)).toEqual([{ done: { a: 1 }, q: 'weather' }])
  })

  it('arguments that never became whole JSON stay as far as they parsed', () => {
    const s = fold(run(
      { type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'x' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '{"q":"wea' },
      { type: 'TOOL_CALL_END', toolCallId: 'c1' },
    ))
    expect(message(s, 'c1').props.input).toEqual({ q: 'wea' })
    expect(problemCodes(s)).toEqual(['tool_arguments'])
  })

  it('a key that could reach a prototype, or nesting past the path limit, is left out of the arguments with one problem each', () => {
    const deep = '{"a":'.repeat(70) + '1' + '}'.repeat(70)
    const s = fold(run(
      { type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'x' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '{"__proto__":{"polluted":true},"ok":1,"deep":' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: deep.slice(0, 200) },
      { type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: deep.slice(200) + '' },
    ))
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    const input = message(s, 'c1').props.input as Record<string, unknown>
    expect(input.ok).toBe(1)
    expect(Object.prototype.hasOwnProperty.call(input, '__proto__')).toBe(false)
    let depth = 0
    for (let node = input.deep as Record<string, unknown> | undefined; node && typeof node === 'object'; node = node.a as Record<string, unknown>) depth++
    expect(depth).toBe(63)
    expect(problemCodes(s)).toEqual(['tool_arguments', 'too_deep', 'tool_arguments'])
  })

  it('TOOL_CALL_CHUNK starts, streams and ends a call implicitly', () => {
    const s = fold(run(
      { type: 'TOOL_CALL_CHUNK', toolCallId: 'c1', toolCallName: 'search', parentMessageId: 'm0', delta: '{"q":' },
      { type: 'TOOL_CALL_CHUNK', delta: '"ag-ui"}' },
      { type: 'TOOL_CALL_RESULT', messageId: 'r1', toolCallId: 'c1', content: 'found' },
    ))
    expect(message(s, 'c1').props).toMatchObject({ name: 'search', parentMessageId: 'm0', input: { q: 'ag-ui' }, output: 'found', state: 'output-available' })
  })

  it('reports a chunk that starts a call without an id', () => {
    expect(problemCodes(fold(run({ type: 'TOOL_CALL_CHUNK', toolCallName: 'x', delta: '{}' })))).toEqual(['missing_id'])
  })

  it('a result before its call is kept, and the call that follows never moves it back', () => {
    const s = fold(run(
      { type: 'TOOL_CALL_RESULT', messageId: 'r1', toolCallId: 'c1', content: 'done early' },
      { type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'late' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '{"a":1}' },
      { type: 'TOOL_CALL_END', toolCallId: 'c1' },
    ))
    expect(message(s, 'c1').props).toMatchObject({ name: 'late', input: { a: 1 }, output: 'done early', state: 'output-available' })
    expect(traceRecord(s.trace)['tool:c1']!.status).toBe('done')
    expect(turnOf(s).problems).toEqual([])
  })

  it('arguments before the call start are repaired, and an end without a start is reported', () => {
    const s = fold(run({ type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '{}' }, { type: 'TOOL_CALL_END', toolCallId: 'c1' }, { type: 'TOOL_CALL_END', toolCallId: 'nope' }))
    expect(message(s, 'c1').props).toMatchObject({ input: {}, state: 'input-available' })
    expect(problemCodes(s)).toEqual(['repaired', 'end_without_start'])
  })

  it('arguments that are not JSON are reported once and kept as text', () => {
    const s = fold(run(
      { type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'x' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '{"a": nope' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '}' },
      { type: 'TOOL_CALL_END', toolCallId: 'c1' },
    ))
    expect(message(s, 'c1').props.inputText).toBe('{"a": nope}')
    expect(problemCodes(s)).toEqual(['tool_arguments'])
  })

  it('a result with an error fails the call and its timeline row', () => {
    const s = fold(run(
      { type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'x' },
      { type: 'TOOL_CALL_END', toolCallId: 'c1' },
      { type: 'TOOL_CALL_RESULT', messageId: 'r1', toolCallId: 'c1', content: '', error: 'timed out' },
    ))
    expect(message(s, 'c1')).toMatchObject({ status: 'error', props: { state: 'output-error', errorText: 'timed out' } })
    expect(traceRecord(s.trace)['tool:c1']).toMatchObject({ status: 'error', resultDetail: 'timed out' })
  })

  it('drops navigation actions that fail the check, with a problem, and keeps the rest', () => {
    const s = fold(run(
      { type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'x' },
      { type: 'TOOL_CALL_END', toolCallId: 'c1' },
      {
        type: 'TOOL_CALL_RESULT', messageId: 'r1', toolCallId: 'c1', content: 'ok',
        ui_schema: {
          actions: [
            { type: 'navigation', label: 'Open', path: '/todo/7' },
            { type: 'navigation', label: 'Evil', path: 'https://evil.example/' },
            { type: 'navigation', label: 'Nested', path: '/todo/7', params: { filter: { a: 1 } } },
            { type: 'submit', label: 'Send' },
          ],
        },
      },
    ))
    const props = message(s, 'c1').props
    expect(props.actions).toEqual([
      { type: 'navigation', label: 'Open', path: '/todo/7', params: {} },
      { type: 'submit', label: 'Send' },
    ])
    expect((props.uiSchema as { actions: unknown[] }).actions).toEqual(props.actions)
    expect(problemCodes(s)).toEqual(['navigation', 'navigation'])
  })

  it('reads ui_schema from metadata or from JSON content, and tool_call_args as input', () => {
    const s = fold(run(
      { type: 'TOOL_CALL_RESULT', messageId: 'r1', toolCallId: 'c1', content: '{"id":3,"ui_schema":{"type":"card"}}' },
      { type: 'TOOL_CALL_RESULT', messageId: 'r2', toolCallId: 'c2', content: 'x', metadata: { ui_schema: { type: 'list' } }, tool_call_args: { q: 1 } },
    ))
    expect(message(s, 'c1').props.uiSchema).toEqual({ type: 'card' })
    expect(message(s, 'c2').props).toMatchObject({ uiSchema: { type: 'list' }, input: { q: 1 }, inputText: '{"q":1}' })
  })
})

describe('AG-UI shared state', () => {
  it('STATE_SNAPSHOT sets and STATE_DELTA patches the agent state', () => {
    const s = fold(run(
      { type: 'STATE_SNAPSHOT', snapshot: { todos: [], user: { name: 'Ada' } } },
      { type: 'STATE_DELTA', delta: [{ op: 'add', path: '/todos/-', value: { id: 1 } }, { op: 'replace', path: '/user/name', value: 'Grace' }] },
    ))
    expect(s.agentState).toEqual({ todos: [{ id: 1 }], user: { name: 'Grace' } })
  })

  it('an invalid patch becomes a problem and leaves the state exactly as it was', () => {
    const s = fold(run(
      { type: 'STATE_SNAPSHOT', snapshot: { count: 1, items: ['a'] } },
      // The first operation is valid: the patch applies all or nothing.
      { type: 'STATE_DELTA', delta: [{ op: 'replace', path: '/count', value: 2 }, { op: 'remove', path: '/missing/deep' }] },
      { type: 'STATE_DELTA', delta: [{ op: 'test', path: '/count', value: 99 }] },
      { type: 'STATE_DELTA', delta: { op: 'add' } },
    ))
    expect(s.agentState).toEqual({ count: 1, items: ['a'] })
    expect(problemCodes(s)).toEqual(['agentState.patch', 'agentState.patch', 'state_delta'])
  })

  it('a snapshot that is not an object is kept under "value"', () => {
    expect(fold(run({ type: 'STATE_SNAPSHOT', snapshot: [1, 2] })).agentState).toEqual({ value: [1, 2] })
  })
})

describe('AG-UI MESSAGES_SNAPSHOT', () => {
  it('merges by id: no second bubble, known messages updated in place, tool calls become tool messages', () => {
    const s = fold(run(
      { type: 'TEXT_MESSAGE_START', messageId: 'a1' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'a1', delta: 'Draft' },
      { type: 'TEXT_MESSAGE_END', messageId: 'a1' },
      {
        type: 'MESSAGES_SNAPSHOT',
        messages: [
          { id: 'u1', role: 'user', content: 'Plan my day' },
          {
            id: 'a1', role: 'assistant', content: 'Final text',
            toolCalls: [{ id: 'c1', type: 'function', function: { name: 'calendar.search', arguments: '{"day":"today"}' } }],
          },
          { id: 't1', role: 'tool', toolCallId: 'c1', content: '{"events":[]}', ui_schema: { type: 'list' } },
          { id: 'rz', role: 'reasoning', content: 'hmm' },
        ],
      },
      { type: 'MESSAGES_SNAPSHOT', messages: [{ id: 'a1', role: 'assistant', content: 'Final text' }] },
    ))
    expect(turnOf(s).messageIds).toEqual(['a1', 'u1', 'c1', 'rz'])
    expect(message(s, 'a1').props.content).toBe('Final text')
    expect(message(s, 'u1')).toMatchObject({ role: 'user', props: { content: 'Plan my day' } })
    expect(message(s, 'c1')).toMatchObject({
      type: 'tool',
      props: { toolCallId: 'c1', name: 'calendar.search', input: { day: 'today' }, parentMessageId: 'a1', output: { events: [] }, state: 'output-available', uiSchema: { type: 'list' }, resultMessageId: 't1' },
    })
    expect(message(s, 'rz').type).toBe('reasoning')
    expect(Object.keys(messageRecord(s.messages))).toHaveLength(4)
  })

  it('a snapshot never removes what it leaves out and never regresses a finished call', () => {
    const s = fold(run(
      { type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'x' },
      { type: 'TOOL_CALL_END', toolCallId: 'c1' },
      { type: 'TOOL_CALL_RESULT', messageId: 'r', toolCallId: 'c1', content: 'ok' },
      { type: 'TEXT_MESSAGE_END', messageId: 'only-here', content: 'kept' },
      { type: 'MESSAGES_SNAPSHOT', messages: [{ id: 'a', role: 'assistant', toolCalls: [{ id: 'c1', type: 'function', function: { name: 'x', arguments: '{}' } }] }] },
    ))
    expect(message(s, 'only-here').props.content).toBe('kept')
    expect(message(s, 'c1').props.state).toBe('output-available')
    // An assistant message that only carries tool calls has no bubble of its own.
    expect(messageIn(s.messages, 'a')).toBeUndefined()
  })

  it('content after a snapshot continues from the snapshot text', () => {
    const s = fold(run(
      { type: 'TEXT_MESSAGE_START', messageId: 'm1' },
      { type: 'MESSAGES_SNAPSHOT', messages: [{ id: 'm1', role: 'assistant', content: 'Hello' }] },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: ' world' },
      { type: 'TEXT_MESSAGE_END', messageId: 'm1' },
    ))
    expect(message(s, 'm1').props.content).toBe('Hello world')
  })

  it('skips the echo of the user message the runs flow sent, also in RUN_STARTED.input', () => {
    const echo = { id: agUiInputMessageId('turn-1'), role: 'user', content: 'Hi' }
    const s = fold([
      { type: 'RUN_STARTED', threadId: 'th1', runId: 'r1', input: { threadId: 'th1', runId: 'r1', messages: [echo, { id: 'old', role: 'user', content: 'Earlier' }] } },
      { type: 'MESSAGES_SNAPSHOT', messages: [echo] },
      { type: 'RUN_FINISHED', threadId: 'th1', runId: 'r1' },
    ])
    expect(Object.keys(messageRecord(s.messages))).toEqual(['old'])
  })

  it('reports messages it cannot read and keeps unknown roles as text', () => {
    const s = fold(run({ type: 'MESSAGES_SNAPSHOT', messages: [{ role: 'user' }, 'x', { id: 'n', role: 'narrator', content: 'Once' }] }))
    expect(message(s, 'n').props).toMatchObject({ content: 'Once', sourceRole: 'narrator' })
    expect(problemCodes(s)).toEqual(['message', 'message', 'message'])
  })
})

describe('AG-UI sub-agents', () => {
  it('each sub-agent run is a thread and a delegate row; its events land in its thread', () => {
    const s = fold(run(
      { type: 'STEP_STARTED', stepName: 'research' },
      { type: 'TOOL_CALL_START', toolCallId: 'c_delegate', toolCallName: 'delegate' },
      { type: 'SUBAGENT_STARTED', subagentRunId: 'sa1', name: 'web', parentToolCallId: 'c_delegate', description: 'Searches' },
      { type: 'SUBAGENT_STARTED', subagentRunId: 'sa2', name: 'docs' },
      { type: 'TEXT_MESSAGE_START', messageId: 'm_web', subagentRunId: 'sa1' },
      { type: 'TEXT_MESSAGE_END', messageId: 'm_web', subagentRunId: 'sa1', content: 'found it' },
      { type: 'STEP_STARTED', stepName: 'read', subagentRunId: 'sa2' },
      { type: 'STEP_FINISHED', stepName: 'read', subagentRunId: 'sa2' },
      { type: 'SUBAGENT_FINISHED', subagentRunId: 'sa1', result: { n: 1 } },
      { type: 'SUBAGENT_ERROR', subagentRunId: 'sa2', message: 'unreachable', code: 'E1' },
      { type: 'SUBAGENT_FINISHED', subagentRunId: 'sa3' },
      { type: 'STEP_FINISHED', stepName: 'research' },
    ))
    expect(s.threads.sa1).toMatchObject({ label: 'web', status: 'done', messageIds: ['m_web'] })
    expect(s.threads.sa2).toMatchObject({ label: 'docs', status: 'error' })
    expect(message(s, 'm_web')).toMatchObject({ threadId: 'sa1', props: { content: 'found it' } })
    expect(traceRecord(s.trace)['delegate:sa1']).toMatchObject({ kind: 'delegate', label: 'web', status: 'done', result: { n: 1 }, actor: { id: 'sa1', kind: 'subagent', name: 'web' }, parentId: 'tool:c_delegate' })
    expect(traceRecord(s.trace)['delegate:sa2']).toMatchObject({ status: 'error', resultDetail: 'unreachable', detail: { code: 'E1' } })
    expect(traceRecord(s.trace)['delegate:sa2']!.childIds).toHaveLength(1)
    const step = turnOf(s).blockIds[0]!
    expect(s.blocks[step]!.threadIds).toEqual(['sa1', 'sa2'])
    expect(problemCodes(s)).toEqual(['end_without_start'])
  })

  it('a suspended sub-agent stays open', () => {
    const s = foldStream([
      { type: 'SUBAGENT_STARTED', subagentRunId: 'sa1', name: 'w' },
      { type: 'SUBAGENT_FINISHED', subagentRunId: 'sa1', outcome: { type: 'suspended', interruptIds: ['i1'] } },
    ], { protocol: 'ag-ui' })
    expect(traceRecord(s.trace)['delegate:sa1']!.resultDetail).toEqual({ type: 'suspended', interruptIds: ['i1'] })
  })
})

describe('AG-UI steps', () => {
  it('steps are blocks and timeline rows; nested steps nest; an unknown finish is reported', () => {
    const s = fold(run(
      { type: 'STEP_STARTED', stepName: 'outer' },
      { type: 'STEP_STARTED', stepName: 'inner' },
      { type: 'TEXT_MESSAGE_END', messageId: 'm1', content: 'x' },
      { type: 'STEP_FINISHED', stepName: 'inner' },
      { type: 'STEP_FINISHED', stepName: 'outer' },
      { type: 'STEP_FINISHED', stepName: 'never' },
    ))
    const [outer, inner] = turnOf(s).blockIds
    expect(s.blocks[outer!]).toMatchObject({ kind: 'step', label: 'outer', status: 'done' })
    expect(s.blocks[inner!]).toMatchObject({ label: 'inner', messageIds: ['m1'] })
    expect(traceRecord(s.trace)[outer!]!.childIds).toEqual([inner])
    expect(problemCodes(s)).toEqual(['end_without_start'])
  })
})

describe('AG-UI activity, raw and custom events', () => {
  it('ACTIVITY_SNAPSHOT and ACTIVITY_DELTA keep an activity message', () => {
    const s = fold(run(
      { type: 'ACTIVITY_SNAPSHOT', messageId: 'act1', activityType: 'PLAN', content: { steps: ['a'] } },
      { type: 'ACTIVITY_DELTA', messageId: 'act1', activityType: 'PLAN', patch: [{ op: 'add', path: '/steps/-', value: 'b' }] },
      { type: 'ACTIVITY_DELTA', messageId: 'act1', activityType: 'PLAN', patch: [{ op: 'remove', path: '/nope' }] },
      { type: 'ACTIVITY_SNAPSHOT', messageId: 'act1', activityType: 'PLAN', content: { steps: [] }, replace: false },
      { type: 'ACTIVITY_DELTA', messageId: 'unknown', activityType: 'PLAN', patch: [] },
    ))
    expect(message(s, 'act1')).toMatchObject({ type: 'activity', props: { activityType: 'PLAN', content: { steps: ['a', 'b'] } } })
    expect(problemCodes(s)).toEqual(['activity_delta', 'activity_delta'])
  })

  it('RAW goes to the host as a data part and the latest are kept on the turn', () => {
    const parts: DataPart[] = []
    const s = foldStream(run(
      { type: 'RAW', event: { vendor: 1 }, source: 'openai' },
      { type: 'RAW', event: { vendor: 2 } },
    ), { protocol: 'ag-ui', onData: (part) => parts.push(part) })
    expect(parts).toEqual([{ type: 'raw', data: { event: { vendor: 1 }, source: 'openai' } }, { type: 'raw', data: { event: { vendor: 2 } } }])
    expect(turnOf(s).metadata.rawEvents).toEqual(parts.map((p) => p.data))
  })

  it('CUSTOM becomes a data-<name> message; with an id in its value a later one replaces it', () => {
    const s = fold(run(
      { type: 'CUSTOM', name: 'progress', value: { id: 'p', done: 1 } },
      { type: 'CUSTOM', name: 'progress', value: { id: 'p', done: 2 } },
      { type: 'CUSTOM', name: 'note', value: 'hello' },
      { type: 'CUSTOM', value: 1 },
    ))
    const data = turnOf(s).messageIds.map((id) => messageIn(s.messages, id)!)
    expect(data.map((m) => [m.type, m.props.data])).toEqual([['data-progress', { id: 'p', done: 2 }], ['data-note', 'hello']])
    expect(messageList(s.messages)).toHaveLength(2)
    expect(problemCodes(s)).toEqual(['missing_name'])
  })
})

describe('AG-UI bad input', () => {
  it('unknown types, missing types and non-objects become problems; nothing throws', () => {
    const decoder = createAgUiDecoder({ turnId: 't', scope: 't' })
    expect(decoder.decode({ type: 'TELEPORT' }, {})[0]).toMatchObject({ op: 'problem', error: { code: 'unknown_event' } })
    expect(decoder.decode({ foo: 1 }, {})[0]).toMatchObject({ op: 'problem', error: { code: 'missing_type' } })
    expect(decoder.decode('nope', {})[0]).toMatchObject({ op: 'problem' })
    expect(decoder.decode(null, {})[0]).toMatchObject({ op: 'problem' })
  })

  it('survives every event type with garbage fields, keeping what was folded', () => {
    const garbage = [null, 1, 'x', [], {}, { a: { b: [] } }, true]
    const events: Ev[] = [{ type: 'TEXT_MESSAGE_END', messageId: 'keep', content: 'kept' }]
    let n = 0
    for (const type of AG_UI_EVENT_TYPES) {
      for (const value of garbage) {
        n += 1
        events.push({ type, messageId: value, toolCallId: value, delta: value, content: value, snapshot: value, messages: value, patch: value, outcome: value, interrupts: value, subagentRunId: n % 3 ? value : undefined, name: value, value, usage: value })
      }
    }
    let s: AgentState | undefined
    expect(() => (s = fold(events))).not.toThrow()
    expect(message(s!, 'keep').props.content).toBe('kept')
  })
})

describe('AG-UI detection and frames', () => {
  it('sniffs an event: line (1) or a type field (0.9)', () => {
    expect(sniffAgUi({ meta: { event: 'RUN_STARTED' }, first: {} })).toBe(1)
    expect(sniffAgUi({ first: { type: 'STATE_SNAPSHOT', snapshot: {} } })).toBe(0.9)
    expect(sniffAgUi({ first: { type: 'text-delta' } })).toBe(0)
    expect(sniffAgUi({ meta: { event: 'message' }, first: { type: 'response_delta' } })).toBe(0)
  })

  it('detects AG-UI from SSE with id: and event: lines, and reads the type from the event line when data has none', () => {
    const text = [
      'id: 1\nevent: RUN_STARTED\ndata: {"threadId":"th1","runId":"r1"}\n\n',
      'id: 2\nevent: TEXT_MESSAGE_END\ndata: {"type":"TEXT_MESSAGE_END","messageId":"m1","content":"Hi"}\n\n',
      'id: 3\nevent: RUN_FINISHED\ndata: {"threadId":"th1","runId":"r1"}\n\n',
    ].join('')
    const s = foldStream(text)
    expect(turnOf(s)).toMatchObject({ protocol: 'ag-ui', runId: 'r1', status: 'done' })
    expect(message(s, 'm1').props.content).toBe('Hi')
  })
})

describe('AG-UI replays', () => {
  it('folding the same run again updates in place: no second bubble, no doubled text', () => {
    const events = run(
      { type: 'TEXT_MESSAGE_START', messageId: 'm1' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'Hel' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'lo' },
      { type: 'TEXT_MESSAGE_END', messageId: 'm1' },
      { type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'x' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '{"a":[1,' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '2]}' },
      { type: 'TOOL_CALL_END', toolCallId: 'c1' },
      { type: 'TOOL_CALL_RESULT', messageId: 'r', toolCallId: 'c1', content: 'ok' },
    )
    const once = fold(events)
    const twice = foldStream(events, { protocol: 'ag-ui', state: once, turnId: 'turn-2' })
    expect(Object.keys(messageRecord(twice.messages)).sort()).toEqual(['c1', 'm1'])
    expect(messageIn(twice.messages, 'm1')).toEqual(messageIn(once.messages, 'm1'))
    expect(messageIn(twice.messages, 'c1')).toEqual(messageIn(once.messages, 'c1'))
    expect(twice.turns['turn-2']!.messageIds).toEqual([])
  })
})

describe('AG-UI mock scenarios', () => {
  const sse = (name: string) => findScenario('ag-ui', name)!.frames.map((f) => encodeFrame(f)).join('')

  it('every frame has an id: and an event: line naming its type', () => {
    for (const name of ['run', 'interrupt', 'subagents']) {
      for (const frame of findScenario('ag-ui', name)!.frames) {
        expect(frame.id).toMatch(/\S/)
        expect(frame.event).toBe((frame.data as Ev).type)
      }
    }
  })

  it('"run" folds into steps, two parallel tool calls with ui_schema and state', () => {
    const s = foldStream(sse('run'))
    expect(turnOf(s)).toMatchObject({ protocol: 'ag-ui', status: 'done', runId: 'run_1', threadId: 'thread_demo' })
    expect(turnOf(s).messageIds).toEqual(['msg_plan', 'call_calendar', 'call_todo', 'msg_answer'])
    expect(message(s, 'msg_answer').props.content).toMatch(/^You have 2 events/)
    expect(message(s, 'call_todo').props.actions).toEqual([{ type: 'navigation', label: 'Edit', path: '/todo/123/edit', params: { from: 'chat' } }])
    expect(s.agentState).toEqual({ todos: [{ id: 123, title: 'Buy milk' }], calendar: { day: '2026-03-16', events: 2 } })
    // The one refused action: `/todo/{id}/share`.
    expect(problemCodes(s)).toEqual(['navigation'])
  })

  it('"interrupt" ends with a pending gate on the tool call', () => {
    const s = foldStream(sse('interrupt'))
    expect(s.gates.int_delete).toMatchObject({ status: 'pending', toolCallId: 'call_delete' })
    expect(message(s, 'call_delete').props.state).toBe('approval-requested')
  })

  it('"subagents" folds into two threads, one failed', () => {
    const s = foldStream(sse('subagents'))
    expect(s.threads.sub_web!.status).toBe('done')
    expect(s.threads.sub_docs!.status).toBe('error')
    expect(message(s, 'msg_web').props.content).toBe('Searching for release notes.')
    expect(message(s, 'call_web').props).toMatchObject({ input: { q: 'weft 1.0 release' }, output: [{ title: 'weft 1.0 is out' }] })
    expect(message(s, 'rm_1').props.content).toBe('Two sources: the web and the team docs. Ask both at once.')
    expect(messageList(s.messages).some((m) => m.type === 'data-suggestions')).toBe(true)
    expect(turnOf(s).problems).toEqual([])
  })
})
