/**
 * AI SDK history: the `UIMessage[]` a chat route stores (`{id, role, metadata?, parts}`)
 * becomes one turn per message and one weft message per part, in order, so
 * `toUIMessages` gives the same list back. Text and reasoning keep their text in
 * `props.content`; a `tool-<name>` or `dynamic-tool` part becomes a `tool` message
 * with `props.name`; every other part (file, data, sources, step boundaries) keeps
 * its type and its fields as props. Sources also join the turn's `sources`.
 */
import type { HistoryBatch } from '../../core/history/merge'
import type { AgentState, Message, Source, Turn } from '../../core/model'
import type { HydratedTurn } from '../../core/ops'
import { isRecord, isSafeKey, own } from '../../core/util/record'

/**
 * A message as the AI SDK stores it (the fields weft reads).
 *
 * @example
 * const m: UIMessageLike = { id: 'm1', role: 'user', parts: [{ type: 'text', text: 'Hi' }] }
 */
export interface UIMessageLike {
  id: string
  role: 'system' | 'user' | 'assistant'
  metadata?: unknown
  parts: Array<{ type: string; [key: string]: unknown }>
}

/** Turn metadata keys weft itself writes for this protocol; never sent back as the message's metadata. */
const OWN_METADATA = new Set(['messageId'])

/**
 * Turn stored `UIMessage[]` into a history batch. A message without an id, a
 * role or a parts list is reported as a problem and skipped; the others load.
 *
 * @example
 * store.getState().dispatch(historyOps(uiMessageHistory(await loadChat(id)), store.getState()))
 */
export function uiMessageHistory(messages: unknown): HistoryBatch {
  const batch: HistoryBatch = { turns: [], problems: [] }
  if (!Array.isArray(messages)) {
    batch.problems.push({ message: 'UI messages must be a list' })
    return batch
  }
  for (const [index, raw] of messages.entries()) {
    const problem = messageProblem(raw)
    if (problem) {
      batch.problems.push({ message: `message ${index}: ${problem}` })
      continue
    }
    const message = raw as UIMessageLike
    const sources: Source[] = []
    const parts: HydratedTurn['messages'] = []
    for (const [at, part] of message.parts.entries()) {
      const mapped = fromPart(part)
      parts.push({ id: `${message.id}/${at}`, role: message.role, status: 'done', ...mapped })
      const source = sourceOf(part)
      if (source) sources.push(source)
    }
    const metadata = isRecord(message.metadata) ? { ...message.metadata } : {}
    batch.turns.push({
      turn: { id: message.id, role: message.role, status: 'done', protocol: 'ui-message', metadata, sources },
      messages: parts,
    })
  }
  return batch
}

/**
 * The active path as `UIMessage[]`: the inverse of `uiMessageHistory`, so what
 * history handed in goes back unchanged.
 *
 * @example
 * const body = { id: chatId, messages: toUIMessages(store.getState()) }
 */
export function toUIMessages(state: AgentState): UIMessageLike[] {
  const out: UIMessageLike[] = []
  for (const turnId of state.turnIds) {
    const turn = own(state.turns, turnId)
    if (!turn) continue
    const parts = turn.messageIds.map((id) => own(state.messages, id)).filter((m): m is Message => m !== undefined).map(toPart)
    const message: UIMessageLike = { id: uiIdOf(turn), role: turn.role, parts }
    const metadata = Object.fromEntries(Object.entries(turn.metadata).filter(([key]) => !OWN_METADATA.has(key)))
    if (Object.keys(metadata).length > 0) message.metadata = metadata
    out.push(message)
  }
  return out
}

function uiIdOf(turn: Turn): string {
  // A streamed turn keeps the server's message id in its metadata; a loaded one is named by it.
  const streamed = turn.metadata.messageId
  return typeof streamed === 'string' ? streamed : turn.id
}

function fromPart(part: { type: string; [key: string]: unknown }): { type: string; props: Record<string, unknown> } {
  const { type, ...rest } = part
  if (type === 'text' || type === 'reasoning') {
    const { text, ...others } = rest
    return { type, props: { content: text, ...others } }
  }
  if (type === 'dynamic-tool') {
    const { toolName, ...others } = rest
    return { type: 'tool', props: { name: toolName, dynamic: true, ...others } }
  }
  if (type.startsWith('tool-')) return { type: 'tool', props: { name: type.slice('tool-'.length), ...rest } }
  return { type, props: rest }
}

function toPart(message: Message): { type: string; [key: string]: unknown } {
  const { props } = message
  if (message.type === 'text' || message.type === 'reasoning') {
    const { content, ...others } = props
    return { type: message.type, text: typeof content === 'string' ? content : String(content ?? ''), ...others }
  }
  if (message.type === 'tool') {
    const { name, dynamic, ...others } = props
    return dynamic === true ? { type: 'dynamic-tool', toolName: name, ...others } : { type: `tool-${String(name)}`, ...others }
  }
  return { type: message.type, ...props }
}

function sourceOf(part: { type: string; [key: string]: unknown }): Source | undefined {
  if (part.type === 'source-url' && typeof part.url === 'string') {
    return { id: typeof part.sourceId === 'string' ? part.sourceId : part.url, kind: 'url', url: part.url, ...(typeof part.title === 'string' ? { title: part.title } : {}) }
  }
  if (part.type === 'source-document' && typeof part.sourceId === 'string') {
    return {
      id: part.sourceId, kind: 'document',
      ...(typeof part.title === 'string' ? { title: part.title } : {}),
      ...(typeof part.mediaType === 'string' ? { mediaType: part.mediaType } : {}),
      ...(typeof part.filename === 'string' ? { filename: part.filename } : {}),
    }
  }
  return undefined
}

function messageProblem(raw: unknown): string | undefined {
  if (!isRecord(raw)) return 'not an object'
  if (typeof raw.id !== 'string' || raw.id === '' || !isSafeKey(raw.id)) return `the id ${JSON.stringify(raw.id)} cannot be used`
  if (raw.role !== 'user' && raw.role !== 'assistant' && raw.role !== 'system') return `unknown role ${JSON.stringify(raw.role)}`
  if (!Array.isArray(raw.parts)) return 'no parts list'
  for (const part of raw.parts) if (!isRecord(part) || typeof part.type !== 'string') return 'a part without a type'
  return undefined
}
