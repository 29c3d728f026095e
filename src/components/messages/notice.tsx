import { asText } from '../format'
import type { MessageRendererProps } from '../renderers'

/**
 * A notice from the agent (`props.text`, `props.level`: info, warning, …).
 *
 * @example
 * <RendererProvider renderers={{ notice: NoticeMessage }} />
 */
export function NoticeMessage({ message }: MessageRendererProps) {
  const { props } = message
  return (
    <p data-weft="notice" data-level={asText(props.level) || 'info'}>
      {asText(props.text) || asText(props.content) || asText(props.message)}
    </p>
  )
}
