/**
 * Gate answers: how an answer is checked for its gate's kind, how the store
 * shows it at once, and how a gate goes back to pending when its continuation
 * fails. Pure: the client dispatches what these return.
 */
import { weftError, type WeftError } from '../model/errors'
import type { AgentState, Gate } from '../model/model'
import type { Op } from '../model/ops'
import { isRecord, own } from '../util/record'
import { toolMessage } from './tool-calls'

/**
 * An answer to an approval gate.
 *
 * @example
 * client.answer(gateId, { approved: false, reason: 'Not that account' })
 */
export interface ApprovalResponse {
  approved: boolean
  reason?: string
}

/**
 * One decision on an `interrupt` chunk's action request.
 *
 * @example
 * const d: InterruptDecision = { type: 'edit', edited_action: { name: 'send_email', args: { to: 'a@b.c' } } }
 */
export type InterruptDecision =
  | { type: 'approve' }
  | { type: 'reject'; message?: string }
  | { type: 'edit'; edited_action: { name: string; args: Record<string, unknown> } }

/**
 * Any JSON value: an AG-UI interrupt is resumed with whatever payload its agent asks for.
 *
 * @example
 * const payload: JsonValue = { approved: true, notes: ['checked'] }
 */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue | undefined }

/**
 * What `answer` takes for a gate of kind `Kind`: an approval (`{ approved, reason? }`)
 * for tool approvals and Vocion gates, and for an interrupt either `{ decisions }`
 * (the `interrupt` chunk's action requests) or any JSON value (an AG-UI interrupt's
 * resume payload). Without a kind, any of these.
 *
 * @example
 * const yes: GateResponse<'tool-approval'> = { approved: true }
 * const review: GateResponse<'interrupt'> = { decisions: [{ type: 'approve' }] }
 * const anyKind: GateResponse = { approved: false, reason: 'Not that account' }
 */
export type GateResponse<Kind extends string = string> =
  Kind extends 'tool-approval' | 'approval' | 'hitl' | 'hitl_gate' ? ApprovalResponse
    : Kind extends 'interrupt' ? { decisions: InterruptDecision[] } | JsonValue
      : ApprovalResponse | { decisions: InterruptDecision[] } | JsonValue

/**
 * What `answer` reports: the gate was resolved, or the answer was refused and nothing changed.
 *
 * @example
 * const result = await client.answer(gateId, { approved: true }); if (!result.ok) show(result.error.message)
 */
export type AnswerResult = { ok: true } | { ok: false; error: WeftError }

/**
 * What `regenerate`, `edit` and `selectBranch` report: done, or refused with nothing changed.
 *
 * @example
 * const result = await client.regenerate(); if (!result.ok) console.warn(result.error.message)
 */
export type ActionResult = AnswerResult
/** A gate's response as checked for its kind, or the reason it is refused. */
export function checkGateResponse(state: AgentState, gateId: string, response: unknown): { gate: Gate } | { error: WeftError } {
  const gate = own(state.gates, gateId)
  if (!gate) return { error: weftError('validation', `there is no gate "${gateId}"`, { retryable: false }) }
  if (gate.status !== 'pending') return { error: weftError('validation', `the gate "${gateId}" was already answered (${gate.status})`, { retryable: false }) }
  if (isApprovalGate(gate) && !(isRecord(response) && typeof response.approved === 'boolean')) {
    return { error: weftError('validation', 'an approval is answered with { approved: boolean, reason?: string }', { retryable: false }) }
  }
  if (isApprovalGate(gate) && isRecord(response) && response.reason !== undefined && typeof response.reason !== 'string') {
    return { error: weftError('validation', 'the reason of an approval must be a string', { retryable: false }) }
  }
  if (isActionReview(gate)) {
    const refused = checkDecisions(gate, isRecord(response) ? response.decisions : undefined)
    if (refused) return { error: weftError('validation', refused, { retryable: false }) }
  }
  return { gate }
}

/**
 * The `interrupt` chunk implies its answer: one decision per action request, in
 * order, each of a type its review config allows (all three when it names none);
 * an edit names the action and its new arguments, a reject may say why.
 */
