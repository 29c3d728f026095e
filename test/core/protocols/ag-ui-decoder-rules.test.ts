/**
 * Exact ops of the AG-UI decoder's run rules: what an event without a usable
 * type turns into, which events a closed run still takes, what a replayed earlier
 * run hands on to the live turn, when the stream counts as ended, the run's own
 * fields (metadata, usage, outcome, error), the steps and sub-agent lanes, and the
 * text, reasoning and thinking messages.
 */
import { describe, expect, it } from 'vitest'
import { weftError } from '../../../src/core/model/errors'
import type { Message } from '../../../src/core/model/model'
import type { MessagePlace, Op } from '../../../src/core/model/ops'
import { protocolProblem } from '../../../src/core/protocol/problem'
import type { DataPart, DecodeContext } from '../../../src/core/protocol/types'
import { createAgUiDecoder } from '../../../src/protocols/ag-ui/decoder'

type Ev = Record<string, unknown>

const decoderFor = (context: Partial<DecodeContext> = {}) => createAgUiDecoder({ turnId: 't1', scope: 't1', ...context })
const problem = (message: string, raw?: unknown, code?: string): Op => protocolProblem('t1', message, raw, code)
/** Where the decoder puts a message of the agent's own lane outside any step. */
const at = (messageId: string, type: string, role: Message['role'] = 'assistant', blockId?: string, threadId?: string): MessagePlace =>
  ({ turnId: 't1', messageId, type, role, blockId, threadId })
/** Every op the events make, in order. */
const decodeAll = (decoder: ReturnType<typeof createAgUiDecoder>, events: unknown[]): Op[] => events.flatMap((e) => decoder.decode(e, {}))

describe('events without a usable type', () => {
  it('a value that is not an object is reported and quoted', () => {
    expect(decoderFor().decode('hello', {})).toStrictEqual([problem('an AG-UI event must be an object', 'hello')])
    expect(decoderFor().decode(null, {})).toStrictEqual([problem('an AG-UI event must be an object', null)])
  })

  it('an object without a type takes the frame\'s event name only when it is a known AG-UI type', () => {
    expect(decoderFor().decode({ x: 1 }, {})).toStrictEqual([problem('an AG-UI event has no type', { x: 1 }, 'missing_type')])
    expect(decoderFor().decode({ x: 1 }, { event: 'message' })).toStrictEqual([problem('an AG-UI event has no type', { x: 1 }, 'missing_type')])
    expect(decoderFor().decode({ snapshot: { a: 1 } }, { event: 'STATE_SNAPSHOT' })).toStrictEqual([{ op: 'agentState.set', value: { a: 1 } }])
  })

  it('an unknown type is reported by name', () => {
    expect(decoderFor().decode({ type: 'NOPE' }, {})).toStrictEqual([problem('unknown AG-UI event type "NOPE"', { type: 'NOPE' }, 'unknown_event')])
  })

  it('an event without the id its type needs names the field', () => {
    const e = { type: 'TEXT_MESSAGE_START' }
    expect(decoderFor().decode(e, {})).toStrictEqual([problem('TEXT_MESSAGE_START without "messageId"', e, 'missing_id')])
  })

  it('STATE_DELTA without a patch array and MESSAGES_SNAPSHOT without a messages array are reported', () => {
    const delta = { type: 'STATE_DELTA', delta: { op: 'add' } }
    expect(decoderFor().decode(delta, {})).toStrictEqual([problem('STATE_DELTA needs a JSON Patch array in "delta"', delta, 'state_delta')])
    const snapshot = { type: 'MESSAGES_SNAPSHOT', messages: 'none' }
    expect(decoderFor().decode(snapshot, {})).toStrictEqual([problem('MESSAGES_SNAPSHOT needs a "messages" array', snapshot, 'messages_snapshot')])
  })
})

describe('after a run closed', () => {
  it('an event other than a new run is ignored with a problem that names what closed the run', () => {
    const d = decoderFor()
    d.decode({ type: 'RUN_STARTED', runId: 'r1' }, {})
    d.decode({ type: 'RUN_FINISHED', runId: 'r1' }, {})
    const e = { type: 'TEXT_MESSAGE_START', messageId: 'm1' }
    expect(d.decode(e, {})).toStrictEqual([problem('TEXT_MESSAGE_START arrived after RUN_FINISHED; it was ignored until a new RUN_STARTED', e, 'after_end')])
  })

  it('a finished run still takes an error, and an errored run takes no second one', () => {
    const d = decoderFor()
    d.decode({ type: 'RUN_STARTED', runId: 'r1' }, {})
    d.decode({ type: 'RUN_FINISHED', runId: 'r1' }, {})
    expect(d.decode({ type: 'RUN_ERROR', message: 'late failure' }, {})).toStrictEqual([
      { op: 'turn.finish', turnId: 't1', status: 'error', error: weftError('internal', 'late failure', {}) },
    ])
    const again = { type: 'RUN_ERROR', message: 'again' }
    expect(d.decode(again, {})).toStrictEqual([problem('RUN_ERROR arrived after RUN_ERROR; it was ignored until a new RUN_STARTED', again, 'after_end')])
  })

  it('an errored run takes nothing else either, until a new run starts', () => {
    const d = decoderFor()
    d.decode({ type: 'RUN_STARTED', runId: 'r1' }, {})
    d.decode({ type: 'RUN_ERROR', message: 'boom', code: 'rate_limit' }, {})
    const e = { type: 'STATE_DELTA', delta: [] }
    expect(d.decode(e, {})).toStrictEqual([problem('STATE_DELTA arrived after RUN_ERROR; it was ignored until a new RUN_STARTED', e, 'after_end')])
    expect(d.decode({ type: 'RUN_STARTED', runId: 'r2' }, {})).toStrictEqual([
      { op: 'turn.open', turnId: 't1', role: 'assistant' },
      { op: 'turn.update', turnId: 't1', runId: 'r2', threadId: undefined },
    ])
  })
})

