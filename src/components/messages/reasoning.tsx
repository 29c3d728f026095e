import { asText } from '../format'
import type { MessageRendererProps } from '../renderers'

/**
 * The model's reasoning, in a collapsible `<details>`: open while it streams,
 * folded once it is done.
 *
 * @example
 * <RendererProvider renderers={{ reasoning: ReasoningMessage }} />
 */
export function ReasoningMessage({ message }: MessageRendererProps) {
  const streaming = message.status === 'streaming'
  return (
    <details data-weft="reasoning" data-state={message.status} open={streaming}>
      <summary>{streaming ? 'Thinking…' : 'Reasoning'}</summary>
      <div key={streaming ? 'streaming' : 'final'} aria-hidden={streaming || undefined}>
        {asText(message.props.content)}
      </div>
    </details>
  )
}
