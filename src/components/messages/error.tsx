import { partProps } from '../../core/parts'
import { useLabels } from '../labels'
import type { MessageRendererProps } from '../renderers'

/**
 * An error the agent reported inside its answer.
 *
 * @example
 * <RendererProvider renderers={{ error: ErrorMessage }} />
 */
export function ErrorMessage({ message }: MessageRendererProps) {
  const labels = useLabels()
  const { message: text, code } = partProps(message, 'error')
  return (
    <p data-weft="error" data-error-type={code}>
      {text ?? labels.somethingWentWrong}
    </p>
  )
}
