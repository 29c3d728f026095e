/**
 * One message: looks its renderer up by type and wraps it in the element that
 * carries its state for styles and assistive technology.
 */
import type { Message as MessageModel } from '../core/model'
import { useMessage } from '../react/selectors'
import { useRenderer } from './renderers'

/**
 * Props of `MessageView`.
 *
 * @example
 * <MessageView id={message.id} />
 */
export interface MessageViewProps {
  /** The message to show. */
  id: string
}

/**
 * Draws one message with the renderer registered for its type. The wrapper is
 * `aria-busy` while the message streams, so its tokens are not announced one
 * by one; the finished message is. Also `Transcript.Message` (named apart from
 * the model's `Message` type).
 *
 * @example
 * <MessageView id="turn-1/M1" />
 */
export function MessageView({ id }: MessageViewProps) {
  const message = useMessage(id)
  if (!message) return null
  return <MessageFrame message={message} />
}

function MessageFrame({ message }: { message: MessageModel }) {
  const Renderer = useRenderer(message.type)
  const streaming = message.status === 'streaming'
  return (
    <div
      data-weft="message"
      data-type={message.type}
      data-role={message.role}
      data-state={message.status}
      aria-busy={streaming || undefined}
    >
      <Renderer message={message} />
    </div>
  )
}
