/**
 * fast-check generators for streams of all four protocols: ordinary events,
 * errors mid-stream, events after the end, second runs, replays, unknown types
 * and hostile values, written as SSE text with either line ending.
 */
import fc from 'fast-check'
import type { ProtocolName } from '../../src/core/model/model'

/** Values a server should never send where text belongs. */
export const hostile = fc.constantFrom<unknown>(
  null, 42, 1e309, -0, '', [], {}, { a: 1 }, ['x'], true, '__proto__', 'constructor', 'toString', '<script>alert(1)</script>',
)

/** Text with multi-byte characters, so byte splits land inside UTF-8 sequences. */
const text = fc.oneof(
  fc.constantFrom('Hel', 'lo', ' wörld', ' 日本語', ' 🙂', '\r', '\n', 'a\r\nb', '[1]', ' '),
  fc.string({ maxLength: 12, unit: 'grapheme' }),
)
const textOrHostile = fc.oneof({ weight: 5, arbitrary: text }, { weight: 1, arbitrary: hostile })

type Event = Record<string, unknown> | string

const yaoEvent = (type: string, data: Record<string, unknown> = {}) => ({ type: 'event', props: { event: type, data } })

const yao: fc.Arbitrary<Event> = fc.oneof(
  fc.record({
    chunk_id: fc.constantFrom('C1', 'C2', 'C3', 'C4', 'C5', 'C6', 'C7', 'C8'),
    message_id: fc.constantFrom('M1', 'M2', 'M3'),
    type: fc.constantFrom('text', 'thinking', 'tool_call', 'toString', 'loading'),
    props: fc.record({ content: textOrHostile }),
    delta: fc.constantFrom<unknown>(true, true, true, false, null, 0, '', undefined),
  }, { requiredKeys: ['chunk_id', 'message_id', 'type', 'props'] }),
  fc.record({
    chunk_id: fc.constantFrom('C9', 'C10', 'C11'),
    message_id: fc.constantFrom('M1', 'M2'),
    type: fc.constant('text'),
    props: fc.record({ content: text }),
    delta: fc.constant(true),
    delta_path: fc.constantFrom('content', 'title', 'items[0]', 'a.b.c', '__proto__.x', 'a..b'),
    delta_action: fc.constantFrom('append', 'replace', 'merge', 'set', 'bogus'),
  }),
  fc.constantFrom<Event>(
    yaoEvent('stream_start', { request_id: 'q1' }),
    yaoEvent('stream_start', { request_id: 'q2' }),
    yaoEvent('message_start', { message_id: 'M1', type: 'text' }),
    yaoEvent('message_end', { message_id: 'M1', extra: { content: 'final' } }),
    yaoEvent('block_start', { block_id: 'B1', type: 'llm', label: 'Block' }),
    yaoEvent('block_end', { block_id: 'B1' }),
    yaoEvent('thread_start', { thread_id: 'T1' }),
    yaoEvent('stream_end', { status: 'completed' }),
    yaoEvent('stream_end', { status: 'error', error: { message: 'boom' } }),
    { chunk_id: 'C1', type: 'text', props: { content: 'repeat of C1' } },
  ),
)

/**
 * Pieces of a tool's streamed input: whole JSON, cut JSON, JSON that breaks, a key
 * that could reach a prototype, nesting, and a literal cut in two.
 */
const inputPiece = fc.constantFrom('{"q":', '"x"}', '', '{"a":', '1}', '{"__proto__":1,', '"constructor":{', '[[[', ']]]', 'nu', 'll', ' ', '"\\u00', '41"', '7')

const uiMessage: fc.Arbitrary<Event> = fc.oneof(
  fc.record({ type: fc.constant('text-delta'), id: fc.constantFrom('a', 'b'), delta: textOrHostile }),
  fc.record({ type: fc.constant('reasoning-delta'), id: fc.constant('r'), delta: text }),
  fc.record({ type: fc.constant('tool-input-delta'), toolCallId: fc.constantFrom('t1', 't2'), inputTextDelta: inputPiece }),
  fc.record({ type: fc.constantFrom('data-step', 'data-thinking-step'), id: fc.constantFrom('d1', 'd2'), data: fc.record({ label: textOrHostile }) }),
  fc.constantFrom<Event>(
    { type: 'start', messageId: 'msg1' },
    { type: 'start-step' }, { type: 'finish-step' },
    { type: 'text-start', id: 'a' }, { type: 'text-end', id: 'a' }, { type: 'text-start', id: 'b' }, { type: 'text-end', id: 'b' },
    { type: 'reasoning-start', id: 'r' }, { type: 'reasoning-end', id: 'r' },
    { type: 'tool-input-start', toolCallId: 't1', toolName: 'search' },
    { type: 'tool-input-available', toolCallId: 't1', toolName: 'search', input: { q: 'x' } },
    { type: 'tool-input-start', toolCallId: 't2', toolName: 'plan' },
    { type: 'tool-input-available', toolCallId: 't2', toolName: 'plan' },
    { type: 'tool-output-available', toolCallId: 't1', output: { hits: 1 } },
    { type: 'source-url', sourceId: 's1', url: 'https://example.com' },
    { type: 'error', errorText: 'rate limited' },
    { type: 'finish' }, { type: 'abort' }, { type: 'mystery-chunk' },
    '[DONE]',
  ),
)

