import { partProps } from '../../core/parts'
import type { MessageRendererProps } from '../renderers'

/**
 * A notice from the agent (`props.text`, `props.level`: info, warning, …).
 *
 * @example
 * <RendererProvider renderers={{ notice: NoticeMessage }} />
 */
export function NoticeMessage({ message }: MessageRendererProps) {
  const { text, level } = partProps(message, 'notice')
  return (
    <p data-weft="notice" data-level={level ?? 'info'}>
      {text}
    </p>
  )
}
