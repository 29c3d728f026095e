/**
 * Server-sent event framing: text in, frames out. Knows the SSE wire format and
 * nothing about what the frames mean.
 */
import { createParser } from 'eventsource-parser'

/**
 * One dispatched server-sent event.
 *
 * `id` is the `id:` field of this event only (an empty string means the server
 * reset the id); the id that carries over to later events is tracked by the
 * stream as `lastEventId`. `retry` is the reconnection delay the server set since
 * the previous frame, if any.
 *
 * @example
 * const frame: SSEFrame = { id: '7', event: 'message', data: '{"type":"text-delta"}' }
 */
export interface SSEFrame {
  id?: string
  event?: string
  data: string
  retry?: number
  /**
   * True for a line that is a bare JSON object or array, with no `data:` in front:
   * not an SSE field, but a line some servers send (Yao's client reads "data: {json}"
   * or raw JSON), so it is dispatched as a frame of its own instead of dropped.
   */
  bare?: true
}

/**
 * Where a frame parser sends what it reads.
 *
 * @example
 * const sink: FrameSink = { onFrame: (f) => frames.push(f), onComment: () => {} }
 */
export interface FrameSink {
  onFrame(frame: SSEFrame): void
  onComment?(text: string): void
  onRetry?(ms: number): void
}

/**
 * An incremental SSE parser fed with decoded text in arbitrary pieces.
 *
 * @example
 * const parser = createFrameParser({ onFrame: console.log })
 * parser.push('data: hel')
 * parser.push('lo\n\n') // logs { data: 'hello' }
 */
export interface FrameParser {
  push(text: string): void
}

/** The sentinel some servers (OpenAI style, AI SDK) send as the last frame. */
const DONE = '[DONE]'

/**
 * Whether a frame is the `data: [DONE]` end-of-stream sentinel.
 *
 * @example
 * isDoneFrame({ data: '[DONE]' }) // true
 */
export function isDoneFrame(frame: SSEFrame): boolean {
  // Most frames are long JSON: the length check spares a trim per frame.
  return frame.data.length <= DONE.length + 8 && frame.data.trim() === DONE
}

/**
 * Create an incremental SSE parser. Handles a leading BOM and LF, CRLF or CR line
 * ends, also when a CRLF pair is split between two pieces of text. An event whose
 * terminating blank line never arrives is never dispatched.
 *
 * @example
 * const frames: SSEFrame[] = []
 * const parser = createFrameParser({ onFrame: (f) => frames.push(f) })
 * parser.push('\uFEFFid: 1\r\ndata: a\r')
 * parser.push('\n\r\n') // frames: [{ id: '1', data: 'a' }]
 */
export function createFrameParser(sink: FrameSink): FrameParser {
  let pendingRetry: number | undefined
  let started = false
  let afterCR = false

  const parser = createParser({
    onEvent(event) {
      const frame: SSEFrame = { data: event.data }
      if (event.id !== undefined) frame.id = event.id
      if (event.event !== undefined) frame.event = event.event
      if (pendingRetry !== undefined) {
        frame.retry = pendingRetry
        pendingRetry = undefined
      }
      sink.onFrame(frame)
    },
    onRetry(ms) {
      pendingRetry = ms
      sink.onRetry?.(ms)
    },
    // Only register when wanted: the parser skips comment slicing without it.
    ...(sink.onComment ? { onComment: (text: string) => sink.onComment?.(text) } : {}),
    // Unknown fields and malformed `retry:` values are ignored, as the SSE standard asks,
    // except a line that is bare JSON: that is a frame of its own (see `SSEFrame.bare`).
    onError(error) {
      if (error.type !== 'unknown-field' || error.line === undefined) return
      const first = error.line.trimStart().charAt(0)
      if (first === '{' || first === '[') sink.onFrame({ data: error.line, bare: true })
    },
  })

  return {
    push(text) {
      if (text === '') return
      if (!started) {
        started = true
        // eventsource-parser only recognises a BOM still encoded as three Latin-1
        // characters, not the decoded U+FEFF that a TextDecoder or a file read yields.
        if (text.charCodeAt(0) === 0xfeff) text = text.slice(1)
      }
      // Normalising to LF here, remembering a CR that ended the previous piece,
      // lets an event ended by a lone CR dispatch at once instead of waiting for
      // the next piece to rule out a CRLF pair (and be lost at end of input).
      if (afterCR && text.charCodeAt(0) === 0x0a) text = text.slice(1)
      if (text === '') {
        afterCR = false
        return
      }
      afterCR = text.charCodeAt(text.length - 1) === 0x0d
      // Most servers send LF only: skip the rewrite when there is no CR at all.
      parser.feed(text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text)
    },
  }
}

/**
 * Parse a whole recorded SSE stream into frames, exactly as the wire carries
 * them: an unterminated last event is dropped, and a `data: [DONE]` frame is kept
 * (test it with `isDoneFrame`; a live stream stops there instead of yielding it).
 *
 * @example
 * parseSSEText('event: ping\ndata: {}\n\ndata: [DONE]\n\n')
 * // [{ event: 'ping', data: '{}' }, { data: '[DONE]' }]
 */
export function parseSSEText(text: string): SSEFrame[] {
  const frames: SSEFrame[] = []
  createFrameParser({ onFrame: (frame) => frames.push(frame) }).push(text)
  return frames
}
