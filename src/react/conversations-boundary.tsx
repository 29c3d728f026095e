/**
 * A render error in one conversation must not take the rest of the page down:
 * the thread list, the other conversations. `ConversationGuard` catches what the
 * selected conversation's subtree throws and hands the failure, as a typed
 * error naming the conversation, to whatever draws in its place. It lets go once
 * another conversation is selected, and catches only once per conversation: an
 * error the fallback throws as well is not the conversation's, and goes up.
 */
import { Component, createContext, useContext, type ErrorInfo, type ReactNode } from 'react'
import { CONVERSATION_RENDER_FAILED } from '../core/conversations/types'
import { weftError, type WeftError } from '../core/model/errors'

/**
 * The typed error for a conversation whose drawing threw.
 *
 * @example
 * renderFailure('chat-1', new TypeError('x is null')).code // 'conversation_render_failed'
 */
export function renderFailure(conversationId: string | undefined, thrown: unknown): WeftError {
  const reason = thrown instanceof Error ? thrown.message : 'an error was thrown'
  const which = conversationId === undefined ? 'the conversation' : `conversation "${conversationId}"`
  return weftError('internal', `${which} could not be shown: ${reason}`, { code: CONVERSATION_RENDER_FAILED, retryable: true })
}

/** The render failure of the selected conversation, while `ConversationsProvider` shows the page without it. */
export const RenderFailureContext = createContext<WeftError | undefined>(undefined)

/**
 * Why the selected conversation is not drawn (its drawing threw), or `undefined`.
 *
 * @example
 * const failure = useRenderFailure(); failure && <p role="alert">{failure.message}</p>
 */
export function useRenderFailure(): WeftError | undefined {
  return useContext(RenderFailureContext)
}

/**
 * Props of `ConversationGuard`.
 *
 * @example
 * <ConversationGuard conversationId={id}>{(failure) => (failure ? <p>{failure.message}</p> : <Transcript.Root />)}</ConversationGuard>
 */
export interface ConversationGuardProps {
  /** The conversation drawn below; a new one starts clean. */
  conversationId: string | undefined
  /** What to draw: the conversation, or (given a failure) what stands in for it; `retry` draws the conversation again. */
  children: (failure: WeftError | undefined, retry: () => void) => ReactNode
  /** Told about the failure and what was thrown, for the host's logging. */
  onError?: (failure: WeftError, thrown: unknown, info: ErrorInfo) => void
}

interface GuardState {
  failure?: WeftError
  failedFor?: string
  /** What the latest render threw, until it is sorted into a failure or passed up. */
  caught?: { thrown: unknown }
  /** Thrown again while the fallback was drawn: not this conversation's to hold. */
  fatal?: { thrown: unknown }
}

/**
 * An error boundary keyed by conversation (a class, as every error boundary is).
 *
 * @example
 * <ConversationGuard conversationId={id}>{(failure, retry) => (failure ? <button onClick={retry}>Retry</button> : children)}</ConversationGuard>
 */
export class ConversationGuard extends Component<ConversationGuardProps, GuardState> {
  override state: GuardState = {}

  static getDerivedStateFromError(thrown: unknown): Partial<GuardState> {
    return { caught: { thrown } }
  }

  static getDerivedStateFromProps(props: ConversationGuardProps, state: GuardState): Partial<GuardState> | null {
    if (state.caught) {
      const failedHere = state.failure !== undefined && state.failedFor === props.conversationId
      if (failedHere) return { caught: undefined, fatal: state.caught }
      return { caught: undefined, failure: renderFailure(props.conversationId, state.caught.thrown), failedFor: props.conversationId }
    }
    if (state.failure && state.failedFor !== props.conversationId) return { failure: undefined, failedFor: undefined, fatal: undefined }
    return null
  }

  override componentDidCatch(thrown: unknown, info: ErrorInfo): void {
    const { failure } = this.state
    if (failure && !this.state.fatal) this.props.onError?.(failure, thrown, info)
  }

  private readonly retry = () => this.setState({ failure: undefined, failedFor: undefined, fatal: undefined })

  override render(): ReactNode {
    if (this.state.fatal) throw this.state.fatal.thrown
    return this.props.children(this.state.failure, this.retry)
  }
}
