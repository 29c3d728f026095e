/**
 * `text-*` and `reasoning-*` parts. A text part may hold `<think>` tags: it then
 * becomes several messages in order (reasoning, answer, ...), so tag text never
 * shows in an answer. Every reasoning span also gets a timeline row.
 */
import type { MessagePlace, Op } from '../../core/ops'
import type { StreamContext } from './stream-context'
import { ThinkTagSplitter, type ThinkPiece } from './think-tags'

type Side = 'text' | 'reasoning'

/** One message a text part writes into. */
interface Segment {
  id: string
  kind: Side
  empty: boolean
}

interface TextPart {
  base: string
  blockId: string | undefined
  splitter: ThinkTagSplitter
  current: Segment
  count: number
  sawReasoning: boolean
}

interface ReasoningPart {
  messageId: string
  blockId: string | undefined
}

/**
 * The text and reasoning parts of one stream.
 *
 * @example
 * const parts = createTextParts(stream)
 * parts.textStart('t1'); parts.textDelta('t1', 'Hi', chunk); parts.textEnd('t1', chunk)
 */
export interface TextParts {
  textStart(id: string): Op[]
  textDelta(id: string, delta: string, raw: unknown): Op[]
  textEnd(id: string, raw: unknown): Op[]
  reasoningStart(id: string): Op[]
  reasoningDelta(id: string, delta: string, raw: unknown): Op[]
  reasoningEnd(id: string, raw: unknown): Op[]
  /** End every open part (at `finish-step`, `finish` and the end of the stream). */
  endAll(): Op[]
  /** Forget the parts a reset step opened; their messages leave with the step's block. */
  forgetStep(blockId: string): void
}

/**
 * Make the text and reasoning handling for one stream.
 *
 * @example
 * const parts = createTextParts(createStreamContext({ turnId: 't1', scope: 't1' }))
 */
