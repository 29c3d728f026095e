/**
 * One bad value from a server must not take the transcript down: each message
 * and each timeline row renders inside its own boundary, which shows a small
 * note in its place and tries again when the part changes.
 */
import { Component, type ErrorInfo, type ReactNode } from 'react'
import { useLabels } from './labels'

interface BoundaryProps {
  /** When this changes (a new version of the part), the part is drawn again. */
  resetKey: unknown
  /** What stands in for the part (default: a short note). */
  fallback?: ReactNode
  /** Told about the error, for the host's logging. */
  onError?: (error: unknown, info: ErrorInfo) => void
  children?: ReactNode
}

interface BoundaryState {
  failedFor: unknown
  failed: boolean
}

class Boundary extends Component<BoundaryProps, BoundaryState> {
  override state: BoundaryState = { failed: false, failedFor: undefined }

  static getDerivedStateFromError(): Partial<BoundaryState> {
    return { failed: true }
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: BoundaryState): Partial<BoundaryState> | null {
    if (state.failed && state.failedFor !== undefined && state.failedFor !== props.resetKey) return { failed: false, failedFor: undefined }
    if (state.failed && state.failedFor === undefined) return { failedFor: props.resetKey }
    return null
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    this.props.onError?.(error, info)
  }

  override render(): ReactNode {
    return this.state.failed ? this.props.fallback : this.props.children
  }
}

/**
 * Props of `PartBoundary`.
 *
 * @example
 * <PartBoundary resetKey={message}><Renderer message={message} /></PartBoundary>
 */
export interface PartBoundaryProps {
  resetKey: unknown
  children?: ReactNode
  onError?: (error: unknown, info: ErrorInfo) => void
}

/**
 * Draws its children, or a small "could not be shown" note if they throw.
 * The rest of the transcript is untouched.
 *
 * @example
 * <PartBoundary resetKey={node}><Row node={node} /></PartBoundary>
 */
export function PartBoundary({ resetKey, children, onError }: PartBoundaryProps) {
  const labels = useLabels()
  return (
    <Boundary resetKey={resetKey} onError={onError} fallback={<span data-weft="part-error">{labels.cannotShow}</span>}>
      {children}
    </Boundary>
  )
}
