/**
 * Frames in, ops out: JSON parsing, protocol detection and the decoder, shared
 * by the live client and by `foldStream`.
 */
import { quote, STREAM_TRUNCATED, weftError } from '../model/errors'
import type { ProtocolName, StreamCursor } from '../model/model'
import type { Op } from '../model/ops'
import { detectProtocol } from './detect'
import { protocolProblem } from './problem'
import { candidatesOf, resolveProtocol } from './resolve'
import type { DataPart, DecodeContext, Decoder, FrameMeta, ProtocolDefinition, ProtocolInput } from './types'
import type { SSEFrame } from '../transport/frames'
import { safeJson } from '../util/values'

/** How many events to hold back while the protocol is still unknown. */
const DETECT_WINDOW = 8

/**
 * The deepest nesting of objects and arrays an event may have. Real events are a
 * few levels deep; one nested thousands deep would overflow the stack when the
 * fold copies it, so it is refused before it gets there.
 *
 * @example
 * new FrameDecoder({ turnId: 't' }).event(deeplyNested) // [a `too_deep` problem]
 */
export const MAX_EVENT_DEPTH = 100

/** Options for a `FrameDecoder`. */
export interface FrameDecoderOptions {
  turnId: string
  /** Defaults to `turnId`. */
  scope?: string
  /** Skip detection: the name of one of `protocols`, or a definition. */
  protocol?: ProtocolInput
  /** What detection chooses among, and where a name is looked up (none given: nothing can be decoded). */
  protocols?: readonly ProtocolDefinition[]
  /** Response headers, for detection. */
  headers?: Headers
  onData?: (part: DataPart) => void
  /** The run this stream answers, when known (see `DecodeContext.runId`). */
  runId?: string
  /** Tool calls earlier streams of the same turn made (see `DecodeContext.priorToolCall`). */
  priorToolCall?: DecodeContext['priorToolCall']
  /** The shared agent state before this stream (see `DecodeContext.agentState`). */
  agentState?: DecodeContext['agentState']
}

/**
 * Turns SSE frames (or already parsed events) into ops for one stream.
 *
 * @example
 * const reader = new FrameDecoder({ turnId: 't1' })
 * const ops = reader.frame({ data: '{"chunk_id":"C1","type":"text","props":{"content":"Hi"}}' })
 */
export class FrameDecoder {
  private decoder: Decoder | undefined
  private held: Array<{ event: unknown; meta: FrameMeta }> = []
  private readonly options: FrameDecoderOptions
  private afterDone = false
  private wasCut = false
  private toldNoProtocols = false

  constructor(options: FrameDecoderOptions) {
    this.options = options
    if (options.protocol) this.decoder = this.create(resolveProtocol(options.protocol, options.protocols))
  }

  /** The protocol in use, once known. */
  get protocol(): ProtocolName | undefined {
    return this.decoder?.protocol
  }

  /** True once the protocol's own terminal event (or `data: [DONE]`) arrived. */
  get ended(): boolean {
    return this.afterDone || (this.decoder?.ended ?? false)
  }

  /** True when the protocol in use ends its streams by closing the body (see `Decoder.endsAtClose`). */
  get endsAtClose(): boolean {
    return this.decoder?.endsAtClose === true
  }

  /**
   * `data: [DONE]` arrived: the stream's last frame. Whatever follows it is
   * reported as an `after_end` problem and not folded.
   */
  done(): void {
    this.afterDone = true
  }

  /** One SSE frame. Malformed JSON becomes a `problem` op; the stream goes on. */
  frame(frame: SSEFrame): Op[] {
    if (this.afterDone) return this.own(this.afterEnd(frame.data))
    let event: unknown
    try {
      event = JSON.parse(frame.data)
    } catch {
      return this.own({
        op: 'problem',
        turnId: this.options.turnId,
        error: weftError('protocol', 'a frame was not valid JSON', { detail: quote(frame.data) }),
      })
    }
    return this.parsed(event, frame)
  }

