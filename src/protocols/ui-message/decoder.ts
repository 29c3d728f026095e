/**
 * The AI SDK style UI message stream: typed chunks (`start`, `text-delta`,
 * `tool-input-delta`, `data-<name>`, ...) ending with `data: [DONE]`. This file
 * reads the lifecycle and steps and hands each part kind to its own module.
 */
import { type DecodeContext, type Decoder, type DetectInput, type Op, type WeftError, weftError } from '../../core/index'
import { idOf, isRecord, isSafeKey, recordOf, stringOf, toErrorType } from '../../protocol-kit/index'
import { createDataParts } from './data-parts'
import { createStreamContext } from './stream-context'
import { createTextParts } from './text-parts'
import { createToolCalls } from './tool-calls'
import { usageOps } from './usage'

/**
 * Every chunk type the decoder reads, besides `data-<name>`.
 *
 * @example
 * UI_MESSAGE_CHUNK_TYPES.has('text-delta') // true
 */
export const UI_MESSAGE_CHUNK_TYPES: ReadonlySet<string> = new Set([
  'start', 'finish', 'abort', 'message-metadata', 'error',
  'start-step', 'finish-step', 'reset-step',
  'text-start', 'text-delta', 'text-end', 'reasoning-start', 'reasoning-delta', 'reasoning-end',
  'tool-input-start', 'tool-input-delta', 'tool-input-available', 'tool-input-error',
  'tool-output-available', 'tool-output-error', 'tool-output-denied', 'tool-approval-request', 'tool-approval-response',
  'source-url', 'source-document', 'file', 'reasoning-file', 'custom', 'interrupt',
])

/** The response header the AI SDK sets on a UI message stream. */
const MARKER_HEADER = 'x-vercel-ai-ui-message-stream'

/**
 * A decoder for one UI message stream.
 *
 * @example
 * const d = createUIMessageDecoder({ turnId: 't1', scope: 't1' })
 * d.decode({ type: 'text-start', id: 'a' }, {})
 * d.decode({ type: 'text-delta', id: 'a', delta: 'Hi' }, {})
 */
