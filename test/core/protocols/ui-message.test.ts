import { describe, expect, it } from 'vitest'
import { createUIMessageDecoder, UI_MESSAGE_CHUNK_TYPES } from '../../../src/protocols/ui-message/decoder'
import { uiMessageProtocol } from '../../../src/protocols/ui-message/index'
import { detectProtocol } from '../../../src/core/protocol/detect'
import { builtInProtocols as protocols } from '../../../src/protocols/index'
import type { DataPart } from '../../../src/core/protocol/types'
import { fold } from '../../../src/core/fold/fold'
import { STREAM_TRUNCATED } from '../../../src/core/model/errors'
import { foldStream } from '../../../src/umbrella/defaults'
import { emptyState, type AgentState, type Message } from '../../../src/core/model/model'
import type { Op } from '../../../src/core/model/ops'
import { messageIn } from '../../../src/core/model/message-table'
import { traceRecord } from '../../../src/core/model/trace-table'
import { timeline } from '../../helpers/timeline'

type Chunk = Record<string, unknown>

const TURN = 'turn-1'

function run(chunks: readonly Chunk[], onData?: (part: DataPart) => void): AgentState {
  return foldStream(chunks, { protocol: 'ui-message', onData })
}

/** Decode and fold without ending the stream, to look at a state mid-stream. */
function live(chunks: readonly Chunk[]) {
  const decoder = createUIMessageDecoder({ turnId: TURN, scope: TURN })
  const ops: Op[] = [{ op: 'turn.open', turnId: TURN, role: 'assistant' }]
  for (const chunk of chunks) ops.push(...decoder.decode(chunk, {}))
  // The stream is still open: what a network read's end writes (a tool's input so far).
  ops.push(...(decoder.flush?.() ?? []))
  return { state: fold(emptyState(), ops), decoder, ops }
}

const messages = (state: AgentState, turnId = TURN): Message[] =>
  state.turns[turnId]!.messageIds.map((id) => messageIn(state.messages, id)!)
const ofType = (state: AgentState, type: string) => messages(state).filter((m) => m.type === type)
// These fragments stop short of the stream's end; that rule has its own tests (truncated-stream.test.ts).
const problems = (state: AgentState) => state.turns[TURN]!.problems.filter((p) => p.code !== STREAM_TRUNCATED)
const codes = (state: AgentState) => problems(state).map((p) => p.code)
const toolOf = (state: AgentState, toolCallId: string) => ofType(state, 'tool').find((m) => m.props.toolCallId === toolCallId)!
const text = (id: string, ...deltas: string[]): Chunk[] => [
  { type: 'text-start', id }, ...deltas.map((delta) => ({ type: 'text-delta', id, delta })), { type: 'text-end', id },
]

