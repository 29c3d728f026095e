import type { StreamStatus } from '../core/model'
import { useStatus, useStreamError } from '../react/selectors'

const LABELS: Readonly<Record<StreamStatus, string>> = {
  idle: 'Ready',
  connecting: 'Connecting…',
  streaming: 'Answering…',
  reconnecting: 'Reconnecting…',
  done: 'Done',
  error: 'Something went wrong',
  aborted: 'Stopped',
}

/**
 * Props of `StatusBar`.
 *
 * @example
 * <StatusBar onRetry={retry} labels={{ streaming: 'Typing…' }} />
 */
export interface StatusBarProps {
  /** Shows a Retry button when the stream has failed. */
  onRetry?: () => void
  /** Replace any status text. */
  labels?: Partial<Record<StreamStatus, string>>
}

/**
 * Where the stream is (`data-state` is the status), the error that stopped it,
 * and Retry when the host gave an `onRetry`.
 *
 * @example
 * const { send } = useAgentStream({ url: '/api/agent' })
 * <StatusBar onRetry={() => send(lastInput)} />
 */
export function StatusBar({ onRetry, labels }: StatusBarProps) {
  const status = useStatus()
  const error = useStreamError()
  const failed = status === 'error'
  return (
    <div data-weft="status-bar" data-state={status} role="status">
      <span data-weft="status-label">{labels?.[status] ?? LABELS[status]}</span>
      {failed && error && <span data-weft="status-error" data-error-type={error.type}>{error.message}</span>}
      {failed && onRetry && (
        <button type="button" data-weft="status-retry" onClick={onRetry}>Retry</button>
      )}
    </div>
  )
}
