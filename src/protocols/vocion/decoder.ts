/**
 * The Vocion AgentEvent rail: one typed union of events per turn (reasoning and
 * answer deltas, tool calls, search documents, a work timeline of `trace_node`
 * rows, recommended actions, human-in-the-loop gates) behind a `stream_meta`
 * frame that names the stream for resume. This file reads the lifecycle and
 * hands each event kind to its own module.
 */
import { type DecodeContext, type Decoder, type DetectInput, type ErrorType, type Op, weftError } from '../../core/index'
import { extrasOf, idOf, isRecord } from '../../protocol-kit/index'
import { createAnswer } from './answer'
import { VOCION_DROPPED_TYPES, VOCION_EVENT_FIELDS } from './event-fields'
import { createLanes } from './lanes'
import { createParts } from './parts'
import { createSearch } from './search'
import { createVocionStream, type VocionEvent } from './stream-state'
import { createToolCalls } from './tool-calls'
import { createTraceRows } from './trace-rows'

/** Event types only a Vocion rail sends. */
const DISTINCT_TYPES: ReadonlySet<string> = new Set([
  'thinking_delta', 'response_delta', 'tool_start', 'tool_end', 'tool_error', 'subagent_start', 'subagent_end',
  'documents', 'retrieval_progress', 'skill_result', 'recommended_action', 'trace_node', 'hitl_gate',
])

/**
 * A decoder for one Vocion stream.
 *
 * @example
 * const d = createVocionDecoder({ turnId: 't1', scope: 't1' })
 * d.decode({ type: 'response_delta', delta: 'Hello' }, {})
 * // [{ op: 'message.delta', messageId: 't1/answer', type: 'text', path: 'content', action: 'append', value: 'Hello', ... }]
 */
export function createVocionDecoder(context: DecodeContext): Decoder {
  const stream = createVocionStream(context)
  const { turnId, problem } = stream
  const answer = createAnswer(stream)
  const rows = createTraceRows(stream)
  const tools = createToolCalls(stream, rows, answer)
  const lanes = createLanes(stream)
  const search = createSearch(stream)
  const parts = createParts(stream)
  /** What a turn-level event (the stream's meta, `answering`, `done`, `error`, `run_meta`) carries unread; the fold merges `metadata.extra`. */
  const turnExtra = (extra: Record<string, unknown> | undefined): Op[] => (extra ? [{ op: 'turn.update', turnId, metadata: { extra } }] : [])
  let ended = false

  function decode(event: unknown): Op[] {
    if (!isRecord(event)) return [problem('a Vocion event must be an object', event, 'not_object')]
    const type = event.type
    if (typeof type !== 'string' || type === '') return [problem('a Vocion event has no type', event, 'missing_type')]
    // Only a listed type is read, so a type handled below is one whose fields the list names.
    const read = VOCION_EVENT_FIELDS.get(type)
    if (type === 'stream_meta') return streamMeta(event, extrasOf(event, read as ReadonlySet<string>))
    if (!read && VOCION_DROPPED_TYPES.has(type)) return []
    if (ended) return [problem(`"${type}" arrived after the turn ended; it was ignored`, event, 'after_end')]
    if (!read) return [problem(`unknown Vocion event "${type}"`, event, 'unknown_event')]
    // What the event carries beyond weft's fields, for what it makes (nothing is allocated when there is none).
    const extra = extrasOf(event, read)
    switch (type) {
      case 'thinking':
        return answer.reasoning(undefined, extra)
      case 'thinking_delta':
        return typeof event.delta === 'string' ? answer.reasoning(event.delta, extra) : [problem('thinking_delta without a delta', event, 'invalid')]
      case 'answering':
        // The answer begins: a mark on the turn, which owns what it carries.
        return [...turnExtra(extra), ...answer.closeReasoning()]
      case 'response_delta':
        return typeof event.delta === 'string' ? answer.delta(event.delta, extra) : [problem('response_delta without a delta', event, 'invalid')]
      case 'tool_start':
        return tools.start(event, extra)
      case 'tool_end':
        return tools.end(event, extra)
      case 'tool_error':
        return tools.error(event, extra)
      case 'subagent_start':
        return lanes.start(event, extra)
      case 'subagent_end':
        return lanes.end(event, extra)
      case 'documents':
        // The documents become sources (each keeps its own extra fields); the event's belong to the turn.
        return Array.isArray(event.documents) ? [...turnExtra(extra), ...search.documents(event)] : search.documents(event)
      case 'retrieval_progress':
        return search.retrievalProgress(event, extra)
      case 'skill_result':
        return search.skillResult(event, extra)
      case 'recommended_action':
        return parts.recommendedAction(event, extra)
      case 'trace_node':
        return rows.traceNode(event, extra)
      case 'hitl_gate':
        return parts.hitlGate(event, extra)
      case 'done':
        return done(event, extra)
      case 'error':
        return failed(event, extra)
      case 'run_meta':
        return [{ op: 'turn.update', turnId, metadata: pick(event, ['model', 'provider', 'strength', 'thinking']) }, ...turnExtra(extra)]
      case 'artifact':
      case 'record_created':
        return parts.dataPart(type, event, extra)
      default:
        return [problem(`unhandled Vocion event "${type}"`, event, 'unknown_event')]
    }
  }

  function streamMeta(event: VocionEvent, extra: Record<string, unknown> | undefined): Op[] {
    const streamId = typeof event.streamId === 'string' ? idOf(event.streamId) : undefined
    if (!streamId) return [problem('stream_meta without a streamId', event, 'invalid')]
    return [{ op: 'cursor', cursor: { streamId, protocol: 'vocion' } }, ...turnExtra(extra)]
  }

  /** What closes with the turn, however it ends. */
  function closeAll(): Op[] {
    return [...answer.closeReasoning(), ...lanes.closeAll(), ...rows.pastTenseForOpen()]
  }

  function done(event: VocionEvent, extra: Record<string, unknown> | undefined): Op[] {
    ended = true
    const ops: Op[] = [...closeAll(), ...turnExtra(extra)]
    // Deltas can be lost on the way; the server's final response is the answer.
    const response = typeof event.response === 'string' ? event.response : undefined
    if (event.response !== undefined && event.response !== null && response === undefined) {
      ops.push(problem('done.response must be text; the streamed answer was kept', event, 'invalid'))
    }
    if (response) ops.push(...answer.final(response))
    const traceId = idOf(event.traceId)
    if (traceId) ops.push({ op: 'turn.update', turnId, metadata: { traceId } })
    ops.push({ op: 'turn.finish', turnId, status: 'done' })
    return ops
  }

  function failed(event: VocionEvent, extra: Record<string, unknown> | undefined): Op[] {
    ended = true
    const message = idOf(event.message) ?? 'the agent stream ended with an error'
    return [...closeAll(), ...turnExtra(extra), { op: 'turn.finish', turnId, status: 'error', error: weftError(classify(message), message) }]
  }

  return {
    protocol: 'vocion',
    decode,
    end() {
      if (ended) return []
      ended = true
      // The body ended without `done`: keep what arrived and close the turn.
      return [...closeAll(), { op: 'turn.finish', turnId, status: 'done' }]
    },
    get ended() {
      return ended
    },
  }
}

