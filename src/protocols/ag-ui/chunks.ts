/**
 * Implicit chunk streams (`TEXT_MESSAGE_CHUNK`, `REASONING_MESSAGE_CHUNK`,
 * `TOOL_CALL_CHUNK`): one open stream per lane, started by its first chunk and
 * ended by the next event of another kind, as the AG-UI client does.
 */
import type { Op } from '../../core/index'
import { nonEmpty } from '../../protocol-kit/index'
import { eventExtras } from './event-fields'
import { roleOf, type AgUiEvent, type AgUiStream } from './stream-state'
import type { TextMessages } from './text-messages'
import type { ToolEvents } from './tool-events'

/**
 * What an implicit chunk stream carries.
 *
 * @example
 * const kind: ChunkKind = 'tool'
 */
export type ChunkKind = 'text' | 'reasoning' | 'tool'

/** The event type of each kind of chunk. */
const CHUNK_TYPE: Readonly<Record<ChunkKind, string>> = { text: 'TEXT_MESSAGE_CHUNK', reasoning: 'REASONING_MESSAGE_CHUNK', tool: 'TOOL_CALL_CHUNK' }

/**
 * The chunk event types, which read their extra fields themselves.
 *
 * @example
 * CHUNK_TYPES.has('TOOL_CALL_CHUNK') // true
 */
export const CHUNK_TYPES: ReadonlySet<string> = new Set(Object.values(CHUNK_TYPE))

/** Events that end an implicit chunk stream in their lane. */
const LANE_CLOSERS: ReadonlySet<string> = new Set([
  'TEXT_MESSAGE_START', 'TEXT_MESSAGE_CONTENT', 'TEXT_MESSAGE_END',
  'TOOL_CALL_START', 'TOOL_CALL_ARGS', 'TOOL_CALL_END', 'TOOL_CALL_RESULT',
  'STATE_SNAPSHOT', 'STATE_DELTA', 'CUSTOM', 'STEP_STARTED', 'STEP_FINISHED',
  'REASONING_START', 'REASONING_MESSAGE_START', 'REASONING_MESSAGE_CONTENT', 'REASONING_MESSAGE_END', 'REASONING_END',
  'THINKING_START', 'THINKING_END', 'THINKING_TEXT_MESSAGE_START', 'THINKING_TEXT_MESSAGE_CONTENT', 'THINKING_TEXT_MESSAGE_END',
])
/** Events that end every implicit chunk stream. */
const ALL_CLOSERS: ReadonlySet<string> = new Set(['RUN_STARTED', 'RUN_FINISHED', 'RUN_ERROR', 'MESSAGES_SNAPSHOT'])

/**
 * The implicit chunk streams of one stream.
 *
 * @example
 * const chunks = createChunks(stream, texts, calls)
 * chunks.chunk('text', { type: 'TEXT_MESSAGE_CHUNK', messageId: 'm1', delta: 'Hi' })
 */
export interface Chunks {
  chunk(kind: ChunkKind, e: AgUiEvent): Op[]
  /** End the open chunk stream of a lane, if any. */
  close(lane: string): Op[]
  /** End every open chunk stream. */
  closeAll(): Op[]
  /** End what an event of `type` ends, before the event itself is read. */
  closeBefore(type: string, e: AgUiEvent): Op[]
}

/**
 * Make the chunk handlers for one stream.
 *
 * @example
 * const chunks = createChunks(stream, createTextMessages(stream), createToolEvents(stream))
 */
export function createChunks(stream: AgUiStream, texts: TextMessages, calls: ToolEvents): Chunks {
  const open = new Map<string, { kind: ChunkKind; id: string }>()

  function chunk(kind: ChunkKind, e: AgUiEvent): Op[] {
    const idField = kind === 'tool' ? 'toolCallId' : 'messageId'
    const id = nonEmpty(e[idField])
    const lane = laneOf(kind, id, e)
    const current = open.get(lane)
    let target = current?.kind === kind && (id === undefined || id === current.id) ? current.id : undefined
    const starts = target === undefined
    // The chunk that starts a stream reads as a start; one that goes on, as a token event.
    const extra = eventExtras(e, CHUNK_TYPE[kind], !starts)
    // A text chunk that only goes on with its message's text is a token, and may be held
    // (`texts.content`); any other chunk first writes every held token.
    const ops: Op[] = kind !== 'tool' && !starts && !extra && typeof e.delta === 'string' ? [] : texts.takeHeld()
    if (target === undefined) {
      ops.push(...close(lane))
      if (!id) return [...ops, stream.problem(`the first ${String(e.type)} of a ${kind === 'tool' ? 'tool call' : 'message'} needs "${idField}"`, e, 'missing_id')]
      target = id
      open.set(lane, { kind, id })
      if (kind === 'tool') {
        ops.push(...calls.start(id, { ...e, subagentRunId: lane || undefined }, extra))
      } else {
        ops.push(...texts.start(id, kind, kind === 'text' ? roleOf(e.role) : 'assistant', lane, e, extra))
      }
    }
    const more = starts ? undefined : extra
    if (typeof e.delta === 'string') {
      if (kind === 'tool') ops.push(...calls.args(target, e.delta, e, more))
      else ops.push(...texts.content(target, kind, lane, e.delta, e, more))
    } else if (more) {
      // A chunk with no delta still has its fields kept on the message it goes on with.
      const track = kind === 'tool' ? stream.tools.get(target) : undefined
      const at = stream.place(target, kind, 'assistant', track?.lane ?? lane)
      ops.push({ op: 'message.delta', ...at, action: 'merge', path: 'extra', value: more })
    }
    return ops
  }

  function laneOf(kind: ChunkKind, id: string | undefined, e: AgUiEvent): string {
    const lane = nonEmpty(e.subagentRunId)
    if (lane !== undefined) return lane
    if (id !== undefined) {
      for (const [key, current] of open) if (current.kind === kind && current.id === id) return key
      return ''
    }
    if (open.get('')?.kind === kind) return ''
    const lanes = [...open].filter(([, current]) => current.kind === kind)
    return lanes.length === 1 ? (lanes[0] as [string, unknown])[0] : ''
  }

  function close(lane: string): Op[] {
    const current = open.get(lane)
    if (!current) return []
    open.delete(lane)
    if (current.kind === 'tool') {
      const track = stream.tools.get(current.id)
      return track?.open ? calls.inputDone(track) : []
    }
    return stream.openMessages.has(current.id) ? texts.end(current.id, current.kind, lane, { type: 'chunk end' }) : []
  }

  function closeAll(): Op[] {
    const ops: Op[] = []
    for (const lane of [...open.keys()]) ops.push(...close(lane))
    return ops
  }

  return {
    chunk, close, closeAll,
    closeBefore(type, e) {
      if (ALL_CLOSERS.has(type)) return closeAll()
      if (LANE_CLOSERS.has(type)) return close(stream.laneOf(e))
      return []
    },
  }
}
