/**
 * The reasoning message (`thinking`, `thinking_delta`, closed by `answering`)
 * and the answer (`response_delta`, replaced by `done.response` when deltas
 * were lost).
 */
import type { Op } from '../../core/ops'
import type { VocionStream } from './stream-state'

/**
 * The reasoning and the answer of one stream.
 *
 * @example
 * const answer = createAnswer(stream)
 * answer.reasoning('Let me look'); answer.delta('Hello')
 */
export interface Answer {
  /** `thinking` (no delta) opens the reasoning message; each `thinking_delta` grows it. */
  reasoning(delta: string | undefined): Op[]
  closeReasoning(): Op[]
  delta(text: string): Op[]
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

  function reasoning(delta: string | undefined): Op[] {
    if (!reasoningId) reasoningId = stream.fresh('reasoning')
    return [{
      op: 'message.delta', turnId, messageId: reasoningId, type: 'reasoning', role: 'assistant',
      action: 'append', path: 'content', value: delta ?? '',
    }]
  }

  function closeReasoning(): Op[] {
    if (!reasoningId) return []
    const id = reasoningId
    reasoningId = undefined
    return [{ op: 'message.finish', messageId: id, status: 'done' }]
  }

  function delta(chunk: string): Op[] {
    text = (text ?? '') + chunk
    return [
      ...closeReasoning(),
      { op: 'message.delta', turnId, messageId: answerId, type: 'text', role: 'assistant', action: 'append', path: 'content', value: chunk },
    ]
  }

  function final(response: string): Op[] {
    if (!response || response === text) return []
    text = response
    return [{ op: 'message.delta', turnId, messageId: answerId, type: 'text', role: 'assistant', action: 'set', path: 'content', value: response }]
  }

  return { reasoning, closeReasoning, delta, final }
}
