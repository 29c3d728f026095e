/**
 * Human-in-the-loop requests as cards. The card hands a person's answer to the
 * host's `onGateAnswer` when there is one; otherwise it answers through the client
 * that streams into the store (`client.answer`), so an approval goes on with no
 * wiring. What the card shows follows the gate's status in the store.
 */
import { forwardRef, useEffect, useRef, useState, type FormEvent, type HTMLAttributes } from 'react'
import { isActionReview, isApprovalGate, type GateResponse } from '../core/client/gates'
import type { Gate, Message } from '../core/model/model'
import { partProps } from '../core/model/parts'
import { useAgentSelector, useGate } from '../react/selectors'
import { useAgentStore } from '../react/store-context'
import { useActingClient } from '../react/client-slots'
import { useWeftCallbacks, type GateAnswer } from './callbacks'
import { recordOf, asText, formatJson, NONE, own } from './format'
import { useLabels } from './labels'
import { setRef } from './slot'
import { summarizeInput } from './messages/tool'
import { useTurnIdFrom } from './turn-context'
import { messageIn } from '../core/model/message-table'

/**
 * Props of `GateCard`.
 *
 * @example
 * <GateCard id={gate.id} approveLabel="Send" rejectLabel="Don't send" />
 */
export interface GateCardProps extends HTMLAttributes<HTMLDivElement> {
  /** The gate to show. */
  id: string
  /** Button labels (default: the labels' "Approve" and "Reject"). */
  approveLabel?: string
  rejectLabel?: string
  /** Move focus to the card when it opens pending (default true), so a keyboard user lands on it. */
  focusOnOpen?: boolean
  /**
   * Show the tool call the gate holds, its name and input, folded (default true).
   * `Transcript.Turn` turns it off: the call's own card is in the turn, so the input shows once.
   */
  showCall?: boolean
}

/** Kinds that ask for words rather than a yes or no. */
const ANSWER_KINDS: ReadonlySet<string> = new Set(['interrupt', 'input', 'question'])

function useHeldCall(gate: Gate | undefined): Message | undefined {
  return useAgentSelector((s) => {
    if (!gate?.toolCallId) return undefined
    for (const id of own(s.turns, gate.turnId)?.messageIds ?? []) {
      const message = messageIn(s.messages, id)
      if (message && message.type === 'tool' && message.props.toolCallId === gate.toolCallId) return message
    }
    return undefined
  })
}

/**
 * The answer the client is given for a click: yes or no (with the reason) for an
 * approval, a decision per action request for a review, `{ value }` for words and
 * `{ approved: false }` for a rejected question, as the AG-UI and Vocion loops read them.
 */
function responseFor(gate: Gate, answer: GateAnswer, text: string): GateResponse {
  if (isActionReview(gate)) {
    // isActionReview has checked the payload's shape.
    const count = (gate.payload as { interrupt: { action_requests: unknown[] } }).interrupt.action_requests.length
    const decision = answer === 'rejected' ? { type: 'reject' as const, ...(text ? { message: text } : {}) } : { type: 'approve' as const }
    return { decisions: Array.from({ length: count }, () => decision) }
  }
  if (answer === 'answered' && !isApprovalGate(gate)) return { value: text }
  return { approved: answer !== 'rejected', ...(text ? { reason: text } : {}) }
}

function answerText(response: unknown): string {
  const record = recordOf(response)
  if (record) return asText(record.reason) || asText(record.value) || asText(record.answer) || asText(record.text)
  return asText(response)
}

/**
 * A human-in-the-loop request: a title and an icon, the question, the tool
 * call it holds (folded), then Approve and Reject with an optional reason, or
 * an answer box for a gate that asks a question. Once answered the title is the
 * outcome (the `gateStates` label: "Approved", "Rejected", "Answered", in
 * `gate-status-label`), the buttons are gone and a status line shows the reason
 * or answer given, if any; a click disables the buttons at once, before the
 * store has the answer. `data-state` is the gate's status.
 *
 * The answer goes to the host's `onGateAnswer` when it gives one, else through
 * the client that streams into the store, and the run goes on as its protocol
 * expects. An answer the client refuses, or a continuation the server refuses,
 * makes the buttons live again and shows why.
 *
 * @example
 * // No wiring: Approve continues the run through useAgentStream's client.
 * <GateCard id={gateId} />
 * // The host decides instead:
 * <WeftCallbacksProvider onGateAnswer={(gate, answer, detail) => resume(gate.id, answer, detail?.reason)}>
 *   <GateCard id={gateId} />
 * </WeftCallbacksProvider>
 */