describe('lifecycle chunks', () => {
  it('start puts messageId and messageMetadata into the turn metadata; message-metadata merges', () => {
    const state = run([
      { type: 'start', messageId: 'msg_1', messageMetadata: { model: 'm1', createdAt: 5 } },
      { type: 'message-metadata', messageMetadata: { totalTokens: 12 } },
      { type: 'finish' },
    ])
    expect(state.turns[TURN]!.metadata).toEqual({ messageId: 'msg_1', model: 'm1', createdAt: 5, totalTokens: 12 })
  })

  it('metadata merges deeply, as the AI SDK merges it', () => {
    const state = run([
      { type: 'start', messageMetadata: { usage: { input: 10 }, tags: ['a'] } },
      { type: 'message-metadata', messageMetadata: { usage: { output: 5 }, tags: ['b'] } },
      { type: 'finish', messageMetadata: { usage: { input: 11 } } },
    ])
    expect(state.turns[TURN]!.metadata).toEqual({ usage: { input: 11, output: 5 }, tags: ['b'] })
  })

  it('metadata that is not an object is a problem', () => {
    const state = run([{ type: 'message-metadata', messageMetadata: 'nope' }, { type: 'message-metadata' }])
    expect(codes(state)).toEqual(['invalid', 'invalid'])
  })

  it('finish ends the turn with its finishReason and metadata, and marks the decoder ended', () => {
    const { state, decoder } = live([{ type: 'start' }, ...text('a', 'Hi'), { type: 'finish', finishReason: 'stop', messageMetadata: { t: 1 } }])
    expect(decoder.ended).toBe(true)
    expect(state.turns[TURN]).toMatchObject({ status: 'done', finishReason: 'stop', metadata: { t: 1 } })
    expect(decoder.end('done').some((op) => op.op === 'turn.finish')).toBe(false)
  })

  it('[DONE] finishes the turn when finish never came, and closes what is open', () => {
    const state = foldStream('data: {"type":"text-start","id":"a"}\n\ndata: {"type":"text-delta","id":"a","delta":"Hi"}\n\ndata: [DONE]\n\n')
    expect(state.turns[TURN]!.status).toBe('done')
    expect(messages(state)[0]).toMatchObject({ type: 'text', status: 'done', props: { content: 'Hi' } })
  })

  it('a decoder that saw no terminal chunk is not ended, and end() finishes the turn', () => {
    const decoder = createUIMessageDecoder({ turnId: TURN, scope: TURN })
    decoder.decode({ type: 'text-start', id: 'a' }, {})
    expect(decoder.ended).toBe(false)
    expect(decoder.end('done')).toContainEqual({ op: 'turn.finish', turnId: TURN, status: 'done' })
    expect(decoder.ended).toBe(true)
  })

  it('abort ends the turn as aborted with its reason', () => {
    const state = run([...text('a', 'Hal'), { type: 'abort', reason: 'user stopped' }])
    expect(state.turns[TURN]).toMatchObject({ status: 'aborted', metadata: { abortReason: 'user stopped' } })
    expect(messages(state)[0]!.props.content).toBe('Hal')
  })

  it('error carries errorType and errorCode into a typed error and ends the turn', () => {
    const state = run([
      { type: 'text-start', id: 'a' },
      { type: 'text-delta', id: 'a', delta: 'partial' },
      { type: 'error', errorText: 'API rate limit exceeded', errorType: 'llm', errorCode: 'rate_limit' },
    ])
    expect(state.turns[TURN]!.status).toBe('error')
    expect(state.turns[TURN]!.error).toEqual({ type: 'llm', message: 'API rate limit exceeded', code: 'rate_limit', retryable: false })
    expect(messages(state)[0]).toMatchObject({ status: 'done', props: { content: 'partial' } })
  })

  it.each([
    [{ errorType: 'rate_limit' }, 'rate_limit', true],
    [{ errorType: 'timeout' }, 'timeout', true],
    [{ errorType: 'authentication' }, 'authentication', false],
    [{ errorType: 'made-up' }, 'unknown', false],
    [{ errorCode: 'network' }, 'network', true],
    [{}, 'unknown', false],
  ])('error %j → type %s', (fields, type, retryable) => {
    const state = run([{ type: 'error', errorText: 'x', ...fields }])
    expect(state.turns[TURN]!.error).toMatchObject({ type, retryable })
  })

  it('a finish after an error keeps the error and records the reason', () => {
    const state = run([{ type: 'error', errorText: 'boom', errorType: 'internal' }, { type: 'finish', finishReason: 'error' }])
    expect(state.turns[TURN]).toMatchObject({ status: 'error', finishReason: 'error', error: { type: 'internal' } })
  })

  it('an error after finish is kept as a problem', () => {
    const state = run([{ type: 'finish' }, { type: 'error', errorText: 'late', errorType: 'network' }])
    expect(state.turns[TURN]!.status).toBe('done')
    expect(problems(state)).toContainEqual(expect.objectContaining({ type: 'network', message: 'late' }))
  })
})

