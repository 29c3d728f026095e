import { forwardRef, type HTMLAttributes } from 'react'
import type { StreamStatus } from '../core/model/model'
import { useStatus, useStreamError } from '../react/selectors'
import { asText } from './format'
import { useLabels } from './labels'
import { drawPart } from './slot'

/**
 * Props of `StatusBar`.
 *
 * @example
 * <StatusBar onRetry={retry} labels={{ streaming: 'Typing…' }} />
 */
export interface StatusBarProps extends HTMLAttributes<HTMLDivElement> {
  /** Shows a Retry button when the stream has failed. */
  onRetry?: () => void
  /** Replace any status text (over the `LabelsProvider`'s `statuses`). */
  labels?: Partial<Record<StreamStatus, string>>
  /** Render the host's own element (its only child) as the bar, with the status, error and Retry inside it. */
  asChild?: boolean
}

/**
 * Where the stream is (`data-state` is the status), the error that stopped it,
 * and Retry when the host gave an `onRetry`.
 *
 * @example
 * const { send } = useAgentStream({ url: '/api/agent' })
 * <StatusBar onRetry={() => send(lastInput)} />
 * <StatusBar asChild><footer className="status" /></StatusBar>
 */
export const StatusBar = forwardRef<HTMLDivElement, StatusBarProps>(function StatusBar({ onRetry, labels: overrides, asChild, children, ...rest }, ref) {
  const labels = useLabels()
  const status = useStatus()
  const error = useStreamError()
  const failed = status === 'error'
  const props = { role: 'status', ...rest, 'data-weft': 'status-bar', 'data-state': status }
  const content = (
    <>
      <span data-weft="status-label">{overrides?.[status] ?? labels.statuses[status] ?? status}</span>
      {failed && error && <span data-weft="status-error" data-error-type={asText(error.type)}>{asText(error.message)}</span>}
      {failed && onRetry && (
        <button type="button" data-weft="status-retry" onClick={onRetry}>{labels.retry}</button>
      )}
    </>
  )
  return drawPart('div', asChild, children, props, ref, content)
})
