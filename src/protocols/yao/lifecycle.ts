/**
 * Yao's lifecycle events, sent as `type: "event"` chunks: a stream, a block, a
 * thread or a message starting and ending.
 */
import { type Op, type WeftError, weftError } from '../../core/index'
import { idOf, isRecord, protocolProblem, readUsage, type UsageFields } from '../../protocol-kit/index'
import { type YaoChunk, yaoLifecycleExtras } from './chunk-fields'
import type { MessagePlaces } from './message-places'
import type { YaoToolCalls } from './tool-calls'

/**
 * The `props.event` names that are lifecycle events.
 *
 * @example
 * YAO_LIFECYCLE_EVENTS.has('block_start') // true
 */
export const YAO_LIFECYCLE_EVENTS: ReadonlySet<string> = new Set([
  'stream_start', 'stream_end', 'block_start', 'block_end', 'message_start', 'message_end', 'thread_start', 'thread_end',
])

/**
 * What a lifecycle event reads and writes of its stream's decoder.
 *
 * @example
 * const scoped = (id: string) => `t1/${id}`
 * const scope: LifecycleScope = {
 *   turnId: 't1', scoped, places: createMessagePlaces('t1', scoped), tools: createYaoToolCalls('t1', scoped), markEnded: () => {},
 * }
 */
export interface LifecycleScope {
  turnId: string
  /** A wire id as a store id. */
  scoped: (id: string) => string
  places: MessagePlaces
  tools: YaoToolCalls
  /** A `stream_end` arrived: the stream is over. */
  markEnded: () => void
}

/**
 * The ops of one lifecycle event: `props` is the event's data (its fields under
 * `props.data` already merged in), `chunk` the chunk that carried it.
 *
 * @example
 * lifecycleOps('block_start', { block_id: 'B1', type: 'search' }, { type: 'event' }, scope)
 */
export function lifecycleOps(name: string, props: Record<string, unknown>, chunk: YaoChunk, scope: LifecycleScope): Op[] {
  const { turnId, scoped, places, tools } = scope
  const problem = (message: string, raw?: unknown): Op => protocolProblem(turnId, message, raw)
  const blockId = idOf(props.block_id) ?? idOf(chunk.block_id)
  const threadId = idOf(props.thread_id) ?? idOf(chunk.thread_id)
  const named = idOf(props.message_id) ?? idOf(chunk.message_id)
  const messageId = named === undefined ? undefined : places.serverMessageId(named)
  // What the event carries beyond weft's fields goes on what it opens or closes: the turn, the block's row, the thread, the message.
  const extra = yaoLifecycleExtras(name, props, chunk as Record<string, unknown>)
  const kept = extra ? { extra } : {}
  switch (name) {
    case 'stream_start':
      return [{
        op: 'turn.update', turnId,
        metadata: { ...pick(props, { request_id: 'requestId', chat_id: 'chatId', trace_id: 'traceId', assistant: 'assistant' }), ...kept },
      }]
    case 'stream_end':
      scope.markEnded()
      return streamEnd(turnId, props, extra)
    case 'block_start': {
      if (!blockId) return [problem('block_start without a block_id', props)]
      const kind = idOf(props.type) ?? 'block'
      const label = idOf(props.label)
      return [
        { op: 'block.open', turnId, blockId: scoped(blockId), kind, label },
        { op: 'trace.node', turnId, node: { id: scoped(blockId), kind, label: label ?? kind, status: 'start', ...kept } },
      ]
    }
    case 'block_end':
      if (!blockId) return [problem('block_end without a block_id', props)]
      return [
        { op: 'block.close', blockId: scoped(blockId), status: props.status === 'error' ? 'error' : 'done' },
        { op: 'trace.node', turnId, node: { id: scoped(blockId), status: props.status === 'error' ? 'error' : 'done', ...kept } },
      ]
    case 'thread_start':
      if (!threadId) return [problem('thread_start without a thread_id', props)]
      return [{ op: 'thread.open', turnId, threadId: scoped(threadId), blockId: blockId && scoped(blockId), label: idOf(props.label), ...kept }]
    case 'thread_end':
      if (!threadId) return [problem('thread_end without a thread_id', props)]
      return [{ op: 'thread.close', threadId: scoped(threadId), status: props.status === 'error' ? 'error' : 'done', ...kept }]
    case 'message_start': {
      if (!messageId) return [problem('message_start without a message_id', props)]
      const wireType = idOf(props.type) ?? 'text'
      places.messageTypes.set(messageId, wireType)
      const ops: Op[] = [{
        op: 'message.delta', action: 'merge', path: '', value: kept, ...places.place(messageId, wireType, chunk, props),
      }]
      if (wireType === 'tool_call' && isRecord(props.tool_call)) ops.push(...tools.toolCall(messageId, props.tool_call, false))
      return ops
    }
    case 'message_end': {
      if (!messageId) return [problem('message_end without a message_id', props)]
      const ops: Op[] = []
      const wireType = places.messageTypes.get(messageId)
      const final = isRecord(props.extra) ? props.extra.content : undefined
      // The server's final text (Yao's `extra.content`) wins over what the deltas built, in case some were dropped.
      if (typeof final === 'string' && (wireType === 'text' || wireType === 'thinking')) {
        ops.push({ op: 'message.delta', turnId, messageId: scoped(messageId), action: 'set', path: 'content', value: final })
      }
      const failed = props.status === 'error'
      if (extra) ops.push({ op: 'message.delta', turnId, messageId: scoped(messageId), action: 'merge', path: 'extra', value: extra })
      ops.push({ op: 'message.finish', messageId: scoped(messageId), status: failed ? 'error' : 'done' })
      ops.push(...tools.finished(messageId, failed))
      return ops
    }
    default:
      return []
  }
}

