/**
 * The line under an answer that ended before it was complete: stopped by the
 * person, or cut off (the stream ended before its protocol's end, with nothing
 * left to resume). It says which, and offers Retry.
 */
import { forwardRef, type HTMLAttributes } from 'react'
import { RESUME_EXPIRED } from '../core/client/options'
import { STREAM_TRUNCATED } from '../core/model/errors'
import { useAgentSelector } from '../react/selectors'
import { useAgentStore } from '../react/store-context'
import { useActingClient } from '../react/client-slots'
import { useWeftCallbacks } from './callbacks'
import { own } from './format'
import { useLabels } from './labels'
import { useTurnIdFrom } from './turn-context'

/**
 * Props of `TurnInterrupted`.
 *
 * @example
 * <TurnInterrupted turnId={id} />
 */
export interface TurnInterruptedProps extends HTMLAttributes<HTMLParagraphElement> {
  /** Default: the enclosing turn. */
  turnId?: string
}

/**
 * Under an aborted answer: "Stopped" or "Interrupted" (`data-state` `stopped`
 * or `interrupted`), and Retry, which asks for the answer again as a sibling
 * (the partial one stays, reachable with the branch picker). Retry goes through
 * the host's `onRegenerate` when it gave one, else through the client that
 * streams into the store; it is hidden while another answer is on its way.
 *
 * @example
 * <Transcript.Turn turnId={id}><Transcript.Content /><TurnInterrupted /></Transcript.Turn>
 */
export const TurnInterrupted = forwardRef<HTMLParagraphElement, TurnInterruptedProps>(function TurnInterrupted({ turnId: explicit, children, ...rest }, ref) {
  const labels = useLabels()
  const client = useActingClient(useAgentStore())
  const { onRegenerate } = useWeftCallbacks()
  const turnId = useTurnIdFrom(explicit)
  const reason = useAgentSelector((s) => {
    const turn = turnId ? own(s.turns, turnId) : undefined
    if (turn?.role !== 'assistant' || turn.status !== 'aborted') return undefined
    return turn.problems.some((p) => p.code === RESUME_EXPIRED || p.code === STREAM_TRUNCATED) ? 'interrupted' : 'stopped'
  })
  const busy = useAgentSelector((s) => s.status === 'connecting' || s.status === 'streaming' || s.status === 'reconnecting')
  if (!turnId || !reason) return null
  const retry = onRegenerate ? () => onRegenerate(turnId) : client ? () => void client.regenerate(turnId) : undefined
  return (
    <p {...rest} ref={ref} data-weft="turn-interrupted" data-state={reason}>
      <span>{reason === 'interrupted' ? labels.interrupted : labels.statuses.aborted}</span>
      {retry && !busy && <button type="button" data-weft="turn-retry" onClick={retry}>{labels.retry}</button>}
      {children}
    </p>
  )
})