describe('steps', () => {
  it('start-step and finish-step make step blocks and timeline rows holding their messages', () => {
    const state = run([
      { type: 'start-step' }, ...text('a', 'one'), { type: 'finish-step' },
      { type: 'start-step' }, ...text('b', 'two'), { type: 'finish-step' },
      { type: 'finish' },
    ])
    const turn = state.turns[TURN]!
    const blocks = turn.blockIds.map((id) => state.blocks[id]!)
    expect(blocks.map((b) => [b.kind, b.label, b.status])).toEqual([['step', 'Step 1', 'done'], ['step', 'Step 2', 'done']])
    expect(blocks.map((b) => b.messageIds.map((id) => messageIn(state.messages, id)!.props.content))).toEqual([['one'], ['two']])
    expect(turn.traceRootIds.map((id) => traceRecord(state.trace)[id]!)).toMatchObject([
      { kind: 'step', label: 'Step 1', status: 'done' }, { kind: 'step', label: 'Step 2', status: 'done' },
    ])
  })

  it('finish-step closes the text parts still open; the same id afterwards is a new part', () => {
    const state = run([
      { type: 'start-step' }, { type: 'text-start', id: '0' }, { type: 'text-delta', id: '0', delta: 'A' }, { type: 'finish-step' },
      { type: 'start-step' }, ...text('0', 'B'), { type: 'finish-step' },
    ])
    expect(ofType(state, 'text').map((m) => [m.props.content, m.status])).toEqual([['A', 'done'], ['B', 'done']])
    expect(problems(state)).toEqual([])
  })

  it('finish-step without a step is a problem', () => {
    expect(codes(run([{ type: 'finish-step' }]))).toEqual(['invalid'])
  })

  it('reset-step drops what the step added, messages and timeline rows, and the step goes on', () => {
    const state = run([
      { type: 'start-step' }, ...text('a', 'kept'), { type: 'finish-step' },
      { type: 'start-step' },
      ...text('b', 'dropped'),
      { type: 'reasoning-start', id: 'r' }, { type: 'reasoning-delta', id: 'r', delta: 'dropped too' },
      { type: 'tool-input-start', toolCallId: 'c1', toolName: 'search' },
      { type: 'data-thinking-step', data: { id: 'th', title: 'Searching', status: 'in_progress' } },
      { type: 'data-chart', id: 'c', data: { v: 1 } },
      { type: 'reset-step' },
      ...text('b', 'retried'),
      { type: 'tool-input-start', toolCallId: 'c2', toolName: 'search' },
      { type: 'finish-step' },
      { type: 'finish' },
    ])
    const all = messages(state)
    expect(all.map((m) => m.props.content ?? m.props.toolCallId)).toEqual(['kept', 'retried', 'c2'])
    const step2 = traceRecord(state.trace)[state.turns[TURN]!.traceRootIds[1]!]!
    expect(step2.childIds.map((id) => traceRecord(state.trace)[id]!.tool ?? traceRecord(state.trace)[id]!.kind)).toEqual(['search'])
    expect(traceRecord(state.trace)[step2.childIds[0]!]!.id).toContain('c2')
    expect(timeline(state).some((n) => n.label === 'Searching')).toBe(false)
    expect(problems(state)).toEqual([])
  })

  it('reset-step without a step is a problem', () => {
    expect(codes(run([{ type: 'reset-step' }]))).toEqual(['invalid'])
  })
})

