import { forwardRef, type Ref } from 'react'
import { partProps } from '../../core/model/parts'
import { useWeftCallbacks } from '../callbacks'
import { useLabels } from '../labels'
import type { MessagePartProps } from '../renderers'

/**
 * A recommended action (`type: 'recommended-action'`): what it is, why, and a
 * button. Nothing happens until a person clicks it; then the host's `onAction`
 * receives the recommendation. `className`, `style`, the other DOM props and
 * the ref go to its root `<div>`.
 *
 * @example
 * <WeftCallbacksProvider onAction={(rec) => openDraft(rec.input)}>
 *   <Transcript.Root />
 * </WeftCallbacksProvider>
 */
export const RecommendedActionCard = forwardRef<HTMLElement, MessagePartProps>(function RecommendedActionCard({ message, ...rest }, ref) {
  const labels = useLabels()
  const { onAction } = useWeftCallbacks()
  const recommendation = partProps(message, 'recommended-action')
  const label = recommendation.label || recommendation.actionId || labels.recommendedAction
  const { rationale } = recommendation
  const confidence = recommendation.confidence === undefined ? undefined : Math.round(Math.min(1, Math.max(0, recommendation.confidence)) * 100)
  return (
    <div {...rest} ref={ref as Ref<HTMLDivElement>} data-weft="recommended-action" data-state={message.status} data-action-id={recommendation.actionId}>
      {rationale && <p data-weft="recommended-action-rationale">{rationale}</p>}
      {confidence !== undefined && <span data-weft="recommended-action-confidence">{labels.confidence(confidence)}</span>}
      <button type="button" data-weft="recommended-action-button" disabled={!onAction} onClick={() => onAction?.(recommendation, message)}>
        {label}
      </button>
    </div>
  )
})
