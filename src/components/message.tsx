/**
 * One message: looks its renderer up by type and wraps it in the element that
 * carries its state for styles and assistive technology.
 */
import { forwardRef, type HTMLAttributes } from 'react'
import { useAgentSelector, useMessage } from '../react/selectors'
import { PartBoundary } from './part-boundary'
import { useRenderer } from './renderers'
import { own } from '../core/util/record'

/**
 * Props of `MessageView`.
 *
 * @example
 * <MessageView id={message.id} className="my-message" />
 */
export interface MessageViewProps extends HTMLAttributes<HTMLDivElement> {
  /** The message to show. */
  id: string
}

/**
 * Draws one message with the renderer registered for its type. The wrapper is
 * `aria-busy` while the message streams, so its tokens are not announced one
 * by one; the finished message is. A renderer that throws on a bad value shows
 * a short note in its place; the rest of the transcript stays. Also
 * `Transcript.Message` (named apart from the model's `Message` type).
 *
 * @example
 * <MessageView id="turn-1/M1" />
 */
export const MessageView = forwardRef<HTMLDivElement, MessageViewProps>(function MessageView({ id, ...rest }, ref) {
  const message = useMessage(id)
  const protocol = useAgentSelector((state) => (message ? own(state.turns, message.turnId)?.protocol : undefined))
  const Renderer = useRenderer(message ? message.type : '', protocol)
  if (!message) return null
  return (
    <div
      {...rest}
      ref={ref}
      data-weft="message"
      data-type={message.type}
      data-role={message.role}
      data-state={message.status}
      aria-busy={message.status === 'streaming' || undefined}
    >
      <PartBoundary resetKey={message}>
        <Renderer message={message} />
      </PartBoundary>
    </div>
  )
})
