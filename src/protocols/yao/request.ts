/**
 * Yao's chat completion request: `{ chat_id, messages }`. Yao keeps a chat's
 * history on the server under `chat_id`, so the request carries only the newest
 * user message (its documented client does the same); a regenerate sends that
 * question again. A question sent right after an answer the person stopped (a
 * steer) goes with that answer's partial text before it, as an assistant
 * message: the server never finished it, so its history lacks it. A host adds
 * `assistant_id` and the rest through `body`.
 */
import type { RequestBody, RequestContext } from '../../core/index'
import { own, type PlainMessage, plainMessages } from '../../protocol-kit/index'

/**
 * Build Yao's request.
 *
 * @example
 * yaoRequest(context) // { chat_id: 'chat-1', messages: [{ role: 'user', content: 'Hi' }] }
 */
export function yaoRequest(context: RequestContext): RequestBody {
  return { chat_id: context.conversationId, messages: lastQuestion(context) }
}

/** The newest user turn that has text or files, read alone: the rest of a long history is never walked. */
function lastQuestion({ state, path }: RequestContext): PlainMessage[] {
  for (let at = path.length; at-- > 0;) {
    const turnId = path[at]!
    const [question] = own(state.turns, turnId)?.role === 'user' ? plainMessages(state, [turnId]) : []
    if (question) return [...interruptedBefore(state, path[at - 1]), question]
  }
  return []
}

/** The partial text of a stopped answer, when `turnId` is one. */
function interruptedBefore(state: RequestContext['state'], turnId: string | undefined): PlainMessage[] {
  const turn = turnId === undefined ? undefined : own(state.turns, turnId)
  return turn?.role === 'assistant' && turn.status === 'aborted' ? plainMessages(state, [turn.id]) : []
}
