/**
 * What a recorded agent stream is made of, and how it is written back as SSE bytes.
 * Shared by `streamResponse`, the MSW handlers, the recorder and the repository's mock server.
 */
import type { ProtocolName } from '../core/model/model'
import type { SSEFrame } from '../core/transport/frames'

/** One SSE event (or comment) as a server writes it. */
export interface FixtureFrame {
  /** Payload: an object is JSON-encoded, a string is written as is (may hold newlines). */
  data?: unknown
  /** `id:` line (last event id). */
  id?: string
  /** `event:` line (event name). */
  event?: string
  /** `: comment` line, e.g. a keepalive. */
  comment?: string
  /** `retry:` line (reconnect delay in ms). */
  retry?: number
  /** Wait before this frame, in milliseconds (a recording's own rhythm). */
  delayMs?: number
}

/**
 * The five protocols weft ships fixtures for, whose servers the resume replies
 * play, and that the Storybook decorator's protocol control offers.
 *
 * @example
 * const protocol: BuiltInProtocol = 'ag-ui'
 */
export type BuiltInProtocol = 'yao' | 'ui-message' | 'ag-ui' | 'vocion' | 'langgraph'

/**
 * The protocol a fixture speaks: a built-in one, or the name a host's own
 * protocol is known by (its definition's `name`).
 *
 * @example
 * const shipped: FixtureProtocol = 'vocion'
 * const hosts: FixtureProtocol = 'lines' // a protocol of the host's own
 */
export type FixtureProtocol = BuiltInProtocol | (ProtocolName & {})

/**
 * A recorded stream: plain JSON a host can copy, edit and check in.
 *
 * @example
 * const fixture: AgentFixture = {
 *   protocol: 'vocion', name: 'hello', title: 'Says hello',
 *   frames: [{ data: { type: 'response_delta', delta: 'Hello' } }, { data: { type: 'done' } }],
 * }
 */
export interface AgentFixture {
  protocol: FixtureProtocol
  /** URL-safe name, unique within the protocol. */
  name: string
  /** What the stream shows, for pickers and listings. */
  title: string
  frames: FixtureFrame[]
  /** Response headers the server sent (a protocol marker, the content type); never secrets. */
  headers?: Record<string, string>
  /** `drop`: the connection was lost after the last frame instead of ending cleanly. */
  end?: 'clean' | 'drop'
  /** Where the recording came from (method and URL, secrets removed). */
  request?: { method: string; url: string }
}

/**
 * A frame as it was read, as a fixture keeps it: its id, event name and retry,
 * and its data parsed when it is a JSON object or array (any other data keeps its exact text).
 *
 * @example
 * fixtureFrameOf({ id: '3', data: '{"type":"done"}' }) // { id: '3', data: { type: 'done' } }
 */
export function fixtureFrameOf(frame: SSEFrame): FixtureFrame {
  return {
    ...(frame.id !== undefined ? { id: frame.id } : {}),
    ...(frame.event !== undefined ? { event: frame.event } : {}),
    ...(frame.retry !== undefined ? { retry: frame.retry } : {}),
    data: parseData(frame.data),
  }
}

function parseData(text: string): unknown {
  try {
    const value: unknown = JSON.parse(text)
    // Only objects and arrays are stored parsed: a bare number or string keeps its exact bytes.
    return typeof value === 'object' && value !== null ? value : text
  } catch {
    return text
  }
}

/** SSE line ending. */
export type LineEnding = '\n' | '\r\n'

/**
 * Encodes one frame as SSE text, terminated by a blank line. Multi-line string
 * data becomes several `data:` lines, as the SSE spec requires.
 *
 * @example
 * encodeFrame({ id: '1', data: { type: 'text' } }) // 'id: 1\ndata: {"type":"text"}\n\n'
 */
export function encodeFrame(frame: FixtureFrame, eol: LineEnding = '\n'): string {
  const lines: string[] = []
  if (frame.comment !== undefined) {
    for (const line of splitLines(frame.comment)) lines.push(`: ${line}`)
  }
  if (frame.id !== undefined) lines.push(`id: ${frame.id}`)
  if (frame.event !== undefined) lines.push(`event: ${frame.event}`)
  if (frame.retry !== undefined) lines.push(`retry: ${frame.retry}`)
  if (frame.data !== undefined) {
    const text = typeof frame.data === 'string' ? frame.data : JSON.stringify(frame.data)
    for (const line of splitLines(text)) lines.push(`data: ${line}`)
  }
  if (lines.length === 0) return ''
  return lines.join(eol) + eol + eol
}

function splitLines(text: string): string[] {
  return text.split(/\r\n|\r|\n/)
}

/**
 * Cuts `bytes` into slices of 1–16 bytes, always splitting inside CRLF pairs and
 * multibyte UTF-8 sequences: the cases a streaming decoder most often gets wrong.
 *
 * @example
 * sliceBytes(new TextEncoder().encode('data: é\r\n\r\n'), seededRandom(7)).length > 1 // true
 */
export function sliceBytes(bytes: Uint8Array, random: () => number = Math.random): Uint8Array[] {
  const cuts = new Set<number>()
  for (let i = 1; i < bytes.length; i++) {
    const prev = bytes[i - 1]!
    const cur = bytes[i]!
    if (prev === 0x0d && cur === 0x0a) cuts.add(i) // between CR and LF
    if (prev >= 0xc0 && (cur & 0xc0) === 0x80) cuts.add(i) // right after a multibyte lead byte
  }
  for (let i = 0; i < bytes.length; ) {
    i += 1 + Math.floor(random() * 16)
    if (i < bytes.length) cuts.add(i)
  }
  const sorted = [...cuts].sort((a, b) => a - b)
  const slices: Uint8Array[] = []
  let start = 0
  for (const cut of sorted) {
    slices.push(bytes.subarray(start, cut))
    start = cut
  }
  slices.push(bytes.subarray(start))
  return slices
}

/**
 * A small seeded generator (mulberry32), so a random split can be replayed from its seed.
 *
 * @example
 * const random = seededRandom(42)
 * random() === seededRandom(42)() // true
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
