/**
 * Around what draws the selected conversation (its transcript, its composer):
 * when drawing it throws, a short alert stands in its place, naming the
 * conversation, with Retry; the thread list beside it and every other
 * conversation are untouched. Selecting another conversation draws that one.
 */
import type { ErrorInfo, ReactNode } from 'react'
import type { WeftError } from '../core/model/errors'
import { useConversationId } from '../react/conversations'
import { ConversationGuard } from '../react/conversations-boundary'
import { useLabels } from './labels'

/**
 * Props of `ConversationBoundary`.
 *
 * @example
 * <ConversationBoundary onError={(error) => report(error.code, error.message)}><Transcript.Root /></ConversationBoundary>
 */
export interface ConversationBoundaryProps {
  children?: ReactNode
  /** Told about the failure (a typed error, code `conversation_render_failed`, naming the conversation) and what was thrown. */
  onError?: (error: WeftError, thrown: unknown, info: ErrorInfo) => void
}

/**
 * Draws its children, or, when they throw, an alert (`data-weft="conversation-error"`,
 * `role="alert"`, `data-error-code` the error's code) with the `conversationNotShown`
 * label and a Retry button. Under a `ConversationsProvider` it follows the
 * selection: another conversation is drawn again from scratch.
 *
 * @example
 * <ConversationsProvider conversations={conversations}>
 *   <ThreadList />
 *   <ConversationBoundary><Transcript.Root /><Composer send={send} /></ConversationBoundary>
 * </ConversationsProvider>
 */
export function ConversationBoundary({ children, onError }: ConversationBoundaryProps) {
  const conversationId = useConversationId()
  return (
    <ConversationGuard conversationId={conversationId} onError={onError}>
      {(failure, retry) => (failure ? <NotShown failure={failure} conversationId={conversationId} retry={retry} /> : children)}
    </ConversationGuard>
  )
}

function NotShown({ failure, conversationId, retry }: { failure: WeftError; conversationId: string | undefined; retry: () => void }) {
  const labels = useLabels()
  return (
    <div role="alert" data-weft="conversation-error" data-error-code={failure.code} data-conversation={conversationId}>
      <p>{labels.conversationNotShown(conversationId ?? '')}</p>
      <button type="button" onClick={retry}>{labels.retry}</button>
    </div>
  )
}