  /**
   * One frame whose data the caller already parsed into `event` (the live client
   * parses each frame once, for resume and for this).
   *
   * @example
   * const frame = { data: '{"chunk_id":"C1","type":"text","props":{"content":"Hi"}}' }
   * reader.parsed(JSON.parse(frame.data), frame)
   */
  parsed(event: unknown, frame: SSEFrame): Op[] {
    if (this.afterDone) return this.own(this.afterEnd(frame.data))
    // Nesting deeper than the limit takes more than twice as many brackets, so most
    // frames (every token's) are too short to need the walk.
    if (frame.data.length > 2 * MAX_EVENT_DEPTH && deeperThan(event, MAX_EVENT_DEPTH)) return this.own(this.tooDeep())
    return this.shallow(event, frame)
  }

  /** One event that is already parsed. */
  event(event: unknown, meta: FrameMeta = {}): Op[] {
    if (this.afterDone) return this.own(this.afterEnd(safeJson(event)))
    if (deeperThan(event, MAX_EVENT_DEPTH)) return this.own(this.tooDeep())
    return this.shallow(event, meta)
  }

  /** An event whose depth was checked. */
  private shallow(event: unknown, meta: FrameMeta): Op[] {
    if (this.decoder) return this.safeDecode(this.decoder, event, meta)
    const candidates = candidatesOf(this.options)
    if (candidates.length === 0) return this.noProtocols(event)
    this.held.push({ event, meta })
    const name = detectProtocol(candidates, { headers: this.options.headers, first: event, meta })
    const definition = name === undefined ? undefined : candidates.find((p) => p.name === name)
    if (definition) {
      const decoder = (this.decoder = this.create(definition))
      const held = this.held
      this.held = []
      return held.flatMap((h) => this.safeDecode(decoder, h.event, h.meta))
    }
    if (this.held.length < DETECT_WINDOW) return []
    const dropped = this.held.length
    this.held = []
    return [{
      op: 'problem',
      turnId: this.options.turnId,
      error: weftError('protocol', `could not tell which protocol this stream speaks; ${dropped} events set aside`, {
        detail: quote(JSON.stringify(event) ?? ''),
      }),
    }]
  }

  /** Nothing to decode with: said once, on the first event; the rest are set aside with it. */
  private noProtocols(event: unknown): Op[] {
    if (this.toldNoProtocols) return []
    this.toldNoProtocols = true
    return [{
      op: 'problem',
      turnId: this.options.turnId,
      error: weftError('validation', 'no protocols were given to decode this stream with', {
        detail: `pass \`protocols\` (e.g. \`builtInProtocols\` from \`weft/protocols\`) or \`protocol\`, or use the \`weft\` entry, which defaults to the built-in ones; first event: ${quote(JSON.stringify(event) ?? '')}`,
        retryable: false,
      }),
    }]
  }

  /** Where the stream is in the protocol's own terms (see `Decoder.cursor`). */
  cursor(): Partial<StreamCursor> {
    return this.decoder?.cursor?.() ?? {}
  }

  /** A network read ended: what the decoder gathered across its events (see `Decoder.flush`). */
  flush(): Op[] {
    const decoder = this.decoder
    if (!decoder?.flush) return []
    try {
      return decoder.flush()
    } catch (thrown) {
      return [this.crash(thrown)]
    }
  }

  /** The stream is over without its end, for good (see `Decoder.release`). */
  release(): Op[] {
    const decoder = this.decoder
    if (!decoder?.release) return []
    try {
      return decoder.release()
    } catch (thrown) {
      return [this.crash(thrown)]
    }
  }