export function createUIMessageDecoder(context: DecodeContext): Decoder {
  const { turnId } = context
  const stream = createStreamContext(context)
  const texts = createTextParts(stream)
  const tools = createToolCalls(stream)
  const parts = createDataParts(stream)
  const messageMetadata: Record<string, unknown> = {}
  let steps = 0
  let ended = false
  /** How the turn ended, once it did: a later terminal chunk must not overwrite an error. */
  let outcome: 'done' | 'error' | 'aborted' | undefined

  function decode(event: unknown): Op[] {
    const type = isRecord(event) ? event.type : undefined
    // A token only adds to what its part holds (see `takeHeld`); the rest of the chunks
    // first write what the tokens and a tool's input gathered so far.
    const before = type === 'text-delta' ? [] : texts.takeHeld()
    // A chunk that is not more of a tool's input first writes the input parsed so far.
    if (type !== 'tool-input-delta') for (const op of tools.flush(isRecord(event) ? event : undefined)) before.push(op)
    const ops = decodeChunk(event)
    if (before.length === 0) return ops
    for (const op of ops) before.push(op)
    return before
  }

  function decodeChunk(event: unknown): Op[] {
    if (!isRecord(event)) return [stream.problem('a UI message chunk must be an object', event, 'invalid')]
    const type = event.type
    if (typeof type !== 'string' || type === '') return [stream.problem('a chunk without a type', event, 'missing_type')]
    switch (type) {
      case 'start':
        return metadata(event.messageMetadata, event, idOf(event.messageId))
      case 'message-metadata':
        if (event.messageMetadata === undefined) return [stream.problem('message-metadata without messageMetadata', event, 'invalid')]
        return metadata(event.messageMetadata, event)
      case 'finish':
        return finish(event)
      case 'abort':
        return terminate('aborted', event)
      case 'error':
        return terminate('error', event)
      case 'start-step':
        return startStep()
      case 'finish-step':
        return finishStep(event)
      case 'reset-step':
        return resetStep(event)
      case 'text-start':
      case 'text-delta':
      case 'text-end':
      case 'reasoning-start':
      case 'reasoning-delta':
      case 'reasoning-end':
        return textChunk(type, event)
      case 'tool-input-start':
        return tools.inputStart(event)
      case 'tool-input-delta':
        return tools.inputDelta(event)
      case 'tool-input-available':
        return tools.inputAvailable(event)
      case 'tool-input-error':
        return tools.inputError(event)
      case 'tool-output-available':
        return tools.outputAvailable(event)
      case 'tool-output-error':
        return tools.outputError(event)
      case 'tool-output-denied':
        return tools.outputDenied(event)
      case 'tool-approval-request':
        return tools.approvalRequest(event)
      case 'tool-approval-response':
        return tools.approvalResponse(event)
      case 'source-url':
        return parts.sourceUrl(event)
      case 'source-document':
        return parts.sourceDocument(event)
      case 'file':
      case 'reasoning-file':
        return parts.file(type, event)
      case 'custom':
        return parts.custom(event)
      case 'interrupt':
        return parts.interrupt(event)
      default:
        if (type.startsWith('data-') && type.length > 'data-'.length) return parts.data(type, event)
        return [stream.problem(`unknown chunk type "${type}"`, event, 'unknown_chunk')]
    }
  }

  function metadata(value: unknown, raw: unknown, messageId?: string): Op[] {
    const ops: Op[] = []
    const incoming: Record<string, unknown> = {}
    if (value !== undefined && value !== null) {
      const record = recordOf(value)
      if (record) Object.assign(incoming, record)
      else ops.push(stream.problem('messageMetadata must be an object', raw, 'invalid'))
    }
    if (messageId) incoming.messageId = messageId
    if (Object.keys(incoming).length === 0) return ops
    // Merged deeply here, as the AI SDK does; the fold's turn metadata merge is one level deep.
    const changed = mergeDeep(messageMetadata, incoming)
    const update: Record<string, unknown> = {}
    for (const key of changed) update[key] = messageMetadata[key]
    ops.push({ op: 'turn.update', turnId, metadata: update })
    for (const op of usageOps(messageMetadata, changed, turnId, (message, raw) => stream.problem(message, raw, 'invalid_usage'))) ops.push(op)
    return ops
  }

  function textChunk(type: string, event: Record<string, unknown>): Op[] {
    const id = idOf(event.id)
    if (!id) return [stream.problem(`${type} without an id`, event, 'missing_id')]
    const isDelta = type.endsWith('-delta')
    const delta = stringOf(event.delta)
    if (isDelta && delta === undefined) return [stream.problem(`${type} without a delta string`, event, 'invalid')]
    const chunk = event as Record<string, unknown> & { type: string }
    switch (type) {
      case 'text-start': return texts.textStart(id, chunk)
      case 'text-delta': return texts.textDelta(id, delta as string, chunk)
      case 'text-end': return texts.textEnd(id, chunk)
      case 'reasoning-start': return texts.reasoningStart(id, chunk)
      case 'reasoning-delta': return texts.reasoningDelta(id, delta as string, chunk)
      default: return texts.reasoningEnd(id, chunk)
    }
  }

  function startStep(): Op[] {
    const ops = closeStep('done')
    steps += 1
    const blockId = stream.scoped('step', String(steps))
    const label = `Step ${steps}`
    stream.step = { index: steps, blockId }
    ops.push(
      { op: 'block.open', turnId, blockId, kind: 'step', label },
      { op: 'trace.node', turnId, node: { id: blockId, kind: 'step', label, status: 'start' } },
    )
    return ops
  }

  function closeStep(status: 'done' | 'error'): Op[] {
    const step = stream.step
    if (!step) return []
    stream.step = undefined
    return [
      { op: 'block.close', blockId: step.blockId, status },
      { op: 'trace.node', turnId, node: { id: step.blockId, status } },
    ]
  }

  function finishStep(event: Record<string, unknown>): Op[] {
    // Like the AI SDK, a finished step closes every text and reasoning part still open.
    const ops = texts.endAll()
    if (!stream.step) ops.push(stream.problem('finish-step without a start-step', event, 'invalid'))
    ops.push(...closeStep('done'))
    return ops
  }

  function resetStep(event: Record<string, unknown>): Op[] {
    const step = stream.step
    if (!step) return [stream.problem('reset-step without a step in progress', event, 'invalid')]
    texts.forgetStep(step.blockId)
    tools.forgetStep(step.blockId)
    parts.forgetStep(step.blockId)
    return [{ op: 'block.reset', blockId: step.blockId }]
  }

  function finish(event: Record<string, unknown>): Op[] {
    const ops = [...texts.endAll(), ...metadata(event.messageMetadata, event), ...closeStep('done')]
    const finishReason = stringOf(event.finishReason)
    if (event.finishReason !== undefined && !finishReason) ops.push(stream.problem('finishReason must be text', event, 'invalid'))
    ended = true
    if (outcome) {
      if (finishReason) ops.push({ op: 'turn.update', turnId, finishReason })
      return ops
    }
    outcome = 'done'
    ops.push({ op: 'turn.finish', turnId, status: 'done', ...(finishReason ? { finishReason } : {}) })
    return ops
  }

  function terminate(status: 'error' | 'aborted', event: Record<string, unknown>): Op[] {
    // An error leaves the text and reasoning parts open, as the AI SDK does: a server
    // may go on streaming into them, and the end of the stream closes them.
    const ops = [...(status === 'error' ? [] : texts.endAll()), ...closeStep(status === 'error' ? 'error' : 'done')]
    ended = true
    const reason = stringOf(event.reason)
    if (status === 'aborted' && reason) ops.push({ op: 'turn.update', turnId, metadata: { abortReason: reason } })
    const error = status === 'error' ? streamError(event) : undefined
    if (outcome) {
      // The turn already ended; a later error is kept as a problem, never lost.
      if (error) ops.push({ op: 'problem', turnId, error })
      return ops
    }
    outcome = status
    ops.push({ op: 'turn.finish', turnId, status, ...(error ? { error } : {}) })
    return ops
  }

  return {
    protocol: 'ui-message',
    decode,
    flush: () => [...texts.takeHeld(), ...tools.flush()],
    release: () => [...texts.takeHeld(), ...tools.flush(undefined, true), ...texts.releaseAll()],
    end() {
      const ops = [...texts.takeHeld(), ...tools.flush(undefined, true), ...texts.endAll(), ...closeStep('done')]
      if (ended) return ops
      ended = true
      outcome = 'done'
      ops.push({ op: 'turn.finish', turnId, status: 'done' })
      return ops
    },
    get ended() {
      return ended
    },
  }
}

