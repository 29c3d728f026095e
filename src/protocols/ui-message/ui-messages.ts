/**
 * The conversation as the AI SDK's `UIMessage[]`: one message per turn of the
 * active path, its parts rebuilt from the turn's messages in order. This is the
 * one place where weft's model and `UIMessage` meet; a history loader that reads
 * `UIMessage[]` into turns belongs beside it, so what one reads the other writes back.
 */
import type { AgentState, Message, Turn } from '../../core/model'
import { isRecord, own } from '../../core/util/record'
import { defined, stringOf } from '../../core/util/values'

/**
 * One part of a `UIMessage`, as the AI SDK defines it (text, reasoning, tool,
 * file, source, data and step parts).
 *
 * @example
 * const part: UIMessagePart = { type: 'text', text: 'Hello', state: 'done' }
 */
export type UIMessagePart = { type: string } & Record<string, unknown>

/**
 * The AI SDK's `UIMessage`.
 *
 * @example
 * const message: UIMessage = { id: 'm1', role: 'user', parts: [{ type: 'text', text: 'Hi' }] }
 */
export interface UIMessage {
  id: string
  role: 'system' | 'user' | 'assistant'
  metadata?: unknown
  parts: UIMessagePart[]
}

/** The `UIMessage` id of a turn: the server's `messageId` when it sent one. */
export function uiMessageId(turn: Turn): string {
  const id = turn.metadata.messageId
  return typeof id === 'string' && id !== '' ? id : turn.id
}

/**
 * The turns of `path` as `UIMessage[]`.
 *
 * @example
 * toUIMessages(state, state.turnIds) // [{ id, role: 'user', parts: [{ type: 'text', text: 'Hi' }] }, ...]
 */
export function toUIMessages(state: AgentState, path: readonly string[]): UIMessage[] {
  const out: UIMessage[] = []
  for (const id of path) {
    const turn = own(state.turns, id)
    if (!turn) continue
    const message = toUIMessage(state, turn)
    if (message) out.push(message)
  }
  return out
}

/**
 * One turn as a `UIMessage`, or `undefined` for a turn with nothing to send.
 *
 * @example
 * toUIMessage(state, state.turns['turn-1'])
 */
export function toUIMessage(state: AgentState, turn: Turn): UIMessage | undefined {
  const parts: UIMessagePart[] = []
  let step: string | undefined
  for (const messageId of turn.messageIds) {
    const message = own(state.messages, messageId)
    if (!message) continue
    // Each step of an answer begins with a `step-start` part, as the AI SDK writes it.
    const block = message.blockId ? own(state.blocks, message.blockId) : undefined
    if (turn.role === 'assistant' && block?.kind === 'step' && block.id !== step) {
      step = block.id
      parts.push({ type: 'step-start' })
    }
    const part = toPart(message)
    if (part) parts.push(part)
  }
  for (const source of turn.sources) {
    const providerMetadata = metadataOf(source.providerMetadata)
    if (source.kind === 'url' && source.url) parts.push(defined({ type: 'source-url', sourceId: source.id, url: source.url, title: source.title, providerMetadata }))
    else if (source.kind === 'document') {
      parts.push(defined({
        type: 'source-document', sourceId: source.id, mediaType: source.mediaType ?? 'text/plain',
        title: source.title ?? source.filename ?? source.id, filename: source.filename, providerMetadata,
      }))
    }
  }
  if (parts.length === 0) return undefined
  const { messageId: _id, ...rest } = turn.metadata
  const metadata = Object.keys(rest).length > 0 ? rest : undefined
  return defined({ id: uiMessageId(turn), role: turn.role, metadata, parts }) as unknown as UIMessage
}

