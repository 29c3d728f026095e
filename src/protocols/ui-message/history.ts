/**
 * AI SDK history: the `UIMessage[]` a chat route stores (`{id, role, metadata?, parts}`)
 * becomes one turn per message, in the shape the request builder
 * (`toUIMessages` in `ui-messages.ts`) reads back: text and reasoning keep their
 * text in `props.content`, a `tool-<name>` or `dynamic-tool` part becomes a `tool`
 * message with `props.name`, files and data parts keep their fields, each
 * `step-start` opens a step block the following parts belong to, and sources join
 * the turn's `sources` with the place they stood in. What history hands in, the
 * builder sends back, part for part.
 */
import { type HistoryBatch, historyOps, type HistoryReader, type HydratedTurn, type Op, type Source } from '../../core/index'
import { isRecord, isSafeKey, stringOf } from '../../protocol-kit/index'
import { hasCount, metadataUsage } from './usage'

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
    const steps: Op[] = []
    let step: string | undefined
    for (const [at, part] of message.parts.entries()) {
      const source = sourceOf(part)
      if (source) {
        // Where it stood, so the request builder puts it back there.
        const after = parts.at(-1)?.id
        sources.push({ ...source, place: { ...(after ? { after } : {}), ...(step ? { blockId: step } : {}) } })
        continue
      }
      if (part.type === 'step-start') {
        step = `${message.id}/step-${at}`
        steps.push({ op: 'block.open', turnId: message.id, blockId: step, kind: 'step' }, { op: 'block.close', blockId: step })
        continue
      }
      const loaded = { id: `${message.id}/${at}`, role: message.role, ...fromPart(part) }
      parts.push(loaded)
      // The part joins its step after the steps open, so the turn lists its steps in order, empty ones too.
      if (step) steps.splice(steps.length - 1, 0, { op: 'message.put', turnId: message.id, messageId: loaded.id, ...loaded, blockId: step })
    }
    // Only the server's own metadata: `messageId` is weft's name for the UIMessage id on a streamed turn.
    // Metadata that is not an object with fields, or that uses one of weft's two names, is kept whole, so it goes back as it came.
    const given = message.metadata
    const metadata = isRecord(given) && Object.keys(given).length > 0 && !('messageId' in given) && !('uiMetadata' in given)
      ? { ...given, messageId: message.id }
      : given === undefined ? { messageId: message.id } : { messageId: message.id, uiMetadata: given }
    // A stored answer's usage (the route's `totalUsage` in its metadata) shows as a streamed one's does.
    const usage = message.role === 'assistant' && isRecord(given) ? metadataUsage(given)?.usage : undefined
    batch.turns.push({
      turn: { id: message.id, role: message.role, status: 'done', protocol: 'ui-message', metadata, sources, ...(usage && hasCount(usage) ? { usage } : {}) },
      messages: parts,
    })
    if (steps.length > 0) (batch.replay ??= {})[message.id] = steps
  }
  return batch
}

function fromPart(part: { type: string; [key: string]: unknown }): { type: string; props: Record<string, unknown>; status: 'streaming' | 'done' } {
  const { type, ...rest } = part
  if (type === 'text' || type === 'reasoning') {
    // The part's state is the message's status; `partState` remembers whether the part had one at all.
    const { text, state, ...others } = rest
    return { type, props: { content: text, ...others, partState: stringOf(state) ?? null }, status: state === 'streaming' ? 'streaming' : 'done' }
  }
  if (type === 'dynamic-tool') {
    // `dynamic: false` on the wire marks a static tool part the SDK normalised to a dynamic one.
    const { toolName, dynamic, ...others } = toolFields(rest)
    return { type: 'tool', props: { ...others, name: toolName, dynamic: true, ...(dynamic === false ? { normalized: true } : {}) }, status: 'done' }
  }
  if (type.startsWith('tool-')) return { type: 'tool', props: { name: type.slice('tool-'.length), ...toolFields(rest) }, status: 'done' }
  return { type, props: rest, status: 'done' }
}

/** A stored `preliminary: false` is kept apart: a live stream's final output also says false, and the SDK leaves it out. */
function toolFields(fields: Record<string, unknown>): Record<string, unknown> {
  const { preliminary, ...rest } = fields
  if (preliminary === false) return { ...rest, preliminaryFalse: true }
  return preliminary === undefined ? rest : { ...rest, preliminary }
}

function sourceOf(part: { type: string; [key: string]: unknown }): Source | undefined {
  const providerMetadata = isRecord(part.providerMetadata) ? { providerMetadata: part.providerMetadata } : {}
  if (part.type === 'source-url' && typeof part.url === 'string') {
    return {
      id: typeof part.sourceId === 'string' ? part.sourceId : part.url, kind: 'url', url: part.url,
      ...(typeof part.title === 'string' ? { title: part.title } : {}), ...providerMetadata,
    }
  }
  if (part.type === 'source-document' && typeof part.sourceId === 'string') {
    return {
      id: part.sourceId, kind: 'document',
      ...(typeof part.title === 'string' ? { title: part.title } : {}),
      ...(typeof part.mediaType === 'string' ? { mediaType: part.mediaType } : {}),
      ...(typeof part.filename === 'string' ? { filename: part.filename } : {}),
      ...providerMetadata,
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

/**
 * The protocol's history reader (its definition's `history` slot): the AI SDK's stored `UIMessage[]` into
 * ops for the store's state, de-duplicated against what it already shows.
 *
 * @example
 * store.getState().dispatch(readUIMessageHistory(data, { state: store.getState() }))
 */
export const readUIMessageHistory: HistoryReader = (data, { state }) => historyOps(uiMessageHistory(data), state)
