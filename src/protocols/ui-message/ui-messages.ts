/**
 * The conversation as the AI SDK's `UIMessage[]`: one message per turn of the
 * active path, its parts rebuilt from the turn's messages in order. This is the
 * one place where weft's model and `UIMessage` meet; a history loader that reads
 * `UIMessage[]` into turns belongs beside it, so what one reads the other writes back.
 */
import type { AgentState, Message, Source, Turn } from '../../core/index'
import { booleanOf, defined, messageIn, own, recordOf, stringOf } from '../../protocol-kit/index'

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
  // Each step of an answer begins with a `step-start` part, as the AI SDK writes it; an empty step too.
  const steps = turn.blockIds.filter((id) => own(state.blocks, id)?.kind === 'step')
  let opened = 0
  const enter = (blockId: string | undefined) => {
    const at = blockId === undefined ? -1 : steps.indexOf(blockId, opened)
    for (; opened <= at; opened++) parts.push({ type: 'step-start' })
  }
  // Sources go back where the answer had them; one whose place is unknown goes after the parts.
  // Most turns have none, and then cost no map.
  const placed = turn.sources.length > 0 ? new Map<string, Source[]>() : undefined
  const last: Source[] = []
  if (placed) {
    const known = new Set(turn.messageIds)
    for (const source of turn.sources) {
      const after = source.place ? source.place.after ?? '' : undefined
      if (after === undefined || (after !== '' && !known.has(after))) last.push(source)
      else placed.set(after, [...(placed.get(after) ?? []), source])
    }
  }
  const sourcesAfter = (after: string) => {
    const here = placed?.get(after)
    if (!here) return
    for (const source of here) {
      enter(source.place?.blockId)
      const part = sourcePart(source)
      if (part) parts.push(part)
    }
  }
  sourcesAfter('')
  for (const messageId of turn.messageIds) {
    const message = messageIn(state.messages, messageId)
    if (!message) continue
    enter(message.blockId)
    const part = toPart(message)
    if (part) parts.push(part)
    sourcesAfter(messageId)
  }
  enter(steps.at(-1))
  for (const source of last) {
    const part = sourcePart(source)
    if (part) parts.push(part)
  }
  if (parts.length === 0) return undefined
  // History keeps metadata that is not an object with fields whole, as `uiMetadata`, so it goes back as it came.
  const { messageId: _id, uiMetadata, ...rest } = turn.metadata
  const metadata = 'uiMetadata' in turn.metadata ? uiMetadata : Object.keys(rest).length > 0 ? rest : undefined
  return defined({ id: uiMessageId(turn), role: turn.role, metadata, parts }) as unknown as UIMessage
}

function sourcePart(source: Source): UIMessagePart | undefined {
  const providerMetadata = recordOf(source.providerMetadata)
  if (source.kind === 'url') return source.url ? defined({ type: 'source-url', sourceId: source.id, url: source.url, title: source.title, providerMetadata }) : undefined
  return defined({
    type: 'source-document', sourceId: source.id, mediaType: source.mediaType ?? 'text/plain', title: source.title ?? source.filename ?? source.id,
    filename: source.filename, providerMetadata,
  })
}

/** A text or reasoning part's state: the one history recorded (`null` for none), else the message's own. */
function partState(message: Message, fallback: 'streaming' | 'done' | undefined): string | undefined {
  if ('partState' in message.props) return stringOf(message.props.partState)
  return fallback
}

function toPart(message: Message): UIMessagePart | undefined {
  const { props } = message
  const state = message.status === 'streaming' ? 'streaming' : 'done'
  switch (message.type) {
    case 'text':
      return defined({
        type: 'text', text: stringOf(props.content) ?? '', state: partState(message, message.role === 'user' ? undefined : state),
        providerMetadata: recordOf(props.providerMetadata), citations: Array.isArray(props.citations) ? props.citations : undefined,
      })
    case 'reasoning':
      // `props.id` is only there when history read it from the part; a streamed part's wire id is in the message id.
      return defined({
        type: 'reasoning', id: stringOf(props.id), text: stringOf(props.content) ?? '', state: partState(message, state),
        providerMetadata: recordOf(props.providerMetadata),
      })
    case 'custom': {
      const kind = stringOf(props.kind)
      return kind ? defined({ type: 'custom', kind, providerMetadata: recordOf(props.providerMetadata) }) : undefined
    }
    case 'file':
    case 'reasoning-file':
    case 'image': {
      const url = stringOf(props.url) ?? stringOf(props.src)
      if (!url) return undefined
      const mediaType = stringOf(props.mediaType) ?? stringOf(props.mimeType) ?? 'application/octet-stream'
      if (message.type === 'reasoning-file') return defined({ type: 'reasoning-file', mediaType, url, providerMetadata: recordOf(props.providerMetadata) })
      return defined({ type: 'file', mediaType, url, filename: stringOf(props.filename) ?? stringOf(props.name), providerMetadata: recordOf(props.providerMetadata) })
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
  const approval = recordOf(props.approval)
  // `normalized`: history read a `dynamic-tool` part that said `dynamic: false`, and it goes back saying so.
  const head = props.dynamic === true
    ? defined({ type: 'dynamic-tool', dynamic: props.normalized === true ? false : undefined, toolName: name })
    : { type: `tool-${name}` }
  const base = defined({
    ...head, toolCallId, title: stringOf(props.title), providerExecuted: booleanOf(props.providerExecuted),
    toolMetadata: recordOf(props.toolMetadata),
    callProviderMetadata: recordOf(props.callProviderMetadata),
  })
  const input = props.input
  const result = defined({ resultProviderMetadata: recordOf(props.resultProviderMetadata) })
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
      return defined({
        ...base, ...result, state, input: input ?? {}, output: props.output,
        preliminary: props.preliminary === true ? true : props.preliminaryFalse === true ? false : undefined, approval: approvalGiven(approval),
      })
    case 'output-error':
      // The input may be missing when the call's input could not be parsed; `rawInput` then holds what came.
      return defined({
        ...base, ...result, state, input: 'input' in props ? input : undefined, rawInput: props.rawInput,
        errorText: stringOf(props.errorText) ?? 'the tool failed', approval: approvalGiven(approval),
      })
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
    inputSchemaInput: approval?.inputSchemaInput, isAutomatic: booleanOf(approval?.isAutomatic),
  })
}

/** The approval a finished call went through, as it was recorded (the stream may never have said `approved`). */
function approvalGiven(approval: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!approval || typeof approval.id !== 'string') return undefined
  return approvalAs(approval, { approved: booleanOf(approval.approved), reason: stringOf(approval.reason) })
}
