import { asText } from '../format'
import type { MessageRendererProps } from '../renderers'

/**
 * An error the agent reported inside its answer.
 *
 * @example
 * <RendererProvider renderers={{ error: ErrorMessage }} />
 */
export function ErrorMessage({ message }: MessageRendererProps) {
  const { props } = message
  const text = asText(props.message) || asText(props.errorText) || asText(props.text) || asText(props.content) || 'Something went wrong.'
  return (
    <p data-weft="error" data-error-type={asText(props.type) || asText(props.code) || undefined}>
      {text}
    </p>
  )
}
