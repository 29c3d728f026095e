/**
 * Seven fold behaviours checked against each protocol's own client: where weft
 * used to differ, the test pins what the reference does (or, where weft differs
 * on purpose, what its protocol page says).
 */
import { describe, expect, it } from 'vitest'
import { foldStream } from '../../../src/umbrella/defaults'
import { messageList } from '../../../src/core/model/message-table'
import type { AgentState, Message, TraceNode } from '../../../src/core/model/model'
import type { Op } from '../../../src/core/model/ops'
import { createAgUiDecoder } from '../../../src/protocols/ag-ui/decoder'
import { traceRecord } from '../../../src/core/model/trace-table'

type Ev = Record<string, unknown>
const TURN = 'turn-1'
const messagesOf = (state: AgentState): Message[] => messageList(state.messages).filter((m) => m.turnId === TURN)
const codes = (state: AgentState): (string | undefined)[] => state.turns[TURN]!.problems.map((p) => p.code)
/** The turn's rows in the timeline's order of top-level rows (the table keeps no order of its own). */
const rows = (state: AgentState): TraceNode[] => {
  const arrived = (n: TraceNode) => state.turns[TURN]!.traceRootIds.indexOf(n.id)
  return Object.values(traceRecord(state.trace)).filter((n) => n.turnId === TURN).sort((a, b) => arrived(a) - arrived(b))
}

describe('1. UI message stream: a data part missing an expected field is kept', () => {
  const fold = (chunk: Ev) => foldStream([{ type: 'start' }, chunk, { type: 'finish' }], { protocol: 'ui-message' })

  it('data-terminal-info without data.text keeps the part as a data-terminal-info message, with an invalid problem', () => {
    const state = fold({ type: 'data-terminal-info', id: 'n1', data: { type: 'info' } })
    expect(messagesOf(state).map((m) => [m.type, m.props])).toEqual([['data-terminal-info', { data: { type: 'info' }, id: 'n1' }]])
    expect(codes(state)).toEqual(['invalid'])
  })

  it('data-further-questions without a questions list and data-thinking-step whose data is not an object are kept too', () => {
    const questions = fold({ type: 'data-further-questions', data: { question: 'why?' } })
    expect(messagesOf(questions).map((m) => [m.type, m.props.data])).toEqual([['data-further-questions', { question: 'why?' }]])
    expect(codes(questions)).toEqual(['invalid'])
    const step = fold({ type: 'data-thinking-step', id: 'k', data: 'planning' })
    expect(messagesOf(step).map((m) => [m.type, m.props.data])).toEqual([['data-thinking-step', 'planning']])
    expect(codes(step)).toEqual(['invalid'])
  })
})

describe('2. AG-UI: a second TOOL_CALL_START for a call still open keeps its arguments', () => {
  const events: Ev[] = [
    { type: 'RUN_STARTED', threadId: 'th', runId: 'r1' },
    { type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'search' },
    { type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '{"q":"we' },
    { type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'search' },
    { type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: 'ather"}' },
    { type: 'TOOL_CALL_END', toolCallId: 'c1' },
    { type: 'RUN_FINISHED', threadId: 'th', runId: 'r1' },
  ]

  it('the arguments before and after the second start are one input, and a start_while_open problem says so', () => {
    const state = foldStream(events, { protocol: 'ag-ui' })
    const [tool] = messagesOf(state).filter((m) => m.type === 'tool')
    expect(tool!.props).toMatchObject({ toolCallId: 'c1', name: 'search', inputText: '{"q":"weather"}', input: { q: 'weather' }, state: 'input-available' })
    expect(codes(state)).toEqual(['start_while_open'])
  })

  it('the decoder writes no op that empties the arguments, and the second start still takes a new name', () => {
    const d = createAgUiDecoder({ turnId: 't1', scope: 't1' })
    d.decode(events[1], {})
    d.decode(events[2], {})
    const again: Op[] = d.decode({ type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'find' }, {})
    // No op replaces the call's props (the old start wrote `inputText: ''` over them).
    expect(again.filter((op) => op.op === 'message.delta' && op.action === 'set' && op.path === '')).toEqual([])
    expect(again.filter((op) => op.op === 'problem').map((op) => op.op === 'problem' && op.error.code)).toEqual(['start_while_open'])
    expect(again).toContainEqual(expect.objectContaining({ op: 'message.delta', action: 'merge', path: '', value: { name: 'find' } }))
  })
})