describe('text and reasoning', () => {
  it('text parts stream by id, interleaved, and end as done', () => {
    const { state } = live([
      { type: 'text-start', id: 'a' }, { type: 'text-start', id: 'b' },
      { type: 'text-delta', id: 'a', delta: 'Hel' }, { type: 'text-delta', id: 'b', delta: 'Wor' },
      { type: 'text-delta', id: 'a', delta: 'lo' }, { type: 'text-end', id: 'a' },
      { type: 'text-delta', id: 'b', delta: 'ld' },
    ])
    expect(messages(state).map((m) => [m.props.content, m.status])).toEqual([['Hello', 'done'], ['World', 'streaming']])
  })

  it('an id started again after its end is a second message', () => {
    const state = run([...text('a', 'one'), ...text('a', 'two')])
    expect(ofType(state, 'text').map((m) => m.props.content)).toEqual(['one', 'two'])
  })

  it('ids are scoped per stream, so a second answer never merges into the first', () => {
    const first = foldStream(text('text_1', 'first answer'), { protocol: 'ui-message', turnId: 'turn-a' })
    const both = foldStream(text('text_1', 'second answer'), { protocol: 'ui-message', turnId: 'turn-b', state: first })
    expect(messages(both, 'turn-a').map((m) => m.props.content)).toEqual(['first answer'])
    expect(messages(both, 'turn-b').map((m) => m.props.content)).toEqual(['second answer'])
  })

  it('reasoning parts become reasoning messages and reasoning rows on the timeline', () => {
    const state = run([
      { type: 'start-step' },
      { type: 'reasoning-start', id: 'r' }, { type: 'reasoning-delta', id: 'r', delta: 'Let me ' },
      { type: 'reasoning-delta', id: 'r', delta: 'think.' }, { type: 'reasoning-end', id: 'r' },
      { type: 'finish-step' },
    ])
    expect(ofType(state, 'reasoning')).toMatchObject([{ props: { content: 'Let me think.' }, status: 'done' }])
    const step = traceRecord(state.trace)[state.turns[TURN]!.traceRootIds[0]!]!
    expect(step.childIds.map((id) => traceRecord(state.trace)[id])).toMatchObject([{ kind: 'reason', label: 'Reasoning', status: 'done' }])
  })

  it('a delta before its start creates the part (a repair) and says so', () => {
    const state = run([
      { type: 'text-delta', id: 'a', delta: 'early' }, { type: 'text-end', id: 'a' },
      { type: 'reasoning-delta', id: 'r', delta: 'hmm' },
    ])
    expect(messages(state).map((m) => [m.type, m.props.content])).toEqual([['text', 'early'], ['reasoning', 'hmm']])
    expect(codes(state)).toEqual(['repaired', 'repaired'])
  })

  it.each([
    [{ type: 'text-delta', delta: 'x' }, 'missing_id'],
    [{ type: 'reasoning-start' }, 'missing_id'],
    [{ type: 'text-delta', id: 'a', delta: 5 }, 'invalid'],
    [{ type: 'text-end', id: 'never' }, 'invalid'],
    [{ type: 'reasoning-end', id: 'never' }, 'invalid'],
  ])('%j is a problem', (chunk, code) => {
    expect(codes(run([chunk]))).toEqual([code])
  })

  it('<think> at the start of a text part becomes reasoning before the answer', () => {
    const state = run(text('a', '<think>\nplan it\n</think>\n\nThe answer.'))
    expect(messages(state).map((m) => [m.type, m.props.content])).toEqual([['reasoning', 'plan it'], ['text', 'The answer.']])
    expect(timeline(state)).toMatchObject([{ kind: 'reason', status: 'done' }])
  })

  it('<think> in the middle splits the text in order', () => {
    const state = run(text('a', 'Intro. <think>aside</think> Outro.'))
    expect(messages(state).map((m) => [m.type, m.props.content])).toEqual([
      ['text', 'Intro.'], ['reasoning', 'aside'], ['text', 'Outro.'],
    ])
  })

  it('a </think> with no opening tag turns what came before into reasoning', () => {
    const state = run(text('a', 'I should be brief.', '</think>', 'Hello!'))
    expect(messages(state).map((m) => [m.type, m.props.content])).toEqual([['reasoning', 'I should be brief.'], ['text', 'Hello!']])
  })

  it('text that only looks like a tag is kept', () => {
    const state = run(text('a', '1 < 2 and <b>bold</b> and <thin', 'king> and a cut <thi'))
    expect(ofType(state, 'text').map((m) => m.props.content)).toEqual(['1 < 2 and <b>bold</b> and <thinking> and a cut <thi'])
  })

  it('a stream over without its end releases what it held for a tag, closing nothing', () => {
    const decoder = createUIMessageDecoder({ turnId: TURN, scope: TURN })
    const ops: Op[] = [{ op: 'turn.open', turnId: TURN, role: 'assistant' }]
    for (const chunk of [{ type: 'text-start', id: 'a' }, { type: 'text-delta', id: 'a', delta: 'Cut at <thi' }]) ops.push(...decoder.decode(chunk, {}))
    const held = fold(emptyState(), ops)
    expect(ofType(held, 'text').map((m) => m.props.content)).toEqual(['Cut at'])
    const released = fold(held, decoder.release!())
    expect(ofType(released, 'text').map((m) => [m.props.content, m.status])).toEqual([['Cut at <thi', 'streaming']])
  })

  it('inside <think>, another <think> is just text', () => {
    const state = run(text('a', '<think>a <think> b</think>c'))
    expect(messages(state).map((m) => [m.type, m.props.content])).toEqual([['reasoning', 'a <think> b'], ['text', 'c']])
  })
})

