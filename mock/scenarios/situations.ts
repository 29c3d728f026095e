/**
 * Situations every protocol should show, written once for all four: a short
 * plain answer, a long answer (many small deltas, multibyte text) and an error
 * that arrives mid-stream after part of the answer.
 */
import type { MockFrame, Scenario } from '../scenario.js'

type Data = Record<string, unknown>

/** About 4 KB of prose with accents and CJK, in word-sized deltas. */
const LONG_TEXT = Array.from({ length: 40 }, (_, i) =>
  `Paragraph ${i + 1}: the café’s ledger for week ${i + 1} balances — 収支は一致しています. `,
).join('')
const longDeltas = LONG_TEXT.match(/\S+\s*/g) ?? [LONG_TEXT]
const PARTIAL = ['The quarterly numbers ', 'look fine so far, ', 'but the ']
const PLAIN = ['Hello! ', 'The build is green ', 'and the release is ready.']
const ERROR_MESSAGE = 'The model provider returned 503: overloaded'

function yaoStream(requestId: string, messages: Data[]): MockFrame[] {
  return messages.map((message, index) => ({
    data: { chunk_id: `C${index + 1}`, ...message, metadata: { sequence: index + 1, timestamp: Date.UTC(2025, 0, 1) + index * 40, trace_id: requestId } },
  }))
}
const yaoEvent = (event: string, data: Data): Data => ({ type: 'event', props: { event, data } })
const yaoText = (deltas: readonly string[]): Data[] => [
  yaoEvent('message_start', { message_id: 'M1', type: 'text' }),
  ...deltas.map((content) => ({ type: 'text', message_id: 'M1', props: { content }, delta: true })),
]

const uiMessage = (chunks: Data[]): MockFrame[] => [...chunks.map((data) => ({ data })), { data: '[DONE]' }]
const uiText = (deltas: readonly string[]): Data[] => [
  { type: 'text-start', id: 'txt_1' },
  ...deltas.map((delta) => ({ type: 'text-delta', id: 'txt_1', delta })),
]
const UI_HEADERS = { 'x-vercel-ai-ui-message-stream': 'v1' }

const agUi = (run: string, events: Data[]): MockFrame[] =>
  events.map((data, index) => ({ id: `${run}:${String(index + 1).padStart(4, '0')}`, event: String(data.type), data }))
const agText = (deltas: readonly string[]): Data[] => [
  { type: 'TEXT_MESSAGE_START', messageId: 'msg_1', role: 'assistant' },
  ...deltas.map((delta) => ({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'msg_1', delta })),
]

const vocion = (streamId: string, events: Data[]): MockFrame[] => [{ data: { type: 'stream_meta', streamId } }, ...events.map((data) => ({ data }))]

/**
 * The long-answer and error-mid-stream scenario of each protocol.
 *
 * @example
 * situationScenarios.map((s) => `${s.protocol}/${s.name}`)
 */
export const situationScenarios: Scenario[] = [
  {
    protocol: 'ag-ui', name: 'plain', title: 'A plain answer',
    frames: agUi('run_plain', [
      { type: 'RUN_STARTED', threadId: 'thread_demo', runId: 'run_plain' },
      ...agText(PLAIN),
      { type: 'TEXT_MESSAGE_END', messageId: 'msg_1' },
      { type: 'RUN_FINISHED', threadId: 'thread_demo', runId: 'run_plain' },
    ]),
  },
  {
    protocol: 'vocion', name: 'plain', title: 'A plain answer',
    frames: vocion('stream-plain-1', [
      { type: 'answering' },
      ...PLAIN.map((delta) => ({ type: 'response_delta', delta })),
      { type: 'done', response: PLAIN.join('') },
    ]),
  },
  {
    protocol: 'yao', name: 'long-answer', title: 'A long answer: about 3 KB in word-sized deltas',
    frames: yaoStream('req_long', [
      yaoEvent('stream_start', { request_id: 'req_long' }),
      ...yaoText(longDeltas),
      yaoEvent('message_end', { message_id: 'M1', chunk_count: longDeltas.length }),
      yaoEvent('stream_end', { status: 'completed' }),
    ]),
  },
  {
    protocol: 'yao', name: 'error-mid-stream', title: 'The stream ends in an error after part of the answer',
    frames: yaoStream('req_error', [
      yaoEvent('stream_start', { request_id: 'req_error' }),
      ...yaoText(PARTIAL),
      yaoEvent('stream_end', { status: 'error', error: { code: 'upstream_unavailable', message: ERROR_MESSAGE } }),
    ]),
  },
  {
    protocol: 'ui-message', name: 'long-answer', title: 'A long answer: about 3 KB in word-sized deltas', headers: UI_HEADERS,
    frames: uiMessage([{ type: 'start', messageId: 'msg_long' }, ...uiText(longDeltas), { type: 'text-end', id: 'txt_1' }, { type: 'finish' }]),
  },
  {
    protocol: 'ui-message', name: 'error-mid-stream', title: 'The stream ends in an error after part of the answer', headers: UI_HEADERS,
    frames: uiMessage([{ type: 'start', messageId: 'msg_error' }, ...uiText(PARTIAL), { type: 'error', errorText: ERROR_MESSAGE }]),
  },
  {
    protocol: 'ag-ui', name: 'long-answer', title: 'A long answer: about 3 KB in word-sized deltas',
    frames: agUi('run_long', [
      { type: 'RUN_STARTED', threadId: 'thread_demo', runId: 'run_long' },
      ...agText(longDeltas),
      { type: 'TEXT_MESSAGE_END', messageId: 'msg_1' },
      { type: 'RUN_FINISHED', threadId: 'thread_demo', runId: 'run_long' },
    ]),
  },
  {
    protocol: 'ag-ui', name: 'error-mid-stream', title: 'The run fails after part of the answer',
    frames: agUi('run_error', [
      { type: 'RUN_STARTED', threadId: 'thread_demo', runId: 'run_error' },
      ...agText(PARTIAL),
      { type: 'RUN_ERROR', message: ERROR_MESSAGE, code: 'upstream_unavailable' },
    ]),
  },
  {
    protocol: 'vocion', name: 'long-answer', title: 'A long answer: about 3 KB in word-sized deltas',
    frames: vocion('stream-long-1', [
      { type: 'answering' },
      ...longDeltas.map((delta) => ({ type: 'response_delta', delta })),
      { type: 'done', response: LONG_TEXT },
    ]),
  },
  {
    protocol: 'vocion', name: 'error-mid-stream', title: 'The stream ends in an error after part of the answer',
    frames: vocion('stream-error-1', [
      { type: 'answering' },
      ...PARTIAL.map((delta) => ({ type: 'response_delta', delta })),
      { type: 'error', message: ERROR_MESSAGE },
    ]),
  },
]
