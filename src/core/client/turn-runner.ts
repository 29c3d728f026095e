/**
 * Starting and stopping runs: a turn is opened (or reopened) in the store, its
 * request is built (the protocol's builder, a host `source`, or a plan given
 * ready) and the driver streams it; `halt` ends whatever runs.
 */
import { toWeftError, weftError, type WeftError } from '../model/errors'
import { newId } from '../model/ids'
import type { AgentState, ProtocolName } from '../model/model'
import type { Op } from '../model/ops'
import { candidatesOf, protocolName, resolveProtocol } from '../protocol/resolve'
import type { GateAnswerEntry, RequestTrigger, ToolDeclaration } from '../protocol/request'
import { TurnLedger } from '../resume/ledger'
import { resolveResume } from '../resume/load-binding'
import type { TurnMemory } from '../resume/turn-memory'
import { own } from '../util/record'
import type { ClientContext } from './context'
import type { AgentClientOptions, RequestBody, SendInput, SourceBuildOptions } from './options'
import { defaultRequest, hostBody, type RequestPlan } from './request-plan'
import { abort, fail } from './run-end'
import { createRun } from './run'
import { isSettled, transition } from './run-state'
import { startStamps, timingOp } from './timing'
import { tapEnd } from './inspector-tap'

/** One request to stream into a turn. */
export interface TurnPlan {
  turnId: string
  input: SendInput | undefined
  trigger: RequestTrigger
  /** Ops that open (or reopen) the turn, and the question before it. */
  opening: Op[]
  replacing?: string
  answers?: readonly GateAnswerEntry[]
  scope?: string
  /** A request made elsewhere (a host's `continueGate`), sent as it is. */
  request?: RequestPlan
}

/** Open (or reopen) a turn and stream one request into it. Resolves with the error when the request itself failed. */
export async function runTurn(ctx: ClientContext, plan: TurnPlan): Promise<WeftError | undefined> {
  const { store, driver } = ctx
  const options = ctx.options
  // A continuation of a turn on a branch no longer shown would send a conversation without it.
  if (plan.trigger === 'continue' && !store.getState().turnIds.includes(plan.turnId)) {
    return weftError('validation', 'this answer is on a branch that is not shown; select it again to go on', { code: 'off_path', retryable: false })
  }
  // Awaited only while the resume machinery loads: otherwise the turn opens in this tick.
  let bound = resolveResume(options)
  if (bound instanceof Promise) bound = await bound
  const { binding, error: unresolved } = bound
  const previous = driver.active
  // A stream of another conversation that was only detached stays resumable there.
  if (previous?.phase === 'parked' && previous.resume && binding && previous.resume.key !== binding.key) driver.active = undefined
  halt(ctx)
  const { turnId } = plan
  // A run without resume still counts its events in a ledger; it never compares them.
  const memory: TurnMemory = binding ? binding.openMemory(store, turnId) : { ledger: new TurnLedger() }
  const stamps = startStamps(store.getState(), turnId, plan.trigger === 'continue', options)
  store.getState().dispatch([
    ...plan.opening,
    timingOp(turnId, stamps),
    { op: 'stream.status', status: 'connecting' },
    { op: 'cursor', cursor: { turnId, eventCount: 0, streamId: undefined, lastEventId: undefined, sequence: undefined, protocol: protocolName(options.protocol) } },
  ])
  const state = store.getState()
  const protocol = options.protocol ?? protocolOnPath(state, turnId)
  const runOptions = protocol && !options.protocol ? { ...options, protocol } : options
  const run = createRun(store, ctx.tools, { turnId, options: runOptions, resume: binding, memory, opened: true, fromStart: false })
  run.scope = plan.scope
  run.stamps = stamps
  run.trigger = plan.trigger
  driver.active = run
  // Building the request (a host source, a protocol's builder) is part of connecting.
  transition(run, 'connecting')
  if (unresolved) {
    fail(run, unresolved)
    tapEnd(run)
    return unresolved
  }
  let request: RequestPlan
  try {
    request = plan.request ?? (await buildRequest(ctx, plan, state, protocol, run.controller.signal))
  } catch (thrown) {
    const error = toWeftError(thrown, 'network')
    if (!isSettled(run.phase) && !run.controller.signal.aborted) fail(run, error)
    tapEnd(run)
    return error
  }
  if (run.controller.signal.aborted) return undefined
  await driver.start(run, request)
  return run.failure
}

/** The first request of a run: the host's `source`, else the protocol's body posted to `url`. */
async function buildRequest(ctx: ClientContext, plan: TurnPlan, state: AgentState, protocol: ProtocolName | AgentClientOptions['protocol'], signal: AbortSignal): Promise<RequestPlan> {
  const options = ctx.options
  const { turnId, input, trigger } = plan
  const at = state.turnIds.indexOf(turnId)
  const path = state.turnIds.slice(0, trigger === 'continue' ? at + 1 : Math.max(at, 0))
  const build = (over: SourceBuildOptions = {}): RequestBody | undefined => {
    const named = protocol ?? over.protocol
    const builder = named === undefined ? undefined : resolveProtocol(named, candidatesOf(options)).request
    return builder?.({
      state, path, turnId, trigger, conversationId: over.conversationId ?? ctx.conversationId, runId: newId('run'), input,
      tools: declareTools(options.tools), answers: plan.answers ?? [], replacing: plan.replacing,
      context: [...(options.context ?? []), ...ctx.frontendContext],
    })
  }
  if (!options.source) return defaultRequest(options, input, turnId, build(), trigger)
  const fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis)
  return options.source.open({
    input, turnId, signal, fetch: fetchImpl, dispatch: (ops) => ctx.store.getState().dispatch(ops), trigger, conversationId: ctx.conversationId,
    build: (over = {}) => {
      const built = build(over)
      return hostBody(options, input, turnId, built !== undefined && over.extend ? over.extend(built) : built, trigger)
    },
  })
}

/**
 * End whatever runs (client tools and host calls included) without withdrawing
 * answers: a new run of the client's own ends the one before. With nothing
 * running, a handle stored for the conversation goes too.
 */
export function halt(ctx: ClientContext): void {
  ctx.tools.stop()
  for (const controller of ctx.hostCalls) controller.abort()
  const run = ctx.driver.active
  if (run && abort(run)) return
  const bound = resolveResume(ctx.options)
  if (bound instanceof Promise) void bound.then(({ binding }) => binding?.clear())
  else bound.binding?.clear()
}

/** The protocol a turn speaks: its own, else the latest one named on the active path before it. */
function protocolOnPath(state: AgentState, turnId: string): ProtocolName | undefined {
  const named = own(state.turns, turnId)?.protocol
  if (named) return named
  for (let i = state.turnIds.length - 1; i >= 0; i--) {
    const protocol = own(state.turns, state.turnIds[i] as string)?.protocol
    if (protocol) return protocol
  }
  return undefined
}

function declareTools(tools: AgentClientOptions['tools']): ToolDeclaration[] {
  if (!tools) return []
  return Object.entries(tools).map(([name, tool]) => ({
    name, ...(tool.description !== undefined ? { description: tool.description } : {}), ...(tool.parameters !== undefined ? { parameters: tool.parameters } : {}),
  }))
}