export const GateCard = forwardRef<HTMLDivElement, GateCardProps>(function GateCard(
  { id, approveLabel, rejectLabel, focusOnOpen = true, showCall = true, ...rest },
  ref,
) {
  const labels = useLabels()
  const gate = useGate(id)
  const heldMessage = useHeldCall(gate)
  // A held call's input is the gate's payload too: hidden with the call, never shown as the payload instead.
  const held = heldMessage && partProps(heldMessage, 'tool')
  const drawnCall = held !== undefined && showCall
  const { onGateAnswer } = useWeftCallbacks()
  const store = useAgentStore()
  const acting = useActingClient(store)
  const [sent, setSent] = useState<GateAnswer | undefined>(undefined)
  const [failure, setFailure] = useState<string | undefined>(undefined)
  const [reason, setReason] = useState('')
  const cardRef = useRef<HTMLDivElement | null>(null)
  const pending = gate?.status === 'pending'
  useEffect(() => {
    if (focusOnOpen && pending) cardRef.current?.focus({ preventScroll: false })
    // Only when the card first appears pending.
  }, [])
  if (!gate) return null
  const kind = asText(gate.kind)
  // A review of action requests is a yes or no for all of them.
  const asks = ANSWER_KINDS.has(kind) && !isActionReview(gate)
  const question = asText(gate.question) || labels.approvalQuestion
  const status = asText(gate.status)
  // Once answered nothing is asked any more: the title is what happened ("Approved", "Rejected", "Answered").
  const outcome = own(labels.gateStates, status) ?? status
  const title = pending ? (asks ? labels.answer : labels.approvalNeeded) : outcome
  const payload = gate.payload
  const hasPayload = payload !== undefined && payload !== null && !(typeof payload === 'object' && Object.keys(payload).length === 0)
  const client = onGateAnswer ? undefined : acting
  const disabled = (!onGateAnswer && !client) || sent !== undefined
  const answer = (value: GateAnswer) => {
    if (disabled) return
    setSent(value)
    setFailure(undefined)
    const text = reason.trim()
    if (onGateAnswer) {
      onGateAnswer(gate, value, text ? (asks ? { value: text } : { reason: text }) : undefined)
      return
    }
    void client?.answer(gate.id, responseFor(gate, value, text)).then((result) => {
      if (result.ok) return
      setSent(undefined)
      setFailure(result.error.message)
    })
  }
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    answer(asks ? 'answered' : 'approved')
  }
  const given = answerText(gate.response)
  return (
    <div
      role="group"
      aria-label={title}
      tabIndex={-1}
      {...rest}
      ref={(node) => {
        cardRef.current = node
        setRef(ref, node)
      }}
      data-weft="gate"
      data-state={status}
      data-kind={kind}
    >
      <div data-weft="gate-title">
        <span data-weft="gate-icon" aria-hidden="true" />
        {pending ? title : <span data-weft="gate-status-label">{title}</span>}
      </div>
      <p data-weft="gate-question">{question}</p>
      {/* The call it holds, else what the gate carries. */}
      {(drawnCall || (!held && hasPayload)) && (
        <details data-weft={held ? 'gate-call' : 'gate-payload'}>
          <summary>
            {held ? (
              <>
                <span data-weft="tool-name">{held.name || labels.tool}</span>{' '}
                <span data-weft="tool-summary">{summarizeInput(held.input)}</span>
              </>
            ) : labels.gateDetails}
          </summary>
          <pre tabIndex={0}>{formatJson(held ? held.input : payload)}</pre>
        </details>
      )}
      {pending ? (
        <form data-weft="gate-form" onSubmit={submit}>
          <label data-weft="gate-reason">
            <span>{asks ? labels.answer : labels.reason}</span>
            <textarea rows={asks ? 2 : 1} value={reason} disabled={disabled} onChange={(event) => setReason(event.target.value)} />
          </label>
          {failure && <p data-weft="gate-error" role="alert">{failure}</p>}
          <div data-weft="gate-actions">
            <button type="submit" data-weft="gate-approve" disabled={disabled || (asks && reason.trim() === '')}>
              {asks ? labels.submit : approveLabel ?? labels.approve}
            </button>
            <button type="button" data-weft="gate-reject" disabled={disabled} onClick={() => answer('rejected')}>
              {rejectLabel ?? labels.reject}
            </button>
          </div>
        </form>
      ) : given ? (
        <p data-weft="gate-status" data-state={status}>
          <span data-weft="gate-answer">{given}</span>
        </p>
      ) : null}
    </div>
  )
})

/**
 * Props of `Gates`.
 *
 * @example
 * <Gates turnId={turnId} />
 */
export interface GatesProps extends HTMLAttributes<HTMLDivElement> {
  /** Default: the enclosing turn. */
  turnId?: string
  /** Passed to each `GateCard` (default true): false where the turn draws the held calls' own cards. */
  showCall?: boolean
}

/**
 * Every gate of a turn, as `GateCard`s. Renders nothing when there are none.
 *
 * @example
 * <Gates turnId={turnId} />
 */
export const Gates = forwardRef<HTMLDivElement, GatesProps>(function Gates({ turnId: explicit, showCall, ...rest }, ref) {
  const turnId = useTurnIdFrom(explicit)
  const ids = useAgentSelector((s) => (turnId ? own(s.turns, turnId)?.gateIds : undefined) ?? NONE)
  if (ids.length === 0) return null
  return (
    <div {...rest} ref={ref} data-weft="gates">
      {ids.map((id) => <GateCard key={id} id={id} showCall={showCall} />)}
    </div>
  )
})