describe('3. Yao: a delta chunk of another type re-types the message, as Yao’s client does', () => {
  it('a thinking delta onto a text message makes it a reasoning message, its content appended', () => {
    const state = foldStream([
      { chunk_id: 'C1', message_id: 'M1', type: 'text', props: { content: 'Hel' }, delta: true },
      { chunk_id: 'C2', message_id: 'M1', type: 'thinking', props: { content: 'lo' }, delta: true },
    ], { protocol: 'yao' })
    expect(messagesOf(state).map((m) => [m.type, m.props.content])).toEqual([['reasoning', 'Hello']])
  })

  it('a delta at a path of another type re-types it too', () => {
    const state = foldStream([
      { chunk_id: 'C1', message_id: 'M1', type: 'loading', props: { message: 'Searching' }, delta: true },
      { chunk_id: 'C2', message_id: 'M1', type: 'text', props: { content: 'Found it' }, delta: true, delta_path: 'content', delta_action: 'set' },
    ], { protocol: 'yao' })
    expect(messagesOf(state).map((m) => [m.type, m.props])).toEqual([['text', { message: 'Searching', content: 'Found it' }]])
  })
})

describe('4. Yao: a message with parent_message_id nests under its parent message', () => {
  const agent = { chunk_id: 'C1', message_id: 'M1', block_id: 'B1', type: 'agent', props: { name: 'researcher', status: 'running' } }
  const child = { chunk_id: 'C2', message_id: 'M2', type: 'tool_call', props: { id: 'call_1', name: 'search', arguments: '{"q":"x"}', parent_message_id: 'M1' } }

  it('the child goes in its parent’s lane of children, in the parent’s block, and not at the top of the turn', () => {
    const state = foldStream([agent, child], { protocol: 'yao' })
    const lane = state.threads['turn-1/M1/children']
    expect(lane).toMatchObject({ blockId: 'turn-1/B1', messageIds: ['turn-1/M2'] })
    const m2 = messagesOf(state).find((m) => m.id === 'turn-1/M2')!
    expect(m2).toMatchObject({ threadId: 'turn-1/M1/children', blockId: 'turn-1/B1' })
    expect(m2.props).toMatchObject({ parent_message_id: 'M1', name: 'search' })
    expect(state.blocks['turn-1/B1']!.threadIds).toEqual(['turn-1/M1/children'])
  })

  it('later deltas of the child stay nested (the parent is read from the message, not each chunk); a child whose parent is unknown stays at the top', () => {
    const state = foldStream([
      agent, child,
      { chunk_id: 'C3', message_id: 'M2', type: 'tool_call', props: { arguments: '' }, delta: true, delta_path: 'arguments' },
      { chunk_id: 'C4', message_id: 'M3', type: 'text', props: { content: 'orphan', parent_message_id: 'M9' } },
    ], { protocol: 'yao' })
    expect(state.threads['turn-1/M1/children']!.messageIds).toEqual(['turn-1/M2'])
    const m3 = messagesOf(state).find((m) => m.id === 'turn-1/M3')!
    expect(m3.threadId).toBeUndefined()
  })
})

