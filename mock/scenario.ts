/**
 * Scenario format for the mock agent server.
 *
 * A scenario is a recorded (or hand-written) SSE stream: an ordered list of
 * frames that the server writes one by one. Each protocol keeps its scenarios
 * in `mock/scenarios/<protocol>.ts` and registers them in `mock/scenarios/index.ts`.
 */

/** One SSE event (or comment) as the server writes it. */
export interface MockFrame {
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
  /** Extra wait before this frame, on top of the per-frame `delay` query option. */
  delayMs?: number
}

export interface Scenario {
  /** Wire protocol the frames speak, e.g. `yao`. Part of the URL. */
  protocol: string
  /** URL-safe name, unique within the protocol. */
  name: string
  /** Human-readable title for stories and listings. */
  title: string
  frames: MockFrame[]
  /** Extra response headers (e.g. a protocol marker header). */
  headers?: Record<string, string>
}

export type LineEnding = '\n' | '\r\n'

/**
 * Encodes one frame as SSE text, terminated by a blank line.
 * Multi-line string data becomes several `data:` lines, as the SSE spec requires.
 *
 * @example
 * encodeFrame({ id: '1', data: { type: 'text' } }, '\n')
 * // 'id: 1\ndata: {"type":"text"}\n\n'
 */
export function encodeFrame(frame: MockFrame, eol: LineEnding = '\n'): string {
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
