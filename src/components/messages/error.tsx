import { forwardRef } from 'react'
import { partProps } from '../../core/model/parts'
import { useLabels } from '../labels'
import type { MessageLeafProps } from '../renderers'
import { drawPart } from '../slot'

/**
 * An error the agent reported inside its answer (`data-error-type` is its
 * code). `className`, `style`, the other DOM props and the ref go to its `<p>`;
 * `asChild` draws the host's element with the error's text inside.
 *
 * @example
 * <RendererProvider renderers={{ error: ErrorMessage }} />
 * <ErrorMessage message={message} asChild><div role="alert" className="callout" /></ErrorMessage>
 */
export const ErrorMessage = forwardRef<HTMLElement, MessageLeafProps>(function ErrorMessage({ message, asChild, children, ...rest }, ref) {
  const labels = useLabels()
  const { message: text, code } = partProps(message, 'error')
  return drawPart('p', asChild, children, { ...rest, 'data-weft': 'error', 'data-state': message.status, 'data-error-type': code }, ref, text ?? labels.somethingWentWrong)
})