describe('5. Yao: a raw JSON line without `data:` is read, as Yao’s client reads it', () => {
  const line = (chunk: Ev) => JSON.stringify(chunk)
  const end = { chunk_id: 'C9', type: 'event', props: { event: 'stream_end', data: { status: 'completed' } } }

  it('raw lines, one chunk per line, fold like data: frames', () => {
    const raw = [
      line({ chunk_id: 'C1', message_id: 'M1', type: 'text', props: { content: 'Hel' }, delta: true }),
      line({ chunk_id: 'C2', message_id: 'M1', type: 'text', props: { content: 'lo' }, delta: true }),
      line(end),
    ].join('\n') + '\n'
    const state = foldStream(raw, { protocol: 'yao' })
    expect(messagesOf(state).map((m) => m.props.content)).toEqual(['Hello'])
    expect(state.turns[TURN]!.status).toBe('done')
    expect(codes(state)).toEqual([])
  })

  it('raw lines and data: frames mixed in one stream keep their order', () => {
    const raw = `${line({ chunk_id: 'C1', message_id: 'M1', type: 'text', props: { content: 'Hel' }, delta: true })}\n`
      + `data: ${line({ chunk_id: 'C2', message_id: 'M1', type: 'text', props: { content: 'lo' }, delta: true })}\n\n`
      + `  ${line({ chunk_id: 'C3', message_id: 'M1', type: 'text', props: { content: '!' }, delta: true })}\n`
      + `data: ${line(end)}\n\n`
    const state = foldStream(raw, { protocol: 'yao' })
    expect(messagesOf(state).map((m) => m.props.content)).toEqual(['Hello!'])
    expect(codes(state)).toEqual([])
  })

  it('a raw line that is not valid JSON is a problem, not a silent drop', () => {
    const state = foldStream(`{"chunk_id":"C1","type":"text"\ndata: ${line(end)}\n\n`, { protocol: 'yao' })
    expect(state.turns[TURN]!.problems.map((p) => p.message)).toEqual(['a frame was not valid JSON'])
  })
})

describe('6. Vocion: a tool_error finds its row by the tool named in the row’s label', () => {
  const actor = { id: 'lead', kind: 'lead', name: 'Revenue Lead' }

  it('the row whose label names the tool fails with the message; no extra error row appears', () => {
    const state = foldStream([
      { type: 'trace_node', id: 'b1', actor, kind: 'tool', status: 'start', label: 'Lookup invoice INV-1' },
      { type: 'tool_error', tool: 'lookup_invoice', message: 'The endpoint could not be reached', status: 502 },
      { type: 'done', response: 'Sorry.' },
    ], { protocol: 'vocion' })
    const all = rows(state)
    expect(all.map((n) => [n.label, n.status])).toEqual([['Lookup invoice INV-1', 'error']])
    expect(all[0]!.text).toContain('The endpoint could not be reached')
  })

  it('as failToolNode: the latest open row matching by tool or label; finished rows and rows naming another tool are left alone', () => {
    const state = foldStream([
      { type: 'trace_node', id: 'a', actor, kind: 'tool', status: 'done', label: 'Lookup invoice INV-0' },
      { type: 'trace_node', id: 'b', actor, kind: 'tool', status: 'start', label: 'Lookup-invoice INV-1' },
      { type: 'trace_node', id: 'c', actor, kind: 'tool', status: 'start', label: 'Lookup customer' },
      { type: 'tool_error', tool: 'lookup-invoice', message: 'Timed out' },
      { type: 'done', response: 'Sorry.' },
    ], { protocol: 'vocion' })
    // "Lookup-invoice" lower-cased does not contain "lookup invoice": only the label with a space matches, as in the rail.
    expect(rows(state).map((n) => [n.label, n.status])).toEqual([
      ['Lookup invoice INV-0', 'done'], ['Lookup-invoice INV-1', 'done'], ['Lookup customer', 'done'], ['lookup-invoice', 'error'],
    ])
  })
})

describe('7. Vocion: a null in a trace_node’s detail keeps the earlier value, as the rail’s reducer does', () => {
  it('detail, args, result and resultDetail sent as null keep what the start set', () => {
    const state = foldStream([
      {
        type: 'trace_node', id: 'n1', actor: { id: 'lead' }, kind: 'search', status: 'start', label: 'Searching',
        detail: 'accounts in EMEA', args: { region: 'EMEA' }, result: { hits: 1 }, resultDetail: 'one hit',
      },
      { type: 'trace_node', id: 'n1', status: 'done', detail: null, args: null, result: null, resultDetail: null },
      { type: 'done', response: 'Done.' },
    ], { protocol: 'vocion' })
    const [row] = rows(state)
    expect(row).toMatchObject({ status: 'done', detail: 'accounts in EMEA', args: { region: 'EMEA' }, result: { hits: 1 }, resultDetail: 'one hit' })
    expect(codes(state)).toEqual([])
  })
})
