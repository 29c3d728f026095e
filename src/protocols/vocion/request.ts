/**
 * Vocion's agent request: `{ conversationId, messages }`. The route reads the
 * persisted log when it knows the conversation and ignores the transcript; the
 * whole active path is sent anyway so that a server without a log (and an
 * edited or regenerated branch) gets the conversation the user sees.
 */
import type { RequestBody } from '../../core/client/options'
import { plainMessages } from '../../core/protocol/plain-messages'
import type { RequestContext } from '../../core/protocol/request'

/**
 * Build Vocion's request.
 *
 * @example
 * vocionRequest(context) // { conversationId: 'c1', messages: [{ role: 'user', content: 'Hi' }] }
 */
export function vocionRequest(context: RequestContext): RequestBody {
  return { conversationId: context.conversationId, messages: plainMessages(context.state, context.path) }
}