describe('tool calls', () => {
  const start = { type: 'tool-input-start', toolCallId: 'c1', toolName: 'search', title: 'Search the web' }

  it('streams its input, parsed after every delta, then takes the final input', () => {
    const deltas = ['{"query":"vec', 'tor db","limit":', '5,"tags":["a"', ']}']
    const seen: unknown[] = []
    for (let n = 1; n <= deltas.length; n++) {
      const { state } = live([start, ...deltas.slice(0, n).map((d) => ({ type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: d }))])
      seen.push(toolOf(state, 'c1').props.input)
      expect(toolOf(state, 'c1').props).toMatchObject({ state: 'input-streaming', inputText: deltas.slice(0, n).join('') })
    }
    expect(seen).toEqual([{ query: 'vec' }, { query: 'vector db' }, { query: 'vector db', limit: 5, tags: ['a'] }, { query: 'vector db', limit: 5, tags: ['a'] }])
    const state = run([start, { type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: '{"query":"v' },
      { type: 'tool-input-available', toolCallId: 'c1', toolName: 'search', input: { query: 'vector db' } }])
    expect(toolOf(state, 'c1').props).toMatchObject({
      toolCallId: 'c1', name: 'search', title: 'Search the web', state: 'input-available', input: { query: 'vector db' }, inputText: '{"query":"v',
    })
    expect(timeline(state)).toMatchObject([{ kind: 'tool', tool: 'search', label: 'Search the web', args: { query: 'vector db' } }])
  })

  it('writes the parsed input once per batch, never an edit per JSON value', () => {
    const deltas = ['{"query":"vec', 'tor db","limit":', '5,"tags":["a"', ']}']
    const { ops } = live([start, ...deltas.map((d) => ({ type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: d }))])
    const writes = ops.filter((op) => op.op === 'message.delta' && op.path.startsWith('input') && op.path !== 'inputText')
    expect(writes.map((op) => op.op === 'message.delta' && [op.action, op.path, op.value]))
      .toEqual([['set', 'input', { query: 'vector db', limit: 5, tags: ['a'] }]])
  })

  it('an input sent whole gets its inputText', () => {
    const state = run([{ type: 'tool-input-available', toolCallId: 'c1', toolName: 'search', input: { q: 1 } }])
    expect(toolOf(state, 'c1').props).toMatchObject({ state: 'input-available', input: { q: 1 }, inputText: '{"q":1}' })
    expect(problems(state)).toEqual([])
  })

  it('a text-encoded input is a plain string', () => {
    const state = run([
      { type: 'tool-input-start', toolCallId: 'c1', toolName: 'shell', inputEncoding: 'text' },
      { type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: 'ls ' },
      { type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: '-la' },
    ])
    expect(toolOf(state, 'c1').props).toMatchObject({ input: 'ls -la', inputText: 'ls -la' })
  })

  it('preliminary output, then the final one', () => {
    const first = live([start, { type: 'tool-output-available', toolCallId: 'c1', output: { step: 1 }, preliminary: true }]).state
    expect(toolOf(first, 'c1').props).toMatchObject({ state: 'output-available', output: { step: 1 }, preliminary: true })
    expect(timeline(first)[0]).toMatchObject({ status: 'progress', result: { step: 1 } })
    const final = run([start, { type: 'tool-output-available', toolCallId: 'c1', output: { step: 1 }, preliminary: true },
      { type: 'tool-output-available', toolCallId: 'c1', output: { done: true } }])
    expect(toolOf(final, 'c1').props).toMatchObject({ state: 'output-available', output: { done: true }, preliminary: false })
    expect(timeline(final)[0]).toMatchObject({ status: 'done', result: { done: true } })
  })

  it('tool-output-error fails the call and its timeline row', () => {
    const state = run([start, { type: 'tool-output-error', toolCallId: 'c1', errorText: 'timed out' }])
    expect(toolOf(state, 'c1').props).toMatchObject({ state: 'output-error', errorText: 'timed out' })
    expect(timeline(state)[0]).toMatchObject({ kind: 'tool', status: 'error', text: 'timed out' })
  })

  it('tool-input-error fails the call with the input the model sent', () => {
    const state = run([start, { type: 'tool-input-error', toolCallId: 'c1', toolName: 'search', input: { wrong: 1 }, errorText: 'invalid input' }])
    expect(toolOf(state, 'c1').props).toMatchObject({ state: 'output-error', input: { wrong: 1 }, errorText: 'invalid input' })
    expect(timeline(state)[0]).toMatchObject({ status: 'error', text: 'invalid input' })
  })

  it('an approval request opens a gate; the response resolves it and sets the tool state', () => {
    const base = [start, { type: 'tool-input-available', toolCallId: 'c1', toolName: 'search', input: {} },
      { type: 'tool-approval-request', approvalId: 'ap1', toolCallId: 'c1', reason: 'Spends money' }]
    const asked = live(base).state
    const gate = Object.values(asked.gates)[0]!
    expect(gate).toMatchObject({
      kind: 'tool-approval', toolCallId: 'c1', status: 'pending', question: 'Spends money',
      payload: { approvalId: 'ap1', toolCallId: 'c1', toolName: 'search' },
    })
    expect(asked.turns[TURN]!.gateIds).toEqual([gate.id])
    expect(toolOf(asked, 'c1').props).toMatchObject({ state: 'approval-requested', approval: { id: 'ap1', reason: 'Spends money' } })

    const yes = live([...base, { type: 'tool-approval-response', approvalId: 'ap1', approved: true }]).state
    expect(Object.values(yes.gates)[0]).toMatchObject({ status: 'approved', response: { approved: true } })
    expect(toolOf(yes, 'c1').props).toMatchObject({ state: 'approval-responded', approval: { id: 'ap1', approved: true } })

    const no = run([...base, { type: 'tool-approval-response', approvalId: 'ap1', approved: false, reason: 'too costly' },
      { type: 'tool-output-denied', toolCallId: 'c1' }])
    expect(Object.values(no.gates)[0]).toMatchObject({ status: 'rejected', response: { approved: false, reason: 'too costly' } })
    expect(toolOf(no, 'c1').props.state).toBe('output-denied')
    expect(timeline(no)[0]).toMatchObject({ status: 'done', resultDetail: 'denied' })
  })

  it('an output or a denial settles an approval that got no response', () => {
    const ask = (id: string) => [
      { type: 'tool-input-start', toolCallId: id, toolName: 't' },
      { type: 'tool-approval-request', approvalId: `ap-${id}`, toolCallId: id },
    ]
    const state = run([...ask('a'), ...ask('b'), { type: 'tool-output-available', toolCallId: 'a', output: 1 }, { type: 'tool-output-denied', toolCallId: 'b' }])
    expect(Object.values(state.gates).map((g) => [g.toolCallId, g.status])).toEqual([['a', 'approved'], ['b', 'rejected']])
  })

  it.each([
    [{ type: 'tool-approval-response', approvalId: 'nope', approved: true }, 'invalid'],
    [{ type: 'tool-approval-response', approvalId: 'ap', approved: 'yes' }, 'invalid'],
    [{ type: 'tool-approval-request', toolCallId: 'c1' }, 'missing_id'],
    [{ type: 'tool-input-delta', inputTextDelta: '{' }, 'missing_id'],
    [{ type: 'tool-input-delta', toolCallId: 'c1' }, 'invalid'],
    [{ type: 'tool-input-start', toolName: 'x' }, 'missing_id'],
    [{ type: 'tool-output-available', output: 1 }, 'missing_id'],
  ])('%j is a problem', (chunk, code) => {
    expect(codes(run([chunk]))).toEqual([code])
  })

  it('a result before its call creates the call (a repair) and keeps the result', () => {
    const state = run([
      { type: 'tool-output-available', toolCallId: 'c9', output: { ok: true } },
      { type: 'tool-input-available', toolCallId: 'c9', toolName: 'lookup', input: { id: 9 } },
    ])
    expect(toolOf(state, 'c9').props).toMatchObject({ name: 'lookup', output: { ok: true }, input: { id: 9 } })
    expect(codes(state)).toEqual(['repaired'])
  })

  it('input that is not JSON is one problem; the best value stays until the final input', () => {
    const bad = [start, { type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: '{"q":"a"' },
      { type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: ' oops' }, { type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: '}' }]
    const mid = run(bad)
    expect(codes(mid)).toEqual(['tool_input_json'])
    expect(toolOf(mid, 'c1').props).toMatchObject({ input: { q: 'a' }, inputText: '{"q":"a" oops}' })
    const fixed = run([...bad, { type: 'tool-input-available', toolCallId: 'c1', toolName: 'search', input: { q: 'a' } }])
    expect(toolOf(fixed, 'c1').props.input).toEqual({ q: 'a' })
  })

  it('keys a path cannot spell still arrive; forbidden keys are dropped once, with a problem', () => {
    const json = '{"a.b":{"c[0]":"x"},"":1,"__proto__":{"polluted":"yes"},"ok":true}'
    const state = run([start, ...[...json].map((c) => ({ type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: c }))])
    expect(toolOf(state, 'c1').props.input).toEqual({ 'a.b': { 'c[0]': 'x' }, '': 1, ok: true })
    expect(codes(state)).toEqual(['invalid'])
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })
})

