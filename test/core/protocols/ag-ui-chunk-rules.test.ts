/**
 * Exact ops of AG-UI's implicit chunk streams (`TEXT_MESSAGE_CHUNK`,
 * `REASONING_MESSAGE_CHUNK`, `TOOL_CALL_CHUNK`): the lane a chunk goes to, what
 * its first chunk needs, what a chunk that goes on keeps, and how the next event
 * of another kind (or a run's end) closes the stream.
 */
import { describe, expect, it } from 'vitest'
import type { Message } from '../../../src/core/model/model'
import type { Op } from '../../../src/core/model/ops'
import { createAgUiDecoder } from '../../../src/protocols/ag-ui/decoder'

type Ev = Record<string, unknown>
type Role = Message['role']

/** A way to feed a fresh decoder events one at a time; `flush` writes what its tokens gathered. */
function decoderFor() {
  const decoder = createAgUiDecoder({ turnId: 't1', scope: 't1' })
  return Object.assign((event: Ev): Op[] => decoder.decode(event, {}), { flush: (): Op[] => decoder.flush!() })
}

const problem = (message: string, code: string, raw: unknown): Op => ({
  op: 'problem', turnId: 't1', error: { type: 'protocol', message, retryable: false, code, detail: JSON.stringify(raw) },
})
const at = (messageId: string, type: string, role: Role = 'assistant', threadId?: string) =>
  ({ turnId: 't1', messageId, type, role, blockId: undefined, threadId })
const append = (messageId: string, value: string, threadId?: string, type = 'text'): Op =>
  ({ op: 'message.delta', ...at(messageId, type, 'assistant', threadId), action: 'append', path: 'content', value })
const textStart = (messageId: string, role: Role = 'assistant', threadId?: string): Op =>
  ({ op: 'message.delta', ...at(messageId, 'text', role, threadId), action: 'merge', path: '', value: { content: '' } })
const finish = (messageId: string): Op => ({ op: 'message.finish', messageId, status: 'done' })
/** The ops that complete a tool call that got no arguments. */
const toolDone = (id: string, threadId?: string): Op[] => [
  { op: 'message.delta', ...at(id, 'tool', 'assistant', threadId), action: 'set', path: 'input', value: {} },
  { op: 'message.delta', ...at(id, 'tool', 'assistant', threadId), action: 'set', path: 'state', value: 'input-available' },
  { op: 'trace.node', turnId: 't1', node: { id: `tool:${id}`, args: {}, status: 'progress' } },
]

/** The ops that start a tool call named search. */
const toolStart = (id: string): Op[] => [
  { op: 'message.delta', ...at(id, 'tool'), action: 'set', path: '', value: { toolCallId: id, name: 'search', inputText: '', state: 'input-streaming' } },
  { op: 'trace.node', turnId: 't1', node: { id: `tool:${id}`, kind: 'tool', label: 'search', tool: 'search', parentId: undefined, status: 'start' } },
]

describe('the first chunk of a stream', () => {
  it('needs the id of what it starts', () => {
    const feed = decoderFor()
    const text = { type: 'TEXT_MESSAGE_CHUNK', delta: 'x' }
    expect(feed(text)).toEqual([problem('the first TEXT_MESSAGE_CHUNK of a message needs "messageId"', 'missing_id', text)])
    const reasoning = { type: 'REASONING_MESSAGE_CHUNK', delta: 'x' }
    expect(feed(reasoning)).toEqual([problem('the first REASONING_MESSAGE_CHUNK of a message needs "messageId"', 'missing_id', reasoning)])
    const tool = { type: 'TOOL_CALL_CHUNK', delta: 'x' }
    expect(feed(tool)).toEqual([problem('the first TOOL_CALL_CHUNK of a tool call needs "toolCallId"', 'missing_id', tool)])
  })

  it('a text chunk starts its message with the role it names; a reasoning chunk is always the assistant\'s', () => {
    // The chunk's delta is held as the message's append until the next write point.
    const feed = decoderFor()
    expect(feed({ type: 'TEXT_MESSAGE_CHUNK', messageId: 'm1', role: 'user', delta: 'Hi' })).toEqual([textStart('m1', 'user')])
    expect(feed.flush()).toEqual([append('m1', 'Hi')])
    const reasoning = decoderFor()
    expect(reasoning({ type: 'REASONING_MESSAGE_CHUNK', messageId: 'r1', role: 'user', delta: 'Hm' })).toEqual([
      { op: 'message.delta', ...at('r1', 'reasoning'), action: 'merge', path: '', value: { content: '' } },
      { op: 'trace.node', turnId: 't1', node: { id: 'reason:r1', kind: 'reason', label: 'Reasoning', status: 'start', parentId: undefined } },
    ])
    expect(reasoning.flush()).toEqual([append('r1', 'Hm', undefined, 'reasoning')])
  })
})

