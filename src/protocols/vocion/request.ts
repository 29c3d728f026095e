/**
 * Vocion's agent request: `{ conversationId, messages }`. The route reads the
 * persisted log when it knows the conversation and ignores the transcript; the
 * whole active path is sent anyway so that a server without a log (and an
 * edited or regenerated branch) gets the conversation the user sees.
 */
import type { RequestBody, RequestContext } from '../../core/index'
import { plainMessages } from '../../protocol-kit/index'

/**
 * Build Vocion's request.
 *
 * @example
 * vocionRequest(context) // { conversationId: 'c1', messages: [{ role: 'user', content: 'Hi' }] }
 */
export function vocionRequest(context: RequestContext): RequestBody {
  return { conversationId: context.conversationId, messages: plainMessages(context.state, context.path) }
}
