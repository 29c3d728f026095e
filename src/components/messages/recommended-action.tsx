import { partProps } from '../../core/parts'
import { useWeftCallbacks } from '../callbacks'
import { useLabels } from '../labels'
import type { MessageRendererProps } from '../renderers'

/**
 * A recommended action (`type: 'recommended-action'`): what it is, why, and a
 * button. Nothing happens until a person clicks it; then the host's `onAction`
 * receives the recommendation.
 *
 * @example
 * <WeftCallbacksProvider onAction={(rec) => openDraft(rec.input)}>
 *   <Transcript.Root />
 * </WeftCallbacksProvider>
 */
export function RecommendedActionCard({ message }: MessageRendererProps) {
  const labels = useLabels()
  const { onAction } = useWeftCallbacks()
  const recommendation = partProps(message, 'recommended-action')
  const label = recommendation.label || recommendation.actionId || labels.recommendedAction
  const { rationale } = recommendation
  const confidence = recommendation.confidence === undefined ? undefined : Math.round(Math.min(1, Math.max(0, recommendation.confidence)) * 100)
  return (
    <div data-weft="recommended-action" data-action-id={recommendation.actionId}>
      {rationale && <p data-weft="recommended-action-rationale">{rationale}</p>}
      {confidence !== undefined && <span data-weft="recommended-action-confidence">{labels.confidence(confidence)}</span>}
      <button type="button" data-weft="recommended-action-button" disabled={!onAction} onClick={() => onAction?.(recommendation, message)}>
        {label}
      </button>
    </div>
  )
}
