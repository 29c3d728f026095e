/**
 * Yao history: the chat messages Yao stores, each with its `type` and `props`
 * (and `message_id`, `role`, `request_id`, `block_id`, `thread_id`, `sequence`).
 * A user message is a turn of its own; the assistant messages of one request
 * form one turn, replayed through the Yao decoder as whole (non-delta) chunks,
 * so `thinking`, `tool_call` and unknown types come out as they do live.
 */
import { type HistoryBatch, historyOps, type HistoryReader, type ProtocolDefinition } from '../../core/index'
import { extrasOf, isRecord, isSafeKey, replayOps, streamToOps } from '../../protocol-kit/index'
import { YAO_CHUNK_FIELDS } from './chunk-fields'
import { createYaoDecoder, sniffYao } from './decoder'

/** A turn's stored chunks are decoded as the live stream was, by the decoder itself (no list to find it in). */
const YAO_DECODER: ProtocolDefinition = { name: 'yao', create: createYaoDecoder, sniff: sniffYao }

/** The fields read from a stored message. */
const STORED_FIELDS: ReadonlySet<string> = new Set(['message_id', 'role', 'type', 'props', 'request_id', 'block_id', 'thread_id', 'sequence'])

/**
 * A stored Yao chat message (the fields weft reads).
 *
 * @example
 * const m: YaoStoredMessage = { message_id: 'M1', role: 'assistant', request_id: 'R1', type: 'text', props: { content: 'Hello' } }
 */
export interface YaoStoredMessage {
  message_id?: string
  role?: 'user' | 'assistant' | 'system'
  type: string
  props: Record<string, unknown>
  request_id?: string
  block_id?: string
  thread_id?: string
  sequence?: number
}

interface Group {
  role: 'user' | 'assistant'
  requestId?: string
  messages: YaoStoredMessage[]
}

/**
 * Turn stored Yao chat messages into a history batch (sorted by `sequence` when every message has one).
 * What a stored message carries beyond its fields is kept in its message's `props.extra`,
 * as a live chunk's is; an assistant message is replayed as a chunk, so of its fields
 * one that a chunk itself carries (its `metadata`, say) is read as the chunk's, not kept.
 *
 * @example
 * store.getState().dispatch(historyOps(yaoHistory(await loadChat(chatId)), store.getState()))
 */
export function yaoHistory(messages: unknown): HistoryBatch {
  const batch: HistoryBatch = { turns: [], replay: {}, problems: [] }
  if (!Array.isArray(messages)) {
    batch.problems.push({ message: 'Yao chat messages must be a list' })
    return batch
  }
  const readable: YaoStoredMessage[] = []
  for (const [index, raw] of messages.entries()) {
    if (!isRecord(raw) || typeof raw.type !== 'string' || !isRecord(raw.props)) {
      batch.problems.push({ message: `message ${index} has no type or props` })
      continue
    }
    if (raw.message_id !== undefined && (typeof raw.message_id !== 'string' || !isSafeKey(raw.message_id))) {
      batch.problems.push({ message: `message ${index} has an unusable message_id` })
      continue
    }
    readable.push(raw as unknown as YaoStoredMessage)
  }
  for (const group of groups(bySequence(readable))) {
    const first = group.messages[0] as YaoStoredMessage
    const key = group.requestId ?? first.message_id ?? `${batch.turns.length}`
    if (group.role === 'user') {
      const id = `yao-user:${first.message_id ?? key}`
      batch.turns.push({
        turn: { id, role: 'user', status: 'done', protocol: 'yao' },
        messages: group.messages.map((m, at) => ({
          id: `${id}/${m.message_id ?? at}`, role: 'user' as const, type: m.type === 'user_input' ? 'text' : m.type, props: withExtra(m), status: 'done' as const,
        })),
      })
      continue
    }
    const id = `yao:${key}`
    // A stored message's own fields ride on its chunk, which the decoder keeps as the message's extra.
    const chunks = group.messages.map((m, at) => ({
      ...chunkExtras(m),
      chunk_id: `history-${at}`, message_id: m.message_id ?? `history-${at}`, type: m.type, props: m.props, delta: false,
      ...(m.block_id ? { block_id: m.block_id } : {}), ...(m.thread_id ? { thread_id: m.thread_id } : {}),
    }))
    batch.turns.push({
      turn: { id, role: 'assistant', status: 'done', protocol: 'yao', ...(group.requestId ? { metadata: { requestId: group.requestId } } : {}) },
      messages: [],
    })
    ;(batch.replay as Record<string, unknown>)[id] = replayOps(streamToOps(chunks, { protocol: YAO_DECODER, turnId: id }), id)
  }
  return batch
}

/** A stored message's fields beyond those read, or `undefined`. */
const storedExtras = (m: YaoStoredMessage) => extrasOf(m as unknown as Record<string, unknown>, STORED_FIELDS)

/** The stored fields a replayed chunk may carry: not those the decoder reads as the chunk's own. */
function chunkExtras(m: YaoStoredMessage): Record<string, unknown> {
  const extra = storedExtras(m)
  if (!extra) return {}
  for (const key of YAO_CHUNK_FIELDS) delete extra[key]
  return extra
}

/** A user message's props with its stored fields in `extra` (merged into a record `extra` the props already have). */
function withExtra(m: YaoStoredMessage): Record<string, unknown> {
  const extra = storedExtras(m)
  if (!extra) return m.props
  const own = m.props.extra
  return { ...m.props, extra: isRecord(own) ? { ...own, ...extra } : extra }
}

function groups(messages: YaoStoredMessage[]): Group[] {
  const out: Group[] = []
  let current: Group | undefined
  for (const message of messages) {
    const role = message.role === 'user' ? 'user' : 'assistant'
    const requestId = typeof message.request_id === 'string' && message.request_id !== '' ? message.request_id : undefined
    const joins = current && role === 'assistant' && current.role === 'assistant' && (requestId === undefined || current.requestId === undefined || requestId === current.requestId)
    if (!current || role === 'user' || !joins) {
      current = { role, requestId, messages: [] }
      out.push(current)
    }
    current.requestId ??= requestId
    current.messages.push(message)
  }
  return out
}

function bySequence(messages: YaoStoredMessage[]): YaoStoredMessage[] {
  if (!messages.every((m) => typeof m.sequence === 'number')) return messages
  return messages.map((m, i) => ({ m, i })).sort((a, b) => (a.m.sequence as number) - (b.m.sequence as number) || a.i - b.i).map(({ m }) => m)
}

/**
 * The protocol's history reader (its definition's `history` slot): stored Yao chat messages into
 * ops for the store's state, de-duplicated against what it already shows.
 *
 * @example
 * store.getState().dispatch(readYaoHistory(data, { state: store.getState() }))
 */
export const readYaoHistory: HistoryReader = (data, { state }) => historyOps(yaoHistory(data), state)
