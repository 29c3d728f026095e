/**
 * A turn's timing, stamped by the live client: the fold is pure, so the times
 * are read here, from the client's clock, and travel as plain `turn.update` ops
 * (saved with the conversation like any other field). A run stamps when its
 * request is sent, when the first part of its answer is decoded and when its
 * turn finishes; a continuation of the turn adds a run of its own.
 */
import type { AgentState } from '../model/model'
import type { Op } from '../model/ops'
import { isTurnTiming, type RunTiming } from '../model/usage'
import { own } from '../util/record'
import type { AgentClientOptions } from './options'
import type { ActiveRun } from './run'

const systemClock = () => Date.now()

/**
 * The runs a turn's timing will hold once a new request is sent: the turn's
 * earlier runs when it continues (a gate's answer, a client tool's result), and
 * the new one, started now.
 *
 * @example
 * const stamps = startStamps(store.getState(), 'turn-1', false, options)
 */
export function startStamps(state: AgentState, turnId: string, continuing: boolean, options: AgentClientOptions): RunTiming[] {
  const timing = continuing ? own(state.turns, turnId)?.timing : undefined
  const earlier = isTurnTiming(timing) ? timing.runs.map((run) => ({ ...run })) : []
  return [...earlier, { startedAt: now(options) }]
}

/**
 * The op that writes a run's stamps onto its turn.
 *
 * @example
 * store.getState().dispatch([timingOp('turn-1', stamps)])
 */
export function timingOp(turnId: string, stamps: readonly RunTiming[]): Op {
  return { op: 'turn.update', turnId, timing: { runs: stamps.map((run) => ({ ...run })) } }
}

/**
 * Stamps for ops just decoded, read at decode time: the first part of the
 * answer (a message of the turn that is not the person's, with something in
 * it: text, reasoning, a tool call) and the turn's own finish. Returns the op to fold after them, if any.
 *
 * @example
 * const stamp = stampDecoded(run, ops); if (stamp) run.batcher.push([stamp])
 */
export function stampDecoded(run: ActiveRun, ops: readonly Op[]): Op | undefined {
  const current = run.stamps?.[run.stamps.length - 1]
  if (!current || ops.length === 0) return undefined
  let changed = false
  for (const op of ops) {
    if (current.firstTokenAt === undefined && isAnswer(op, run.turnId)) {
      current.firstTokenAt = now(run.options)
      changed = true
    } else if (op.op === 'turn.finish' && op.turnId === run.turnId) {
      current.endedAt = now(run.options)
      changed = true
    }
  }
  return changed ? timingOp(run.turnId, run.stamps!) : undefined
}

/**
 * Ops about to reach the store, with the run's end stamped when they finish its
 * turn and nothing decoded did (a stop, an error, the end of the body).
 *
 * @example
 * store.getState().dispatch(stampEnding(run, ops))
 */
export function stampEnding(run: ActiveRun, ops: readonly Op[]): readonly Op[] {
  const current = run.stamps?.[run.stamps.length - 1]
  if (!current || current.endedAt !== undefined) return ops
  if (!ops.some((op) => op.op === 'turn.finish' && op.turnId === run.turnId)) return ops
  current.endedAt = now(run.options)
  return [...ops, timingOp(run.turnId, run.stamps!)]
}

/** A part of the answer with something in it: an empty text opened for the tokens to come is not a token yet. */
function isAnswer(op: Op, turnId: string): boolean {
  if (op.op === 'message.delta') return op.turnId === turnId && op.role !== 'user' && op.value !== ''
  if (op.op === 'message.put') return op.turnId === turnId && op.role !== 'user' && op.props.content !== ''
  return false
}

function now(options: AgentClientOptions): number {
  return (options.clock ?? systemClock)()
}