/**
 * The error type a Vocion `error` message reads as. The rail sends only a
 * message, so the type is `unknown` unless the words name a known failure.
 *
 * @example
 * classifyVocionError('Rate limit exceeded') // 'rate_limit'
 * classifyVocionError('Something broke')     // 'unknown'
 */
export function classifyVocionError(message: string): ErrorType {
  return classify(message)
}

function classify(message: string): ErrorType {
  if (/rate.?limit|too many requests|\b429\b/i.test(message)) return 'rate_limit'
  if (/timed?.?out|timeout|deadline/i.test(message)) return 'timeout'
  if (/unauthori[sz]ed|forbidden|authenticat|\b40[13]\b|api key/i.test(message)) return 'authentication'
  if (/network|econn|fetch failed|unreachable|socket/i.test(message)) return 'network'
  return 'unknown'
}

function pick(source: Record<string, unknown>, names: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const name of names) if (source[name] !== undefined) out[name] = source[name]
  return out
}

/**
 * How sure it is that a stream speaks Vocion, from its first event's `type`.
 *
 * @example
 * sniffVocion({ first: { type: 'stream_meta', stream_id: 's1' } }) // 1
 */
export function sniffVocion({ first }: DetectInput): number {
  if (!isRecord(first) || typeof first.type !== 'string') return 0
  if (first.type === 'stream_meta') return 1
  // Yao also names a type; its chunks carry props or a chunk_id, Vocion events never do.
  if ('props' in first || 'chunk_id' in first) return 0
  if (DISTINCT_TYPES.has(first.type)) return 0.9
  if ((first.type === 'thinking' || first.type === 'answering') && Object.keys(first).length === 1) return 0.9
  if (first.type === 'done' && typeof first.response === 'string') return 0.6
  if (first.type === 'error' && typeof first.message === 'string' && Object.keys(first).length === 2) return 0.6
  return 0
}
