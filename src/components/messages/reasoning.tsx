import { partProps } from '../../core/parts'
import { useLabels } from '../labels'
import { Markdown } from '../markdown/markdown'
import type { MessageRendererProps } from '../renderers'

/**
 * The model's reasoning as markdown, in a collapsible `<details>`: open while
 * it streams, folded once it is done.
 *
 * @example
 * <RendererProvider renderers={{ reasoning: ReasoningMessage }} />
 */
export function ReasoningMessage({ message }: MessageRendererProps) {
  const labels = useLabels()
  const streaming = message.status === 'streaming'
  return (
    <details data-weft="reasoning" data-state={message.status} open={streaming}>
      <summary>{streaming ? labels.thinking : labels.reasoning}</summary>
      <Markdown
        key={streaming ? 'streaming' : 'final'}
        aria-hidden={streaming || undefined}
        text={partProps(message, 'reasoning').content}
        streaming={streaming}
      />
    </details>
  )
}
