/**
 * The host's callbacks. The kit never touches `location`: a button only hands
 * what it carries to the host. The one exception to "the host decides" is a
 * gate card with no `onGateAnswer`: it answers through the store's client.
 */
import { createContext, useContext, useMemo, type ReactNode } from 'react'
import type { Gate, Message } from '../core/model/model'
import type { PartProps } from '../core/model/parts'

/**
 * The query parameters of an internal route a navigation hands to the host.
 *
 * @example
 * const params: RouteParams = { tab: 'notes', pinned: true }
 */
export type RouteParams = Record<string, string | number | boolean>

/**
 * A recommendation, the props of a `recommended-action` part as the card read
 * them: each field of its declared type or absent, the rest as the agent sent it.
 *
 * @example
 * const rec: Recommendation = { actionId: 'gmail.send', label: 'Draft the note', confidence: 0.8 }
 */
export type Recommendation = PartProps['recommended-action']

/**
 * How a person answered a gate.
 *
 * @example
 * <WeftCallbacksProvider onGateAnswer={(gate, answer: GateAnswer) => answer === 'approved' && resume(gate.id)}>{children}</WeftCallbacksProvider>
 */
export type GateAnswer = 'approved' | 'rejected' | 'answered'

/**
 * What a person added to a gate's answer: a reason for an approval or a
 * rejection, or the words a question asked for.
 *
 * @example
 * const detail: GateAnswerDetail = { reason: 'Wrong recipient' }
 */
export interface GateAnswerDetail {
  reason?: string
  value?: string
}

/**
 * What the host does when a person acts. Each is optional; a button without its
 * callback is disabled.
 *
 * @example
 * const callbacks: WeftCallbacks = { onNavigate: (path, params) => router.push({ pathname: path, query: params }) }
 */
export interface WeftCallbacks {
  /** A recommended action was activated. */
  onAction?: (recommendation: Recommendation, message: Message) => void
  /** A navigation action was activated: `path` is an internal route, `params` its query. */
  onNavigate?: (path: string, params: RouteParams) => void
  /** A suggested follow-up was picked. */
  onSuggest?: (text: string) => void
  /** A person rated an answer (thumbs up or down; pressing the same thumb again clears it: `undefined`). */
  onFeedback?: (turnId: string, rating: 'up' | 'down' | undefined) => void
  /** Regenerate this answer. The button shows only when the host gives this. */
  onRegenerate?: (turnId: string) => void
  /** Edit the question of this turn. The button shows only when the host gives this. */
  onEdit?: (turnId: string) => void
  /**
   * A human-in-the-loop gate was answered (with a reason or the words asked for, when given).
   * Given, it replaces the card's own answer through the store's client: the host resolves the gate.
   */
  onGateAnswer?: (gate: Gate, answer: GateAnswer, detail?: GateAnswerDetail) => void
}

const CallbacksContext = createContext<WeftCallbacks>({})

/**
 * Props of `WeftCallbacksProvider`.
 *
 * @example
 * const props: WeftCallbacksProviderProps = { onSuggest: (text) => send(text) }
 */
export interface WeftCallbacksProviderProps extends WeftCallbacks {
  children?: ReactNode
}

/**
 * Gives the components below it the host's callbacks. Nested providers merge:
 * an inner callback replaces the outer one of the same name.
 *
 * @example
 * <WeftCallbacksProvider onSuggest={(text) => send(text)} onGateAnswer={(gate, answer) => api.answer(gate.id, answer)}>
 *   <Transcript.Root />
 * </WeftCallbacksProvider>
 */
export function WeftCallbacksProvider({ children, onAction, onNavigate, onSuggest, onGateAnswer, onFeedback, onRegenerate, onEdit }: WeftCallbacksProviderProps) {
  const outer = useContext(CallbacksContext)
  const value = useMemo<WeftCallbacks>(
    () => ({
      onAction: onAction ?? outer.onAction,
      onNavigate: onNavigate ?? outer.onNavigate,
      onSuggest: onSuggest ?? outer.onSuggest,
      onGateAnswer: onGateAnswer ?? outer.onGateAnswer,
      onFeedback: onFeedback ?? outer.onFeedback,
      onRegenerate: onRegenerate ?? outer.onRegenerate,
      onEdit: onEdit ?? outer.onEdit,
    }),
    [outer, onAction, onNavigate, onSuggest, onGateAnswer, onFeedback, onRegenerate, onEdit],
  )
  return <CallbacksContext.Provider value={value}>{children}</CallbacksContext.Provider>
}

/**
 * The nearest host callbacks (an empty set when there is no provider).
 *
 * @example
 * const { onSuggest } = useWeftCallbacks()
 */
export function useWeftCallbacks(): WeftCallbacks {
  return useContext(CallbacksContext)
}