function checkDecisions(gate: Gate, decisions: unknown): string | undefined {
  const review = isRecord(gate.payload) && isRecord(gate.payload.interrupt) ? gate.payload.interrupt : {}
  const requests = Array.isArray(review.action_requests) ? review.action_requests : []
  const configs = Array.isArray(review.review_configs) ? review.review_configs.filter(isRecord) : []
  const shape = 'an action review is answered with { decisions: [{ type: "approve" } | { type: "edit", edited_action: { name, args } } | { type: "reject", message? }] }'
  if (!Array.isArray(decisions)) return shape
  if (decisions.length !== requests.length) return `this review has ${requests.length} action request${requests.length === 1 ? '' : 's'}; give one decision for each, in order (got ${decisions.length})`
  for (const [i, decision] of decisions.entries()) {
    if (!isRecord(decision) || (decision.type !== 'approve' && decision.type !== 'reject' && decision.type !== 'edit')) return `decision ${i}: ${shape}`
    const request = isRecord(requests[i]) ? requests[i] : {}
    const config = configs.find((c) => c.action_name === request.name)
    const allowed = Array.isArray(config?.allowed_decisions) ? config.allowed_decisions : undefined
    if (allowed && !allowed.includes(decision.type)) return `decision ${i}: "${String(request.name)}" allows ${allowed.map(String).join(', ')}, not ${decision.type}`
    if (decision.type === 'edit') {
      const edited = decision.edited_action
      if (!isRecord(edited) || typeof edited.name !== 'string' || !isRecord(edited.args)) return `decision ${i}: an edit needs edited_action: { name: string, args: object }`
    }
    if (decision.type === 'reject' && decision.message !== undefined && typeof decision.message !== 'string') return `decision ${i}: a reject's message must be a string`
  }
  return undefined
}

/** Tool approvals and Vocion gates are yes/no. */
export function isApprovalGate(gate: Gate): boolean {
  return gate.kind === 'tool-approval' || gate.kind === 'hitl' || gate.kind === 'hitl_gate' || gate.kind === 'approval'
}

/** The `interrupt` chunk's review of action requests. */
export function isActionReview(gate: Gate): boolean {
  return gate.kind === 'interrupt' && isRecord(gate.payload) && isRecord(gate.payload.interrupt) && Array.isArray(gate.payload.interrupt.action_requests)
}

/**
 * The ops that show an answer at once: the gate resolved, and the tool it holds
 * back moved on (`approval-responded`, or `output-denied` where the protocol
 * has no approval round trip).
 */
export function answerOps(state: AgentState, gate: Gate, response: unknown): Op[] {
  const approved = isRecord(response) && typeof response.approved === 'boolean' ? response.approved : reviewVerdict(gate, response)
  const status = approved === undefined ? 'answered' : approved ? 'approved' : 'rejected'
  const ops: Op[] = [{ op: 'gate.resolve', gateId: gate.id, status, response }]
  const tool = gate.toolCallId ? toolMessage(state, gate.turnId, gate.toolCallId) : undefined
  // An interrupt answered with any value still lets the tool it held back go on.
  if (tool && (approved !== undefined || tool.props.state === 'approval-requested')) {
    const approval = isRecord(tool.props.approval) ? tool.props.approval : {}
    const reason = isRecord(response) && typeof response.reason === 'string' ? response.reason : undefined
    ops.push({
      op: 'message.delta', turnId: tool.turnId, messageId: tool.id, type: 'tool', action: 'set', path: '',
      value: { state: 'approval-responded', approval: { ...approval, approved: approved ?? true, ...(reason !== undefined ? { reason } : {}) } },
    })
  }
  return ops
}

/** A review whose decisions all approve is approved, all reject is rejected; a mix (or an edit) is only answered. */
function reviewVerdict(gate: Gate, response: unknown): boolean | undefined {
  if (!isActionReview(gate) || !isRecord(response) || !Array.isArray(response.decisions) || response.decisions.length === 0) return undefined
  const types = new Set(response.decisions.map((d) => (isRecord(d) ? d.type : undefined)))
  if (types.size !== 1) return undefined
  return types.has('approve') ? true : types.has('reject') ? false : undefined
}

/** The ops that put a gate back to pending after its continuation failed. */
export function reopenOps(state: AgentState, gate: Gate, error: WeftError): Op[] {
  const ops: Op[] = [{ op: 'gate.open', gate: { ...gate, status: 'pending', response: undefined } }, { op: 'problem', turnId: gate.turnId, error }]
  const tool = gate.toolCallId ? toolMessage(state, gate.turnId, gate.toolCallId) : undefined
  if (tool && tool.props.state === 'approval-responded') {
    const approval = isRecord(tool.props.approval) && typeof tool.props.approval.id === 'string' ? { id: tool.props.approval.id } : undefined
    ops.push({ op: 'message.delta', turnId: tool.turnId, messageId: tool.id, type: 'tool', action: 'set', path: '', value: { state: 'approval-requested', ...(approval ? { approval } : {}) } })
    // A delta opens the message again; nothing streams into it while its gate waits.
    ops.push({ op: 'message.finish', messageId: tool.id, status: 'done' })
  }
  return ops
}
