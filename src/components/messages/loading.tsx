import { forwardRef } from 'react'
import { partProps } from '../../core/model/parts'
import { useLabels } from '../labels'
import type { MessageLeafProps } from '../renderers'
import { drawPart } from '../slot'

/**
 * A progress line the agent sends while it works (`props.message`; the
 * `working` label when it has none). `className`, `style`, the other DOM props
 * and the ref go to its `<p>`; `asChild` draws the host's element with the line inside.
 *
 * @example
 * <RendererProvider renderers={{ loading: LoadingMessage }} />
 */
export const LoadingMessage = forwardRef<HTMLElement, MessageLeafProps>(function LoadingMessage({ message, asChild, children, ...rest }, ref) {
  const labels = useLabels()
  return drawPart('p', asChild, children, { ...rest, 'data-weft': 'loading', 'data-state': message.status }, ref, partProps(message, 'loading').message ?? labels.working)
})
