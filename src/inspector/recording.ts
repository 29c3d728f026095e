/**
 * A turn the inspector saw, as the fixture `weft/testing` replays: the frames it
 * folded, in order, each with the wait before it, in the recorder's format and
 * under its secret rules (no request headers, no secret-looking query parameters).
 */
import { scrubUrl } from '../core/util/secret-names'
import { fixtureFrameOf, type AgentFixture, type FixtureFrame } from '../testing/frames'
import type { InspectedTurn } from './snapshot'

/**
 * Options of `inspector.recording(turnId)`.
 *
 * @example
 * const fixture = inspector.recording(turnId, { name: 'renewal-bug', title: 'The renewal answer cut short' })
 */
export interface RecordingOptions {
  /** The fixture's name (default `turn-<id>`, made URL-safe). */
  name?: string
  /** Default: the first request's method and path. */
  title?: string
}

/**
 * The turn's frames as a fixture. A turn that reconnected is saved as the one
 * stream it folded (a replayed frame the client skipped is not in it); a turn
 * whose connection was lost for good ends `drop`.
 *
 * @example
 * const fixture = toRecording(inspector.getSnapshot().turns[0]!)
 */
export function toRecording(turn: InspectedTurn, options: RecordingOptions = {}): AgentFixture {
  const first = turn.requests[0]
  let last = first?.at ?? turn.frames[0]?.at ?? 0
  const frames: FixtureFrame[] = turn.frames.map((inspected) => {
    const delayMs = Math.max(0, Math.round(inspected.at - last))
    last = inspected.at
    const frame = fixtureFrameOf({
      data: inspected.data,
      ...(inspected.id !== undefined ? { id: inspected.id } : {}),
      ...(inspected.event !== undefined ? { event: inspected.event } : {}),
      ...(inspected.retry !== undefined ? { retry: inspected.retry } : {}),
    })
    return delayMs > 0 ? { ...frame, delayMs } : frame
  })
  const url = first ? scrubUrl(first.url) : undefined
  const ending = turn.ends[turn.ends.length - 1]
  const lost = turn.droppedFrames > 0 || (ending !== undefined && ending.outcome !== 'done' && ending.outcome !== 'aborted' && ending.error?.type === 'network')
  return {
    protocol: turn.protocol ?? 'unknown',
    name: options.name ?? `turn-${turn.turnId}`.replace(/[^\w-]+/g, '-'),
    title: options.title ?? (first && url ? `${first.method} ${pathOf(url)}` : `Turn ${turn.turnId}`),
    frames,
    ...(lost ? { end: 'drop' as const } : {}),
    ...(first && url ? { request: { method: first.method, url } } : {}),
  }
}

function pathOf(url: string): string {
  try {
    return new URL(url, 'http://relative.invalid/').pathname
  } catch {
    return url
  }
}
