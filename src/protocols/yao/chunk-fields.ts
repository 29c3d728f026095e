/**
 * The fields weft reads from a Yao chunk and from each lifecycle event's data.
 * Anything else a chunk carries is kept on what the chunk made, as `extra`, so
 * nothing the wire carries is dropped. A content chunk's `props` are the
 * message's props and are kept whole already.
 *
 * `metadata` (`timestamp`, `sequence`, `trace_id`) is the envelope every chunk
 * carries: weft reads its `sequence` (the resume cursor), and `trace_id` is the
 * turn's `traceId` from `stream_start`; a chunk's `timestamp` is not kept, since
 * every token would overwrite the last one's at the cost of a write per token.
 */
import { extrasOf } from '../../protocol-kit/index'

/**
 * The fields read from every chunk.
 *
 * @example
 * YAO_CHUNK_FIELDS.has('delta_path') // true
 */
export const YAO_CHUNK_FIELDS: ReadonlySet<string> = new Set([
  'type', 'props', 'chunk_id', 'message_id', 'block_id', 'thread_id', 'delta', 'delta_path', 'delta_action', 'type_change', 'metadata',
])

/**
 * The fields read from each lifecycle event's data (`props`, with `props.data`
 * over it): every lifecycle event the decoder knows has an entry.
 *
 * @example
 * YAO_LIFECYCLE_FIELDS.get('block_start') // Set { 'event', 'data', 'block_id', 'type', 'label' }
 */
export const YAO_LIFECYCLE_FIELDS: ReadonlyMap<string, ReadonlySet<string>> = new Map(Object.entries({
  stream_start: ['request_id', 'chat_id', 'trace_id', 'assistant'],
  stream_end: ['status', 'error', 'duration_ms', 'usage'],
  block_start: ['block_id', 'type', 'label'],
  block_end: ['block_id', 'status'],
  thread_start: ['thread_id', 'block_id', 'label'],
  thread_end: ['thread_id', 'status'],
  message_start: ['message_id', 'type', 'thread_id', 'block_id', 'tool_call'],
  // `extra.content` is the final text; the `extra` object is read for it.
  message_end: ['message_id', 'status', 'extra'],
}).map(([name, fields]) => [name, new Set(['event', 'data', ...fields])]))

/**
 * What a chunk carries beyond the fields weft reads, or `undefined` (always, for
 * a chunk without any: nothing is allocated).
 *
 * @example
 * yaoChunkExtras({ chunk_id: 'C1', type: 'text', props: {}, region: 'eu' }) // { region: 'eu' }
 */
export function yaoChunkExtras(chunk: Record<string, unknown>): Record<string, unknown> | undefined {
  return extrasOf(chunk, YAO_CHUNK_FIELDS)
}

/**
 * What a lifecycle event carries beyond the fields weft reads, in its data and on
 * its chunk (the data's win), or `undefined`.
 *
 * @example
 * yaoLifecycleExtras('block_end', { event: 'block_end', block_id: 'B1', status: 'completed', tokens: 9 }, {}) // { tokens: 9 }
 */
export function yaoLifecycleExtras(name: string, data: Record<string, unknown>, chunk: Record<string, unknown>): Record<string, unknown> | undefined {
  const read = YAO_LIFECYCLE_FIELDS.get(name)
  const own = read ? extrasOf(data, read) : undefined
  const outer = yaoChunkExtras(chunk)
  return own && outer ? { ...outer, ...own } : own ?? outer
}

/**
 * One Yao chunk, as far as the decoder reads it.
 *
 * @example
 * const chunk: YaoChunk = { chunk_id: 'C1', message_id: 'M1', type: 'text', props: { content: 'Hi' }, delta: true }
 */
export interface YaoChunk {
  type?: unknown
  props?: unknown
  chunk_id?: unknown
  message_id?: unknown
  block_id?: unknown
  thread_id?: unknown
  delta?: unknown
  delta_path?: unknown
  delta_action?: unknown
  type_change?: unknown
  metadata?: { sequence?: unknown }
}