describe('a chunk that goes on with its stream', () => {
  it('with only text is a token: a read\'s chunks reach the message as one append', () => {
    const feed = decoderFor()
    feed({ type: 'TEXT_MESSAGE_CHUNK', messageId: 'm1', delta: 'a' })
    expect(feed({ type: 'TEXT_MESSAGE_CHUNK', delta: 'b' })).toEqual([])
    expect(feed({ type: 'TEXT_MESSAGE_CHUNK', messageId: 'm1', delta: 'c' })).toEqual([])
    expect(feed.flush()).toEqual([append('m1', 'abc')])
  })

  it('that does anything else first writes the held tokens: a problem, or fields of its own', () => {
    const feed = decoderFor()
    feed({ type: 'TEXT_MESSAGE_CHUNK', messageId: 'm1', delta: 'a' })
    feed({ type: 'TEXT_MESSAGE_CHUNK', delta: 'b' })
    const nameless = { type: 'TEXT_MESSAGE_CHUNK', subagentRunId: 'other', delta: 'x' }
    expect(feed(nameless)).toEqual([append('m1', 'ab'), problem('the first TEXT_MESSAGE_CHUNK of a message needs "messageId"', 'missing_id', nameless)])
    feed({ type: 'TEXT_MESSAGE_CHUNK', delta: 'c' })
    expect(feed({ type: 'TEXT_MESSAGE_CHUNK', messageId: 'm1', region: 'eu' })).toEqual([
      append('m1', 'c'),
      { op: 'message.delta', ...at('m1', 'text'), action: 'merge', path: 'extra', value: { region: 'eu' } },
    ])
  })

  it('with neither a delta nor fields of its own writes nothing', () => {
    const feed = decoderFor()
    feed({ type: 'TEXT_MESSAGE_CHUNK', messageId: 'm1', delta: 'Hi' })
    expect(feed.flush()).toEqual([append('m1', 'Hi')])
    expect(feed({ type: 'TEXT_MESSAGE_CHUNK', messageId: 'm1' })).toEqual([])
    expect(feed({ type: 'TEXT_MESSAGE_CHUNK', messageId: 'm1', timestamp: 5 })).toEqual([])
  })

  it('without a delta still keeps its own fields on the message', () => {
    const feed = decoderFor()
    feed({ type: 'TEXT_MESSAGE_CHUNK', messageId: 'm1', role: 'user', delta: 'Hi' })
    // The append held from the first chunk is written first.
    expect(feed({ type: 'TEXT_MESSAGE_CHUNK', messageId: 'm1', note: 'n' })).toEqual([
      append('m1', 'Hi'),
      { op: 'message.delta', ...at('m1', 'text'), action: 'merge', path: 'extra', value: { note: 'n' } },
    ])
  })

  it('of a tool call keeps its fields in the lane the call was started in', () => {
    const feed = decoderFor()
    feed({ type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'search', subagentRunId: 'sub' })
    feed({ type: 'TOOL_CALL_END', toolCallId: 'c1', subagentRunId: 'sub' })
    feed({ type: 'TOOL_CALL_CHUNK', toolCallId: 'c1', toolCallName: 'search' })
    expect(feed({ type: 'TOOL_CALL_CHUNK', toolCallId: 'c1', note: 'n' })).toEqual([
      { op: 'message.delta', ...at('c1', 'tool', 'assistant', 'sub'), action: 'merge', path: 'extra', value: { note: 'n' } },
    ])
  })

  it('of a text message never takes the lane of a tool call with the same id', () => {
    const feed = decoderFor()
    feed({ type: 'TOOL_CALL_START', toolCallId: 'x', toolCallName: 'search', subagentRunId: 'sub' })
    feed({ type: 'TEXT_MESSAGE_CHUNK', messageId: 'x', delta: 'Hi' })
    expect(feed({ type: 'TEXT_MESSAGE_CHUNK', messageId: 'x', note: 'n' })).toEqual([
      append('x', 'Hi'),
      { op: 'message.delta', ...at('x', 'text'), action: 'merge', path: 'extra', value: { note: 'n' } },
    ])
  })
})