describe('run events', () => {
  it('a run that starts again without finishing reopens nothing', () => {
    const d = decoderFor()
    d.decode({ type: 'RUN_STARTED', runId: 'r1' }, {})
    d.decode({ type: 'RUN_FINISHED', runId: 'r1' }, {})
    expect(d.decode({ type: 'RUN_STARTED', runId: 'r2' }, {})[0]).toStrictEqual({ op: 'turn.open', turnId: 't1', role: 'assistant' })
    expect(d.decode({ type: 'RUN_STARTED', runId: 'r3' }, {})).toStrictEqual([
      { op: 'turn.update', turnId: 't1', runId: 'r3', threadId: undefined },
    ])
  })

  it('RUN_STARTED puts the parent run in the metadata only when it is sent', () => {
    expect(decoderFor().decode({ type: 'RUN_STARTED', runId: 'r1', threadId: 'th1' }, {})).toStrictEqual([
      { op: 'turn.update', turnId: 't1', runId: 'r1', threadId: 'th1' },
    ])
    expect(decoderFor().decode({ type: 'RUN_STARTED', runId: 'r1', parentRunId: 'r0' }, {})).toStrictEqual([
      { op: 'turn.update', turnId: 't1', runId: 'r1', threadId: undefined, metadata: { parentRunId: 'r0' } },
    ])
  })

  it('a bare RUN_FINISHED only finishes the turn', () => {
    expect(decoderFor().decode({ type: 'RUN_FINISHED' }, {})).toStrictEqual([{ op: 'turn.finish', turnId: 't1', status: 'done' }])
  })

  it('RUN_FINISHED keeps the result and the pending tool calls in the metadata', () => {
    expect(decoderFor().decode({ type: 'RUN_FINISHED', result: 0 }, {})).toStrictEqual([
      { op: 'turn.update', turnId: 't1', metadata: { result: 0 } },
      { op: 'turn.finish', turnId: 't1', status: 'done' },
    ])
    expect(decoderFor().decode({ type: 'RUN_FINISHED', outcome: { type: 'success', pendingToolCallIds: ['c1'] } }, {})).toStrictEqual([
      { op: 'turn.update', turnId: 't1', metadata: { pendingToolCallIds: ['c1'] } },
      { op: 'turn.finish', turnId: 't1', status: 'done' },
    ])
  })

  it('a cancelled outcome aborts the turn', () => {
    expect(decoderFor().decode({ type: 'RUN_FINISHED', outcome: { type: 'cancelled' } }, {})).toStrictEqual([
      { op: 'turn.finish', turnId: 't1', status: 'aborted', finishReason: 'cancelled' },
    ])
  })

  it('an interrupt outcome reports a missing list and interrupts without an id, and asks a default question', () => {
    expect(decoderFor().decode({ type: 'RUN_FINISHED', outcome: { type: 'interrupt', interrupts: 'x' } }, {})).toStrictEqual([
      problem('an interrupt outcome without an "interrupts" list', 'x', 'interrupt'),
      { op: 'turn.finish', turnId: 't1', status: 'done', finishReason: 'interrupt' },
    ])
    const interrupts = [{ reason: '' }, 7, { id: 'i1' }]
    expect(decoderFor().decode({ type: 'RUN_FINISHED', outcome: { type: 'interrupt', interrupts } }, {})).toStrictEqual([
      problem('an interrupt without an id', { reason: '' }, 'missing_id'),
      problem('an interrupt without an id', 7, 'missing_id'),
      { op: 'gate.open', gate: { id: 'i1', turnId: 't1', kind: 'interrupt', question: 'The agent is waiting for your answer.', payload: { id: 'i1' } } },
      { op: 'turn.finish', turnId: 't1', status: 'done', finishReason: 'interrupt' },
    ])
  })

  it('RUN_ERROR without a message fails with the default one and keeps the usage', () => {
    expect(decoderFor().decode({ type: 'RUN_ERROR', usage: { inputTokens: 3 } }, {})).toStrictEqual([
      { op: 'turn.update', turnId: 't1', usage: { inputTokens: 3, raw: { inputTokens: 3 } } },
      { op: 'turn.finish', turnId: 't1', status: 'error', error: weftError('internal', 'the agent run failed', {}) },
    ])
  })

  it('a usage list is summed per counter, kept whole as raw and per model; an entry that is not a record is a problem; an empty list is no usage', () => {
    const entries = [
      { model: 'a', inputTokens: 1, outputTokens: 2, reasoningTokens: 4, cachedInputTokens: 8 },
      { model: 'b', inputTokens: 10, reasoningTokens: 40, cachedInputTokens: 80 },
      'junk',
    ]
    expect(decoderFor().decode({ type: 'RUN_FINISHED', usage: entries }, {})).toStrictEqual([
      { op: 'problem', turnId: 't1', error: expect.objectContaining({ type: 'protocol', code: 'invalid_usage', message: 'usage[2]: usage is not an object' }) },
      {
        op: 'turn.update', turnId: 't1',
        usage: {
          inputTokens: 11, outputTokens: 2, reasoningTokens: 44, cachedInputTokens: 88, raw: entries,
          byModel: [
            { model: 'a', inputTokens: 1, outputTokens: 2, reasoningTokens: 4, cachedInputTokens: 8 },
            { model: 'b', inputTokens: 10, reasoningTokens: 40, cachedInputTokens: 80 },
          ],
        },
      },
      { op: 'turn.finish', turnId: 't1', status: 'done' },
    ])
    expect(decoderFor().decode({ type: 'RUN_FINISHED', usage: [] }, {})).toStrictEqual([{ op: 'turn.finish', turnId: 't1', status: 'done' }])
    expect(decoderFor().decode({ type: 'RUN_FINISHED', usage: { totalTokens: 5 } }, {})).toStrictEqual([
      { op: 'turn.update', turnId: 't1', usage: { totalTokens: 5, raw: { totalTokens: 5 } } },
      { op: 'turn.finish', turnId: 't1', status: 'done' },
    ])
  })
})

