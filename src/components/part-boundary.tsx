/**
 * One bad value from a server must not take the transcript down: each message
 * and each timeline row renders inside its own boundary, which shows a small
 * note in its place and tries again when the part changes.
 */
import { Component, type ComponentType, type ErrorInfo, type ReactNode } from 'react'
import { LabelsContext, type WeftLabels } from './labels'

/**
 * Props of `PartBoundary`.
 *
 * @example
 * <PartBoundary resetKey={message}><Renderer message={message} /></PartBoundary>
 */
export interface PartBoundaryProps {
  /** When this changes (a new version of the part), the part is drawn again. */
  resetKey: unknown
  children?: ReactNode
  /** Told about the error, for the host's logging. */
  onError?: (error: unknown, info: ErrorInfo) => void
}

interface BoundaryState {
  failedFor: unknown
  failed: boolean
}

class Boundary extends Component<PartBoundaryProps, BoundaryState> {
  static override contextType = LabelsContext
  declare context: WeftLabels
  override state: BoundaryState = { failed: false, failedFor: undefined }

  static getDerivedStateFromError(): Partial<BoundaryState> {
    return { failed: true }
  }

  static getDerivedStateFromProps(props: PartBoundaryProps, state: BoundaryState): Partial<BoundaryState> | null {
    if (state.failed && state.failedFor !== undefined && state.failedFor !== props.resetKey) return { failed: false, failedFor: undefined }
    if (state.failed && state.failedFor === undefined) return { failedFor: props.resetKey }
    return null
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    this.props.onError?.(error, info)
  }

  override render(): ReactNode {
    return this.state.failed ? <span data-weft="part-error">{this.context.cannotShow}</span> : this.props.children
  }
}

/**
 * Draws its children, or a small "could not be shown" note (the `cannotShow`
 * label) if they throw. The rest of the transcript is untouched. (A class, as
 * every error boundary is; typed as a component so its workings stay its own.)
 *
 * @example
 * <PartBoundary resetKey={node}><Row node={node} /></PartBoundary>
 */
export const PartBoundary: ComponentType<PartBoundaryProps> = Boundary
