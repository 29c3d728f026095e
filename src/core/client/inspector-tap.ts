/**
 * What the client tells an inspector (its `inspector` option): each request a
 * run makes, each frame as it arrived with the ops the client folded from it,
 * and how the run ended. The client checks for the option once per request and
 * per frame and does nothing more without it.
 */
import type { WeftError } from '../model/errors'
import type { Op } from '../model/ops'
import type { RequestTrigger } from '../protocol/request'
import type { AgentStore } from '../store/store'
import type { SSEFrame } from '../transport/frames'
import { redactHeaders } from '../util/secret-names'
import type { RequestPlan } from './request-plan'
import type { ActiveRun } from './run'
import type { RunPhase } from './run-state'

/**
 * Why a connection was opened: the run's own request, a reconnect after the
 * stream was lost, or an attach (after a reload, or `retry()` of a parked run) from a stored handle.
 *
 * @example
 * const kind: TapRequestKind = 'reconnect'
 */
export type TapRequestKind = 'request' | 'reconnect' | 'attach'

/**
 * One request a run made, as the inspector is told of it.
 *
 * @example
 * const inspector: ClientInspector = { request: (r) => console.log(r.method, r.url, r.kind) }
 */
export interface TapRequest {
  turnId: string
  kind: TapRequestKind
  /** Why the run was started (a send, a regenerate, a continuation); absent for an attach. */
  trigger?: RequestTrigger
  /** The run the request named, when it named one. */
  runId?: string
  url: string
  method: string
  /** The body as it was sent (a string of JSON, `FormData`, a `Blob`...), or null. */
  body: BodyInit | null
  /** Request headers by name; the value of each secret-looking name is `[redacted]`. */
  headers: Record<string, string>
  /** The `Last-Event-ID` a reconnect asked to resume after. */
  lastEventId?: string
  /** When the connection was opened, on the client's clock. */
  at: number
  /** The store the run folds into (the turn's timing, usage and problems are read from it). */
  store: AgentStore
}

/**
 * One frame as it arrived, and the ops the client folded from it (the same array
 * the batcher was given: read it, never change it). A `[DONE]` frame has none.
 *
 * @example
 * const inspector: ClientInspector = { frame: ({ frame, ops }) => console.log(frame.data, ops.length) }
 */
export interface TapFrame {
  turnId: string
  frame: SSEFrame
  ops: readonly Op[]
  /** When it arrived, on the client's clock. */
  at: number
}

/**
 * How a run ended: its final phase (`parked` when a resumable stream stopped
 * reconnecting or was let go of), and the error when there was one.
 *
 * @example
 * const inspector: ClientInspector = { end: ({ outcome, error }) => console.log(outcome, error?.message) }
 */
export interface TapRunEnd {
  turnId: string
  outcome: RunPhase
  error?: WeftError
  at: number
}

/**
 * What a client's `inspector` option is: a listener told what each run does on
 * the wire. `createInspector()` of `weft/inspector` makes one that keeps it per turn.
 *
 * @example
 * const client = new AgentClient(createAgentStore(), {
 *   url: '/api/agent',
 *   inspector: { frame: ({ frame, ops }) => console.debug(frame.data, ops) },
 * })
 */
export interface ClientInspector {
  request?(request: TapRequest): void
  frame?(frame: TapFrame): void
  end?(end: TapRunEnd): void
}

const systemClock = () => Date.now()

/** Tell the inspector of a connection about to open. */
export function tapRequest(inspector: ClientInspector, run: ActiveRun, request: RequestPlan, resuming: boolean): void {
  if (!inspector.request) return
  const kind: TapRequestKind = !resuming ? 'request' : run.failures === 0 ? 'attach' : 'reconnect'
  inspector.request({
    turnId: run.turnId, kind, ...(kind !== 'attach' && run.trigger ? { trigger: run.trigger } : {}),
    ...(request.runId ?? run.requestRunId ? { runId: request.runId ?? run.requestRunId } : {}),
    url: request.url, method: request.method ?? 'GET', body: request.body ?? null, headers: redactHeaders(request.headers),
    ...(request.lastEventId !== undefined ? { lastEventId: request.lastEventId } : {}),
    at: clockOf(run), store: run.store,
  })
}

/** Tell the inspector of a frame and what it became. */
export function tapFrame(inspector: ClientInspector, run: ActiveRun, frame: SSEFrame, ops: readonly Op[]): void {
  inspector.frame?.({ turnId: run.turnId, frame, ops, at: clockOf(run) })
}

/** Tell the inspector how a run ended. */
export function tapEnd(run: ActiveRun): void {
  const end = run.options.inspector?.end
  if (!end || !isEnded(run.phase)) return
  end({ turnId: run.turnId, outcome: run.phase, ...(run.endError ? { error: run.endError } : {}), at: clockOf(run) })
}

function isEnded(phase: RunPhase): boolean {
  return phase === 'done' || phase === 'error' || phase === 'aborted' || phase === 'parked'
}

function clockOf(run: ActiveRun): number {
  return (run.options.clock ?? systemClock)()
}
