/**
 * `text-*` and `reasoning-*` parts. A text part may hold `<think>` tags: it then
 * becomes several messages in order (reasoning, answer, ...), so tag text never
 * shows in an answer. Every reasoning span also gets a timeline row.
 */
import type { MessagePlace, Op } from '../../core/index'
import { defined } from '../../protocol-kit/index'
import { chunkExtras } from './chunk-fields'
import type { StreamContext } from './stream-context'
import { ThinkTagSplitter, type ThinkPiece } from './think-tags'

type Side = 'text' | 'reasoning'
type Chunk = Record<string, unknown> & { type: string }

/** One message a text part writes into. */
interface Segment {
  id: string
  kind: Side
  empty: boolean
  /** Already finished (a `</think>` with no opening tag finishes the reasoning before it). */
  closed?: boolean
}

interface TextPart {
  base: string
  blockId: string | undefined
  splitter: ThinkTagSplitter
  current: Segment
  count: number
  sawReasoning: boolean
  /** The append of the plain tokens since the last write point, not yet handed out (see `takeHeld`). */
  held: HeldAppend | undefined
}

/** An append being gathered: the tokens of a batch reach the message in one op. */
type HeldAppend = Extract<Op, { op: 'message.delta' }> & { value: string }

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
  textStart(id: string, chunk?: Chunk): Op[]
  textDelta(id: string, delta: string, chunk: Chunk): Op[]
  textEnd(id: string, chunk: Chunk): Op[]
  reasoningStart(id: string, chunk?: Chunk): Op[]
  reasoningDelta(id: string, delta: string, chunk: Chunk): Op[]
  reasoningEnd(id: string, chunk: Chunk): Op[]
  /** End every open part (at `finish-step`, `finish` and the end of the stream). */
  endAll(): Op[]
  /** Write what open parts hold back in case a tag follows, closing nothing (a stream that ends without its end). */
  releaseAll(): Op[]
  /** Forget the parts a reset step opened; their messages leave with the step's block. */
  forgetStep(blockId: string): void
  /**
   * The appends plain tokens have gathered since the last call, in the order they
   * began. The decoder takes them before any chunk that is not a plain token, and
   * at each write point (a read's end, a release, the end), so every other op
   * keeps its place and a batch's tokens cost one op.
   */
  takeHeld(): Op[]
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
  /** Parts holding an append, in the order their appends began. */
  const holding: TextPart[] = []

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

  /**
   * What the chunk carries besides its text, kept on the message it wrote to: the
   * provider's metadata (the latest wins, as in the AI SDK), `text-end` citations,
   * and any field weft does not read, merged into `props.extra`.
   */
  function keep(place: MessagePlace & { type: string }, chunk: Chunk | undefined, ops: Op[]): void {
    if (!chunk) return
    const providerMetadata = chunk.providerMetadata ?? undefined
    const citations = chunk.type === 'text-end' ? chunk.citations : undefined
    if (providerMetadata !== undefined || citations !== undefined) {
      ops.push({ op: 'message.delta', ...place, action: 'set', path: '', value: defined({ providerMetadata, citations }) })
    }
    const extra = chunkExtras(chunk)
    if (extra) ops.push({ op: 'message.delta', ...place, action: 'merge', path: '', value: { extra } })
  }

  /** Whether a delta carries a field `keep` writes: most carry none, and then no place is built for it. */
  function carriesKept(chunk: Chunk): boolean {
    return chunk.providerMetadata != null || chunkExtras(chunk) !== undefined
  }

  function textStart(wireId: string, chunk?: Chunk): Op[] {
    const ops = texts.has(wireId) ? endText(wireId) : []
    const base = nextMessageId('text', wireId)
    const blockId = stream.step?.blockId
    texts.set(wireId, {
      base, blockId, splitter: new ThinkTagSplitter(), current: { id: base, kind: 'text', empty: true }, count: 1, sawReasoning: false,
      held: undefined,
    })
    ops.push({ op: 'message.put', ...at(blockId, base, 'text'), props: { content: '' }, status: 'streaming' })
    keep(at(blockId, base, 'text'), chunk, ops)
    return ops
  }

  function textDelta(wireId: string, delta: string, chunk: Chunk): Op[] {
    const part = texts.get(wireId)
    if (part) {
      // The token of nearly every chunk: plain text in the segment being written, nothing else on it.
      const plain = part.splitter.plain(delta)
      const kind = part.splitter.thinking ? 'reasoning' : 'text'
      if (plain !== undefined && kind === part.current.kind && !part.current.empty && !carriesKept(chunk)) {
        if (plain !== '') hold(part, plain)
        return []
      }
      return [...takeHeld(), ...splitDelta(part, wireId, delta, chunk, plain)]
    }
    return [...takeHeld(), ...splitDelta(part, wireId, delta, chunk, undefined)]
  }

  function hold(part: TextPart, text: string): void {
    if (part.held) {
      part.held.value += text
      return
    }
    part.held = {
      op: 'message.delta', turnId: stream.turnId, messageId: part.current.id, type: part.current.kind, role: 'assistant', blockId: part.blockId,
      action: 'append', path: 'content', value: text,
    }
    holding.push(part)
  }

  function takeHeld(): Op[] {
    if (holding.length === 0) return []
    const ops: Op[] = []
    for (const part of holding) {
      if (part.held) ops.push(part.held)
      part.held = undefined
    }
    holding.length = 0
    return ops
  }

  /** A token that may hold a tag, start a segment or carry fields: through the splitter, with every op. */
  function splitDelta(known: TextPart | undefined, wireId: string, delta: string, chunk: Chunk, plainSoFar: string | undefined): Op[] {
    const ops: Op[] = []
    let part = known
    if (!part) {
      ops.push(stream.problem(`text-delta for "${wireId}" came before its text-start; the part was started`, chunk, 'repaired'))
      ops.push(...textStart(wireId))
      part = texts.get(wireId) as TextPart
    }
    // `plain` has already taken a plain token in, when the caller asked it.
    const plain = known ? plainSoFar : part.splitter.plain(delta)
    if (plain === undefined) for (const piece of part.splitter.push(delta)) write(part, piece, ops)
    else if (plain !== '') write(part, { kind: part.splitter.thinking ? 'reasoning' : 'text', text: plain }, ops)
    if (carriesKept(chunk)) keep(at(part.blockId, part.current.id, part.current.kind), chunk, ops)
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
        current.closed = true
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
    // The op of nearly every token: written out, not spread from `at`, which would allocate twice.
    ops.push({
      op: 'message.delta', turnId: stream.turnId, messageId: part.current.id, type: piece.kind, role: 'assistant', blockId: part.blockId,
      action: 'append', path: 'content', value: piece.text,
    })
    part.current.empty = false
  }

  function closeSegment(segment: Segment): Op[] {
    if (segment.closed) return []
    const ops: Op[] = [{ op: 'message.finish', messageId: segment.id, status: 'done' }]
    if (segment.kind === 'reasoning') ops.push(reasonRow(segment.id, 'done'))
    return ops
  }

  function endText(wireId: string, chunk?: Chunk): Op[] {
    const part = texts.get(wireId)
    if (!part) return []
    texts.delete(wireId)
    const ops: Op[] = []
    for (const piece of part.splitter.flush()) write(part, piece, ops)
    keep(at(part.blockId, part.current.id, part.current.kind), chunk, ops)
    ops.push(...closeSegment(part.current))
    return ops
  }

  function textEnd(wireId: string, chunk: Chunk): Op[] {
    if (!texts.has(wireId)) return [stream.problem(`text-end for "${wireId}", which is not open`, chunk, 'invalid')]
    return endText(wireId, chunk)
  }

  function reasoningStart(wireId: string, chunk?: Chunk): Op[] {
    const ops = reasonings.has(wireId) ? endReasoning(wireId) : []
    const messageId = nextMessageId('reasoning', wireId)
    const blockId = stream.step?.blockId
    reasonings.set(wireId, { messageId, blockId })
    ops.push(
      { op: 'message.put', ...at(blockId, messageId, 'reasoning'), props: { content: '' }, status: 'streaming' },
      reasonRow(messageId, 'start'),
    )
    keep(at(blockId, messageId, 'reasoning'), chunk, ops)
    return ops
  }

  function reasoningDelta(wireId: string, delta: string, chunk: Chunk): Op[] {
    const ops: Op[] = []
    let part = reasonings.get(wireId)
    if (!part) {
      ops.push(stream.problem(`reasoning-delta for "${wireId}" came before its reasoning-start; the part was started`, chunk, 'repaired'))
      ops.push(...reasoningStart(wireId))
      part = reasonings.get(wireId) as ReasoningPart
    }
    ops.push({ op: 'message.delta', ...at(part.blockId, part.messageId, 'reasoning'), action: 'append', path: 'content', value: delta })
    keep(at(part.blockId, part.messageId, 'reasoning'), chunk, ops)
    return ops
  }

  function endReasoning(wireId: string, chunk?: Chunk): Op[] {
    const part = reasonings.get(wireId)
    if (!part) return []
    reasonings.delete(wireId)
    const ops: Op[] = []
    keep(at(part.blockId, part.messageId, 'reasoning'), chunk, ops)
    ops.push({ op: 'message.finish', messageId: part.messageId, status: 'done' }, reasonRow(part.messageId, 'done'))
    return ops
  }

  function reasoningEnd(wireId: string, chunk: Chunk): Op[] {
    if (!reasonings.has(wireId)) return [stream.problem(`reasoning-end for "${wireId}", which is not open`, chunk, 'invalid')]
    return endReasoning(wireId, chunk)
  }

  return {
    textStart,
    textDelta,
    textEnd,
    reasoningStart,
    reasoningDelta,
    reasoningEnd,
    endAll() {
      const ops: Op[] = takeHeld()
      for (const wireId of [...texts.keys()]) ops.push(...endText(wireId))
      for (const wireId of [...reasonings.keys()]) ops.push(...endReasoning(wireId))
      return ops
    },
    releaseAll() {
      const ops: Op[] = takeHeld()
      for (const part of texts.values()) for (const piece of part.splitter.flush()) write(part, piece, ops)
      return ops
    },
    takeHeld,
    forgetStep(blockId) {
      for (const [wireId, part] of texts) if (part.blockId === blockId) texts.delete(wireId)
      for (const [wireId, part] of reasonings) if (part.blockId === blockId) reasonings.delete(wireId)
    },
  }
}
