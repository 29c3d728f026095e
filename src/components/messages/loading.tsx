import { partProps } from '../../core/parts'
import { useLabels } from '../labels'
import type { MessageRendererProps } from '../renderers'

/**
 * A progress line the agent sends while it works (`props.message`).
 *
 * @example
 * <RendererProvider renderers={{ loading: LoadingMessage }} />
 */
export function LoadingMessage({ message }: MessageRendererProps) {
  const labels = useLabels()
  return (
    <p data-weft="loading" data-state={message.status}>
      {partProps(message, 'loading').message ?? labels.working}
    </p>
  )
}