function toPart(message: Message): UIMessagePart | undefined {
  const { props } = message
  const state = message.status === 'streaming' ? 'streaming' : 'done'
  switch (message.type) {
    case 'text':
      return defined({
        type: 'text', text: stringOf(props.content) ?? '', state: message.role === 'user' ? undefined : state,
        providerMetadata: metadataOf(props.providerMetadata), citations: Array.isArray(props.citations) ? props.citations : undefined,
      })
    case 'reasoning':
      return defined({ type: 'reasoning', text: stringOf(props.content) ?? '', state, providerMetadata: metadataOf(props.providerMetadata) })
    case 'custom': {
      const kind = stringOf(props.kind)
      return kind ? defined({ type: 'custom', kind, providerMetadata: metadataOf(props.providerMetadata) }) : undefined
    }
    case 'file':
    case 'reasoning-file':
    case 'image': {
      const url = stringOf(props.url) ?? stringOf(props.src)
      if (!url) return undefined
      const mediaType = stringOf(props.mediaType) ?? stringOf(props.mimeType) ?? 'application/octet-stream'
      if (message.type === 'reasoning-file') return defined({ type: 'reasoning-file', mediaType, url, providerMetadata: metadataOf(props.providerMetadata) })
      return defined({ type: 'file', mediaType, url, filename: stringOf(props.filename) ?? stringOf(props.name), providerMetadata: metadataOf(props.providerMetadata) })
    }
    case 'tool':
      return toolPart(props)
    default:
      if (message.type.startsWith('data-') && 'data' in props) return defined({ type: message.type, id: stringOf(props.id), data: props.data })
      return undefined
  }
}

/** The fields each tool state carries, as the AI SDK's `UIToolInvocation` lists them. */
function toolPart(props: Record<string, unknown>): UIMessagePart | undefined {
  const toolCallId = stringOf(props.toolCallId)
  const name = stringOf(props.name)
  if (!toolCallId || !name) return undefined
  const state = stringOf(props.state) ?? 'input-available'
  const approval = isRecord(props.approval) ? props.approval : undefined
  const head = props.dynamic === true ? { type: 'dynamic-tool', toolName: name } : { type: `tool-${name}` }
  const base = defined({
    ...head, toolCallId, title: stringOf(props.title), providerExecuted: typeof props.providerExecuted === 'boolean' ? props.providerExecuted : undefined,
    toolMetadata: isRecord(props.toolMetadata) ? props.toolMetadata : undefined,
    callProviderMetadata: metadataOf(props.callProviderMetadata),
  })
  const input = props.input
  const result = defined({ resultProviderMetadata: metadataOf(props.resultProviderMetadata) })
  switch (state) {
    case 'input-streaming': {
      const encoding = props.inputEncoding === 'text' || props.inputEncoding === 'json' ? props.inputEncoding : undefined
      // The input text so far, so a stored call can go on streaming where it stopped.
      return defined({ ...base, state, input, rawInput: stringOf(props.inputText) ?? stringOf(props.rawInput), inputEncoding: encoding })
    }
    case 'input-available':
      return { ...base, state, input: input ?? {} }
    case 'approval-requested':
      return { ...base, state, input: input ?? {}, approval: approvalAs(approval, {}) }
    case 'approval-responded':
      return { ...base, state, input: input ?? {}, approval: approvalAs(approval, { approved: approval?.approved === true, reason: stringOf(approval?.reason) }) }
    case 'output-available':
      return defined({ ...base, ...result, state, input: input ?? {}, output: props.output, preliminary: props.preliminary === true ? true : undefined, approval: approvalGiven(approval) })
    case 'output-error':
      return defined({ ...base, ...result, state, input: input ?? {}, errorText: stringOf(props.errorText) ?? 'the tool failed', approval: approvalGiven(approval) })
    case 'output-denied':
      return { ...base, state, input: input ?? {}, approval: approvalAs(approval, { approved: false, reason: stringOf(approval?.reason) }) }
    default:
      return { ...base, state: 'input-available', input: input ?? {} }
  }
}

/** An approval with what the request carried (descriptor, signature, the input schema's input), as the AI SDK keeps it. */
function approvalAs(approval: Record<string, unknown> | undefined, answer: Record<string, unknown>): Record<string, unknown> {
  return defined({
    id: stringOf(approval?.id), ...answer, descriptor: approval?.descriptor, signature: stringOf(approval?.signature),
    inputSchemaInput: approval?.inputSchemaInput, isAutomatic: typeof approval?.isAutomatic === 'boolean' ? approval.isAutomatic : undefined,
  })
}

/** The approval a finished call went through, as it was recorded (the stream may never have said `approved`). */
function approvalGiven(approval: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!approval || typeof approval.id !== 'string') return undefined
  return approvalAs(approval, { approved: typeof approval.approved === 'boolean' ? approval.approved : undefined, reason: stringOf(approval.reason) })
}

/** Provider metadata is an object of objects for the AI SDK; anything else is not sent back. */
function metadataOf(value: unknown): Record<string, unknown> | undefined {
  return isRecord(value) ? value : undefined
}