describe('the turn\'s extra fields', () => {
  it('come before what a run\'s end or a state snapshot does', () => {
    expect(decoderFor().decode({ type: 'STATE_SNAPSHOT', snapshot: { a: 1 }, region: 'eu' }, {})).toStrictEqual([
      { op: 'turn.update', turnId: 't1', metadata: { extra: { region: 'eu' } } },
      { op: 'agentState.set', value: { a: 1 } },
    ])
  })

  it('are left out when the event only made problems', () => {
    const e = { type: 'STATE_SNAPSHOT', region: 'eu' }
    expect(decoderFor().decode(e, {})).toStrictEqual([problem('STATE_SNAPSHOT without "snapshot"', e, 'state_snapshot')])
  })

  it('are kept when the event made a problem and something else', () => {
    expect(decoderFor().decode({ type: 'RUN_FINISHED', outcome: { type: 'interrupt' }, region: 'eu' }, {})).toStrictEqual([
      { op: 'turn.update', turnId: 't1', metadata: { extra: { region: 'eu' } } },
      problem('an interrupt outcome without an "interrupts" list', undefined, 'interrupt'),
      { op: 'turn.finish', turnId: 't1', status: 'done', finishReason: 'interrupt' },
    ])
  })
})

describe('an upstream rawEvent', () => {
  it('is dropped without a host to take it', () => {
    expect(decoderFor().decode({ type: 'STATE_DELTA', delta: [], rawEvent: { up: 1 } }, {})).toStrictEqual([
      { op: 'agentState.set', value: {} },
    ])
  })

  it('goes to the host as a raw part', () => {
    const parts: DataPart[] = []
    const d = decoderFor({ onData: (part) => parts.push(part) })
    expect(d.decode({ type: 'STATE_DELTA', delta: [], rawEvent: { up: 1 } }, {})).toStrictEqual([{ op: 'agentState.set', value: {} }])
    expect(parts).toStrictEqual([{ type: 'raw', data: { event: { up: 1 }, eventType: 'STATE_DELTA' } }])
  })
})

