/**
 * What an inspector holds, as plain data: per turn, the requests its runs made,
 * the frames as they arrived with the ops each became, how each run ended, and
 * what the store says of the turn (timing, usage, problems). Plain data so it
 * crosses Storybook's channel and saves as JSON as it is.
 */
import type { TapRequestKind } from '../core/client/inspector-tap'
import type { RunPhase } from '../core/client/run-state'
import type { WeftError } from '../core/model/errors'
import type { ProtocolName, TurnStatus } from '../core/model/model'
import type { Op } from '../core/model/ops'
import type { RequestTrigger } from '../core/protocol/request'
import type { TokenUsage, TurnTiming } from '../core/model/usage'

/**
 * One request a turn's runs made (the first, a reconnect, an attach).
 *
 * @example
 * const first: InspectedRequest | undefined = inspector.getSnapshot().turns[0]?.requests[0]
 */
export interface InspectedRequest {
  /** Which request of the turn, from 0. */
  index: number
  kind: TapRequestKind
  trigger?: RequestTrigger
  runId?: string
  /** Without user info or secret-looking query parameters. */
  url: string
  method: string
  /** The body as sent, as text (a `FormData` or `Blob` described); absent when there was none. */
  body?: string
  /** By name; secret-looking names' values are `[redacted]`. */
  headers: Record<string, string>
  lastEventId?: string
  /** When it was sent, on the client's clock. */
  at: number
}

/**
 * One frame as it arrived, and what it became.
 *
 * @example
 * const frame: InspectedFrame | undefined = inspector.getSnapshot().turns[0]?.frames[0]
 */
export interface InspectedFrame {
  /** Which frame of the turn, from 0 (dropped frames count). */
  index: number
  /** The request whose response carried it. */
  request: number
  /** When it arrived, on the client's clock. */
  at: number
  /** Milliseconds since the turn's first request. */
  offsetMs: number
  id?: string
  event?: string
  retry?: number
  /** The data exactly as it arrived (shown as text, never as markup). */
  data: string
  /** The ops the client folded from it. */
  ops: readonly Op[]
  /** How many of them are problems. */
  problems: number
}

/**
 * How one run of the turn ended.
 *
 * @example
 * const ended: InspectedEnd | undefined = inspector.getSnapshot().turns[0]?.ends[0]
 */
export interface InspectedEnd {
  outcome: RunPhase
  error?: WeftError
  at: number
}

/**
 * Everything the inspector knows of one turn.
 *
 * @example
 * const turn: InspectedTurn | undefined = inspector.getSnapshot().turns.at(-1)
 */
export interface InspectedTurn {
  turnId: string
  protocol?: ProtocolName
  status?: TurnStatus
  requests: readonly InspectedRequest[]
  /** The kept frames, oldest first. */
  frames: readonly InspectedFrame[]
  /** Frames past the per-turn limit: counted, not kept. */
  droppedFrames: number
  ends: readonly InspectedEnd[]
  timing?: TurnTiming
  usage?: TokenUsage
  /** The turn's problems and its error, as the store holds them. */
  problems: readonly WeftError[]
  error?: WeftError
}

/**
 * What `getSnapshot()` returns: the turns seen, oldest first. The same object until something changes.
 *
 * @example
 * const { turns, droppedTurns } = inspector.getSnapshot()
 */
export interface InspectorSnapshot {
  turns: readonly InspectedTurn[]
  /** Turns forgotten past the inspector's turn limit. */
  droppedTurns: number
  /** The frame limit per turn. */
  maxFramesPerTurn: number
}

/**
 * A snapshot with nothing in it.
 *
 * @example
 * const [snapshot, setSnapshot] = useState<InspectorSnapshot>(EMPTY_SNAPSHOT)
 */
export const EMPTY_SNAPSHOT: InspectorSnapshot = { turns: [], droppedTurns: 0, maxFramesPerTurn: 0 }