/**
 * The request a `stream_start` event opens, or undefined for any other chunk.
 *
 * @example
 * streamStartOf({ type: 'event', props: { event: 'stream_start', data: { request_id: 'r1' } } }) // { requestId: 'r1' }
 */
export function streamStartOf(chunk: YaoChunk): { requestId: string | undefined } | undefined {
  if (chunk.type !== 'event' || !isRecord(chunk.props) || chunk.props.event !== 'stream_start') return undefined
  const data = isRecord(chunk.props.data) ? chunk.props.data : chunk.props
  return { requestId: idOf(data.request_id) }
}

/**
 * Where `stream_end`'s usage keeps each count: the model API's names (OpenAI's,
 * with their details), or the input/output names some providers use.
 *
 * @example
 * readUsage({ prompt_tokens: 12, completion_tokens: 24 }, YAO_USAGE_FIELDS).usage?.outputTokens // 24
 */
export const YAO_USAGE_FIELDS: UsageFields = {
  inputTokens: ['prompt_tokens', 'input_tokens'],
  outputTokens: ['completion_tokens', 'output_tokens'],
  totalTokens: 'total_tokens',
  reasoningTokens: ['completion_tokens_details.reasoning_tokens', 'output_tokens_details.reasoning_tokens'],
  cachedInputTokens: ['prompt_tokens_details.cached_tokens', 'input_tokens_details.cached_tokens'],
  model: 'model',
}

function streamEnd(turnId: string, props: Record<string, unknown>, extra: Record<string, unknown> | undefined): Op[] {
  const ops: Op[] = extra ? [{ op: 'turn.update', turnId, metadata: { extra } }] : []
  if (props.usage !== undefined && props.usage !== null) {
    const { usage, problems } = readUsage(props.usage, YAO_USAGE_FIELDS)
    for (const problem of problems) ops.push(protocolProblem(turnId, `stream_end: ${problem}`, props.usage, 'invalid_usage'))
    if (usage) ops.push({ op: 'turn.update', turnId, usage })
  }
  if (typeof props.duration_ms === 'number') ops.push({ op: 'turn.update', turnId, metadata: { durationMs: props.duration_ms } })
  const status = props.status
  if (status === 'error') ops.push({ op: 'turn.finish', turnId, status: 'error', error: endError(props.error) })
  else if (status === 'cancelled') ops.push({ op: 'turn.finish', turnId, status: 'aborted' })
  else ops.push({ op: 'turn.finish', turnId, status: 'done' })
  return ops
}

function endError(raw: unknown): WeftError {
  if (isRecord(raw)) {
    return weftError('internal', idOf(raw.message) ?? 'the agent stream ended with an error', { code: idOf(raw.code), retryable: false })
  }
  return weftError('internal', idOf(raw) ?? 'the agent stream ended with an error', { retryable: false })
}

function pick(source: Record<string, unknown>, names: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [from, to] of Object.entries(names)) if (source[from] !== undefined) out[to] = source[from]
  return out
}
