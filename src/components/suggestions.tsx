import { forwardRef, type HTMLAttributes } from 'react'
import { useAgentSelector } from '../react/selectors'
import { useWeftCallbacks } from './callbacks'
import { asText, NONE, own } from './format'
import { useLabels } from './labels'
import { useTurnIdFrom } from './turn-context'

/**
 * Props of `Suggestions`.
 *
 * @example
 * <Suggestions items={['Tell me more', 'Show sources']} />
 */
export interface SuggestionsProps extends HTMLAttributes<HTMLDivElement> {
  /** Default: the enclosing turn (its `suggestions`). */
  turnId?: string
  /** Show these instead of the turn's. */
  items?: readonly string[]
}

/**
 * Follow-up questions as buttons; a click hands the text to the host's `onSuggest`.
 *
 * @example
 * <WeftCallbacksProvider onSuggest={(text) => send(text)}>
 *   <Suggestions turnId={turnId} />
 * </WeftCallbacksProvider>
 */
export const Suggestions = forwardRef<HTMLDivElement, SuggestionsProps>(function Suggestions({ turnId: explicit, items, ...rest }, ref) {
  const labels = useLabels()
  const turnId = useTurnIdFrom(explicit)
  const fromTurn = useAgentSelector((s) => (turnId ? own(s.turns, turnId)?.suggestions : undefined) ?? NONE)
  const { onSuggest } = useWeftCallbacks()
  const given = items ?? fromTurn
  const list = (Array.isArray(given) ? given : NONE).map(asText).filter((text) => text !== '')
  if (list.length === 0) return null
  return (
    <div role="group" aria-label={labels.suggestions} {...rest} ref={ref} data-weft="suggestions">
      {list.map((text, i) => (
        <button key={i} type="button" data-weft="suggestion" disabled={!onSuggest} onClick={() => onSuggest?.(text)}>
          {text}
        </button>
      ))}
    </div>
  )
})
