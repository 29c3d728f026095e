/**
 * The active path as plain chat messages (`{ role, content }`), the shape
 * OpenAI-style chat APIs take.
 */
import type { AgentState } from '../model/model'
import { own } from '../util/record'
import { messageIn } from '../model/message-table'

/**
 * One plain chat message.
 *
 * @example
 * const message: PlainMessage = { role: 'user', content: 'Hello' }
 */
export interface PlainMessage {
  role: 'user' | 'assistant' | 'system'
  content: string
  /** Files the user attached, as `{ url, mediaType, filename? }`. */
  attachments?: Array<{ url: string; mediaType: string; filename?: string }>
}

/**
 * The text of each turn of `path` as one message; turns without text are left out.
 *
 * @example
 * plainMessages(state, state.turnIds) // [{ role: 'user', content: 'Hi' }, { role: 'assistant', content: 'Hello!' }]
 */
export function plainMessages(state: AgentState, path: readonly string[]): PlainMessage[] {
  const out: PlainMessage[] = []
  for (const turnId of path) {
    const turn = own(state.turns, turnId)
    if (!turn) continue
    const texts: string[] = []
    const attachments: NonNullable<PlainMessage['attachments']> = []
    for (const id of turn.messageIds) {
      const message = messageIn(state.messages, id)
      if (!message || message.role === 'tool') continue
      if (message.type === 'text' && typeof message.props.content === 'string') texts.push(message.props.content)
      if (turn.role === 'user' && (message.type === 'file' || message.type === 'image') && typeof message.props.url === 'string') {
        const { url, mediaType, filename } = message.props
        attachments.push({ url, mediaType: typeof mediaType === 'string' ? mediaType : 'application/octet-stream', ...(typeof filename === 'string' ? { filename } : {}) })
      }
    }
    if (texts.length === 0 && attachments.length === 0) continue
    out.push({ role: turn.role, content: texts.join('\n\n'), ...(attachments.length ? { attachments } : {}) })
  }
  return out
}