describe('the lane of a chunk', () => {
  it('a chunk without an id or a lane goes on with the one open stream of its kind', () => {
    const feed = decoderFor()
    feed({ type: 'TEXT_MESSAGE_CHUNK', messageId: 'm1', subagentRunId: 'sub', delta: 'a' })
    expect(feed.flush()).toEqual([append('m1', 'a', 'sub')])
    expect(feed({ type: 'TEXT_MESSAGE_CHUNK', delta: 'b' })).toEqual([])
    expect(feed.flush()).toEqual([append('m1', 'b', 'sub')])
  })

  it('a chunk with an id finds the lane its stream is open in', () => {
    const feed = decoderFor()
    feed({ type: 'TEXT_MESSAGE_CHUNK', messageId: 'm1', subagentRunId: 'sub1', delta: 'a' })
    feed({ type: 'TEXT_MESSAGE_CHUNK', messageId: 'm2', subagentRunId: 'sub2', delta: 'b' })
    expect(feed.flush()).toEqual([append('m2', 'b', 'sub2')])
    expect(feed({ type: 'TEXT_MESSAGE_CHUNK', messageId: 'm2', delta: 'c' })).toEqual([])
    expect(feed.flush()).toEqual([append('m2', 'c', 'sub2')])
    expect(feed({ type: 'TEXT_MESSAGE_CHUNK', messageId: 'm1', delta: 'd' })).toEqual([])
    expect(feed.flush()).toEqual([append('m1', 'd', 'sub1')])
  })

  it('a chunk with an id no stream has starts in the agent\'s own lane', () => {
    const feed = decoderFor()
    feed({ type: 'TEXT_MESSAGE_CHUNK', messageId: 'm1', subagentRunId: 'sub', delta: 'a' })
    expect(feed.flush()).toEqual([append('m1', 'a', 'sub')])
    expect(feed({ type: 'TEXT_MESSAGE_CHUNK', messageId: 'm2', delta: 'b' })).toEqual([textStart('m2')])
    expect(feed.flush()).toEqual([append('m2', 'b')])
  })

  it('a stream of another kind in the agent\'s lane does not hide the one open stream of the chunk\'s kind', () => {
    const feed = decoderFor()
    feed({ type: 'TOOL_CALL_CHUNK', toolCallId: 'c1', toolCallName: 'search' })
    feed({ type: 'TEXT_MESSAGE_CHUNK', messageId: 'm1', subagentRunId: 'sub', delta: 'a' })
    expect(feed.flush()).toEqual([append('m1', 'a', 'sub')])
    expect(feed({ type: 'TEXT_MESSAGE_CHUNK', delta: 'b' })).toEqual([])
    expect(feed.flush()).toEqual([append('m1', 'b', 'sub')])
  })

  it('an id-less chunk with two open streams of its kind cannot tell: it is reported', () => {
    const feed = decoderFor()
    feed({ type: 'TEXT_MESSAGE_CHUNK', messageId: 'm1', subagentRunId: 'sub1', delta: 'a' })
    feed({ type: 'TEXT_MESSAGE_CHUNK', messageId: 'm2', subagentRunId: 'sub2', delta: 'b' })
    expect(feed.flush()).toEqual([append('m2', 'b', 'sub2')])
    const lost = { type: 'TEXT_MESSAGE_CHUNK', delta: 'c' }
    expect(feed(lost)).toEqual([problem('the first TEXT_MESSAGE_CHUNK of a message needs "messageId"', 'missing_id', lost)])
  })

  it('an id-less chunk of another kind in the agent\'s lane ends the stream open there, then is reported', () => {
    const feed = decoderFor()
    feed({ type: 'TOOL_CALL_CHUNK', toolCallId: 'c1', toolCallName: 'search' })
    const lost = { type: 'TEXT_MESSAGE_CHUNK', delta: 'x' }
    expect(feed(lost)).toEqual([...toolDone('c1'), problem('the first TEXT_MESSAGE_CHUNK of a message needs "messageId"', 'missing_id', lost)])
  })
})

