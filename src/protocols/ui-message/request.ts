/**
 * The AI SDK chat request, as `useChat`'s default transport sends it:
 * `{ id, messages, trigger, messageId }`, which a stock route hands to
 * `validateUIMessages` and `convertToModelMessages`.
 */
import type { AgentState, RequestBody, RequestContext } from '../../core/index'
import { memoByTurn, own } from '../../protocol-kit/index'
import { toUIMessage, uiMessageId, type UIMessage } from './ui-messages'

/**
 * The body of an AI SDK chat request.
 *
 * @example
 * const body: UIChatRequest = { id: 'chat-1', messages: [], trigger: 'submit-message' }
 */
export interface UIChatRequest {
  id: string
  messages: UIMessage[]
  trigger: 'submit-message' | 'regenerate-message'
  messageId?: string
  [key: string]: unknown
}

/**
 * Build the AI SDK chat request for the active path. A regenerate names the
 * answer it replaces; a continuation (after a tool result or an approval) names
 * the answer it continues, which is the last message sent. A turn that did not
 * change since an earlier request reuses the message built then (see `memoByTurn`),
 * so the body's messages are shared: copy one before changing it.
 *
 * @example
 * uiMessageRequest(context) // { id: 'chat-1', messages: [...], trigger: 'submit-message' }
 */
export function uiMessageRequest(context: RequestContext): RequestBody {
  const messages = pathMessages(context.state, context.path)
  const body: UIChatRequest = {
    id: context.conversationId,
    messages,
    trigger: context.trigger === 'regenerate' ? 'regenerate-message' : 'submit-message',
  }
  if (context.trigger === 'regenerate' && context.replacing) {
    const turn = own(context.state.turns, context.replacing)
    if (turn) body.messageId = uiMessageId(turn)
  } else if (context.trigger === 'continue') {
    const last = messages.at(-1)
    if (last?.role === 'assistant') body.messageId = last.id
  }
  // The `interrupt` chunk's review is answered the way its action requests imply: `{ decisions }`, sent as `resume`.
  const review = context.answers.find((answer) => answer.kind === 'action-review')
  if (review) body.resume = review.response
  // The chat request has no field of its own for it: an extra top-level field, as `useChat`'s `body` option sends one.
  if (context.context && context.context.length > 0) body.context = context.context.map((entry) => ({ description: entry.description, value: entry.value }))
  return body
}

const uiMessageOf = memoByTurn(toUIMessage)

/** `toUIMessages`, with each unchanged turn's message reused. */
function pathMessages(state: AgentState, path: readonly string[]): UIMessage[] {
  const out: UIMessage[] = []
  for (const id of path) {
    const turn = own(state.turns, id)
    const message = turn && uiMessageOf(state, turn)
    if (message) out.push(message)
  }
  return out
}
