import { formatJson } from '../format'
import type { MessageRendererProps } from '../renderers'

/**
 * The fallback: a message type nobody registered a renderer for, shown as its
 * type and its props as JSON text. `data-<name>` parts show their `data`.
 *
 * @example
 * <RendererProvider fallback={DataMessage} />
 */
export function DataMessage({ message }: MessageRendererProps) {
  const shown = message.type.startsWith('data-') && 'data' in message.props ? message.props.data : message.props
  return (
    <div data-weft="data" data-type={message.type}>
      <span data-weft="data-type">{message.type}</span>
      <pre>{formatJson(shown)}</pre>
    </div>
  )
}