describe('sources, files, data parts and interrupts', () => {
  it('source-url and source-document go to the turn', () => {
    const state = run([
      { type: 'source-url', sourceId: 'https://example.com', url: 'https://example.com', title: '示例页面' },
      { type: 'source-document', sourceId: 'doc_123', mediaType: 'file', title: '报告.pdf', description: '第三季度报告' },
      { type: 'source-url', sourceId: 'https://example.com', url: 'https://example.com', title: 'renamed' },
    ])
    expect(state.turns[TURN]!.sources).toEqual([
      { id: 'https://example.com', kind: 'url', url: 'https://example.com', title: 'renamed' },
      { id: 'doc_123', kind: 'document', mediaType: 'file', title: '报告.pdf', snippet: '第三季度报告' },
    ])
  })

  it('a source without a sourceId is kept under its url or name, with a problem', () => {
    const state = run([
      { type: 'source-url', url: 'https://a.example' },
      { type: 'source-document', mediaType: 'application/pdf', title: 'T' },
      { type: 'source-url', sourceId: 's' },
    ])
    expect(state.turns[TURN]!.sources.map((s) => s.id)).toEqual(['https://a.example', 'T'])
    expect(codes(state)).toEqual(['missing_id', 'missing_id', 'invalid'])
  })

  it('file is a file message', () => {
    const state = run([{ type: 'file', url: 'https://example.com/image.png', mediaType: 'image/png' }, { type: 'file', mediaType: 'x' }])
    expect(ofType(state, 'file')).toMatchObject([{ props: { url: 'https://example.com/image.png', mediaType: 'image/png' }, status: 'done' }])
    expect(codes(state)).toEqual(['invalid'])
  })

  it('a data part with an id is replaced in place; without one each part is kept', () => {
    const state = run([
      { type: 'data-weather', id: 'w', data: { status: 'loading' } },
      { type: 'data-log', data: 'a' },
      { type: 'data-weather', id: 'w', data: { status: 'done', temp: 21 } },
      { type: 'data-log', data: 'b' },
    ])
    expect(messages(state).map((m) => [m.type, m.props.data])).toEqual([
      ['data-weather', { status: 'done', temp: 21 }], ['data-log', 'a'], ['data-log', 'b'],
    ])
  })

  it('a transient data part goes to onData and is never stored', () => {
    const delivered: DataPart[] = []
    const state = run([{ type: 'data-progress', id: 'p', data: { percent: 40 }, transient: true }], (part) => delivered.push(part))
    expect(delivered).toEqual([{ type: 'data-progress', id: 'p', data: { percent: 40 } }])
    expect(messages(state)).toEqual([])
  })

  it('an onData that throws is a problem, not a crash', () => {
    const state = run([{ type: 'data-x', data: 1, transient: true }, ...text('a', 'after')], () => {
      throw new Error('host bug')
    })
    expect(codes(state)).toEqual(['invalid'])
    expect(ofType(state, 'text')[0]!.props.content).toBe('after')
  })

  it('data-thinking-step is a timeline row updated by its id', () => {
    const step = (status: string, title: string, items: string[]) => ({ type: 'data-thinking-step', data: { id: 'thinking-1', title, status, items } })
    const { state } = live([{ type: 'start-step' }, step('pending', '正在理解您的请求', [])])
    const node = () => timeline(state).find((n) => n.kind === 'thinking')!
    expect(node()).toMatchObject({ label: '正在理解您的请求', status: 'start', detail: [] })
    const later = live([{ type: 'start-step' }, step('pending', 'a', []), step('in_progress', 'b', ['x'])]).state
    expect(timeline(later).find((n) => n.kind === 'thinking')).toMatchObject({ label: 'b', status: 'progress', detail: ['x'] })
    const done = run([{ type: 'start-step' }, step('in_progress', 'b', ['x']), step('completed', 'c', ['x', 'y'])])
    const row = timeline(done).find((n) => n.kind === 'thinking')!
    expect(row).toMatchObject({ label: 'c', status: 'done', detail: ['x', 'y'] })
    expect(traceRecord(done.trace)[row.parentId!]!.kind).toBe('step')
    expect(messages(done)).toEqual([])
  })

  it('a thinking step without an id or with an unknown status is a problem', () => {
    const state = run([
      { type: 'data-thinking-step', data: { title: 'no id', status: 'completed' } },
      { type: 'data-thinking-step', data: { id: 't', title: 'odd', status: 'sleeping' } },
      { type: 'data-thinking-step', data: 'not an object' },
    ])
    expect(codes(state)).toEqual(['missing_id', 'invalid', 'invalid'])
    expect(timeline(state).map((n) => n.label)).toEqual(['no id', 'odd'])
  })

  it('data-further-questions are the turn’s suggestions', () => {
    const state = run([{ type: 'data-further-questions', data: { questions: ['问题1', 2, '问题2'] } }])
    expect(state.turns[TURN]!.suggestions).toEqual(['问题1', '问题2'])
    expect(messages(state)).toEqual([])
  })

  it('data-terminal-info is a notice', () => {
    const state = run([
      { type: 'data-terminal-info', data: { text: '知识库搜索已完成', type: 'success' } },
      { type: 'data-terminal-info', data: { text: 'odd', type: 'purple' } },
    ])
    expect(ofType(state, 'notice').map((m) => m.props)).toEqual([{ text: '知识库搜索已完成', level: 'success' }, { text: 'odd', level: 'info' }])
    expect(codes(state)).toEqual(['invalid'])
  })

  it('a data part without data still shows, as the AI SDK accepts it (its data is unknown)', () => {
    const state = run([{ type: 'data-x', id: '1' }])
    expect(codes(state)).toEqual([])
    expect(ofType(state, 'data-x').map((m) => m.props)).toEqual([{ id: '1' }])
  })

  it('interrupt opens an interrupt gate with the interrupt and its payload', () => {
    const interrupt = { action_requests: [{ name: 'delete_file', args: { path: '/a' }, description: 'Delete /a?' }], review_configs: [] }
    const state = run([{ type: 'interrupt', messageId: 'msg_abc123', interrupt, payload: { expertAgentId: 42 } }])
    expect(Object.values(state.gates)).toMatchObject([{ kind: 'interrupt', question: 'Delete /a?', status: 'pending', payload: { interrupt, payload: { expertAgentId: 42 } } }])
    expect(codes(run([{ type: 'interrupt' }]))).toEqual(['invalid'])
  })
})

