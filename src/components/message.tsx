/**
 * One message: looks its renderer up by type and wraps it in the element that
 * carries its state for styles and assistive technology.
 */
import { forwardRef, type HTMLAttributes, type Ref } from 'react'
import type { Message as MessageModel } from '../core/model'
import { useAgentSelector, useMessage } from '../react/selectors'
import { PartBoundary } from './part-boundary'
import { useRenderer } from './renderers'

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
  if (!message) return null
  return <MessageFrame message={message} rest={rest} frameRef={ref} />
})

function MessageFrame({ message, rest, frameRef }: { message: MessageModel; rest: HTMLAttributes<HTMLDivElement>; frameRef: Ref<HTMLDivElement> }) {
  const protocol = useAgentSelector((state) => state.turns[message.turnId]?.protocol)
  const Renderer = useRenderer(message.type, protocol)
  const streaming = message.status === 'streaming'
  return (
    <div
      {...rest}
      ref={frameRef}
      data-weft="message"
      data-type={message.type}
      data-role={message.role}
      data-state={message.status}
      aria-busy={streaming || undefined}
    >
      <PartBoundary resetKey={message}>
        <Renderer message={message} />
      </PartBoundary>
    </div>
  )
}
