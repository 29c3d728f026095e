/**
 * Field-mutation fuzz: for every event type of every protocol, each field in turn
 * is replaced by each of 18 hostile values. Every input is folded after an answer
 * that already says "Hello", then server-rendered with `Transcript` and `Trace`.
 * Expected: no throw, no prototype pollution, the folded "Hello" never erased, and
 * an event that changed nothing at all recorded as a problem.
 */
import { renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { Trace } from '../../src/components/trace'
import { Transcript } from '../../src/components/transcript'
import { foldStream } from '../../src/umbrella/defaults'
import type { AgentState, ProtocolName } from '../../src/core/model/model'
import { createAgentStore } from '../../src/core/store/store'
import { AgentProvider } from '../../src/umbrella/providers'
import { messageIn, messageList, messageRecord } from '../../src/core/model/message-table'
import { traceRecord } from '../../src/core/model/trace-table'

function nested(depth: number): unknown {
  let node: unknown = 'leaf'
  for (let i = 0; i < depth; i++) node = { n: node }
  return node
}

/** 18 values no field should have to survive. */
const HOSTILE: ReadonlyArray<[string, unknown]> = [
  ['null', null], ['[]', []], ['{}', {}], ['1e309', 1e309], ['""', ''], ['1 MB string', 'x'.repeat(1 << 20)],
  ['"__proto__"', '__proto__'], ['"constructor"', 'constructor'], ['"toString"', 'toString'],
  ['10,000 deep', nested(10_000)], ['a number', 42], ['NaN', Number.NaN], ['true', true],
  ['an own __proto__ key', JSON.parse('{"__proto__":{"polluted":"yes"},"a":1}')],
  ['[null]', [null]], ['-1', -1], ['markup', '<img src=x onerror="alert(1)">'], ['{toString}', { toString: 'x', valueOf: 'y' }],
]

type Event = Record<string, unknown>
interface ProtocolCase {
  protocol: ProtocolName
  /** Events that fold an answer whose text is "Hello". */
  prefix: Event[]
  /** Finds the "Hello" message in the folded state. */
  hello: (state: AgentState) => unknown
  /** One event of each type. */
  events: Event[]
}

const yaoEvent = (event: string, data: Event) => ({ type: 'event', props: { event, data } })
const textOf = (state: AgentState, id: string) => messageIn(state.messages, id)?.props.content

const CASES: ProtocolCase[] = [
  {
    protocol: 'yao',
    prefix: [yaoEvent('stream_start', { request_id: 'q1' }), { chunk_id: 'C0', message_id: 'M0', type: 'text', props: { content: 'Hello' }, delta: true }],
    hello: (s) => textOf(s, 'turn-1/M0'),
    events: [
      { chunk_id: 'C1', message_id: 'M1', type: 'text', props: { content: 'Hi' }, delta: true },
      { chunk_id: 'C1', message_id: 'M0', type: 'text', props: { content: ' there' }, delta: true },
      { chunk_id: 'C1', message_id: 'M1', type: 'text', props: { content: 'Hi', title: 't' }, delta: true, delta_path: 'content', delta_action: 'append' },
      { chunk_id: 'C1', message_id: 'M1', type: 'thinking', props: { content: 'hm' }, delta: false },
      { chunk_id: 'C1', message_id: 'M1', type: 'tool_call', props: { id: 'call1', name: 'lookup', arguments: '{"a":1}' } },
      { chunk_id: 'C1', message_id: 'M1', type: 'execute', props: { tool: 'run', status: 'completed', input: {}, output: {} } },
      { chunk_id: 'C1', message_id: 'M1', block_id: 'B1', thread_id: 'T1', type: 'card', props: { title: 'T' }, metadata: { sequence: 3 } },
      yaoEvent('message_start', { message_id: 'M1', type: 'text' }),
      yaoEvent('message_end', { message_id: 'M0', extra: { content: 'Hello!' }, status: 'done' }),
      yaoEvent('block_start', { block_id: 'B1', type: 'llm', label: 'L' }),
      yaoEvent('block_end', { block_id: 'B1', status: 'done' }),
      yaoEvent('thread_start', { thread_id: 'T1', label: 'L' }),
      yaoEvent('thread_end', { thread_id: 'T1', status: 'done' }),
      yaoEvent('stream_start', { request_id: 'q2', chat_id: 'c', trace_id: 't' }),
      yaoEvent('stream_end', { status: 'completed', usage: { total: 1 }, duration_ms: 5, error: { message: 'x' } }),
    ],
  },
  {
    protocol: 'ui-message',
    prefix: [{ type: 'start' }, { type: 'text-start', id: 'p0' }, { type: 'text-delta', id: 'p0', delta: 'Hello' }],
    hello: (s) => messageList(s.messages).find((m) => m.type === 'text' && typeof m.props.content === 'string' && m.props.content.startsWith('Hello'))?.props.content ?? messageList(s.messages)[0]?.props.content,
    events: [
      { type: 'start', messageId: 'm1', messageMetadata: { a: 1 } },
      { type: 'message-metadata', messageMetadata: { a: 1 } },
      { type: 'text-start', id: 'a', providerMetadata: { p: 1 } },
      { type: 'text-delta', id: 'p0', delta: ' there' },
      { type: 'text-end', id: 'p0', providerMetadata: { p: 1 } },
      { type: 'reasoning-start', id: 'r' }, { type: 'reasoning-delta', id: 'r', delta: 'hm' }, { type: 'reasoning-end', id: 'r' },
      { type: 'tool-input-start', toolCallId: 't1', toolName: 'search', dynamic: false },
      { type: 'tool-input-delta', toolCallId: 't1', inputTextDelta: '{"q":' },
      { type: 'tool-input-available', toolCallId: 't1', toolName: 'search', input: { q: 'x' } },
      { type: 'tool-input-error', toolCallId: 't1', toolName: 'search', input: 'x', errorText: 'bad' },
      { type: 'tool-output-available', toolCallId: 't1', output: { hits: 1 } },
      { type: 'tool-output-error', toolCallId: 't1', errorText: 'down' },
      { type: 'tool-output-denied', toolCallId: 't1' },
      { type: 'tool-approval-request', toolCallId: 't1', approvalId: 'ap1' },
      { type: 'tool-approval-response', approvalId: 'ap1', approved: true },
      { type: 'source-url', sourceId: 's1', url: 'https://example.com', title: 'E' },
      { type: 'source-document', sourceId: 's2', mediaType: 'text/plain', title: 'D' },
      { type: 'file', url: 'https://example.com/f.png', mediaType: 'image/png' },
      { type: 'interrupt', id: 'i1', question: 'OK?' },
      { type: 'data-step', id: 'd1', data: { label: 'Step' } },
      { type: 'start-step' }, { type: 'finish-step' }, { type: 'reset-step' },
      { type: 'error', errorText: 'boom' }, { type: 'abort', reason: 'user' }, { type: 'finish', finishReason: 'stop' },
    ],
  },
  {
    protocol: 'ag-ui',
    prefix: [
      { type: 'RUN_STARTED', threadId: 'th', runId: 'r1' },
      { type: 'TEXT_MESSAGE_START', messageId: 'm0', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm0', delta: 'Hello' },
    ],
    hello: (s) => textOf(s, 'm0'),
    events: [
      { type: 'RUN_STARTED', threadId: 'th', runId: 'r2', parentRunId: 'r1', input: { messages: [] } },
      { type: 'RUN_FINISHED', threadId: 'th', runId: 'r1', result: { ok: true }, outcome: { type: 'success' } },
      { type: 'RUN_ERROR', message: 'failed', code: 'rate_limit' },
      { type: 'STEP_STARTED', stepName: 'plan' }, { type: 'STEP_FINISHED', stepName: 'plan' },
      { type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm0', delta: ' there' },
      { type: 'TEXT_MESSAGE_END', messageId: 'm0' },
      { type: 'TEXT_MESSAGE_CHUNK', messageId: 'm1', role: 'assistant', delta: 'x' },
      { type: 'TOOL_CALL_START', toolCallId: 'tc1', toolCallName: 'lookup', parentMessageId: 'm0' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 'tc1', delta: '{"a":1}' },
      { type: 'TOOL_CALL_END', toolCallId: 'tc1' },
      { type: 'TOOL_CALL_RESULT', toolCallId: 'tc1', messageId: 'res1', content: 'ok' },
      { type: 'TOOL_CALL_CHUNK', toolCallId: 'tc2', toolCallName: 'x', delta: '{}' },
      { type: 'REASONING_START', messageId: 'rs' }, { type: 'REASONING_END', messageId: 'rs' },
      { type: 'REASONING_MESSAGE_START', messageId: 'rm', role: 'assistant' },
      { type: 'REASONING_MESSAGE_CONTENT', messageId: 'rm', delta: 'hm' },
      { type: 'REASONING_MESSAGE_END', messageId: 'rm' },
      { type: 'REASONING_MESSAGE_CHUNK', messageId: 'rm2', delta: 'hm' },
      { type: 'REASONING_ENCRYPTED_VALUE', subtype: 'message', entityId: 'm0', encryptedValue: 'abc' },
      { type: 'STATE_SNAPSHOT', snapshot: { n: 1 } },
      { type: 'STATE_DELTA', delta: [{ op: 'add', path: '/n', value: 2 }] },
      { type: 'MESSAGES_SNAPSHOT', messages: [{ id: 'u1', role: 'user', content: 'hi' }] },
      { type: 'ACTIVITY_SNAPSHOT', messageId: 'act1', activityType: 'plan', content: { steps: [] } },
      { type: 'ACTIVITY_DELTA', messageId: 'act1', activityType: 'plan', patch: [{ op: 'add', path: '/x', value: 1 }] },
      { type: 'RAW', event: { a: 1 }, source: 'x' },
      { type: 'CUSTOM', name: 'note', value: { id: 'n1', text: 'x' } },
      { type: 'SUBAGENT_STARTED', subagentRunId: 'sa1', name: 'helper', description: 'd' },
      { type: 'SUBAGENT_FINISHED', subagentRunId: 'sa1', outcome: { type: 'success' } },
      { type: 'SUBAGENT_ERROR', subagentRunId: 'sa1', message: 'down' },
      { type: 'THINKING_START', title: 'T' }, { type: 'THINKING_END' },
      { type: 'THINKING_TEXT_MESSAGE_START' }, { type: 'THINKING_TEXT_MESSAGE_CONTENT', delta: 'x' }, { type: 'THINKING_TEXT_MESSAGE_END' },
    ],
  },
  {
    protocol: 'vocion',
    prefix: [{ type: 'stream_meta', streamId: 's1' }, { type: 'answering' }, { type: 'response_delta', delta: 'Hello' }],
    hello: (s) => messageList(s.messages).find((m) => m.type === 'text')?.props.content,
    events: [
      { type: 'stream_meta', streamId: 's2' },
      { type: 'thinking' }, { type: 'thinking_delta', delta: 'hm' }, { type: 'answering' },
      { type: 'response_delta', delta: ' there' },
      { type: 'tool_start', id: 'tool1', name: 'lookup', input: { a: 1 } },
      { type: 'tool_end', id: 'tool1', result: 'ok' },
      { type: 'tool_error', id: 'tool1', error: 'down' },
      { type: 'subagent_start', name: 'analyst', task: 'look' },
      { type: 'subagent_end', name: 'analyst' },
      { type: 'documents', documents: [{ document_id: 'd1', semantic_identifier: 'D', link: 'https://x', blurb: 'b', citationIndex: 1 }] },
      { type: 'retrieval_progress', stage: 'complete', meta: { hits: 2 } },
      { type: 'skill_result', skillResult: { skill: 'writer', output: 'x' } },
      { type: 'recommended_action', title: 'Do it', action: { kind: 'x' } },
      { type: 'trace_node', id: 'n1', kind: 'reason', status: 'start', label: 'L', text: 't', actor: { id: 'a', kind: 'lead', name: 'Lead' }, parentId: 'n0', reducer: 'append' },
      { type: 'hitl_gate', id: 'g1', question: 'OK?', options: ['yes', 'no'] },
      { type: 'run_meta', model: 'm1', provider: 'p1', strength: 'high', thinking: true },
      { type: 'artifact', artifact: { id: 'a1', kind: 'file', title: 'Report', url: 'https://x' }, pending: true },
      { type: 'record_created', record: { id: 'r1', table: 'notes', title: 'Note' } },
      { type: 'done', response: 'Hello there' },
      { type: 'error', message: 'failed', code: 'x' },
    ],
  },
]

/** Each field path of an event: its own keys, and one level into `props`/`data`/nested records. */
function fieldPaths(event: Event): string[][] {
  const paths: string[][] = []
  for (const [key, value] of Object.entries(event)) {
    if (key !== 'type') paths.push([key])
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      for (const inner of Object.keys(value)) paths.push([key, inner])
    }
  }
  return paths
}

function withField(event: Event, path: string[], value: unknown): Event {
  const copy: Event = { ...event }
  if (path.length === 1) {
    Object.defineProperty(copy, path[0]!, { value, enumerable: true, writable: true, configurable: true })
    return copy
  }
  const inner = { ...(copy[path[0]!] as Event) }
  Object.defineProperty(inner, path[1]!, { value, enumerable: true, writable: true, configurable: true })
  copy[path[0]!] = inner
  return copy
}

function render(state: AgentState): string {
  return renderToString(
    <AgentProvider store={createAgentStore({ initialState: state })}>
      <Transcript.Root />
      {state.turnIds.map((id) => <Trace.Root key={id} turnId={id} />)}
    </AgentProvider>,
  )
}

function polluted(): string[] {
  const probe = {} as Record<string, unknown>
  const found = [...Object.keys(Object.prototype), ...Object.keys(Array.prototype)]
  if (probe.polluted !== undefined) found.push('polluted')
  return found
}

/** Fields that hold a record of their own; a record there is well formed even when weft reads none of its keys. */
const CONTAINERS = new Set(['props', 'data', 'messageMetadata', 'meta', 'metadata', 'extra', 'input', 'output', 'result', 'value', 'snapshot', 'content'])

const isPlain = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value)

const comparable = (state: AgentState) => JSON.stringify({ messages: messageRecord(state.messages), trace: traceRecord(state.trace), turns: state.turns, gates: state.gates, agentState: state.agentState, cursor: state.cursor })

describe('field-mutation fuzz', () => {
  let total = 0
  for (const { protocol, prefix, hello, events } of CASES) {
    it(`${protocol}: every field of every event type, ${HOSTILE.length} hostile values each`, () => {
      const failures: string[] = []
      const before = foldStream(prefix, { protocol })
      expect(hello(before)).toBe('Hello')
      let tried = 0
      for (const event of events) {
        for (const path of fieldPaths(event)) {
          for (const [name, value] of HOSTILE) {
            const label = `${String(event.type)} ${path.join('.')} = ${name}`
            tried += 1
            try {
              const state = foldStream([...prefix, withField(event, path, value)], { protocol })
              const leaked = polluted()
              if (leaked.length > 0) failures.push(`${label}: prototype polluted with ${leaked.join(', ')}`)
              // A server's own final text may replace the streamed one; nothing may turn it into a non-text or empty value.
              const text = hello(state)
              if (typeof text !== 'string' || text.length === 0) failures.push(`${label}: "Hello" became ${JSON.stringify(text)?.slice(0, 60)}`)
              const problems = state.turns['turn-1']!.problems.length
              // Absent-like values, and a record of fields weft does not read, may change nothing without a problem.
              const empty = value === null || value === '' || (Array.isArray(value) && value.length === 0) || (isPlain(value) && CONTAINERS.has(path.at(-1)!))
                || (isPlain(value) && Object.keys(value).length === 0)
              if (problems === 0 && !empty && comparable(state) === comparable(before)) {
                failures.push(`${label}: ignored without a problem`)
              }
              render(state)
            } catch (thrown) {
              failures.push(`${label}: threw ${thrown instanceof Error ? thrown.message.slice(0, 120) : String(thrown)}`)
            }
          }
        }
      }
      total += tried
      console.info(`field-mutation fuzz ${protocol}: ${tried} inputs (${events.length} event types), running total ${total}`)
      expect(failures).toEqual([])
    }, 300_000)
  }
})