const agUi: fc.Arbitrary<Event> = fc.oneof(
  fc.record({ type: fc.constant('TEXT_MESSAGE_CONTENT'), messageId: fc.constantFrom('m1', 'm2'), delta: textOrHostile }),
  fc.record({ type: fc.constant('TOOL_CALL_ARGS'), toolCallId: fc.constantFrom('tc1', 'tc2'), delta: inputPiece }),
  // Implicit chunk streams: a first chunk starts its message, the next event of another kind ends it.
  fc.record({ type: fc.constantFrom('TEXT_MESSAGE_CHUNK', 'REASONING_MESSAGE_CHUNK'), messageId: fc.constantFrom('c1', 'c2', undefined), delta: textOrHostile }, { requiredKeys: ['type', 'delta'] }),
  fc.constantFrom<Event>(
    { type: 'RUN_STARTED', threadId: 'th', runId: 'r1' },
    { type: 'RUN_STARTED', threadId: 'th', runId: 'r2' },
    { type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' },
    { type: 'TEXT_MESSAGE_END', messageId: 'm1' },
    { type: 'TEXT_MESSAGE_START', messageId: 'm2', role: 'assistant' },
    { type: 'TEXT_MESSAGE_END', messageId: 'm2' },
    { type: 'TOOL_CALL_START', toolCallId: 'tc1', toolCallName: 'lookup' },
    { type: 'TOOL_CALL_END', toolCallId: 'tc1' },
    { type: 'TOOL_CALL_START', toolCallId: 'tc2', toolCallName: 'plan' },
    { type: 'TOOL_CALL_END', toolCallId: 'tc2' },
    { type: 'TOOL_CALL_RESULT', toolCallId: 'tc1', messageId: 'res1', content: 'ok' },
    { type: 'STEP_STARTED', stepName: 'plan' }, { type: 'STEP_FINISHED', stepName: 'plan' },
    { type: 'STATE_SNAPSHOT', snapshot: { n: 1 } },
    { type: 'STATE_DELTA', delta: [{ op: 'replace', path: '/n', value: 2 }] },
    { type: 'RUN_FINISHED', threadId: 'th', runId: 'r1' },
    { type: 'RUN_FINISHED', threadId: 'th', runId: 'r2' },
    { type: 'RUN_ERROR', message: 'failed' },
    { type: 'NOT_AN_EVENT' },
  ),
)

const vocion: fc.Arbitrary<Event> = fc.oneof(
  fc.record({ type: fc.constant('response_delta'), delta: textOrHostile }),
  fc.record({ type: fc.constant('thinking_delta'), delta: text }),
  fc.record({ type: fc.constant('retrieval_progress'), stage: fc.constantFrom('started', 'complete', 'constructor', 'toString'), meta: fc.constant({ hits: 2 }) }),
  fc.record({
    type: fc.constant('trace_node'), id: fc.constantFrom('n1', 'n2'), status: fc.constantFrom('start', 'done', 'error', null),
    label: textOrHostile, actor: fc.oneof(fc.constant({ id: 'lead', kind: 'lead', name: 'Lead' }), hostile),
  }, { requiredKeys: ['type', 'id'] }),
  fc.constantFrom<Event>(
    { type: 'stream_meta', streamId: 's1' },
    { type: 'thinking' }, { type: 'answering' },
    { type: 'documents', documents: [{ document_id: 'd2', semantic_identifier: 'Two', citationIndex: 2 }, { document_id: 'd1', citationIndex: 1 }] },
    { type: 'tool_start', id: 'tool1', name: 'lookup' },
    { type: 'tool_end', id: 'tool1', result: 'ok' },
    { type: 'tool_error', id: 'tool1', error: 'down' },
    { type: 'done' },
    { type: 'error', message: 'stream failed' },
    { type: 'surprise' },
  ),
)

/** One protocol's event generator. */
export const EVENTS: Readonly<Record<string, fc.Arbitrary<Event>>> = { yao, 'ui-message': uiMessage, 'ag-ui': agUi, vocion }

/** A raw frame that is not an event: malformed JSON or a comment. */
const noise = fc.constantFrom('{"broken', 'not json', ': keepalive')

/** SSE text for a stream of `protocol`: events, some noise, either line ending. */
export function sseStream(protocol: ProtocolName, maxEvents = 24): fc.Arbitrary<string> {
  const events = EVENTS[protocol]
  if (!events) throw new Error(`no event generator for the protocol "${protocol}"`)
  const item = fc.oneof({ weight: 12, arbitrary: events }, { weight: 1, arbitrary: noise })
  return fc.record({ items: fc.array(item, { minLength: 1, maxLength: maxEvents }), crlf: fc.boolean() }).map(({ items, crlf }) => {
    const eol = crlf ? '\r\n' : '\n'
    return items.map((item) => {
      if (typeof item === 'string' && item.startsWith(':')) return `${item}${eol}${eol}`
      const data = typeof item === 'string' ? item : JSON.stringify(item)
      return `data: ${data}${eol}${eol}`
    }).join('')
  })
}

/**
 * Cut points for a body of `length` bytes: anywhere (inside UTF-8 and CRLF), with
 * repeats (empty reads), or every byte.
 */
export function splits(length: number): fc.Arbitrary<number[]> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.array(fc.nat({ max: length }), { maxLength: 40 }) },
    { weight: 1, arbitrary: fc.constant(Array.from({ length }, (_, i) => i)) },
  )
}
