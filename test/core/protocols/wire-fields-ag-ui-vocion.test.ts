/**
 * Keep what the wire carries, for AG-UI and Vocion: every field of a known event
 * that weft does not read is kept on what the event made (the message, the tool
 * call, the timeline row, the gate, the turn), as `extra`, and never a field weft
 * reads. The tables are keyed by the decoders' own lists of event types, so an
 * event type added without a case here fails.
 */
import { RunAgentInputSchema } from '@ag-ui/core/schemas'
import { describe, expect, it } from 'vitest'
import { foldStream } from '../../../src/umbrella/defaults'
import { fold } from '../../../src/core/fold/fold'
import { historyOps } from '../../../src/core/history/merge'
import { emptyState, type AgentState, type Message, type TraceNode } from '../../../src/core/model/model'
import type { DataPart } from '../../../src/core/protocol/types'
import { createAgUiDecoder } from '../../../src/protocols/ag-ui/decoder'
import { AG_UI_EVENT_FIELDS } from '../../../src/protocols/ag-ui/event-fields'
import { AG_UI_EVENT_TYPES } from '../../../src/protocols/ag-ui/event-types'
import { agUiHistoryOps } from '../../../src/protocols/ag-ui/history'
import { toAgUiMessages } from '../../../src/protocols/ag-ui/request'
import { VOCION_DROPPED_TYPES, VOCION_EVENT_FIELDS, VOCION_EVENT_TYPES } from '../../../src/protocols/vocion/event-fields'
import { createVocionDecoder } from '../../../src/protocols/vocion/decoder'
import { vocionHistory } from '../../../src/protocols/vocion/history'
import { messageIn, messageList } from '../../../src/core/model/message-table'
import { STREAM_TRUNCATED } from '../../../src/core/model/errors'
import { traceRecord } from '../../../src/core/model/trace-table'

type Ev = Record<string, unknown>
const TURN = 'turn-1'

/** The field every case adds to the event under test: a server's own, with a nested object. */
const PROBE = { x_weft_probe: { note: 'kept', nested: { depth: 2, list: [1, 'two', { three: true }] } } }

/** Where the event under test keeps what it carries beyond weft's fields, in the folded state. */
type Where = (s: AgentState) => unknown
/** A case builds its stream with `probe` spread into the event under test ({} for the plain run). */
type Case = (probe: Ev) => { events: Ev[]; where: Where }

const turnExtra: Where = (s) => s.turns[TURN]!.metadata.extra
const messageExtra = (id: string): Where => (s) => messageIn(s.messages, id)?.props.extra
const rowExtra = (id: string): Where => (s) => traceRecord(s.trace)[id]?.extra
const rowWhere = (match: (n: TraceNode) => boolean): Where => (s) => Object.values(traceRecord(s.trace)).find(match)?.extra
const typed = (s: AgentState, type: string): Message[] => messageList(s.messages).filter((m) => m.type === type)
const extraOfType = (type: string): Where => (s) => {
  const [only, ...rest] = typed(s, type)
  if (!only || rest.length > 0) throw new Error(`expected one ${type} message, got ${1 + rest.length}`)
  return only.props.extra
}
// Most fragments here stop short of the stream's end; that rule has its own tests (truncated-stream.test.ts).
const problems = (s: AgentState) => s.turns[TURN]!.problems.filter((p) => p.code !== STREAM_TRUNCATED).map((p) => `${p.code}: ${p.message}`)

// ---------------------------------------------------------------- AG-UI

