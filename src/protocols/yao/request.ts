/**
 * Yao's chat completion request: `{ chat_id, messages }`. Yao keeps a chat's
 * history on the server under `chat_id`, so the request carries only the newest
 * user message (its documented client does the same); a regenerate sends that
 * question again. A host adds `assistant_id` and the rest through `body`.
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
    if (question) return [question]
  }
  return []
}
