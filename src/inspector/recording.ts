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
  /**
   * Which run of the turn (default 0, the first). A continuation (after a tool's
   * result or a gate's answer) is a run of its own, with its own request and
   * stream, so each is a fixture of its own: one fixture is one response.
   */
  run?: number
}

/**
 * How many runs the turn made: its first request and each continuation (a
 * reconnect or an attach goes on the run it joins).
 *
 * @example
 * for (let run = 0; run < runCount(turn); run++) save(toRecording(turn, { run }))
 */
export function runCount(turn: InspectedTurn): number {
  return Math.max(1, runOfRequests(turn).reduce((most, run) => Math.max(most, run + 1), 0))
}

/** The run each request belongs to: a new `request` starts one, a reconnect or an attach joins the current one. */
function runOfRequests(turn: InspectedTurn): number[] {
  let run = -1
  return turn.requests.map((request) => (request.kind === 'request' || run < 0 ? ++run : run))
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
  const run = Math.max(0, Math.floor(options.run ?? 0))
  const runs = runOfRequests(turn)
  const inRun = (request: number) => (runs[request] ?? 0) === run
  const first = turn.requests.find((_, i) => inRun(i))
  let last = first?.at ?? turn.frames.find((f) => inRun(f.request))?.at ?? 0
  const frames: FixtureFrame[] = turn.frames.filter((inspected) => inRun(inspected.request)).map((inspected) => {
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
  // The run's end: the last one before the next run's request.
  const next = turn.requests.find((_, i) => (runs[i] ?? 0) > run)?.at ?? Infinity
  const ending = [...turn.ends].reverse().find((end) => end.at <= next)
  const lost = turn.droppedFrames > 0 || (ending !== undefined && ending.outcome !== 'done' && ending.outcome !== 'aborted' && ending.error?.type === 'network')
  return {
    protocol: turn.protocol ?? 'unknown',
    name: options.name ?? `turn-${turn.turnId}${run > 0 ? `-run-${run + 1}` : ''}`.replace(/[^\w-]+/g, '-'),
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
