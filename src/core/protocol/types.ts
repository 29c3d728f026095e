/**
 * What a protocol decoder is: a small object with its own per-stream state that
 * turns one decoded event into ops. All protocol knowledge lives in decoders.
 */
import type { ProtocolName, StreamCursor } from '../model'
import type { Op } from '../ops'
import type { RequestBuilder } from './request'

/** The SSE fields that came with an event. */
export interface FrameMeta {
  id?: string
  event?: string
}

/** A transient data part, handed to the host and never stored. */
export interface DataPart {
  type: string
  id?: string
  data: unknown
}

/** What a decoder is told about the stream it reads. */
export interface DecodeContext {
  /** The assistant turn this stream answers. */
  turnId: string
  /**
   * Unique per stream. Protocols whose ids restart per request (Yao's `M1`)
   * prefix their ids with it, so a second answer never merges into the first.
   */
  scope: string
  /** Receives data the protocol marks as transient. */
  onData?: (part: DataPart) => void
  /**
   * The run this stream answers, when a preliminary request named it (AG-UI's
   * `202 {runId}`): a stream that replays earlier runs first is not over at
   * their end.
   */
  runId?: string
  /**
   * A tool call an earlier stream of the same turn made (the answer goes on
   * after a tool result or an approval): its message and name, so the rest of
   * the call lands on it.
   */
  priorToolCall?(toolCallId: string): { messageId: string; name: string } | undefined
}

/**
 * One protocol's reader for one stream.
 *
 * @example
 * const decoder = createYaoDecoder({ turnId: 't1', scope: 't1' })
 * const ops = decoder.decode({ chunk_id: 'C1', type: 'text', props: { content: 'Hi' } }, {})
 */
export interface Decoder {
  readonly protocol: ProtocolName
  /** Turn one event (already parsed from JSON) into ops. Never throws: bad input becomes a `problem` op. */
  decode(event: unknown, meta: FrameMeta): Op[]
  /** The stream closed (`done`: `[DONE]` arrived; `eof`: the body ended); finish what the protocol left open. */
  end(reason: 'done' | 'eof'): Op[]
  /** True once the protocol's own terminal event arrived (so an `eof` before it may be a dropped connection). */
  readonly ended: boolean
  /**
   * Where the stream is, in the protocol's own terms (Yao's sequence). Read once
   * per batch instead of an op per event.
   */
  cursor?(): Partial<StreamCursor>
}

/** Makes a decoder for one stream. */
export type DecoderFactory = (context: DecodeContext) => Decoder

/** What detection looks at. */
export interface DetectInput {
  /** Response headers, when there was a response. */
  headers?: Headers
  /** The first event, parsed. */
  first?: unknown
  /** The SSE fields of the first frame. */
  meta?: FrameMeta
}

/** One protocol as the kit registers it. */
export interface ProtocolDefinition {
  name: ProtocolName
  create: DecoderFactory
  /** How sure this protocol is that it is reading its own stream: 0 (no) to 1 (certain). */
  sniff(input: DetectInput): number
  /** Builds this protocol's own request from the active path. Without one, the client sends `{ input: <text> }`. */
  request?: RequestBuilder
}