/** The typed error an `error` chunk carries (`errorType` and `errorCode` are the document's additions). */
function streamError(event: Record<string, unknown>): WeftError {
  const message = stringOf(event.errorText) || 'the agent stream reported an error'
  const code = idOf(event.errorCode)
  const type = event.errorType !== undefined ? toErrorType(event.errorType) : toErrorType(code)
  return weftError(type, message, { code })
}

/**
 * Merge `source` into `target` (objects deeply, anything else replaced) and
 * return the top-level keys that changed. Keys that could reach a prototype are skipped.
 */
function mergeDeep(target: Record<string, unknown>, source: Record<string, unknown>): string[] {
  const keys: string[] = []
  for (const key of Object.keys(source)) {
    if (!isSafeKey(key)) continue
    const incoming = source[key]
    const existing = target[key]
    if (isRecord(existing) && isRecord(incoming)) {
      const copy = { ...existing }
      mergeDeep(copy, incoming)
      target[key] = copy
    } else {
      target[key] = incoming
    }
    keys.push(key)
  }
  return keys
}

/**
 * How sure it is that a stream is an AI SDK UI message stream: its header, or a first chunk of a known type.
 *
 * @example
 * sniffUIMessage({ first: { type: 'text-delta', id: 't', delta: 'Hi' } }) // 0.9
 */
export function sniffUIMessage({ headers, first }: DetectInput): number {
  const marker = headers?.get(MARKER_HEADER)
  if (marker) return marker.trim() === 'v1' ? 1 : 0.95
  if (!isRecord(first) || typeof first.type !== 'string' || 'props' in first) return 0
  const type = first.type
  // Other protocols have an `error` event too; only this one carries `errorText`.
  if (type === 'error') return typeof first.errorText === 'string' ? 0.9 : 0
  // `custom` is a common word; only this protocol's custom part names a `kind`.
  if (type === 'custom') return typeof first.kind === 'string' ? 0.9 : 0
  if (UI_MESSAGE_CHUNK_TYPES.has(type)) return 0.9
  if (type.startsWith('data-') && 'data' in first) return 0.9
  return 0
}
