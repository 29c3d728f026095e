/**
 * The conversation loop's pure parts: which tool calls the client runs, when an
 * answer may go on, how a gate answer is checked and shown, and how files
 * become message parts. The client calls these; they do no I/O of their own
 * except reading files.
 */
import { weftError, type WeftError } from './errors'
import type { AgentState, Gate, Message } from './model'
import type { Op } from './ops'
import { isRecord, own } from './util/record'
import { messageIn } from './message-table'

/**
 * A tool the browser runs. Its output (or its error's message) goes back to the
 * server in the next request.
 *
 * @example
 * const getLocation: ClientTool = { description: 'The user's city', execute: async () => ({ city: 'Paris' }) }
 */
export interface ClientTool {
  description?: string
  /** JSON Schema of the input (AG-UI declares it in `RunAgentInput.tools`). */
  parameters?: unknown
  execute(input: unknown, context: { signal: AbortSignal; turnId: string; toolCallId: string }): unknown
}

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

/**
 * Limits on what a user may attach.
 *
 * @example
 * const limits: AttachmentLimits = { accept: ['image/*', 'application/pdf'], maxSize: 5_000_000, maxCount: 4 }
 */
export interface AttachmentLimits {
  /** Media types, `type/*` wildcards allowed. */
  accept?: readonly string[]
  /** Bytes per file. */
  maxSize?: number
  maxCount?: number
}

/**
 * A file as a message part: `url` is a data URL or what the host's upload returned.
 *
 * @example
 * const part: FilePart = { url: 'data:text/plain;base64,aGk=', mediaType: 'text/plain', filename: 'hi.txt' }
 */
export interface FilePart {
  url: string
  mediaType: string
  filename?: string
}

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

/** The turn's tool message of a call. */
export function toolMessage(state: AgentState, turnId: string, toolCallId: string): Message | undefined {
  const turn = own(state.turns, turnId)
  if (!turn) return undefined
  for (const id of turn.messageIds) {
    const message = messageIn(state.messages, id)
    if (message?.type === 'tool' && message.props.toolCallId === toolCallId) return message
  }
  return undefined
}

/** Tool calls of a turn whose input is complete, that the client runs and has not run. */
export function clientCalls(state: AgentState, turnId: string, tools: Readonly<Record<string, ClientTool>>, started: ReadonlySet<string>): Message[] {
  const turn = own(state.turns, turnId)
  if (!turn) return []
  const out: Message[] = []
  for (const id of turn.messageIds) {
    const message = messageIn(state.messages, id)
    if (!message || message.type !== 'tool' || message.props.providerExecuted === true) continue
    const name = message.props.name
    const callId = message.props.toolCallId
    if (message.props.state !== 'input-available' || typeof name !== 'string' || typeof callId !== 'string') continue
    if (!own(tools, name) || started.has(callId)) continue
    out.push(message)
  }
  return out
}

/**
 * True when nothing in the turn waits for the user or the client: every tool
 * call the server did not run has a result or an answered approval, and every gate is resolved.
 * A stopped turn waits only for its gates.
 */
export function turnSettled(state: AgentState, turnId: string): boolean {
  const turn = own(state.turns, turnId)
  if (!turn || (turn.status !== 'done' && turn.status !== 'aborted')) return false
  for (const id of turn.gateIds) if (own(state.gates, id)?.status === 'pending') return false
  // A stopped turn goes on only with the person's answers: a call cut off mid-input will not complete.
  if (turn.status === 'aborted') return true
  for (const id of turn.messageIds) {
    const message = messageIn(state.messages, id)
    if (!message || message.type !== 'tool' || message.props.providerExecuted === true) continue
    const s = message.props.state
    if (s === 'input-streaming' || s === 'input-available' || s === 'approval-requested') return false
    if (message.props.preliminary === true) return false
  }
  return true
}

/**
 * Check files against the host's limits before anything is sent.
 *
 * @example
 * checkFiles([file], { maxSize: 1_000_000 }) // undefined, or a validation error
 */
export function checkFiles(files: readonly Blob[], limits: AttachmentLimits | undefined): WeftError | undefined {
  if (!limits) return undefined
  if (limits.maxCount !== undefined && files.length > limits.maxCount) {
    return weftError('validation', `at most ${limits.maxCount} file${limits.maxCount === 1 ? '' : 's'} can be attached`, { code: 'attachment_count', retryable: false })
  }
  for (const file of files) {
    const name = 'name' in file && typeof file.name === 'string' ? file.name : 'the file'
    if (limits.maxSize !== undefined && file.size > limits.maxSize) {
      return weftError('validation', `${name} is larger than ${limits.maxSize} bytes`, { code: 'attachment_size', retryable: false })
    }
    if (limits.accept && !limits.accept.some((pattern) => mediaTypeMatches(file.type, pattern))) {
      return weftError('validation', `${name} is of a type that cannot be attached (${file.type || 'unknown'})`, { code: 'attachment_type', retryable: false })
    }
  }
  return undefined
}

/**
 * Whether a media type matches a pattern such as `image/*`.
 *
 * @example
 * mediaTypeMatches('image/png', 'image/*') // true
 */
export function mediaTypeMatches(type: string, pattern: string): boolean {
  const t = type.toLowerCase()
  const p = pattern.trim().toLowerCase()
  if (p === '*/*' || p === '*') return true
  if (p.endsWith('/*')) return t.startsWith(p.slice(0, -1))
  return t === p
}

/**
 * A file as a message part: a data URL, or the URL the host's `upload` returns.
 *
 * @example
 * await toFilePart(new File(['hi'], 'hi.txt', { type: 'text/plain' })) // { url: 'data:text/plain;base64,aGk=', ... }
 */
export async function toFilePart(file: Blob, upload?: (file: Blob) => Promise<string>): Promise<FilePart> {
  const mediaType = file.type || 'application/octet-stream'
  const filename = 'name' in file && typeof file.name === 'string' && file.name !== '' ? file.name : undefined
  const url = upload ? await upload(file) : `data:${mediaType};base64,${base64(new Uint8Array(await file.arrayBuffer()))}`
  return { url, mediaType, ...(filename ? { filename } : {}) }
}

function base64(bytes: Uint8Array): string {
  let binary = ''
  // Chunks keep the argument list of fromCharCode short on large files.
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return btoa(binary)
}
