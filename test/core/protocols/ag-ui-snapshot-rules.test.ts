/**
 * Exact ops of AG-UI's whole-value events: `STATE_SNAPSHOT`, `MESSAGES_SNAPSHOT`
 * (merged by id, and what it tells later events about the messages and tool
 * calls it names), `ACTIVITY_SNAPSHOT` / `ACTIVITY_DELTA`, `RAW` and `CUSTOM`;
 * and the small shared readers: roles, the input message id, sniffing, and the
 * extra fields of a chunk.
 */
import { describe, expect, it } from 'vitest'
import type { Message } from '../../../src/core/model/model'
import type { Op } from '../../../src/core/model/ops'
import type { DataPart } from '../../../src/core/protocol/types'
import { createAgUiDecoder } from '../../../src/protocols/ag-ui/decoder'
import { eventExtras } from '../../../src/protocols/ag-ui/event-fields'
import { sniffAgUi } from '../../../src/protocols/ag-ui/event-types'
import { agUiInputMessageId, roleOf } from '../../../src/protocols/ag-ui/stream-state'

type Ev = Record<string, unknown>
type Role = Message['role']

/** A decoder for turn t1 and a way to feed it events one at a time; `flush` writes what its tokens gathered. */
function decoderFor(onData?: (part: DataPart) => void) {
  const decoder = createAgUiDecoder({ turnId: 't1', scope: 't1', onData })
  return Object.assign((event: Ev): Op[] => decoder.decode(event, {}), { flush: (): Op[] => decoder.flush!() })
}

const problem = (message: string, code: string, raw: unknown): Op => ({
  op: 'problem', turnId: 't1', error: { type: 'protocol', message, retryable: false, code, detail: JSON.stringify(raw) },
})

/** The place of a message of turn t1 outside any step. */
const at = (messageId: string, type: string, role: Role = 'assistant', threadId?: string) =>
  ({ turnId: 't1', messageId, type, role, blockId: undefined, threadId })

const snapshotSet = (messageId: string, type: string, role: Role, value: Record<string, unknown>, threadId?: string): Op =>
  ({ op: 'message.delta', turnId: 't1', messageId, type, role, threadId, action: 'set', path: '', value, retype: true })
const finish = (messageId: string, status: 'done' | 'error' = 'done'): Op => ({ op: 'message.finish', messageId, status })
const snapshot = (...messages: unknown[]): Ev => ({ type: 'MESSAGES_SNAPSHOT', messages })

describe('STATE_SNAPSHOT', () => {
  it('without a snapshot it is reported and sets nothing', () => {
    const feed = decoderFor()
    expect(feed({ type: 'STATE_SNAPSHOT' })).toEqual([problem('STATE_SNAPSHOT without "snapshot"', 'state_snapshot', { type: 'STATE_SNAPSHOT' })])
  })

  it('an object is the state; any other value is wrapped', () => {
    const feed = decoderFor()
    expect(feed({ type: 'STATE_SNAPSHOT', snapshot: { step: 1 } })).toEqual([{ op: 'agentState.set', value: { step: 1 } }])
    expect(feed({ type: 'STATE_SNAPSHOT', snapshot: [1, 2] })).toEqual([{ op: 'agentState.set', value: { value: [1, 2] } }])
  })
})