describe('bad input', () => {
  it('an unknown chunk type is a problem and nothing else is lost', () => {
    const state = run([...text('a', 'before'), { type: 'telemetry', x: 1 }, ...text('b', 'after')])
    expect(codes(state)).toEqual(['unknown_chunk'])
    expect(problems(state)[0]!.message).toContain('telemetry')
    expect(ofType(state, 'text').map((m) => m.props.content)).toEqual(['before', 'after'])
  })

  it.each([[null, 'invalid'], [[1], 'invalid'], ['text', 'invalid'], [{ id: 'a' }, 'missing_type'], [{ type: '' }, 'missing_type'], [{ type: 'data-' }, 'unknown_chunk']])(
    '%j is a problem', (chunk, code) => {
      const decoder = createUIMessageDecoder({ turnId: TURN, scope: TURN })
      const ops = decoder.decode(chunk, {})
      expect(ops).toHaveLength(1)
      expect(ops[0]).toMatchObject({ op: 'problem', error: { type: 'protocol', code } })
    })

  it('no chunk type throws on odd field values', () => {
    const odd: unknown[] = [undefined, null, 0, -1, '', 'x', true, [], [1, 'a'], {}, { a: 1 }, '{"', 'constructor']
    const fields = ['id', 'delta', 'toolCallId', 'toolName', 'inputTextDelta', 'input', 'output', 'approvalId', 'approved',
      'sourceId', 'url', 'mediaType', 'title', 'data', 'messageMetadata', 'messageId', 'errorText', 'errorType', 'interrupt', 'transient', 'preliminary', 'reason']
    const types = [...UI_MESSAGE_CHUNK_TYPES, 'data-thinking-step', 'data-further-questions', 'data-terminal-info', 'data-x']
    const chunks: Chunk[] = []
    let n = 0
    for (const type of types) {
      for (let round = 0; round < 12; round++) {
        const chunk: Chunk = { type }
        for (const field of fields) chunk[field] = odd[(n++ * 7 + round) % odd.length]
        chunks.push(chunk)
      }
    }
    const decoder = createUIMessageDecoder({ turnId: TURN, scope: TURN })
    const ops: Op[] = [{ op: 'turn.open', turnId: TURN, role: 'assistant' }]
    expect(() => {
      for (const chunk of chunks) ops.push(...decoder.decode(chunk, {}))
      ops.push(...decoder.end('eof'))
    }).not.toThrow()
    expect(() => fold(emptyState(), ops)).not.toThrow()
  })
})