describe('what ends a chunk stream', () => {
  it('an event of another kind in the lane completes an open tool call before it is read', () => {
    const feed = decoderFor()
    feed({ type: 'TOOL_CALL_CHUNK', toolCallId: 'c1', toolCallName: 'search' })
    expect(feed({ type: 'TEXT_MESSAGE_START', messageId: 'm1' })).toEqual([...toolDone('c1'), textStart('m1')])
  })

  it('an event of another kind in the lane finishes an open text message before it is read', () => {
    const feed = decoderFor()
    feed({ type: 'TEXT_MESSAGE_CHUNK', messageId: 'm1', delta: 'Hi' })
    const ops = feed({ type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'search' })
    // The chunk's held append is written before the message is finished.
    expect(ops).toEqual([append('m1', 'Hi'), finish('m1'), ...toolStart('c1')])
  })

  it('a tool call already completed elsewhere is not completed again', () => {
    const feed = decoderFor()
    feed({ type: 'TOOL_CALL_CHUNK', toolCallId: 'c1', toolCallName: 'search' })
    expect(feed({ type: 'TOOL_CALL_END', toolCallId: 'c1', subagentRunId: 'other' })).toEqual(toolDone('c1'))
    expect(feed({ type: 'TEXT_MESSAGE_START', messageId: 'm1' })).toEqual([textStart('m1')])
  })

  it('a text message already ended elsewhere is not finished again', () => {
    const feed = decoderFor()
    feed({ type: 'TEXT_MESSAGE_CHUNK', messageId: 'm1', delta: 'Hi' })
    expect(feed({ type: 'TEXT_MESSAGE_END', messageId: 'm1', subagentRunId: 'other' })).toEqual([append('m1', 'Hi'), finish('m1')])
    expect(feed({ type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'search' })).toEqual(toolStart('c1'))
  })

  it('a run\'s end finishes the open stream of every lane', () => {
    const feed = decoderFor()
    feed({ type: 'RUN_STARTED', threadId: 'th', runId: 'r1' })
    feed({ type: 'TEXT_MESSAGE_CHUNK', messageId: 'm1', delta: 'Hi' })
    // The reasoning chunk first writes the text chunk's held append.
    expect(feed({ type: 'REASONING_MESSAGE_CHUNK', messageId: 'r1', subagentRunId: 'sub', delta: 'Hm' })).toEqual([
      append('m1', 'Hi'),
      { op: 'message.delta', ...at('r1', 'reasoning', 'assistant', 'sub'), action: 'merge', path: '', value: { content: '' } },
      { op: 'trace.node', turnId: 't1', node: { id: 'reason:r1', kind: 'reason', label: 'Reasoning', status: 'start', parentId: undefined } },
    ])
    expect(feed({ type: 'RUN_FINISHED', threadId: 'th', runId: 'r1' })).toEqual([
      append('r1', 'Hm', 'sub', 'reasoning'),
      finish('m1'),
      finish('r1'),
      { op: 'trace.node', turnId: 't1', node: { id: 'reason:r1', status: 'done' } },
      { op: 'turn.finish', turnId: 't1', status: 'done' },
    ])
  })

  it('a messages snapshot finishes the open streams before it merges', () => {
    const feed = decoderFor()
    feed({ type: 'TEXT_MESSAGE_CHUNK', messageId: 'm1', subagentRunId: 'sub', delta: 'Hi' })
    expect(feed({ type: 'MESSAGES_SNAPSHOT', messages: [] })).toEqual([append('m1', 'Hi', 'sub'), finish('m1')])
  })
})