describe('MESSAGES_SNAPSHOT', () => {
  const list = [
    { id: 'u1', role: 'user', content: 'Hi' },
    { id: 'a1', role: 'assistant', content: 'Checking', toolCalls: [{ id: 'c1', type: 'function', function: { name: 'search', arguments: '{}' } }] },
    { id: 'tr1', role: 'tool', toolCallId: 'c1', content: 'no', error: 'failed' },
    { id: 'r1', role: 'reasoning', content: 'Hmm' },
    { id: 'x1', role: 'activity', activityType: 'plan', content: { steps: [1] } },
  ]

  it('each message is set whole, may change type, and is finished; a failed result finishes with an error', () => {
    const feed = decoderFor()
    expect(feed(snapshot(...list))).toEqual([
      snapshotSet('u1', 'text', 'user', { content: 'Hi' }), finish('u1'),
      snapshotSet('a1', 'text', 'assistant', { content: 'Checking' }), finish('a1'),
      snapshotSet('c1', 'tool', 'assistant', { toolCallId: 'c1', name: 'search', state: 'input-available', inputText: '{}', input: {}, parentMessageId: 'a1' }),
      finish('c1'),
      snapshotSet('c1', 'tool', 'assistant', {
        resultContent: 'no', output: 'no', state: 'output-error', errorText: 'failed', toolCallId: 'c1', resultMessageId: 'tr1',
      }),
      finish('c1', 'error'),
      snapshotSet('r1', 'reasoning', 'assistant', { content: 'Hmm' }), finish('r1'),
      snapshotSet('x1', 'activity', 'assistant', { activityType: 'plan', content: { steps: [1] } }), finish('x1'),
    ])
  })

  it('the echo of the turn\'s own input message is left out', () => {
    expect(agUiInputMessageId('turn-1')).toBe('turn-1:input')
    const feed = decoderFor()
    expect(feed(snapshot({ id: 't1:input', role: 'user', content: 'Hi' }))).toEqual([])
  })

  it('a message it cannot read is reported with the message quoted', () => {
    const feed = decoderFor()
    expect(feed(snapshot({ id: 'z1', role: 'critic', content: 'Meh' }))).toEqual([
      problem('unknown message role "critic"; kept as assistant text', 'message', { id: 'z1', role: 'critic', content: 'Meh' }),
      snapshotSet('z1', 'text', 'assistant', { content: 'Meh', sourceRole: 'critic' }), finish('z1'),
    ])
  })

  it('its text and reasoning messages take more content without being started again', () => {
    const feed = decoderFor()
    feed(snapshot(...list))
    // Each token is held (no repaired start, no problem) and written at the flush, in the order they began.
    expect(feed({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'a1', delta: ' more' })).toEqual([])
    expect(feed({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'u1', delta: '!' })).toEqual([])
    expect(feed({ type: 'REASONING_MESSAGE_CONTENT', messageId: 'r1', delta: ' so' })).toEqual([])
    expect(feed.flush()).toEqual([
      { op: 'message.delta', ...at('a1', 'text'), action: 'append', path: 'content', value: ' more' },
      { op: 'message.delta', ...at('u1', 'text'), action: 'append', path: 'content', value: '!' },
      { op: 'message.delta', ...at('r1', 'reasoning'), action: 'append', path: 'content', value: ' so' },
    ])
  })

  it('its activity and tool messages are not text messages this stream started', () => {
    const feed = decoderFor()
    feed(snapshot(...list))
    const endActivity = { type: 'TEXT_MESSAGE_END', messageId: 'x1' }
    expect(feed(endActivity)).toEqual([problem('TEXT_MESSAGE_END for message "x1", which was not started', 'end_without_start', endActivity)])
    const endTool = { type: 'TEXT_MESSAGE_END', messageId: 'c1' }
    expect(feed(endTool)).toEqual([problem('TEXT_MESSAGE_END for message "c1", which was not started', 'end_without_start', endTool)])
  })

  it('its activity messages take deltas; its text messages do not', () => {
    const feed = decoderFor()
    feed(snapshot(...list))
    expect(feed({ type: 'ACTIVITY_DELTA', messageId: 'x1', patch: [{ op: 'replace', path: '/steps/0', value: 2 }] })).toEqual([
      { op: 'message.delta', ...at('x1', 'activity'), action: 'set', path: 'content', value: { steps: [2] } },
      finish('x1'),
    ])
    const onText = { type: 'ACTIVITY_DELTA', messageId: 'a1', patch: [] }
    expect(feed(onText)).toEqual([problem('ACTIVITY_DELTA for "a1", which has no snapshot', 'activity_delta', onText)])
  })

  it('its text messages are not tool calls: arguments under such an id make a new call', () => {
    const feed = decoderFor()
    feed(snapshot(...list))
    const args = { type: 'TOOL_CALL_ARGS', toolCallId: 'a1', delta: '{}' }
    expect(feed(args)[0]).toEqual(problem('arguments for tool call "a1" before its start; the call was created', 'repaired', args))
  })

  it('a result for a call never seen makes the call, named by the result; a later start keeps it done', () => {
    const feed = decoderFor()
    feed(snapshot({ id: 'tr9', role: 'tool', toolCallId: 'c9', toolName: 'search', content: 'ok' }))
    const start = { type: 'TOOL_CALL_START', toolCallId: 'c9' }
    expect(feed(start)).toEqual([
      problem('TOOL_CALL_START "c9" without "toolCallName"', 'missing_name', start),
      { op: 'message.delta', ...at('c9', 'tool'), action: 'set', path: '', value: { toolCallId: 'c9', name: 'search', inputText: '' } },
      { op: 'trace.node', turnId: 't1', node: { id: 'tool:c9', kind: 'tool', label: 'search', tool: 'search', parentId: undefined } },
    ])
  })

  it('a result without a tool name names its new call tool', () => {
    const feed = decoderFor()
    feed(snapshot({ id: 'tr9', role: 'tool', toolCallId: 'c9', content: 'ok' }))
    expect(feed({ type: 'TOOL_CALL_START', toolCallId: 'c9' }).slice(1)).toEqual([
      { op: 'message.delta', ...at('c9', 'tool'), action: 'set', path: '', value: { toolCallId: 'c9', name: 'tool', inputText: '' } },
      { op: 'trace.node', turnId: 't1', node: { id: 'tool:c9', kind: 'tool', label: 'tool', tool: 'tool', parentId: undefined } },
    ])
  })

  it('a call it names is closed: the run\'s end does not complete it again', () => {
    const feed = decoderFor()
    feed({ type: 'RUN_STARTED', threadId: 'th', runId: 'r1' })
    feed(snapshot({ id: 'a1', role: 'assistant', toolCalls: [{ id: 'c1', function: { name: 'search', arguments: '{}' } }] }))
    expect(feed({ type: 'RUN_FINISHED', threadId: 'th', runId: 'r1' })).toEqual([{ op: 'turn.finish', turnId: 't1', status: 'done' }])
  })

  it('a call repeated after its result keeps the result\'s state', () => {
    const feed = decoderFor()
    const messages = [
      { id: 'a1', role: 'assistant', toolCalls: [{ id: 'c1', function: { name: 'search', arguments: '{}' } }] },
      { id: 'tr1', role: 'tool', toolCallId: 'c1', content: 'ok' },
    ]
    feed(snapshot(...messages))
    expect(feed(snapshot(...messages))).toEqual([
      snapshotSet('c1', 'tool', 'assistant', { toolCallId: 'c1', name: 'search', inputText: '{}', input: {}, parentMessageId: 'a1' }),
      finish('c1'),
      snapshotSet('c1', 'tool', 'assistant', { resultContent: 'ok', output: 'ok', state: 'output-available', toolCallId: 'c1', resultMessageId: 'tr1' }),
      finish('c1'),
    ])
  })

  it('a call still streaming its arguments takes the snapshot\'s name and arguments and stays open', () => {
    const feed = decoderFor()
    feed({ type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'old' })
    feed({ type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '{"q' })
    const ops = feed(snapshot({ id: 'a1', role: 'assistant', toolCalls: [{ id: 'c1', function: { name: 'new', arguments: '{"q":"x"}' } }] }))
    // The arguments streamed so far are written first (their text, then their value); the snapshot's then replace them.
    expect(ops).toStrictEqual([
      { op: 'message.delta', turnId: 't1', messageId: 'c1', action: 'append', path: 'inputText', value: '{"q' },
      { op: 'message.delta', ...at('c1', 'tool'), action: 'set', path: 'input', value: {} },
      snapshotSet('c1', 'tool', 'assistant', { toolCallId: 'c1', name: 'new', inputText: '{"q":"x"}', input: { q: 'x' }, parentMessageId: 'a1' }),
    ])
    expect(feed({ type: 'TOOL_CALL_END', toolCallId: 'c1' })).toEqual([
      { op: 'message.delta', ...at('c1', 'tool'), action: 'set', path: 'input', value: { q: 'x' } },
      { op: 'message.delta', ...at('c1', 'tool'), action: 'set', path: 'state', value: 'input-available' },
      { op: 'trace.node', turnId: 't1', node: { id: 'tool:c1', args: { q: 'x' }, status: 'progress' } },
    ])
    const result = feed({ type: 'TOOL_CALL_RESULT', toolCallId: 'c1', content: 'ok' })
    expect(result.at(-1)).toEqual({
      op: 'trace.node', turnId: 't1',
      node: { id: 'tool:c1', kind: 'tool', label: 'new', tool: 'new', parentId: undefined, status: 'done', result: 'ok' },
    })
  })

  it('a call whose snapshot has no arguments keeps the arguments streamed so far', () => {
    const feed = decoderFor()
    feed({ type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'search' })
    feed({ type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '{"q' })
    feed(snapshot({ id: 'a1', role: 'assistant', toolCalls: [{ id: 'c1', function: { name: 'search' } }] }))
    const end = feed({ type: 'TOOL_CALL_END', toolCallId: 'c1' })
    expect(end.find((op) => op.op === 'problem')).toEqual(
      problem('the arguments of tool call "c1" are not valid JSON: the arguments stop before the JSON ends', 'tool_arguments', '{"q'),
    )
  })

  it('a text message still streaming is set but not finished', () => {
    const feed = decoderFor()
    feed({ type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' })
    expect(feed(snapshot({ id: 'm1', role: 'assistant', content: 'Hi' }))).toEqual([snapshotSet('m1', 'text', 'assistant', { content: 'Hi' })])
  })

  it('a text message finishes even when a tool call of the same id is open', () => {
    const feed = decoderFor()
    feed({ type: 'TOOL_CALL_START', toolCallId: 'x', toolCallName: 'search' })
    expect(feed(snapshot({ id: 'x', role: 'assistant', content: 'Hi' })).slice(-2)).toEqual([
      snapshotSet('x', 'text', 'assistant', { content: 'Hi' }), finish('x'),
    ])
  })

  it('a call keeps the sub-agent lane of its message for its later result', () => {
    const feed = decoderFor()
    feed(snapshot(
      { id: 'a1', role: 'assistant', subagentRunId: 'sub', toolCalls: [{ id: 'c1', function: { name: 'search' } }] },
      { id: 'a2', role: 'assistant', toolCalls: [{ id: 'c2', function: { name: 'search' } }] },
    ))
    expect(feed({ type: 'TOOL_CALL_RESULT', toolCallId: 'c1', content: 'ok' })[0]).toEqual({
      op: 'message.delta', ...at('c1', 'tool', 'assistant', 'sub'), action: 'set', path: '',
      value: { resultContent: 'ok', output: 'ok', state: 'output-available', toolCallId: 'c1' },
    })
    expect(feed({ type: 'TOOL_CALL_RESULT', toolCallId: 'c2', content: 'ok' })[0]).toEqual({
      op: 'message.delta', ...at('c2', 'tool'), action: 'set', path: '',
      value: { resultContent: 'ok', output: 'ok', state: 'output-available', toolCallId: 'c2' },
    })
  })
})

describe('ACTIVITY_SNAPSHOT', () => {
  it('puts the activity message with its type, content, metadata and unread fields', () => {
    const feed = decoderFor()
    expect(feed({ type: 'ACTIVITY_SNAPSHOT', messageId: 'x1', activityType: 'plan', content: { a: 1 }, metadata: { m: 1 }, note: 'n' })).toEqual([{
      op: 'message.put', ...at('x1', 'activity'),
      props: { activityType: 'plan', content: { a: 1 }, metadata: { m: 1 }, extra: { note: 'n' } }, status: 'done',
    }])
  })

  it('without a type or object content it takes the defaults', () => {
    const feed = decoderFor()
    expect(feed({ type: 'ACTIVITY_SNAPSHOT', messageId: 'x1', content: 'text', subagentRunId: 'sub' })).toEqual([{
      op: 'message.put', ...at('x1', 'activity', 'assistant', 'sub'), props: { activityType: 'activity', content: {} }, status: 'done',
    }])
  })

  it('one that does not replace puts a message it does not have yet', () => {
    const feed = decoderFor()
    expect(feed({ type: 'ACTIVITY_SNAPSHOT', messageId: 'x1', activityType: 'plan', content: { a: 1 }, replace: false })).toEqual([{
      op: 'message.put', ...at('x1', 'activity'), props: { activityType: 'plan', content: { a: 1 } }, status: 'done',
    }])
  })

  it('one that does not replace leaves known content and merges only its metadata and unread fields', () => {
    const feed = decoderFor()
    feed({ type: 'ACTIVITY_SNAPSHOT', messageId: 'x1', activityType: 'plan', content: { a: 1 } })
    expect(feed({ type: 'ACTIVITY_SNAPSHOT', messageId: 'x1', content: { a: 2 }, replace: false })).toEqual([])
    expect(feed({ type: 'ACTIVITY_SNAPSHOT', messageId: 'x1', content: { a: 2 }, replace: false, metadata: { m: 1 }, note: 'n' })).toEqual([
      { op: 'message.delta', ...at('x1', 'activity'), action: 'merge', path: 'metadata', value: { m: 1 } },
      { op: 'message.delta', ...at('x1', 'activity'), action: 'merge', path: 'extra', value: { note: 'n' } },
    ])
    // The content kept is the first one: a delta applies to it.
    expect(feed({ type: 'ACTIVITY_DELTA', messageId: 'x1', patch: [{ op: 'add', path: '/b', value: 3 }] })[0]).toEqual({
      op: 'message.delta', ...at('x1', 'activity'), action: 'set', path: 'content', value: { a: 1, b: 3 },
    })
  })

  it('one that replaces puts the new content', () => {
    const feed = decoderFor()
    feed({ type: 'ACTIVITY_SNAPSHOT', messageId: 'x1', content: { a: 1 } })
    expect(feed({ type: 'ACTIVITY_SNAPSHOT', messageId: 'x1', content: { a: 2 }, replace: true })).toEqual([{
      op: 'message.put', ...at('x1', 'activity'), props: { activityType: 'activity', content: { a: 2 } }, status: 'done',
    }])
  })
})

describe('ACTIVITY_DELTA', () => {
  it('for a message with no snapshot it is reported', () => {
    const feed = decoderFor()
    const delta = { type: 'ACTIVITY_DELTA', messageId: 'x9', patch: [] }
    expect(feed(delta)).toEqual([problem('ACTIVITY_DELTA for "x9", which has no snapshot', 'activity_delta', delta)])
  })

  it('without a patch array it is reported', () => {
    const feed = decoderFor()
    feed({ type: 'ACTIVITY_SNAPSHOT', messageId: 'x1', content: { a: 1 } })
    const delta = { type: 'ACTIVITY_DELTA', messageId: 'x1', patch: { op: 'add' } }
    expect(feed(delta)).toEqual([problem('ACTIVITY_DELTA needs a JSON Patch array in "patch"', 'activity_delta', delta)])
  })

  it('a patch that does not apply is reported and changes nothing', () => {
    const feed = decoderFor()
    feed({ type: 'ACTIVITY_SNAPSHOT', messageId: 'x1', content: { a: 1 } })
    const delta = { type: 'ACTIVITY_DELTA', messageId: 'x1', patch: [{ op: 'replace', path: '/missing/x', value: 1 }] }
    expect(feed(delta)).toEqual([problem(
      'ACTIVITY_DELTA could not be applied: operation 0 (replace): "path" "/missing/x" names "missing", which the object there does not have',
      'activity_delta', delta,
    )])
    expect(feed({ type: 'ACTIVITY_DELTA', messageId: 'x1', patch: [] })[0]).toEqual({
      op: 'message.delta', ...at('x1', 'activity'), action: 'set', path: 'content', value: { a: 1 },
    })
  })

  it('sets the patched content, a new type, metadata and unread fields, then finishes', () => {
    const feed = decoderFor()
    feed({ type: 'ACTIVITY_SNAPSHOT', messageId: 'x1', content: { a: 1 }, subagentRunId: 'sub' })
    expect(feed({
      type: 'ACTIVITY_DELTA', messageId: 'x1', activityType: 'plan', patch: [{ op: 'add', path: '/b', value: 2 }], metadata: { m: 1 }, note: 'n',
      subagentRunId: 'sub',
    })).toEqual([
      { op: 'message.delta', ...at('x1', 'activity', 'assistant', 'sub'), action: 'set', path: 'content', value: { a: 1, b: 2 } },
      { op: 'message.delta', ...at('x1', 'activity', 'assistant', 'sub'), action: 'set', path: 'activityType', value: 'plan' },
      { op: 'message.delta', ...at('x1', 'activity', 'assistant', 'sub'), action: 'merge', path: 'metadata', value: { m: 1 } },
      { op: 'message.delta', ...at('x1', 'activity', 'assistant', 'sub'), action: 'merge', path: 'extra', value: { note: 'n' } },
      finish('x1'),
    ])
    expect(feed({ type: 'ACTIVITY_DELTA', messageId: 'x1', patch: [{ op: 'remove', path: '/a' }] })).toEqual([
      { op: 'message.delta', ...at('x1', 'activity'), action: 'set', path: 'content', value: { b: 2 } },
      finish('x1'),
    ])
  })
})

describe('RAW', () => {
  it('hands the event to the host and keeps it on the turn, with its source and unread fields only when sent', () => {
    const seen: DataPart[] = []
    const feed = decoderFor((part) => seen.push(part))
    const first = feed({ type: 'RAW', event: { a: 1 } })
    expect(first).toStrictEqual([{ op: 'turn.update', turnId: 't1', metadata: { rawEvents: [{ event: { a: 1 } }] } }])
    const second = feed({ type: 'RAW', event: { b: 2 }, source: 'graph', note: 'n' })
    expect(second).toStrictEqual([{
      op: 'turn.update', turnId: 't1',
      metadata: { rawEvents: [{ event: { a: 1 } }, { event: { b: 2 }, source: 'graph', extra: { note: 'n' } }] },
    }])
    // What an earlier op carried does not change with later events.
    expect(first).toStrictEqual([{ op: 'turn.update', turnId: 't1', metadata: { rawEvents: [{ event: { a: 1 } }] } }])
    expect(seen).toStrictEqual([
      { type: 'raw', data: { event: { a: 1 } } },
      { type: 'raw', data: { event: { b: 2 }, source: 'graph', extra: { note: 'n' } } },
    ])
  })

  it('the turn keeps the last twenty', () => {
    const feed = decoderFor()
    let last: Op[] = []
    for (let i = 1; i <= 20; i++) last = feed({ type: 'RAW', event: i })
    expect(last).toStrictEqual([{ op: 'turn.update', turnId: 't1', metadata: { rawEvents: Array.from({ length: 20 }, (_, i) => ({ event: i + 1 })) } }])
    last = feed({ type: 'RAW', event: 21 })
    expect(last).toStrictEqual([{ op: 'turn.update', turnId: 't1', metadata: { rawEvents: Array.from({ length: 20 }, (_, i) => ({ event: i + 2 })) } }])
  })
})

describe('CUSTOM', () => {
  it('without a name it is reported', () => {
    const feed = decoderFor()
    expect(feed({ type: 'CUSTOM', value: 1 })).toEqual([problem('CUSTOM without "name"', 'missing_name', { type: 'CUSTOM', value: 1 })])
  })

  it('a value with an id is a data message under the name and that id', () => {
    const feed = decoderFor()
    expect(feed({ type: 'CUSTOM', name: 'progress', value: { id: 'v1', pct: 5 }, subagentRunId: 'sub' })).toEqual([{
      op: 'message.put', ...at('t1/custom/progress/v1', 'data-progress', 'assistant', 'sub'), type: 'data-progress',
      props: { data: { id: 'v1', pct: 5 } }, status: 'done',
    }])
  })

  it('a value without an id is a new data message each time, keeping unread fields', () => {
    const feed = decoderFor()
    expect(feed({ type: 'CUSTOM', name: 'ping', value: 3, note: 'n' })).toEqual([{
      op: 'message.put', ...at('t1/custom-1', 'data-ping'), type: 'data-ping', props: { data: 3, extra: { note: 'n' } }, status: 'done',
    }])
    expect(feed({ type: 'CUSTOM', name: 'ping', value: { id: '' } })).toEqual([{
      op: 'message.put', ...at('t1/custom-2', 'data-ping'), type: 'data-ping', props: { data: { id: '' } }, status: 'done',
    }])
  })
})

describe('shared readers', () => {
  it('roles: developer reads as system, anything unknown as assistant', () => {
    expect(roleOf('user')).toBe('user')
    expect(roleOf('system')).toBe('system')
    expect(roleOf('developer')).toBe('system')
    expect(roleOf('assistant')).toBe('assistant')
    expect(roleOf('tool')).toBe('assistant')
    expect(roleOf('')).toBe('assistant')
    expect(roleOf(undefined)).toBe('assistant')
  })

  it('a system text message keeps its role', () => {
    const feed = decoderFor()
    expect(feed({ type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'system' })).toEqual([
      { op: 'message.delta', ...at('m1', 'text', 'system'), action: 'merge', path: '', value: { content: '' } },
    ])
  })

  it('sniffing: a type field naming an AG-UI event, and nothing else', () => {
    expect(sniffAgUi({ first: { type: 'RUN_STARTED' } })).toBe(0.9)
    expect(sniffAgUi({ first: { type: 'NOT_AG_UI' } })).toBe(0)
    expect(sniffAgUi({ first: { kind: 'RUN_STARTED' } })).toBe(0)
    expect(sniffAgUi({ first: null })).toBe(0)
    expect(sniffAgUi({ first: Object.assign(['RUN_STARTED'], { type: 'RUN_STARTED' }) })).toBe(0)
    expect(sniffAgUi({})).toBe(0)
  })

  it('a chunk reads its timestamp as a start, and drops it when it goes on with an open stream', () => {
    for (const type of ['TEXT_MESSAGE_CHUNK', 'REASONING_MESSAGE_CHUNK', 'TOOL_CALL_CHUNK']) {
      expect(eventExtras({ type, timestamp: 1 }, type)).toEqual({ timestamp: 1 })
      expect(eventExtras({ type, timestamp: 1 }, type, true)).toBeUndefined()
      expect(eventExtras({ type, timestamp: 1, note: 'n' }, type, true)).toEqual({ note: 'n' })
    }
    expect(eventExtras({ type: 'TEXT_MESSAGE_END', timestamp: 1 }, 'TEXT_MESSAGE_END', true)).toEqual({ timestamp: 1 })
  })
})