describe('detection', () => {
  it('the marker header is certain', () => {
    expect(uiMessageProtocol.sniff({ headers: new Headers({ 'x-vercel-ai-ui-message-stream': 'v1' }) })).toBe(1)
  })

  it.each([
    [{ type: 'start', messageId: 'm' }, 0.9],
    [{ type: 'text-delta', id: 'a', delta: 'x' }, 0.9],
    [{ type: 'data-thinking-step', data: {} }, 0.9],
    [{ type: 'error', errorText: 'x' }, 0.9],
    [{ type: 'error', message: 'x' }, 0],
    [{ type: 'text', props: { content: 'x' } }, 0],
    [{ type: 'RUN_STARTED' }, 0],
    ['[DONE]', 0],
  ])('first event %j → %d', (first, score) => {
    expect(uiMessageProtocol.sniff({ first })).toBe(score)
  })

  it('is picked among all protocols from the first chunk', () => {
    expect(detectProtocol(protocols, { first: { type: 'start', messageId: 'msg_abc123' } })).toBe('ui-message')
    expect(detectProtocol(protocols, { first: { type: 'start-step' } })).toBe('ui-message')
    const state = foldStream('data: {"type":"start","messageId":"m"}\n\ndata: {"type":"text-start","id":"a"}\n\ndata: {"type":"text-delta","id":"a","delta":"Hi"}\n\ndata: [DONE]\n\n')
    expect(state.turns[TURN]!.protocol).toBe('ui-message')
    expect(ofType(state, 'text')[0]!.props.content).toBe('Hi')
  })
})