const agUi = (events: readonly Ev[], onData?: (part: DataPart) => void) => foldStream(events, { protocol: 'ag-ui', onData })
const RS: Ev = { type: 'RUN_STARTED', threadId: 'th1', runId: 'r1' }
const RF: Ev = { type: 'RUN_FINISHED', threadId: 'th1', runId: 'r1' }
const START: Ev = { type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant', name: 'helper', metadata: { trace: 't1' } }
const CONTENT: Ev = { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'Hi' }
const END: Ev = { type: 'TEXT_MESSAGE_END', messageId: 'm1' }
const CALL: Ev = { type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'search', parentMessageId: 'm0' }
const ARGS: Ev = { type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '{"q":"renewals"}' }
const CALL_END: Ev = { type: 'TOOL_CALL_END', toolCallId: 'c1' }
const RESULT: Ev = { type: 'TOOL_CALL_RESULT', messageId: 'tr1', toolCallId: 'c1', content: '{"hits":1}', role: 'tool' }
const R_START: Ev = { type: 'REASONING_MESSAGE_START', messageId: 'rm1', role: 'reasoning' }
const R_CONTENT: Ev = { type: 'REASONING_MESSAGE_CONTENT', messageId: 'rm1', delta: 'why' }
const R_END: Ev = { type: 'REASONING_MESSAGE_END', messageId: 'rm1' }
const SPAN: Ev = { type: 'REASONING_START', messageId: 'r1' }
const SPAN_END: Ev = { type: 'REASONING_END', messageId: 'r1' }
const STEP: Ev = { type: 'STEP_STARTED', stepName: 'plan' }
const STEP_END: Ev = { type: 'STEP_FINISHED', stepName: 'plan' }
const SUB: Ev = { type: 'SUBAGENT_STARTED', subagentRunId: 'sa1', name: 'researcher', description: 'looks things up' }
const SUB_END: Ev = { type: 'SUBAGENT_FINISHED', subagentRunId: 'sa1', result: 'found', outcome: { type: 'success' } }
const THINK: Ev = { type: 'THINKING_START', title: 'Pondering' }
const THINK_END: Ev = { type: 'THINKING_END' }
const T_START: Ev = { type: 'THINKING_TEXT_MESSAGE_START' }
const T_CONTENT: Ev = { type: 'THINKING_TEXT_MESSAGE_CONTENT', delta: 'hm' }
const T_END: Ev = { type: 'THINKING_TEXT_MESSAGE_END' }
const ACTIVITY: Ev = { type: 'ACTIVITY_SNAPSHOT', messageId: 'act1', activityType: 'PLAN', content: { steps: [] }, replace: true, metadata: { m: 1 } }
const with_ = (base: Ev, probe: Ev): Ev => ({ ...base, ...probe })

const stepRow = rowWhere((n) => n.kind === 'step')
const thinkingRow = rowWhere((n) => n.kind === 'reason' && n.label === 'Pondering')

const AG_UI_CASES: Record<string, Case> = {
  RUN_STARTED: (p) => ({
    events: [{ ...RS, parentRunId: 'r0', input: { threadId: 'th1', runId: 'r1', messages: [], tools: [], context: [], state: {} }, ...p }, RF],
    where: turnExtra,
  }),
  RUN_FINISHED: (p) => ({
    events: [RS, { ...RF, result: { ok: true }, outcome: { type: 'success', pendingToolCallIds: [] }, usage: [{ inputTokens: 1, outputTokens: 2 }], ...p }],
    where: turnExtra,
  }),
  RUN_ERROR: (p) => ({ events: [RS, { type: 'RUN_ERROR', runId: 'r1', message: 'boom', code: 'rate_limit', ...p }], where: turnExtra }),
  STEP_STARTED: (p) => ({ events: [RS, with_(STEP, p), STEP_END, RF], where: stepRow }),
  STEP_FINISHED: (p) => ({ events: [RS, STEP, with_(STEP_END, p), RF], where: stepRow }),
  TEXT_MESSAGE_START: (p) => ({ events: [RS, with_(START, p), CONTENT, END, RF], where: messageExtra('m1') }),
  TEXT_MESSAGE_CONTENT: (p) => ({ events: [RS, START, { ...CONTENT, metadata: { more: true }, ...p }, END, RF], where: messageExtra('m1') }),
  TEXT_MESSAGE_END: (p) => ({ events: [RS, START, CONTENT, { ...END, metadata: { done: true }, ...p }, RF], where: messageExtra('m1') }),
  TEXT_MESSAGE_CHUNK: (p) => ({
    events: [RS, { type: 'TEXT_MESSAGE_CHUNK', messageId: 'm1', role: 'assistant', name: 'helper', delta: 'Hi', ...p }, RF],
    where: messageExtra('m1'),
  }),
  TOOL_CALL_START: (p) => ({ events: [RS, with_(CALL, p), ARGS, CALL_END, RF], where: messageExtra('c1') }),
  TOOL_CALL_ARGS: (p) => ({ events: [RS, CALL, with_(ARGS, p), CALL_END, RF], where: messageExtra('c1') }),
  TOOL_CALL_END: (p) => ({ events: [RS, CALL, ARGS, with_(CALL_END, p), RF], where: messageExtra('c1') }),
  // On the wire the result is a message of its own (`role: "tool"`): its fields are kept apart from the call's.
  TOOL_CALL_RESULT: (p) => ({ events: [RS, CALL, ARGS, CALL_END, with_(RESULT, p), RF], where: (s) => messageIn(s.messages, 'c1')!.props.resultExtra }),
  TOOL_CALL_CHUNK: (p) => ({
    events: [RS, { type: 'TOOL_CALL_CHUNK', toolCallId: 'c1', toolCallName: 'search', parentMessageId: 'm0', delta: '{}', ...p }, RF],
    where: messageExtra('c1'),
  }),
  REASONING_START: (p) => ({ events: [RS, with_(SPAN, p), R_START, R_CONTENT, R_END, SPAN_END, RF], where: rowExtra('reason:r1') }),
  REASONING_END: (p) => ({ events: [RS, SPAN, R_START, R_CONTENT, R_END, with_(SPAN_END, p), RF], where: rowExtra('reason:r1') }),
  REASONING_MESSAGE_START: (p) => ({ events: [RS, with_(R_START, p), R_CONTENT, R_END, RF], where: messageExtra('rm1') }),
  REASONING_MESSAGE_CONTENT: (p) => ({ events: [RS, R_START, with_(R_CONTENT, p), R_END, RF], where: messageExtra('rm1') }),
  REASONING_MESSAGE_END: (p) => ({ events: [RS, R_START, R_CONTENT, with_(R_END, p), RF], where: messageExtra('rm1') }),
  REASONING_MESSAGE_CHUNK: (p) => ({ events: [RS, { type: 'REASONING_MESSAGE_CHUNK', messageId: 'rm1', delta: 'why', ...p }, RF], where: messageExtra('rm1') }),
  REASONING_ENCRYPTED_VALUE: (p) => ({
    events: [RS, R_START, R_CONTENT, R_END, { type: 'REASONING_ENCRYPTED_VALUE', subtype: 'message', entityId: 'rm1', encryptedValue: 'enc', ...p }, RF],
    where: messageExtra('rm1'),
  }),
  STATE_SNAPSHOT: (p) => ({ events: [RS, { type: 'STATE_SNAPSHOT', snapshot: { a: 1 }, ...p }, RF], where: turnExtra }),
  STATE_DELTA: (p) => ({
    events: [RS, { type: 'STATE_SNAPSHOT', snapshot: { a: 1 } }, { type: 'STATE_DELTA', delta: [{ op: 'add', path: '/b', value: 2 }], ...p }, RF],
    where: turnExtra,
  }),
  MESSAGES_SNAPSHOT: (p) => ({
    events: [RS, { type: 'MESSAGES_SNAPSHOT', messages: [{ id: 'a1', role: 'assistant', content: 'Hi' }], ...p }, RF],
    where: turnExtra,
  }),
  ACTIVITY_SNAPSHOT: (p) => ({ events: [RS, with_(ACTIVITY, p), RF], where: messageExtra('act1') }),
  ACTIVITY_DELTA: (p) => ({
    events: [RS, ACTIVITY, { type: 'ACTIVITY_DELTA', messageId: 'act1', activityType: 'PLAN', patch: [{ op: 'add', path: '/steps/-', value: 'a' }], metadata: { m: 2 }, ...p }, RF],
    where: messageExtra('act1'),
  }),
  RAW: (p) => ({
    events: [RS, { type: 'RAW', event: { kind: 'on_chat_model_stream' }, source: 'langgraph', ...p }, RF],
    where: (s) => (s.turns[TURN]!.metadata.rawEvents as Ev[])[0]!.extra,
  }),
  CUSTOM: (p) => ({ events: [RS, { type: 'CUSTOM', name: 'weather', value: { temp: 21 }, ...p }, RF], where: extraOfType('data-weather') }),
  SUBAGENT_STARTED: (p) => ({ events: [RS, with_(SUB, p), SUB_END, RF], where: rowExtra('delegate:sa1') }),
  SUBAGENT_FINISHED: (p) => ({ events: [RS, SUB, with_(SUB_END, p), RF], where: rowExtra('delegate:sa1') }),
  SUBAGENT_ERROR: (p) => ({
    events: [RS, SUB, { type: 'SUBAGENT_ERROR', subagentRunId: 'sa1', message: 'failed', code: 'E1', ...p }, RF],
    where: rowExtra('delegate:sa1'),
  }),
  THINKING_START: (p) => ({ events: [RS, with_(THINK, p), T_START, T_CONTENT, T_END, THINK_END, RF], where: thinkingRow }),
  THINKING_END: (p) => ({ events: [RS, THINK, T_START, T_CONTENT, T_END, with_(THINK_END, p), RF], where: thinkingRow }),
  THINKING_TEXT_MESSAGE_START: (p) => ({ events: [RS, THINK, with_(T_START, p), T_CONTENT, T_END, THINK_END, RF], where: extraOfType('reasoning') }),
  THINKING_TEXT_MESSAGE_CONTENT: (p) => ({ events: [RS, THINK, T_START, with_(T_CONTENT, p), T_END, THINK_END, RF], where: extraOfType('reasoning') }),
  THINKING_TEXT_MESSAGE_END: (p) => ({ events: [RS, THINK, T_START, T_CONTENT, with_(T_END, p), THINK_END, RF], where: extraOfType('reasoning') }),
}

describe('AG-UI: every known event keeps its unread fields on what it made', () => {
  it('has a case and a field list for every event type the decoder knows, and nothing else', () => {
    const types = [...AG_UI_EVENT_TYPES].sort()
    expect(Object.keys(AG_UI_CASES).sort()).toEqual(types)
    expect([...AG_UI_EVENT_FIELDS.keys()].sort()).toEqual(types)
  })

  it.each([...AG_UI_EVENT_TYPES])('%s', (type) => {
    const build = AG_UI_CASES[type]
    if (!build) throw new Error(`no case for the AG-UI event type ${type}: add one to AG_UI_CASES`)
    const plain = build({})
    const folded = agUi(plain.events)
    expect(problems(folded)).toEqual([])
    // The event's own fields (those weft reads) are never copied into extra.
    expect(plain.where(folded)).toBeUndefined()

    const probed = build(PROBE)
    const kept = agUi(probed.events)
    expect(problems(kept)).toEqual([])
    expect(probed.where(kept)).toEqual(PROBE)
  })
})

describe('AG-UI streaming events merge their extras, and the hot path stays bare', () => {
  it('text deltas merge onto the message, a later value winning, nested objects key by key; the text is unchanged', () => {
    const s = agUi([
      RS, START,
      { ...CONTENT, delta: 'a', region: 'eu', stats: { tokens: 1, model: 'x' } },
      { ...CONTENT, delta: 'b' },
      { ...CONTENT, delta: 'c', stats: { tokens: 2 } },
      { ...END, region: 'us', final: true },
      RF,
    ])
    expect(messageIn(s.messages, 'm1')!.props).toMatchObject({ content: 'abc', extra: { region: 'us', final: true, stats: { tokens: 2, model: 'x' } } })
  })

  it('tool arguments merge onto the tool call; the arguments still parse', () => {
    const s = agUi([RS, CALL, { ...ARGS, delta: '{"q":', seq: 1 }, { ...ARGS, delta: '"a"}', seq: 2, shard: 'b' }, CALL_END, RF])
    expect(messageIn(s.messages, 'c1')!.props).toMatchObject({ input: { q: 'a' }, inputText: '{"q":"a"}', extra: { seq: 2, shard: 'b' } })
  })

  it('chunks that go on with an open stream merge onto the same message, also without a delta', () => {
    const s = agUi([
      RS,
      { type: 'TEXT_MESSAGE_CHUNK', messageId: 'm1', delta: 'Hel', a: 1 },
      { type: 'TEXT_MESSAGE_CHUNK', delta: 'lo', b: 2 },
      { type: 'TEXT_MESSAGE_CHUNK', messageId: 'm1', a: 3 },
      { type: 'TOOL_CALL_CHUNK', toolCallId: 'c1', toolCallName: 'search', delta: '{}', c: 1 },
      { type: 'TOOL_CALL_CHUNK', toolCallId: 'c1', d: 2 },
      RF,
    ])
    expect(messageIn(s.messages, 'm1')!.props).toMatchObject({ content: 'Hello', extra: { a: 3, b: 2 } })
    expect(messageIn(s.messages, 'c1')!.props.extra).toEqual({ c: 1, d: 2 })
    expect(problems(s)).toEqual([])
  })

  it('an ordinary token event is one append at the end of its batch: no extra op, no metadata op', () => {
    const decoder = createAgUiDecoder({ turnId: 't1', scope: 't1' })
    decoder.decode(RS, {})
    decoder.decode(START, {})
    // A bare token writes nothing of its own: it joins the message's held append.
    expect(decoder.decode(CONTENT, {})).toStrictEqual([])
    // A timestamp on a token event is read and not kept (the end event's follows).
    expect(decoder.decode({ ...CONTENT, timestamp: 1 }, {})).toStrictEqual([])
    // The next write point gives the one joined append, and no extra or metadata op.
    expect(decoder.flush!()).toStrictEqual([
      { op: 'message.delta', turnId: 't1', messageId: 'm1', type: 'text', role: 'assistant', blockId: undefined, threadId: undefined, action: 'append', path: 'content', value: 'HiHi' },
    ])
    expect(decoder.decode({ ...CONTENT, x: 1 }, {}).map((op) => op.op === 'message.delta' && op.path)).toEqual(['content', 'extra'])
    decoder.decode(CALL, {})
    // Arguments write nothing of their own: their pieces reach the message at the next write
    // point, joined in one append beside the value so far, and still with no extra or metadata op.
    expect(decoder.decode({ ...ARGS, delta: '{"q":' }, {})).toStrictEqual([])
    expect(decoder.decode({ ...ARGS, delta: '"a"}', timestamp: 2 }, {})).toStrictEqual([])
    expect(decoder.flush!()).toStrictEqual([
      { op: 'message.delta', turnId: 't1', messageId: 'c1', action: 'append', path: 'inputText', value: '{"q":"a"}' },
      { op: 'message.delta', turnId: 't1', messageId: 'c1', type: 'tool', role: 'assistant', blockId: undefined, threadId: undefined, action: 'set', path: 'input', value: { q: 'a' } },
    ])
  })

  it('the extras of token events do not keep the fold from merging a batch\'s appends', () => {
    const decoder = createAgUiDecoder({ turnId: TURN, scope: TURN })
    const ops = [RS, START, ...'abcdef'.split('').map((delta, i) => ({ ...CONTENT, delta, i }))].flatMap((e) => decoder.decode(e, {}))
    const appends = ops.filter((op) => op.op === 'message.delta' && op.action === 'append')
    expect(appends).toHaveLength(6)
    const s = fold(fold(emptyState(), [{ op: 'turn.open', turnId: TURN, role: 'assistant' }]), ops)
    expect(messageIn(s.messages, 'm1')!.props).toMatchObject({ content: 'abcdef', extra: { i: 5 } })
  })
})

describe('AG-UI BaseEvent fields: timestamp in extra except on token events, rawEvent to the host only', () => {
  it('a message keeps the timestamp of its latest start or end event, not of its tokens', () => {
    const s = agUi([RS, { ...START, timestamp: 100 }, { ...CONTENT, timestamp: 101 }, { ...CONTENT, timestamp: 102 }, RF])
    expect(messageIn(s.messages, 'm1')!.props.extra).toEqual({ timestamp: 100 })
    const ended = agUi([RS, { ...START, timestamp: 100 }, { ...CONTENT, timestamp: 101 }, { ...END, timestamp: 103 }, RF])
    expect(messageIn(ended.messages, 'm1')!.props.extra).toEqual({ timestamp: 103 })
  })

  it('a chunk stream keeps the timestamp of the chunk that started it', () => {
    const s = agUi([
      RS,
      { type: 'TEXT_MESSAGE_CHUNK', messageId: 'm1', delta: 'a', timestamp: 1 },
      { type: 'TEXT_MESSAGE_CHUNK', messageId: 'm1', delta: 'b', timestamp: 2 },
      RF,
    ])
    expect(messageIn(s.messages, 'm1')!.props.extra).toEqual({ timestamp: 1 })
  })

  it('the run, steps, tool calls and results keep theirs where they keep any other field', () => {
    const s = agUi([
      { ...RS, timestamp: 1 }, { ...STEP, timestamp: 2 }, { ...CALL, timestamp: 3 }, { ...ARGS, timestamp: 4 }, { ...CALL_END, timestamp: 5 },
      { ...RESULT, timestamp: 6 }, { ...STEP_END, timestamp: 7 }, { ...RF, timestamp: 8 },
    ])
    expect(s.turns[TURN]!.metadata.extra).toEqual({ timestamp: 8 })
    expect(stepRow(s)).toEqual({ timestamp: 7 })
    expect(messageIn(s.messages, 'c1')!.props).toMatchObject({ extra: { timestamp: 5 }, resultExtra: { timestamp: 6 } })
  })

  it('rawEvent goes to onData as a raw part, with the event type, and nowhere into the store', () => {
    const parts: DataPart[] = []
    const raw = { event: 'on_chat_model_stream', data: { chunk: { content: 'Hi' } } }
    const s = agUi([{ ...RS, rawEvent: raw }, { ...START, rawEvent: raw }, { ...CONTENT, rawEvent: raw }, RF], (part) => parts.push(part))
    expect(parts).toEqual([
      { type: 'raw', data: { event: raw, eventType: 'RUN_STARTED' } },
      { type: 'raw', data: { event: raw, eventType: 'TEXT_MESSAGE_START' } },
      { type: 'raw', data: { event: raw, eventType: 'TEXT_MESSAGE_CONTENT' } },
    ])
    expect(JSON.stringify(s)).not.toContain('on_chat_model_stream')
    expect(messageIn(s.messages, 'm1')!.props.extra).toBeUndefined()
  })

  it('a host whose onData throws gets a problem, and the stream goes on', () => {
    const s = agUi([RS, { ...START, rawEvent: { a: 1 } }, CONTENT, END, RF], () => {
      throw new Error('nope')
    })
    expect(messageIn(s.messages, 'm1')!.props.content).toBe('Hi')
    expect(problems(s)).toEqual(['invalid: the host\'s onData failed on the rawEvent of TEXT_MESSAGE_START: nope'])
  })
})

describe('AG-UI messages in snapshots and history keep their unread fields, and the request sends them back', () => {
  const stored = [
    { id: 'u1', seq: 1, runId: 'r1', role: 'user', content: 'Find renewals', createdAt: '2026-03-16T09:00:00Z' },
    {
      id: 'a1', seq: 2, runId: 'r1', role: 'assistant', content: 'Searching', name: 'helper', metadata: { model: 'm' }, createdAt: '2026-03-16T09:00:01Z',
      toolCalls: [{ id: 'c1', type: 'function', function: { name: 'search', arguments: '{"q":"renewals"}' }, metadata: { cost: 1 }, shard: 'eu' }],
    },
    { id: 'tr1', seq: 3, runId: 'r1', role: 'tool', toolCallId: 'c1', content: '{"hits":2}', metadata: { took: 12 }, cached: true },
    { id: 'a2', seq: 4, runId: 'r1', role: 'assistant', content: 'Two found', createdAt: '2026-03-16T09:00:02Z', ...PROBE },
  ]

  it('history: a message\'s in props.extra, a tool call\'s in its tool message\'s extra, a result\'s in resultExtra; seq and runId are read', () => {
    const state = fold(emptyState(), agUiHistoryOps({ hasMore: false, messages: stored }, emptyState()))
    expect(messageIn(state.messages, 'u1')!.props.extra).toEqual({ createdAt: '2026-03-16T09:00:00Z' })
    expect(messageIn(state.messages, 'a1')!.props).toMatchObject({ name: 'helper', metadata: { model: 'm' }, extra: { createdAt: '2026-03-16T09:00:01Z' } })
    expect(messageIn(state.messages, 'c1')!.props).toMatchObject({ extra: { metadata: { cost: 1 }, shard: 'eu' }, metadata: { took: 12 }, resultExtra: { cached: true } })
    expect(messageIn(state.messages, 'a2')!.props.extra).toEqual({ createdAt: '2026-03-16T09:00:02Z', ...PROBE })
  })

  it('the request sends every message with what it kept, as @ag-ui/core\'s schema accepts, and history read again gives it back', () => {
    const state = fold(emptyState(), agUiHistoryOps({ hasMore: false, messages: stored }, emptyState()))
    const sent = toAgUiMessages(state, state.turnIds)
    expect(sent).toEqual([
      { id: 'u1', role: 'user', content: 'Find renewals', createdAt: '2026-03-16T09:00:00Z' },
      {
        id: 'a1', role: 'assistant', content: 'Searching', name: 'helper', metadata: { model: 'm' }, createdAt: '2026-03-16T09:00:01Z',
        toolCalls: [{ id: 'c1', type: 'function', function: { name: 'search', arguments: '{"q":"renewals"}' }, metadata: { cost: 1 }, shard: 'eu' }],
      },
      { id: 'tr1', role: 'tool', toolCallId: 'c1', content: '{"hits":2}', metadata: { took: 12 }, cached: true },
      { id: 'a2', role: 'assistant', content: 'Two found', createdAt: '2026-03-16T09:00:02Z', ...PROBE },
    ])
    const body = { threadId: 'th1', runId: 'r2', messages: sent, tools: [], context: [], state: {}, forwardedProps: {} }
    const checked = RunAgentInputSchema.safeParse(body)
    expect(checked.success ? [] : checked.error.issues).toEqual([])
    // Stored again and read back: the same request.
    const again = fold(emptyState(), agUiHistoryOps({ hasMore: false, messages: JSON.parse(JSON.stringify(sent)) }, emptyState()))
    expect(toAgUiMessages(again, again.turnIds)).toEqual(sent)
  })

  it('a MESSAGES_SNAPSHOT and RUN_STARTED.input keep their messages\' fields the same way', () => {
    const s = agUi([
      { ...RS, input: { threadId: 'th1', runId: 'r1', messages: [{ id: 'in1', role: 'assistant', content: 'Earlier', origin: 'input' }] } },
      { type: 'MESSAGES_SNAPSHOT', messages: [{ id: 'sn1', role: 'assistant', content: 'Snap', origin: 'snapshot', seq: 9 }] },
      RF,
    ])
    expect(messageIn(s.messages, 'in1')!.props.extra).toEqual({ origin: 'input' })
    // A snapshot is not history: its seq is a field like any other.
    expect(messageIn(s.messages, 'sn1')!.props.extra).toEqual({ origin: 'snapshot', seq: 9 })
  })

  it('a streamed message\'s extras go back on it, and the call\'s and the result\'s on theirs; the builder\'s own fields win', () => {
    const s = agUi([
      RS,
      { ...START, locale: 'en', content: 'spoofed', toolCalls: 'spoofed', id: 'spoofed' },
      CONTENT, END,
      { ...CALL, parentMessageId: 'm1', metadata: { cost: 2 }, shard: 'eu', function: 'spoofed' }, ARGS, CALL_END,
      { ...RESULT, cached: true, toolCallId: 'c1' },
      RF,
    ])
    expect(toAgUiMessages(s, s.turnIds)).toEqual([
      {
        id: 'm1', role: 'assistant', content: 'Hi', name: 'helper', metadata: { trace: 't1' }, locale: 'en',
        toolCalls: [{ id: 'c1', type: 'function', function: { name: 'search', arguments: '{"q":"renewals"}' }, metadata: { cost: 2 }, shard: 'eu' }],
      },
      { id: 'tr1', role: 'tool', toolCallId: 'c1', content: '{"hits":1}', cached: true },
    ])
  })
})

describe('AG-UI: wire data never reaches a prototype through extra', () => {
  it('a __proto__ field is neither kept nor a prototype; a nested one is refused and reported', () => {
    const s = agUi([
      RS, START,
      JSON.parse('{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"Hi","__proto__":{"polluted":true}}'),
      JSON.parse('{"type":"TEXT_MESSAGE_END","messageId":"m1","kept":{"__proto__":{"polluted":true},"ok":1},"constructor":{"prototype":{"polluted":true}}}'),
      JSON.parse('{"type":"RUN_FINISHED","threadId":"th1","runId":"r1","__proto__":{"polluted":true},"prototype":1}'),
    ])
    const extra = messageIn(s.messages, 'm1')!.props.extra as Record<string, unknown>
    expect(extra).toEqual({ kept: { ok: 1 } })
    expect(Object.getPrototypeOf(extra)).toBe(Object.prototype)
    expect(Object.getPrototypeOf(extra.kept)).toBe(Object.prototype)
    expect(s.turns[TURN]!.metadata.extra).toBeUndefined()
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(problems(s)).toEqual(['undefined: refused the key "__proto__" sent by the server'])
  })
})

// ---------------------------------------------------------------- Vocion

const vocion = (events: readonly Ev[]) => foldStream(events, { protocol: 'vocion' })
const DONE: Ev = { type: 'done', response: 'Hi', traceId: 'tr-1' }
const ANSWER: Ev = { type: 'response_delta', delta: 'Hi' }
const TOOL: Ev = { type: 'tool_start', tool: 'search', input: { q: 'renewals' } }
const TOOL_END: Ev = { type: 'tool_end', tool: 'search', input: { q: 'renewals' }, output: '2 hits' }
const LANE: Ev = { type: 'subagent_start', name: 'researcher' }
const LANE_END: Ev = { type: 'subagent_end', name: 'researcher' }
const toolExtra = extraOfType('tool')
const delegateRow = rowWhere((n) => n.kind === 'delegate')

/** A case, or `dropped` for an event type the decoder drops whole. */
const VOCION_CASES: Record<string, Case | 'dropped'> = {
  stream_meta: (p) => ({ events: [{ type: 'stream_meta', streamId: 's1', ...p }, ANSWER, DONE], where: turnExtra }),
  thinking: (p) => ({ events: [{ type: 'thinking', ...p }, { type: 'thinking_delta', delta: 'hm' }, ANSWER, DONE], where: extraOfType('reasoning') }),
  thinking_delta: (p) => ({ events: [{ type: 'thinking' }, { type: 'thinking_delta', delta: 'hm', ...p }, ANSWER, DONE], where: extraOfType('reasoning') }),
  answering: (p) => ({ events: [{ type: 'thinking_delta', delta: 'hm' }, { type: 'answering', ...p }, ANSWER, DONE], where: turnExtra }),
  response_delta: (p) => ({ events: [with_(ANSWER, p), DONE], where: extraOfType('text') }),
  tool_start: (p) => ({ events: [with_(TOOL, p), TOOL_END, DONE], where: toolExtra }),
  tool_end: (p) => ({ events: [TOOL, with_(TOOL_END, p), DONE], where: toolExtra }),
  tool_error: (p) => ({ events: [TOOL, { type: 'tool_error', tool: 'search', message: 'unreachable', status: 503, ...p }, DONE], where: toolExtra }),
  subagent_start: (p) => ({ events: [with_(LANE, p), LANE_END, DONE], where: delegateRow }),
  subagent_end: (p) => ({ events: [LANE, with_(LANE_END, p), DONE], where: delegateRow }),
  documents: (p) => ({
    events: [{ type: 'documents', documents: [{ document_id: 'd1', semantic_identifier: 'Renewal', link: 'https://crm/1', blurb: 'Sep', citationIndex: 1 }], ...p }, DONE],
    where: turnExtra,
  }),
  retrieval_progress: (p) => ({
    events: [{ type: 'retrieval_progress', stage: 'started', meta: {}, ...p }, { type: 'retrieval_progress', stage: 'complete', meta: { hits: 2 } }, DONE],
    where: rowWhere((n) => n.kind === 'search'),
  }),
  skill_result: (p) => ({
    events: [{ type: 'skill_result', skillResult: { runId: 'k1', skillName: 'Summarise', skillSlug: 'summarise', content: 'Done' }, ...p }, DONE],
    where: rowWhere((n) => n.kind === 'skill'),
  }),
  recommended_action: (p) => ({
    events: [{ type: 'recommended_action', recommendation: { actionId: 'gmail.send', input: { to: 'a@b.c' }, label: 'Send', confidence: 0.8 }, ...p }, DONE],
    where: extraOfType('recommended-action'),
  }),
  trace_node: (p) => ({
    events: [
      { type: 'trace_node', id: 'n1', actor: { id: 'lead', kind: 'lead', name: 'Lead' }, kind: 'search', status: 'start', label: 'Searching', detail: 'CRM', confidence: 0.5, ...p },
      { type: 'trace_node', id: 'n1', status: 'done', delta: ' done' },
      DONE,
    ],
    where: rowExtra(`${TURN}/trace/n1`),
  }),
  hitl_gate: (p) => ({
    events: [{ type: 'hitl_gate', gate: { name: 'send_email', question: 'Send it?', payload: { to: 'a@b.c' }, resumeUrl: '/resume' }, ...p }],
    where: (s) => Object.values(s.gates)[0]?.extra,
  }),
  done: (p) => ({ events: [ANSWER, { ...DONE, ...p }], where: turnExtra }),
  error: (p) => ({ events: [ANSWER, { type: 'error', message: 'boom', ...p }], where: turnExtra }),
  run_meta: (p) => ({ events: [{ type: 'run_meta', model: 'm', provider: 'p', strength: 'high', thinking: true, ...p }, ANSWER, DONE], where: turnExtra }),
  artifact: (p) => ({ events: [{ type: 'artifact', artifact: { id: 'a1', title: 'Plan' }, pending: true, ...p }, DONE], where: extraOfType('data-artifact') }),
  record_created: (p) => ({ events: [{ type: 'record_created', record: { id: 'r1', kind: 'task' }, ...p }, DONE], where: extraOfType('data-record') }),
  usage: 'dropped',
  step_progress: 'dropped',
  composing: 'dropped',
  memories_mounted: 'dropped',
}

describe('Vocion: every known event keeps its unread fields on what it made', () => {
  it('has a case for every event type the decoder knows, and nothing else', () => {
    expect(Object.keys(VOCION_CASES).sort()).toEqual([...VOCION_EVENT_TYPES].sort())
    expect(Object.entries(VOCION_CASES).filter(([, c]) => c === 'dropped').map(([t]) => t).sort()).toEqual([...VOCION_DROPPED_TYPES].sort())
    expect([...VOCION_EVENT_FIELDS.keys()].every((type) => !VOCION_DROPPED_TYPES.has(type))).toBe(true)
  })

  it('an event type the list does not name is unknown, whatever the decoder could do with it', () => {
    const decoder = createVocionDecoder({ turnId: 't1', scope: 't1' })
    expect(decoder.decode({ type: 'toString' }, {})).toMatchObject([{ op: 'problem', error: { code: 'unknown_event' } }])
  })

  it.each([...VOCION_EVENT_TYPES])('%s', (type) => {
    const build = VOCION_CASES[type]
    if (!build) throw new Error(`no case for the Vocion event type ${type}: add one to VOCION_CASES`)
    if (build === 'dropped') {
      // Dropped whole, as the rail asks (usage) or because it carries nothing the transcript shows.
      const s = vocion([{ type, model: 'm', ...PROBE }, ANSWER, DONE])
      expect(JSON.stringify(s)).not.toContain('x_weft_probe')
      expect(problems(s)).toEqual([])
      return
    }
    const plain = build({})
    const folded = vocion(plain.events)
    expect(problems(folded)).toEqual([])
    expect(plain.where(folded)).toBeUndefined()

    const probed = build(PROBE)
    const kept = vocion(probed.events)
    expect(problems(kept)).toEqual([])
    expect(probed.where(kept)).toEqual(PROBE)
  })
})

describe('Vocion: objects an event carries keep theirs, deltas merge, and history keeps a turn\'s', () => {
  it('each search document keeps its unread fields on its source; a gate\'s object keeps its own beside the event\'s', () => {
    const s = vocion([
      { type: 'documents', documents: [{ document_id: 'd1', semantic_identifier: 'Renewal', source_type: 'hubspot', foundBy: ['vector'], ...PROBE }] },
      { type: 'hitl_gate', gate: { name: 'send', question: 'Send?', expiresAt: '2026-12-01' }, channel: 'email' },
    ])
    expect(s.turns[TURN]!.sources).toEqual([{ id: 'd1', kind: 'document', title: 'Renewal', extra: { source_type: 'hubspot', foundBy: ['vector'], ...PROBE } }])
    expect(Object.values(s.gates)[0]!.extra).toEqual({ channel: 'email', expiresAt: '2026-12-01' })
  })

  it('answer and reasoning deltas and a row\'s updates merge their extras, a later value winning', () => {
    const s = vocion([
      { type: 'thinking_delta', delta: 'a', step: 1 }, { type: 'thinking_delta', delta: 'b', step: 2 },
      { type: 'response_delta', delta: 'H', lang: 'en', stats: { n: 1 } }, { type: 'response_delta', delta: 'i', stats: { m: 2 } },
      { type: 'trace_node', id: 'n1', label: 'Searching', status: 'start', weight: 1, meta: { a: 1 } },
      { type: 'trace_node', id: 'n1', status: 'done', meta: { b: 2 } },
      DONE,
    ])
    expect(typed(s, 'reasoning')[0]!.props).toMatchObject({ content: 'ab', extra: { step: 2 } })
    expect(typed(s, 'text')[0]!.props).toMatchObject({ content: 'Hi', extra: { lang: 'en', stats: { n: 1, m: 2 } } })
    expect(traceRecord(s.trace)[`${TURN}/trace/n1`]).toMatchObject({ status: 'done', extra: { weight: 1, meta: { a: 1, b: 2 } } })
  })

  it('an ordinary delta decodes to its one append', () => {
    const decoder = createVocionDecoder({ turnId: 't1', scope: 't1' })
    expect(decoder.decode(ANSWER, {})).toHaveLength(1)
    expect(decoder.decode({ type: 'thinking_delta', delta: 'x' }, {})).toHaveLength(1)
    expect(decoder.decode({ type: 'trace_node', id: 'n1', label: 'Searching', delta: 'a' }, {})).toHaveLength(1)
  })

  it('a recommendation keeps the event\'s fields in its extra, beside an extra it already had', () => {
    const s = vocion([{ type: 'recommended_action', recommendation: { actionId: 'a', label: 'Go', input: {}, extra: { own: 1 } }, origin: 'rail' }, DONE])
    expect(typed(s, 'recommended-action')[0]!.props).toEqual({ actionId: 'a', label: 'Go', input: {}, extra: { own: 1, origin: 'rail' } })
  })

  it('history: a user turn\'s fields on its text, an assistant turn\'s on the turn, merged with its events\'', () => {
    const batch = vocionHistory([
      { id: 'q1', role: 'user', content: 'Where is it?', sentAt: '2026-03-16', ...PROBE },
      { id: 'a1', role: 'assistant', events: [ANSWER, { ...DONE, latencyMs: 9 }], model: 'm' },
    ])
    const s = fold(emptyState(), historyOps(batch, emptyState()))
    expect(messageIn(s.messages, 'q1/text')!.props).toEqual({ content: 'Where is it?', extra: { sentAt: '2026-03-16', ...PROBE } })
    expect(s.turns.a1!.metadata.extra).toEqual({ model: 'm', latencyMs: 9 })
  })

  it('a __proto__ field is neither kept nor a prototype', () => {
    const s = vocion([
      JSON.parse('{"type":"response_delta","delta":"Hi","__proto__":{"polluted":true},"ok":1}'),
      JSON.parse('{"type":"trace_node","id":"n1","label":"x","__proto__":{"polluted":true}}'),
      DONE,
    ])
    const extra = typed(s, 'text')[0]!.props.extra as Record<string, unknown>
    expect(extra).toEqual({ ok: 1 })
    expect(Object.getPrototypeOf(extra)).toBe(Object.prototype)
    expect(traceRecord(s.trace)[`${TURN}/trace/n1`]!.extra).toBeUndefined()
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })
})
