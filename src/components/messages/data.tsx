import { forwardRef, type Ref } from 'react'
import { formatJson } from '../format'
import type { MessagePartProps } from '../renderers'

/**
 * The fallback: a message type nobody registered a renderer for, shown as its
 * type and its props as JSON text. `data-<name>` parts show their `data`.
 * `className`, `style`, the other DOM props and the ref go to its `<div>`.
 *
 * @example
 * <RendererProvider fallback={DataMessage} />
 */
export const DataMessage = forwardRef<HTMLElement, MessagePartProps>(function DataMessage({ message, ...rest }, ref) {
  const shown = message.type.startsWith('data-') && 'data' in message.props ? message.props.data : message.props
  return (
    <div {...rest} ref={ref as Ref<HTMLDivElement>} data-weft="data" data-type={message.type} data-state={message.status}>
      <span data-weft="data-type">{message.type}</span>
      <pre>{formatJson(shown)}</pre>
    </div>
  )
})
