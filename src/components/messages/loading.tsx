import { asText } from '../format'
import type { MessageRendererProps } from '../renderers'

/**
 * A progress line the agent sends while it works (`props.message`).
 *
 * @example
 * <RendererProvider renderers={{ loading: LoadingMessage }} />
 */
export function LoadingMessage({ message }: MessageRendererProps) {
  const { props } = message
  return (
    <p data-weft="loading" data-state={message.status}>
      {asText(props.message) || asText(props.text) || asText(props.content) || 'Working…'}
    </p>
  )
}
