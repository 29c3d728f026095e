import { useWeftCallbacks, type Recommendation } from '../callbacks'
import { asText } from '../format'
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
  const { onAction } = useWeftCallbacks()
  const recommendation = message.props as Recommendation
  const label = asText(recommendation.label) || asText(recommendation.actionId) || 'Recommended action'
  const rationale = asText(recommendation.rationale)
  const confidence = typeof recommendation.confidence === 'number' && Number.isFinite(recommendation.confidence)
    ? Math.round(Math.min(1, Math.max(0, recommendation.confidence)) * 100)
    : undefined
  return (
    <div data-weft="recommended-action" data-action-id={asText(recommendation.actionId) || undefined}>
      {rationale && <p data-weft="recommended-action-rationale">{rationale}</p>}
      {confidence !== undefined && <span data-weft="recommended-action-confidence">{confidence}% confident</span>}
      <button type="button" data-weft="recommended-action-button" disabled={!onAction} onClick={() => onAction?.(recommendation, message)}>
        {label}
      </button>
    </div>
  )
}
