/**
 * Yao's chat completion request: `{ chat_id, messages }`. Yao keeps a chat's
 * history on the server under `chat_id`, so the request carries only the newest
 * user message (its documented client does the same); a regenerate sends that
 * question again. A host adds `assistant_id` and the rest through `body`.
 */
import type { RequestBody } from '../../core/client-options'
import { plainMessages } from '../../core/protocol/plain-messages'
import type { RequestContext } from '../../core/protocol/request'

/**
 * Build Yao's request.
 *
 * @example
 * yaoRequest(context) // { chat_id: 'chat-1', messages: [{ role: 'user', content: 'Hi' }] }
 */
export function yaoRequest(context: RequestContext): RequestBody {
  const messages = plainMessages(context.state, context.path)
  const question = messages.filter((m) => m.role === 'user').at(-1)
  return { chat_id: context.conversationId, messages: question ? [question] : [] }
}