export function createTextParts(stream: StreamContext): TextParts {
  const texts = new Map<string, TextPart>()
  const reasonings = new Map<string, ReasoningPart>()
  // The AI SDK reuses part ids across steps; each start is a new message.
  const textStarts = new Map<string, number>()
  const reasoningStarts = new Map<string, number>()

  function nextMessageId(kind: Side, wireId: string): string {
    const uses = kind === 'text' ? textStarts : reasoningStarts
    const n = (uses.get(wireId) ?? 0) + 1
    uses.set(wireId, n)
    const id = stream.scoped(kind, wireId)
    return n === 1 ? id : `${id}~${n}`
  }

  const at = (blockId: string | undefined, messageId: string, type: Side): MessagePlace & { type: string } =>
    ({ turnId: stream.turnId, messageId, type, role: 'assistant', blockId })

  const reasonRow = (id: string, status: 'start' | 'done'): Op => ({
    op: 'trace.node', turnId: stream.turnId,
    node: status === 'start' ? { id, kind: 'reason', label: 'Reasoning', status, parentId: stream.step?.blockId } : { id, status },
  })

  function textStart(wireId: string): Op[] {
    const ops = texts.has(wireId) ? endText(wireId) : []
    const base = nextMessageId('text', wireId)
    const blockId = stream.step?.blockId
    texts.set(wireId, {
      base, blockId, splitter: new ThinkTagSplitter(), current: { id: base, kind: 'text', empty: true }, count: 1, sawReasoning: false,
    })
    ops.push({ op: 'message.put', ...at(blockId, base, 'text'), props: { content: '' }, status: 'streaming' })
    return ops
  }

  function textDelta(wireId: string, delta: string, raw: unknown): Op[] {
    const ops: Op[] = []
    let part = texts.get(wireId)
    if (!part) {
      ops.push(stream.problem(`text-delta for "${wireId}" came before its text-start; the part was started`, raw, 'repaired'))
      ops.push(...textStart(wireId))
      part = texts.get(wireId) as TextPart
    }
    for (const piece of part.splitter.push(delta)) write(part, piece, ops)
    return ops
  }

  function write(part: TextPart, piece: ThinkPiece, ops: Op[]): void {
    const current = part.current
    if (piece.kind === 'orphan-close') {
      // A `</think>` without its opening tag (a template that pre-fills `<think>`):
      // everything the part said so far was reasoning.
      if (!part.sawReasoning && part.count === 1 && current.kind === 'text' && !current.empty) {
        ops.push(
          { op: 'message.delta', ...at(part.blockId, current.id, 'reasoning'), action: 'set', path: '', value: {}, retype: true },
          { op: 'message.finish', messageId: current.id, status: 'done' },
          reasonRow(current.id, 'start'),
          reasonRow(current.id, 'done'),
        )
        current.kind = 'reasoning'
        part.sawReasoning = true
      }
      return
    }
    if (piece.kind === 'reasoning') part.sawReasoning = true
    if (current.kind !== piece.kind) {
      if (current.empty) {
        ops.push({ op: 'message.delta', ...at(part.blockId, current.id, piece.kind), action: 'set', path: 'content', value: '', retype: true })
        current.kind = piece.kind
      } else {
        ops.push(...closeSegment(current))
        const id = `${part.base}#${++part.count}`
        part.current = { id, kind: piece.kind, empty: true }
        ops.push({ op: 'message.put', ...at(part.blockId, id, piece.kind), props: { content: '' }, status: 'streaming' })
      }
      if (piece.kind === 'reasoning') ops.push(reasonRow(part.current.id, 'start'))
    }
    ops.push({ op: 'message.delta', ...at(part.blockId, part.current.id, piece.kind), action: 'append', path: 'content', value: piece.text })
    part.current.empty = false
  }

  function closeSegment(segment: Segment): Op[] {
    const ops: Op[] = [{ op: 'message.finish', messageId: segment.id, status: 'done' }]
    if (segment.kind === 'reasoning') ops.push(reasonRow(segment.id, 'done'))
    return ops
  }

  function endText(wireId: string): Op[] {
    const part = texts.get(wireId)
    if (!part) return []
    texts.delete(wireId)
    const ops: Op[] = []
    for (const piece of part.splitter.flush()) write(part, piece, ops)
    ops.push(...closeSegment(part.current))
    return ops
  }

  function textEnd(wireId: string, raw: unknown): Op[] {
    if (!texts.has(wireId)) return [stream.problem(`text-end for "${wireId}", which is not open`, raw, 'invalid')]
    return endText(wireId)
  }

  function reasoningStart(wireId: string): Op[] {
    const ops = reasonings.has(wireId) ? endReasoning(wireId) : []
    const messageId = nextMessageId('reasoning', wireId)
    const blockId = stream.step?.blockId
    reasonings.set(wireId, { messageId, blockId })
    ops.push(
      { op: 'message.put', ...at(blockId, messageId, 'reasoning'), props: { content: '' }, status: 'streaming' },
      reasonRow(messageId, 'start'),
    )
    return ops
  }

  function reasoningDelta(wireId: string, delta: string, raw: unknown): Op[] {
    const ops: Op[] = []
    let part = reasonings.get(wireId)
    if (!part) {
      ops.push(stream.problem(`reasoning-delta for "${wireId}" came before its reasoning-start; the part was started`, raw, 'repaired'))
      ops.push(...reasoningStart(wireId))
      part = reasonings.get(wireId) as ReasoningPart
    }
    ops.push({ op: 'message.delta', ...at(part.blockId, part.messageId, 'reasoning'), action: 'append', path: 'content', value: delta })
    return ops
  }

  function endReasoning(wireId: string): Op[] {
    const part = reasonings.get(wireId)
    if (!part) return []
    reasonings.delete(wireId)
    return [{ op: 'message.finish', messageId: part.messageId, status: 'done' }, reasonRow(part.messageId, 'done')]
  }

  function reasoningEnd(wireId: string, raw: unknown): Op[] {
    if (!reasonings.has(wireId)) return [stream.problem(`reasoning-end for "${wireId}", which is not open`, raw, 'invalid')]
    return endReasoning(wireId)
  }

  return {
    textStart,
    textDelta,
    textEnd,
    reasoningStart,
    reasoningDelta,
    reasoningEnd,
    endAll() {
      const ops: Op[] = []
      for (const wireId of [...texts.keys()]) ops.push(...endText(wireId))
      for (const wireId of [...reasonings.keys()]) ops.push(...endReasoning(wireId))
      return ops
    },
    forgetStep(blockId) {
      for (const [wireId, part] of texts) if (part.blockId === blockId) texts.delete(wireId)
      for (const [wireId, part] of reasonings) if (part.blockId === blockId) reasonings.delete(wireId)
    },
  }
}