  /** The stream closed. */
  end(reason: 'done' | 'eof'): Op[] {
    if (!this.decoder) {
      const ops: Op[] = [{ op: 'turn.finish', turnId: this.options.turnId, status: 'done' }]
      if (this.held.length > 0) {
        ops.unshift({
          op: 'problem', turnId: this.options.turnId,
          error: weftError('protocol', `the stream ended before its protocol could be told; ${this.held.length} events set aside`),
        })
      }
      return ops
    }
    // Read before `end`, which closes the protocol: a body that stops short of the protocol's
    // own end (no terminal event, no `[DONE]`) was cut off, however cleanly it closed.
    const cut = reason === 'eof' && !this.ended && !this.endsAtClose
    let ops: Op[]
    try {
      ops = this.decoder.end(reason)
    } catch (thrown) {
      ops = [{ op: 'turn.finish', turnId: this.options.turnId, status: 'done' }, this.crash(thrown)]
    }
    return cut ? this.cutShort(ops) : ops
  }

  /** True when the last `end` found the stream cut off before its protocol ended it. */
  get truncated(): boolean {
    return this.wasCut
  }

  /**
   * The turn keeps what arrived but ends `aborted`, not `done`, with a `truncated`
   * problem that says why: an answer cut short never reads as complete.
   */
  private cutShort(ops: Op[]): Op[] {
    this.wasCut = true
    const turnId = this.options.turnId
    const error = weftError('network', 'the stream ended before the agent finished; the answer may be incomplete', { code: STREAM_TRUNCATED, retryable: true })
    const out: Op[] = []
    let closed = false
    for (const op of ops) {
      if (op.op === 'turn.finish' && op.turnId === turnId && op.status === 'done') {
        out.push({ op: 'problem', turnId, error }, { ...op, status: 'aborted' })
        closed = true
      } else out.push(op)
    }
    // A decoder whose own end closed nothing (it already had, with an error or a stop) keeps its status.
    if (!closed && !ops.some((op) => op.op === 'turn.finish' && op.turnId === turnId)) out.push({ op: 'problem', turnId, error })
    return out
  }

  /**
   * A problem of a frame the decoder never sees goes after what the decoder holds
   * (its held tokens), as it would after a read's end: the order does not depend on
   * where reads ended.
   */
  private own(problem: Op): Op[] {
    return [...this.flush(), problem]
  }

  private tooDeep(): Op {
    return {
      op: 'problem',
      turnId: this.options.turnId,
      error: weftError('protocol', `an event nested deeper than ${MAX_EVENT_DEPTH} levels was refused`, { code: 'too_deep' }),
    }
  }

  private afterEnd(text: string): Op {
    return {
      op: 'problem',
      turnId: this.options.turnId,
      error: weftError('protocol', 'a frame arrived after [DONE]; it was ignored', { code: 'after_end', detail: quote(text) }),
    }
  }

  private create(definition: ProtocolDefinition): Decoder {
    const { turnId, scope = turnId, onData, runId, priorToolCall, agentState } = this.options
    return definition.create({ turnId, scope, onData, runId, priorToolCall, agentState })
  }

  private safeDecode(decoder: Decoder, event: unknown, meta: FrameMeta): Op[] {
    try {
      return decoder.decode(event, meta)
    } catch (thrown) {
      return [this.crash(thrown, event)]
    }
  }

  private crash(thrown: unknown, event?: unknown): Op {
    // Decoders should not throw; if one does, the event is reported and the stream goes on.
    const message = thrown instanceof Error ? thrown.message : String(thrown)
    return protocolProblem(this.options.turnId, `could not decode an event: ${message}`, event)
  }
}

/** True when `value` nests objects or arrays more than `limit` levels deep (never recurses past the limit). */
function deeperThan(value: unknown, limit: number): boolean {
  if (value === null || typeof value !== 'object') return false
  if (limit === 0) return true
  if (Array.isArray(value)) {
    for (const item of value) if (deeperThan(item, limit - 1)) return true
    return false
  }
  for (const key in value) {
    if (Object.prototype.hasOwnProperty.call(value, key) && deeperThan((value as Record<string, unknown>)[key], limit - 1)) return true
  }
  return false
}
