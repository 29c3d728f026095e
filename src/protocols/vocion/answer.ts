/**
 * The reasoning message (`thinking`, `thinking_delta`, closed by `answering`)
 * and the answer (`response_delta`, replaced by `done.response` when deltas
 * were lost).
 */
import type { Op } from '../../core/index'
import type { VocionStream } from './stream-state'

/**
 * The reasoning and the answer of one stream.
 *
 * @example
 * const answer = createAnswer(stream)
 * answer.reasoning('Let me look'); answer.delta('Hello')
 */
export interface Answer {
  /**
   * `thinking` (no delta) opens the reasoning message; each `thinking_delta` grows it.
   * `extra` (the event's fields weft does not read) merges into the message's `props.extra`.
   */
  reasoning(delta: string | undefined, extra?: Record<string, unknown>): Op[]
  closeReasoning(): Op[]
  /** A `response_delta`: `extra` merges into the answer's `props.extra`. */
  delta(text: string, extra?: Record<string, unknown>): Op[]
  /** The server's final response, when it differs from what the deltas built. */
  final(response: string): Op[]
}

/**
 * Make the reasoning and answer handlers for one stream.
 *
 * @example
 * const answer = createAnswer(createVocionStream({ turnId: 't1', scope: 't1' }))
 */
export function createAnswer(stream: VocionStream): Answer {
  const { turnId } = stream
  const answerId = stream.scoped('answer')
  let reasoningId: string | undefined
  let text: string | undefined

  function reasoning(delta: string | undefined, extra?: Record<string, unknown>): Op[] {
    if (!reasoningId) reasoningId = stream.fresh('reasoning')
    const ops: Op[] = [{
      op: 'message.delta', turnId, messageId: reasoningId, type: 'reasoning', role: 'assistant',
      action: 'append', path: 'content', value: delta ?? '',
    }]
    if (extra) ops.push({ op: 'message.delta', turnId, messageId: reasoningId, type: 'reasoning', role: 'assistant', action: 'merge', path: 'extra', value: extra })
    return ops
  }

  function closeReasoning(): Op[] {
    if (!reasoningId) return []
    const id = reasoningId
    reasoningId = undefined
    return [{ op: 'message.finish', messageId: id, status: 'done' }]
  }

  function delta(chunk: string, extra?: Record<string, unknown>): Op[] {
    text = (text ?? '') + chunk
    const ops: Op[] = [
      ...closeReasoning(),
      { op: 'message.delta', turnId, messageId: answerId, type: 'text', role: 'assistant', action: 'append', path: 'content', value: chunk },
    ]
    // Under its own prop, so the answer's appends around it still merge into one write.
    if (extra) ops.push({ op: 'message.delta', turnId, messageId: answerId, type: 'text', role: 'assistant', action: 'merge', path: 'extra', value: extra })
    return ops
  }

  function final(response: string): Op[] {
    if (!response || response === text) return []
    text = response
    return [{ op: 'message.delta', turnId, messageId: answerId, type: 'text', role: 'assistant', action: 'set', path: 'content', value: response }]
  }

  return { reasoning, closeReasoning, delta, final }
}