describe('a stream that replays an earlier run first', () => {
  const replayed: Ev[] = [
    { type: 'RUN_STARTED', runId: 'r1' },
    { type: 'STEP_STARTED', stepName: 'plan' },
    { type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' },
    { type: 'TEXT_MESSAGE_END', messageId: 'm1', content: 'old' },
    { type: 'STATE_SNAPSHOT', snapshot: { n: 1 }, region: 'eu' },
    { type: 'STATE_DELTA', delta: [{ op: 'replace', path: '/n', value: 2 }] },
    { type: 'ACTIVITY_SNAPSHOT', messageId: 'a1', activityType: 'plan', content: { p: 1 } },
    { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm2' },
    { type: 'STEP_FINISHED', stepName: 'plan' },
    { type: 'RUN_FINISHED', runId: 'r1' },
  ]

  it('hands on its messages without their places, its state and its problems, and nothing of its run', () => {
    const d = decoderFor({ runId: 'r2' })
    const ops = decodeAll(d, replayed)
    expect(ops).toStrictEqual([
      { op: 'message.delta', turnId: 't1', messageId: 'm1', type: 'text', role: 'assistant', action: 'merge', path: '', value: { content: '' } },
      { op: 'message.delta', turnId: 't1', messageId: 'm1', type: 'text', role: 'assistant', action: 'set', path: 'content', value: 'old' },
      { op: 'message.finish', messageId: 'm1', status: 'done' },
      { op: 'agentState.set', value: { n: 1 } },
      { op: 'agentState.set', value: { n: 2 } },
      {
        op: 'message.put', turnId: 't1', messageId: 'a1', type: 'activity', role: 'assistant',
        props: { activityType: 'plan', content: { p: 1 } }, status: 'done',
      },
      problem('TEXT_MESSAGE_CONTENT needs a string "delta"', { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm2' }, 'delta'),
    ])
    expect(d.ended).toBe(false)
  })

  it('the run the stream was opened for then comes through whole and ends the stream', () => {
    const d = decoderFor({ runId: 'r2' })
    decodeAll(d, replayed)
    expect(decodeAll(d, [
      { type: 'RUN_STARTED', runId: 'r2' },
      { type: 'STEP_STARTED', stepName: 'act' },
    ])).toStrictEqual([
      { op: 'turn.open', turnId: 't1', role: 'assistant' },
      { op: 'turn.update', turnId: 't1', runId: 'r2', threadId: undefined },
      { op: 'block.open', turnId: 't1', blockId: 't1/step-2', kind: 'step', label: 'act' },
      { op: 'trace.node', turnId: 't1', node: { id: 't1/step-2', kind: 'step', label: 'act', status: 'start', parentId: undefined } },
    ])
    expect(d.decode({ type: 'RUN_FINISHED', runId: 'r2' }, {})).toStrictEqual([{ op: 'turn.finish', turnId: 't1', status: 'done' }])
    expect(d.ended).toBe(true)
  })

  it('a message in a sub-agent lane of the replay loses its thread too', () => {
    const d = decoderFor({ runId: 'r2' })
    d.decode({ type: 'RUN_STARTED', runId: 'r1' }, {})
    expect(d.decode({ type: 'TEXT_MESSAGE_START', messageId: 'm1', subagentRunId: 'sa1' }, {})).toStrictEqual([
      { op: 'message.delta', turnId: 't1', messageId: 'm1', type: 'text', role: 'assistant', action: 'merge', path: '', value: { content: '' } },
    ])
  })

  it('a run start without a run id stays in the run it was in', () => {
    const d = decoderFor({ runId: 'r2' })
    d.decode({ type: 'RUN_STARTED', runId: 'r1' }, {})
    d.decode({ type: 'RUN_STARTED' }, {})
    expect(d.decode({ type: 'STEP_STARTED', stepName: 'plan' }, {})).toStrictEqual([])
    // The end of that run names no run: it is still the replayed one, so the stream goes on.
    d.decode({ type: 'RUN_FINISHED' }, {})
    expect(d.ended).toBe(false)
  })

  it('the tool arguments a replayed run leaves are written without their place', () => {
    const d = decoderFor({ runId: 'r2' })
    d.decode({ type: 'RUN_STARTED', runId: 'r1' }, {})
    d.decode({ type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'search' }, {})
    d.decode({ type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '{"q":"a' }, {})
    expect(d.flush!()).toStrictEqual([
      { op: 'message.delta', turnId: 't1', messageId: 'c1', action: 'append', path: 'inputText', value: '{"q":"a' },
      { op: 'message.delta', turnId: 't1', messageId: 'c1', type: 'tool', role: 'assistant', action: 'set', path: 'input', value: { q: 'a' } },
    ])
  })

  it('events before any run start are the live run\'s', () => {
    const d = decoderFor({ runId: 'r2' })
    expect(d.decode({ type: 'STEP_STARTED', stepName: 'plan' }, {})).toStrictEqual([
      { op: 'block.open', turnId: 't1', blockId: 't1/step-1', kind: 'step', label: 'plan' },
      { op: 'trace.node', turnId: 't1', node: { id: 't1/step-1', kind: 'step', label: 'plan', status: 'start', parentId: undefined } },
    ])
  })

  it('a stream whose own run comes first is not replaying', () => {
    const d = decoderFor({ runId: 'r2' })
    d.decode({ type: 'RUN_STARTED', runId: 'r2' }, {})
    expect(d.decode({ type: 'STEP_STARTED', stepName: 'plan' }, {})).toStrictEqual([
      { op: 'block.open', turnId: 't1', blockId: 't1/step-1', kind: 'step', label: 'plan' },
      { op: 'trace.node', turnId: 't1', node: { id: 't1/step-1', kind: 'step', label: 'plan', status: 'start', parentId: undefined } },
    ])
    d.decode({ type: 'RUN_FINISHED', runId: 'r2' }, {})
    expect(d.ended).toBe(true)
  })

  it('a run end that names no run, after a start that named none, ends the stream', () => {
    const d = decoderFor({ runId: 'r2' })
    d.decode({ type: 'RUN_STARTED' }, {})
    d.decode({ type: 'RUN_FINISHED' }, {})
    expect(d.ended).toBe(true)
  })

  it('the stream\'s end in the middle of the replay finishes the turn and ends the stream', () => {
    const d = decoderFor({ runId: 'r2' })
    d.decode({ type: 'RUN_STARTED', runId: 'r1' }, {})
    expect(d.ended).toBe(false)
    expect(d.end('eof')).toStrictEqual([{ op: 'turn.finish', turnId: 't1', status: 'done' }])
    expect(d.ended).toBe(true)
    expect(d.end('eof')).toStrictEqual([])
  })
})

describe('the stream\'s end', () => {
  it('a fresh decoder is not ended, and its end finishes the turn', () => {
    const d = decoderFor()
    expect(d.ended).toBe(false)
    expect(d.end('done')).toStrictEqual([{ op: 'turn.finish', turnId: 't1', status: 'done' }])
    expect(d.ended).toBe(true)
  })
})

describe('steps', () => {
  it('a step without a name is reported and named "step", and a nameless finish closes it', () => {
    const d = decoderFor()
    expect(d.decode({ type: 'STEP_STARTED' }, {})).toStrictEqual([
      problem('STEP_STARTED without "stepName"', { type: 'STEP_STARTED' }, 'missing_id'),
      { op: 'block.open', turnId: 't1', blockId: 't1/step-1', kind: 'step', label: 'step' },
      { op: 'trace.node', turnId: 't1', node: { id: 't1/step-1', kind: 'step', label: 'step', status: 'start', parentId: undefined } },
    ])
    expect(d.decode({ type: 'STEP_FINISHED' }, {})).toStrictEqual([
      { op: 'block.close', blockId: 't1/step-1', status: 'done' },
      { op: 'trace.node', turnId: 't1', node: { id: 't1/step-1', status: 'done' } },
    ])
  })

  it('finishing an outer step closes the steps inside it first, and its own fields go on its row only', () => {
    const d = decoderFor()
    d.decode({ type: 'STEP_STARTED', stepName: 'outer' }, {})
    expect(d.decode({ type: 'STEP_STARTED', stepName: 'inner' }, {})[1]).toStrictEqual({
      op: 'trace.node', turnId: 't1', node: { id: 't1/step-2', kind: 'step', label: 'inner', status: 'start', parentId: 't1/step-1' },
    })
    expect(d.decode({ type: 'STEP_FINISHED', stepName: 'outer', note: 'n' }, {})).toStrictEqual([
      { op: 'block.close', blockId: 't1/step-2', status: 'done' },
      { op: 'trace.node', turnId: 't1', node: { id: 't1/step-2', status: 'done' } },
      { op: 'block.close', blockId: 't1/step-1', status: 'done' },
      { op: 'trace.node', turnId: 't1', node: { id: 't1/step-1', status: 'done', extra: { note: 'n' } } },
    ])
    const again = { type: 'STEP_FINISHED', stepName: 'inner' }
    expect(d.decode(again, {})).toStrictEqual([problem('STEP_FINISHED for "inner", which was not started', again, 'end_without_start')])
  })
})

describe('sub-agent runs', () => {
  it('a start without a name is a "sub-agent" with the detail it was sent', () => {
    const e = { type: 'SUBAGENT_STARTED', subagentRunId: 'sa1', description: 'looks things up', parentToolCallId: 'c9', parentMessageId: 'm0' }
    expect(decoderFor().decode(e, {})).toStrictEqual([
      { op: 'thread.open', turnId: 't1', threadId: 'sa1', blockId: undefined, label: 'sub-agent' },
      {
        op: 'trace.node', turnId: 't1',
        node: {
          id: 'delegate:sa1', kind: 'delegate', label: 'sub-agent', status: 'start', parentId: undefined,
          actor: { id: 'sa1', kind: 'subagent', name: 'sub-agent' },
          detail: { description: 'looks things up', parentToolCallId: 'c9', parentMessageId: 'm0' },
        },
      },
    ])
  })

  it('a start inside a sub-agent and a step hangs under the step and names its parent run', () => {
    const d = decoderFor()
    d.decode({ type: 'SUBAGENT_STARTED', subagentRunId: 'sa1', name: 'outer' }, {})
    d.decode({ type: 'STEP_STARTED', stepName: 'plan', subagentRunId: 'sa1' }, {})
    expect(d.decode({ type: 'SUBAGENT_STARTED', subagentRunId: 'sa2', name: 'inner', parentSubagentRunId: 'sa1' }, {})).toStrictEqual([
      { op: 'thread.open', turnId: 't1', threadId: 'sa2', blockId: 't1/step-1', label: 'inner' },
      {
        op: 'trace.node', turnId: 't1',
        node: {
          id: 'delegate:sa2', kind: 'delegate', label: 'inner', status: 'start', parentId: 't1/step-1',
          actor: { id: 'sa2', kind: 'subagent', name: 'inner' }, detail: { parentSubagentRunId: 'sa1' },
        },
      },
    ])
  })

  it('a start without detail carries none', () => {
    expect(decoderFor().decode({ type: 'SUBAGENT_STARTED', subagentRunId: 'sa1', name: 'n' }, {})[1]).toStrictEqual({
      op: 'trace.node', turnId: 't1',
      node: { id: 'delegate:sa1', kind: 'delegate', label: 'n', status: 'start', parentId: undefined, actor: { id: 'sa1', kind: 'subagent', name: 'n' } },
    })
  })

  it('a finish ends the lane\'s open chunk stream and closes the thread', () => {
    const d = decoderFor()
    d.decode({ type: 'SUBAGENT_STARTED', subagentRunId: 'sa1', name: 'n' }, {})
    d.decode({ type: 'TEXT_MESSAGE_CHUNK', messageId: 'm1', subagentRunId: 'sa1', delta: 'hi' }, {})
    // The chunk's held append is written before its message is finished.
    expect(d.decode({ type: 'SUBAGENT_FINISHED', subagentRunId: 'sa1', result: 'found' }, {})).toStrictEqual([
      { op: 'message.delta', ...at('m1', 'text', 'assistant', undefined, 'sa1'), action: 'append', path: 'content', value: 'hi' },
      { op: 'message.finish', messageId: 'm1', status: 'done' },
      { op: 'thread.close', threadId: 'sa1', status: 'done' },
      { op: 'trace.node', turnId: 't1', node: { id: 'delegate:sa1', kind: 'delegate', status: 'done', result: 'found' } },
    ])
  })

  it('a suspended finish keeps the thread open and the row in progress', () => {
    const d = decoderFor()
    d.decode({ type: 'SUBAGENT_STARTED', subagentRunId: 'sa1', name: 'n' }, {})
    expect(d.decode({ type: 'SUBAGENT_FINISHED', subagentRunId: 'sa1', outcome: { type: 'suspended' } }, {})).toStrictEqual([
      { op: 'trace.node', turnId: 't1', node: { id: 'delegate:sa1', kind: 'delegate', status: 'progress', resultDetail: { type: 'suspended' } } },
    ])
  })

  it('another outcome closes the thread and is kept as the result detail', () => {
    const d = decoderFor()
    d.decode({ type: 'SUBAGENT_STARTED', subagentRunId: 'sa1', name: 'n' }, {})
    expect(d.decode({ type: 'SUBAGENT_FINISHED', subagentRunId: 'sa1', outcome: { type: 'success' } }, {})).toStrictEqual([
      { op: 'thread.close', threadId: 'sa1', status: 'done' },
      { op: 'trace.node', turnId: 't1', node: { id: 'delegate:sa1', kind: 'delegate', status: 'done', resultDetail: { type: 'success' } } },
    ])
  })

  it('a finish closes the lane: a second finish and the lane\'s old steps are not started', () => {
    const d = decoderFor()
    d.decode({ type: 'SUBAGENT_STARTED', subagentRunId: 'sa1', name: 'n' }, {})
    d.decode({ type: 'STEP_STARTED', stepName: 'plan', subagentRunId: 'sa1' }, {})
    d.decode({ type: 'SUBAGENT_FINISHED', subagentRunId: 'sa1' }, {})
    const again = { type: 'SUBAGENT_FINISHED', subagentRunId: 'sa1' }
    expect(d.decode(again, {})).toStrictEqual([
      problem('SUBAGENT_FINISHED for "sa1", which was not started', again, 'end_without_start'),
      { op: 'thread.close', threadId: 'sa1', status: 'done' },
      { op: 'trace.node', turnId: 't1', node: { id: 'delegate:sa1', kind: 'delegate', status: 'done' } },
    ])
    const step = { type: 'STEP_FINISHED', stepName: 'plan', subagentRunId: 'sa1' }
    expect(d.decode(step, {})).toStrictEqual([problem('STEP_FINISHED for "plan", which was not started', step, 'end_without_start')])
  })

  it('an error of a run never started is reported and fails the row with the default message', () => {
    const e = { type: 'SUBAGENT_ERROR', subagentRunId: 'sa1' }
    expect(decoderFor().decode(e, {})).toStrictEqual([
      problem('SUBAGENT_ERROR for "sa1", which was not started', e, 'end_without_start'),
      { op: 'thread.close', threadId: 'sa1', status: 'error' },
      { op: 'trace.node', turnId: 't1', node: { id: 'delegate:sa1', kind: 'delegate' } },
      { op: 'trace.fail', turnId: 't1', nodeId: 'delegate:sa1', message: 'the sub-agent failed' },
    ])
  })

  it('an error ends the lane\'s open chunk stream and keeps its code', () => {
    const d = decoderFor()
    d.decode({ type: 'SUBAGENT_STARTED', subagentRunId: 'sa1', name: 'n' }, {})
    d.decode({ type: 'TEXT_MESSAGE_CHUNK', messageId: 'm1', subagentRunId: 'sa1', delta: 'hi' }, {})
    expect(d.decode({ type: 'SUBAGENT_ERROR', subagentRunId: 'sa1', message: 'gave up', code: 'E1' }, {})).toStrictEqual([
      { op: 'message.delta', ...at('m1', 'text', 'assistant', undefined, 'sa1'), action: 'append', path: 'content', value: 'hi' },
      { op: 'message.finish', messageId: 'm1', status: 'done' },
      { op: 'thread.close', threadId: 'sa1', status: 'error' },
      { op: 'trace.node', turnId: 't1', node: { id: 'delegate:sa1', kind: 'delegate', detail: { code: 'E1' } } },
      { op: 'trace.fail', turnId: 't1', nodeId: 'delegate:sa1', message: 'gave up' },
    ])
  })
})

describe('text messages', () => {
  it('a start writes an empty text and only the fields it was sent', () => {
    expect(decoderFor().decode({ type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' }, {})).toStrictEqual([
      { op: 'message.delta', ...at('m1', 'text'), action: 'merge', path: '', value: { content: '' } },
    ])
    expect(decoderFor().decode({ type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'user', name: 'Ann', metadata: { k: 1 }, mood: 'ok' }, {})).toStrictEqual([
      { op: 'message.delta', ...at('m1', 'text', 'user'), action: 'merge', path: '', value: { content: '', name: 'Ann', metadata: { k: 1 }, extra: { mood: 'ok' } } },
    ])
  })

  it('only a developer message keeps its source role', () => {
    expect(decoderFor().decode({ type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'developer' }, {})).toStrictEqual([
      { op: 'message.delta', ...at('m1', 'text', 'system'), action: 'merge', path: '', value: { content: '', sourceRole: 'developer' } },
    ])
    expect(decoderFor().decode({ type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'system' }, {})).toStrictEqual([
      { op: 'message.delta', ...at('m1', 'text', 'system'), action: 'merge', path: '', value: { content: '' } },
    ])
    // A reasoning message is the assistant's whatever role it names.
    expect(decoderFor().decode({ type: 'REASONING_MESSAGE_START', messageId: 'r1', role: 'developer' }, {})).toStrictEqual([
      { op: 'message.delta', ...at('r1', 'reasoning'), action: 'merge', path: '', value: { content: '' } },
      { op: 'trace.node', turnId: 't1', node: { id: 'reason:r1', kind: 'reason', label: 'Reasoning', status: 'start', parentId: undefined } },
    ])
  })

  it('content appends, and writes its metadata and extra fields under their own props', () => {
    const d = decoderFor()
    d.decode({ type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' }, {})
    expect(d.decode({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'Hi', metadata: { k: 1 }, mood: 'ok' }, {})).toStrictEqual([
      { op: 'message.delta', ...at('m1', 'text'), action: 'append', path: 'content', value: 'Hi' },
      { op: 'message.delta', ...at('m1', 'text'), action: 'merge', path: 'metadata', value: { k: 1 } },
      { op: 'message.delta', ...at('m1', 'text'), action: 'merge', path: 'extra', value: { mood: 'ok' } },
    ])
    const bad = { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 3 }
    expect(d.decode(bad, {})).toStrictEqual([problem('TEXT_MESSAGE_CONTENT needs a string "delta"', bad, 'delta')])
  })

  it('content before its start creates the message with the role the event names, for text only', () => {
    const text = { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', role: 'user', delta: 'Hi' }
    expect(decoderFor().decode(text, {})).toStrictEqual([
      problem('content for message "m1" before its start; the message was created', text, 'repaired'),
      { op: 'message.delta', ...at('m1', 'text', 'user'), action: 'merge', path: '', value: { content: '' } },
      { op: 'message.delta', ...at('m1', 'text'), action: 'append', path: 'content', value: 'Hi' },
    ])
    const reasoning = { type: 'REASONING_MESSAGE_CONTENT', messageId: 'r1', role: 'user', delta: 'Hm' }
    expect(decoderFor().decode(reasoning, {})).toStrictEqual([
      problem('content for message "r1" before its start; the message was created', reasoning, 'repaired'),
      { op: 'message.delta', ...at('r1', 'reasoning'), action: 'merge', path: '', value: { content: '' } },
      { op: 'trace.node', turnId: 't1', node: { id: 'reason:r1', kind: 'reason', label: 'Reasoning', status: 'start', parentId: undefined } },
      { op: 'message.delta', ...at('r1', 'reasoning'), action: 'append', path: 'content', value: 'Hm' },
    ])
  })

  it('an end without content only finishes the message, and keeps its metadata and fields', () => {
    const d = decoderFor()
    d.decode({ type: 'TEXT_MESSAGE_START', messageId: 'm1' }, {})
    expect(d.decode({ type: 'TEXT_MESSAGE_END', messageId: 'm1' }, {})).toStrictEqual([{ op: 'message.finish', messageId: 'm1', status: 'done' }])
    d.decode({ type: 'TEXT_MESSAGE_START', messageId: 'm2' }, {})
    expect(d.decode({ type: 'TEXT_MESSAGE_END', messageId: 'm2', metadata: { k: 1 }, mood: 'ok' }, {})).toStrictEqual([
      { op: 'message.delta', ...at('m2', 'text'), action: 'merge', path: 'metadata', value: { k: 1 } },
      { op: 'message.delta', ...at('m2', 'text'), action: 'merge', path: 'extra', value: { mood: 'ok' } },
      { op: 'message.finish', messageId: 'm2', status: 'done' },
    ])
  })

  it('an end of a message never started is reported unless it carries the content', () => {
    const e = { type: 'TEXT_MESSAGE_END', messageId: 'm1' }
    expect(decoderFor().decode(e, {})).toStrictEqual([problem('TEXT_MESSAGE_END for message "m1", which was not started', e, 'end_without_start')])
    expect(decoderFor().decode({ type: 'TEXT_MESSAGE_END', messageId: 'm1', role: 'user', text: 'Hello' }, {})).toStrictEqual([
      { op: 'message.delta', ...at('m1', 'text', 'user'), action: 'merge', path: '', value: { content: '' } },
      { op: 'message.delta', ...at('m1', 'text'), action: 'set', path: 'content', value: 'Hello' },
      { op: 'message.finish', messageId: 'm1', status: 'done' },
    ])
  })

  it('an end with structured content sets it as the result, starting the message if needed', () => {
    expect(decoderFor().decode({ type: 'TEXT_MESSAGE_END', messageId: 'm1', content: { rows: [1] } }, {})).toStrictEqual([
      { op: 'message.delta', ...at('m1', 'text'), action: 'merge', path: '', value: { content: '' } },
      { op: 'message.delta', ...at('m1', 'text'), action: 'set', path: 'result', value: { rows: [1] } },
      { op: 'message.finish', messageId: 'm1', status: 'done' },
    ])
    expect(decoderFor().decode({ type: 'REASONING_MESSAGE_END', messageId: 'r1', role: 'user', content: 'Thought' }, {})).toStrictEqual([
      { op: 'message.delta', ...at('r1', 'reasoning'), action: 'merge', path: '', value: { content: '' } },
      { op: 'trace.node', turnId: 't1', node: { id: 'reason:r1', kind: 'reason', label: 'Reasoning', status: 'start', parentId: undefined } },
      { op: 'message.delta', ...at('r1', 'reasoning'), action: 'set', path: 'content', value: 'Thought' },
      { op: 'message.finish', messageId: 'r1', status: 'done' },
      { op: 'trace.node', turnId: 't1', node: { id: 'reason:r1', status: 'done' } },
    ])
  })

  it('a reasoning message streams in its own row', () => {
    const d = decoderFor()
    d.decode({ type: 'REASONING_MESSAGE_START', messageId: 'r1' }, {})
    // The token is held; the end writes it first.
    expect(d.decode({ type: 'REASONING_MESSAGE_CONTENT', messageId: 'r1', delta: 'Hm' }, {})).toStrictEqual([])
    expect(d.decode({ type: 'REASONING_MESSAGE_END', messageId: 'r1' }, {})).toStrictEqual([
      { op: 'message.delta', ...at('r1', 'reasoning'), action: 'append', path: 'content', value: 'Hm' },
      { op: 'message.finish', messageId: 'r1', status: 'done' },
      { op: 'trace.node', turnId: 't1', node: { id: 'reason:r1', status: 'done' } },
    ])
  })
})

describe('reasoning spans', () => {
  it('a span gives its messages their row; its end hands the row back to each message', () => {
    const d = decoderFor()
    expect(d.decode({ type: 'REASONING_START', messageId: 's1', why: 'x' }, {})).toStrictEqual([
      { op: 'trace.node', turnId: 't1', node: { id: 'reason:s1', kind: 'reason', label: 'Reasoning', status: 'start', parentId: undefined, extra: { why: 'x' } } },
    ])
    expect(d.decode({ type: 'REASONING_MESSAGE_START', messageId: 'r1' }, {})).toStrictEqual([
      { op: 'message.delta', ...at('r1', 'reasoning'), action: 'merge', path: '', value: { content: '' } },
    ])
    expect(d.decode({ type: 'REASONING_MESSAGE_END', messageId: 'r1' }, {})).toStrictEqual([{ op: 'message.finish', messageId: 'r1', status: 'done' }])
    expect(d.decode({ type: 'REASONING_END', messageId: 's1' }, {})).toStrictEqual([
      { op: 'trace.node', turnId: 't1', node: { id: 'reason:s1', kind: 'reason', status: 'done' } },
    ])
    expect(d.decode({ type: 'REASONING_MESSAGE_START', messageId: 'r2' }, {})[1]).toStrictEqual({
      op: 'trace.node', turnId: 't1', node: { id: 'reason:r2', kind: 'reason', label: 'Reasoning', status: 'start', parentId: undefined },
    })
  })

  it('a span\'s end closes its own lane\'s span only', () => {
    const d = decoderFor()
    d.decode({ type: 'REASONING_START', messageId: 's1' }, {})
    d.decode({ type: 'REASONING_START', messageId: 's2', subagentRunId: 'sa1' }, {})
    d.decode({ type: 'REASONING_END', messageId: 's1' }, {})
    expect(d.decode({ type: 'REASONING_MESSAGE_START', messageId: 'r1', subagentRunId: 'sa1' }, {})).toStrictEqual([
      { op: 'message.delta', ...at('r1', 'reasoning', 'assistant', undefined, 'sa1'), action: 'merge', path: '', value: { content: '' } },
    ])
  })

  it('a run\'s end forgets the open spans', () => {
    const d = decoderFor()
    d.decode({ type: 'RUN_STARTED', runId: 'r1' }, {})
    d.decode({ type: 'REASONING_START', messageId: 's1' }, {})
    d.decode({ type: 'THINKING_START' }, {})
    d.decode({ type: 'RUN_FINISHED', runId: 'r1' }, {})
    d.decode({ type: 'RUN_STARTED', runId: 'r2' }, {})
    expect(d.decode({ type: 'REASONING_MESSAGE_START', messageId: 'r1' }, {})[1]).toStrictEqual({
      op: 'trace.node', turnId: 't1', node: { id: 'reason:r1', kind: 'reason', label: 'Reasoning', status: 'start', parentId: undefined },
    })
    expect(d.decode({ type: 'THINKING_END' }, {})).toStrictEqual([problem('THINKING_END without THINKING_START', { type: 'THINKING_END' }, 'end_without_start')])
  })
})

describe('encrypted reasoning values', () => {
  it('need an entity and a string value', () => {
    const message = 'REASONING_ENCRYPTED_VALUE needs "entityId" and "encryptedValue"'
    const noEntity = { type: 'REASONING_ENCRYPTED_VALUE', encryptedValue: 'x' }
    expect(decoderFor().decode(noEntity, {})).toStrictEqual([problem(message, noEntity, 'missing_id')])
    const noValue = { type: 'REASONING_ENCRYPTED_VALUE', entityId: 'r1', encryptedValue: 3 }
    expect(decoderFor().decode(noValue, {})).toStrictEqual([problem(message, noValue, 'missing_id')])
  })

  it('land on a reasoning message, or on a tool call in its lane', () => {
    expect(decoderFor().decode({ type: 'REASONING_ENCRYPTED_VALUE', entityId: 'r1', encryptedValue: 'enc', tag: 1 }, {})).toStrictEqual([
      { op: 'message.delta', ...at('r1', 'reasoning'), action: 'set', path: '', value: { encryptedValue: 'enc' } },
      { op: 'message.delta', ...at('r1', 'reasoning'), action: 'merge', path: 'extra', value: { tag: 1 } },
    ])
    const d = decoderFor()
    d.decode({ type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'search', subagentRunId: 'sa1' }, {})
    expect(d.decode({ type: 'REASONING_ENCRYPTED_VALUE', subtype: 'tool-call', entityId: 'c1', encryptedValue: 'enc' }, {})).toStrictEqual([
      { op: 'message.delta', ...at('c1', 'tool', 'assistant', undefined, 'sa1'), action: 'set', path: '', value: { encryptedValue: 'enc', toolCallId: 'c1' } },
    ])
    expect(decoderFor().decode({ type: 'REASONING_ENCRYPTED_VALUE', subtype: 'tool-call', entityId: 'c2', encryptedValue: 'enc', subagentRunId: 'sa2' }, {})).toStrictEqual([
      { op: 'message.delta', ...at('c2', 'tool', 'assistant', undefined, 'sa2'), action: 'set', path: '', value: { encryptedValue: 'enc', toolCallId: 'c2' } },
    ])
  })
})

describe('thinking events', () => {
  it('a thinking span and message get fresh ids and stream as reasoning', () => {
    const d = decoderFor()
    expect(d.decode({ type: 'THINKING_START', title: 'Pondering' }, {})).toStrictEqual([
      { op: 'trace.node', turnId: 't1', node: { id: 'reason:t1/thinking-1', kind: 'reason', label: 'Pondering', status: 'start', parentId: undefined } },
    ])
    expect(d.decode({ type: 'THINKING_TEXT_MESSAGE_START' }, {})).toStrictEqual([
      { op: 'message.delta', ...at('t1/thinking-2', 'reasoning'), action: 'merge', path: '', value: { content: '' } },
    ])
    // The token is held; the end writes it first.
    expect(d.decode({ type: 'THINKING_TEXT_MESSAGE_CONTENT', delta: 'Hm' }, {})).toStrictEqual([])
    expect(d.decode({ type: 'THINKING_TEXT_MESSAGE_END' }, {})).toStrictEqual([
      { op: 'message.delta', ...at('t1/thinking-2', 'reasoning'), action: 'append', path: 'content', value: 'Hm' },
      { op: 'message.finish', messageId: 't1/thinking-2', status: 'done' },
    ])
    expect(d.decode({ type: 'THINKING_END' }, {})).toStrictEqual([
      { op: 'trace.node', turnId: 't1', node: { id: 'reason:t1/thinking-1', kind: 'reason', status: 'done' } },
    ])
  })

  it('content without a start makes a message; an end without one is reported', () => {
    const d = decoderFor()
    const e = { type: 'THINKING_TEXT_MESSAGE_CONTENT', delta: 'Hm' }
    expect(d.decode(e, {})).toStrictEqual([
      problem('content for message "t1/thinking-1" before its start; the message was created', e, 'repaired'),
      { op: 'message.delta', ...at('t1/thinking-1', 'reasoning'), action: 'merge', path: '', value: { content: '' } },
      { op: 'trace.node', turnId: 't1', node: { id: 'reason:t1/thinking-1', kind: 'reason', label: 'Reasoning', status: 'start', parentId: undefined } },
      { op: 'message.delta', ...at('t1/thinking-1', 'reasoning'), action: 'append', path: 'content', value: 'Hm' },
    ])
    d.decode({ type: 'THINKING_TEXT_MESSAGE_END' }, {})
    const end = { type: 'THINKING_TEXT_MESSAGE_END' }
    expect(d.decode(end, {})).toStrictEqual([problem('THINKING_TEXT_MESSAGE_END without a start', end, 'end_without_start')])
  })
})
