import { forwardRef, type Ref } from 'react'
import { partProps } from '../../core/model/parts'
import { useLabels } from '../labels'
import { Markdown } from '../markdown/markdown'
import type { MessagePartProps } from '../renderers'

/**
 * The model's reasoning as markdown, in a collapsible `<details>`: open while
 * it streams, folded once it is done (`data-state` is the message's status).
 * `className`, `style`, the other DOM props and the ref go to the `<details>`.
 *
 * @example
 * <RendererProvider renderers={{ reasoning: ReasoningMessage }} />
 */
export const ReasoningMessage = forwardRef<HTMLElement, MessagePartProps>(function ReasoningMessage({ message, ...rest }, ref) {
  const labels = useLabels()
  const streaming = message.status === 'streaming'
  return (
    <details open={streaming} {...rest} ref={ref as Ref<HTMLDetailsElement>} data-weft="reasoning" data-state={message.status}>
      <summary>{streaming ? labels.thinking : labels.reasoning}</summary>
      <Markdown
        aria-busy={streaming || undefined}
        text={partProps(message, 'reasoning').content}
        streaming={streaming}
      />
    </details>
  )
})
