import { useAgentSelector } from '../react/selectors'
import { useWeftCallbacks } from './callbacks'
import { formatJson, own } from './format'
import { useGate } from '../react/selectors'
import { useTurnIdFrom } from './turn-context'

/**
 * Props of `GateCard`.
 *
 * @example
 * <GateCard id={gate.id} approveLabel="Send" rejectLabel="Don't send" />
 */
export interface GateCardProps {
  /** The gate to show. */
  id: string
  /** Button labels (default "Approve" and "Reject"). */
  approveLabel?: string
  rejectLabel?: string
}

const RESOLVED: Readonly<Record<string, string>> = { approved: 'Approved', rejected: 'Rejected', answered: 'Answered' }

/**
 * A human-in-the-loop request: the question, what it would act on, and
 * Approve / Reject while it is pending. A click calls the host's
 * `onGateAnswer(gate, 'approved' | 'rejected')`; the kit never calls a server.
 * `data-state` is the gate's status.
 *
 * @example
 * <WeftCallbacksProvider onGateAnswer={(gate, answer) => resume(gate.id, answer)}>
 *   <GateCard id={gateId} />
 * </WeftCallbacksProvider>
 */
export function GateCard({ id, approveLabel = 'Approve', rejectLabel = 'Reject' }: GateCardProps) {
  const gate = useGate(id)
  const { onGateAnswer } = useWeftCallbacks()
  if (!gate) return null
  const pending = gate.status === 'pending'
  const hasPayload = gate.payload !== undefined && gate.payload !== null &&
    !(typeof gate.payload === 'object' && Object.keys(gate.payload).length === 0)
  return (
    <div data-weft="gate" data-state={gate.status} data-kind={gate.kind} role="group" aria-label={gate.question || 'Approval needed'}>
      <p data-weft="gate-question">{gate.question || 'The agent is waiting for your approval.'}</p>
      {hasPayload && (
        <details data-weft="gate-payload">
          <summary>Details</summary>
          <pre>{formatJson(gate.payload)}</pre>
        </details>
      )}
      {pending ? (
        <div data-weft="gate-actions">
          <button type="button" data-weft="gate-approve" disabled={!onGateAnswer} onClick={() => onGateAnswer?.(gate, 'approved')}>
            {approveLabel}
          </button>
          <button type="button" data-weft="gate-reject" disabled={!onGateAnswer} onClick={() => onGateAnswer?.(gate, 'rejected')}>
            {rejectLabel}
          </button>
        </div>
      ) : (
        <p data-weft="gate-status">{own(RESOLVED, gate.status) ?? gate.status}</p>
      )}
    </div>
  )
}

/**
 * Props of `Gates`.
 *
 * @example
 * <Gates turnId={turnId} />
 */
export interface GatesProps {
  /** Default: the enclosing turn. */
  turnId?: string
}

const NO_IDS: readonly string[] = Object.freeze([])

/**
 * Every gate of a turn, as `GateCard`s. Renders nothing when there are none.
 *
 * @example
 * <Gates turnId={turnId} />
 */
export function Gates({ turnId: explicit }: GatesProps) {
  const turnId = useTurnIdFrom(explicit)
  const ids = useAgentSelector((s) => (turnId ? own(s.turns, turnId)?.gateIds : undefined) ?? NO_IDS)
  if (ids.length === 0) return null
  return (
    <div data-weft="gates">
      {ids.map((id) => <GateCard key={id} id={id} />)}
    </div>
  )
}
