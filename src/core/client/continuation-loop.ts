/**
 * The gate and client-tool loop: after a run, execute the client tools it
 * called, carry the person's gate answers and the tools' results in the next
 * request, and go on while nothing waits for the person (at most `maxSteps`
 * requests in a row). A stop withdraws what has not left yet.
 */
import { toWeftError, weftError, type WeftError } from '../model/errors'
import type { Gate, ProtocolName } from '../model/model'
import type { Op } from '../model/ops'
import type { GateAnswerEntry } from '../protocol/request'
import type { ProtocolDefinition } from '../protocol/types'
import { candidatesOf, findProtocol } from '../protocol/resolve'
import type { StreamRequest } from '../transport/open-stream'
import { isRecord, own } from '../util/record'
import type { ClientContext } from './context'
import { answerOps, checkGateResponse, isActionReview, reopenOps, type AnswerResult, type GateResponse } from './gates'
import { isSettled } from './run-state'
import { turnSettled } from './tool-calls'
import { runTurn } from './turn-runner'

/**
 * The answers and tool results a client owes its server, and the loop that sends them.
 *
 * @example
 * const loop = new ContinuationLoop(context)
 * await loop.answer(gate.id, { approved: true })
 */
export class ContinuationLoop {
  /** The continuation each turn is sending, so an answer that another caller sent still learns its result. */
  private readonly continuing = new Map<string, Promise<WeftError | undefined>>()
  /** Answers and tool results per turn that no request has carried yet. */
  private readonly unsent = new Map<string, GateAnswerEntry[]>()
  /** Per turn, how to take back the UI's tool results that no request has carried yet (see `respond.ts`). */
  private readonly undo = new Map<string, Op[]>()
  private continuations = 0
  /** Counts stops: an answer or a tool result still on its way to a request is withdrawn when it moves on. */
  private stops = 0

  constructor(private readonly ctx: ClientContext) {}

  /** True while the turn owes its server answers or tool results, or a continuation of it is on its way. */
  busy(turnId: string): boolean {
    return this.unsent.has(turnId) || this.continuing.has(turnId)
  }

  /** The person stopped: what has not left yet is withdrawn when the loop next moves. */
  stopped(): void {
    this.stops += 1
  }

  /** Answer a gate (see `AgentClient.answer`). */
  async answer(gateId: string, response: GateResponse): Promise<AnswerResult> {
    const { store, driver } = this.ctx
    const state = store.getState()
    const checked = checkGateResponse(state, gateId, response)
    if ('error' in checked) return { ok: false, error: checked.error }
    const { gate } = checked
    const hostRoute = gate.url !== undefined || this.protocolOf(own(state.turns, gate.turnId)?.protocol)?.gateAnswers === 'host'
    const continueGate = this.ctx.options.continueGate
    if (hostRoute && !continueGate) {
      return refused('this gate is answered at a URL the server named; give the client a continueGate function to send it there')
    }
    state.dispatch(answerOps(state, gate, response))
    if (hostRoute) return this.continueThroughHost(gate, response)
    const pending = this.unsent.get(gate.turnId) ?? []
    const payload = isRecord(gate.payload) ? gate.payload : {}
    pending.push({
      gateId: gate.id, kind: isActionReview(gate) ? 'action-review' : gate.kind, response,
      interruptId: typeof payload.id === 'string' ? payload.id : typeof payload.approvalId === 'string' ? payload.approvalId : gate.id,
    })
    this.unsent.set(gate.turnId, pending)
    const epoch = this.stops
    // Answered while its run is still closing (the stream's end, a reconnect): the answer goes on
    // once that run settles, and its result is the continuation's, whoever sends it.
    // Answered while a run is open, its own closing or another turn's: the answer goes on once
    // that run settles. Another turn's loop may start a further run first, so wait for each,
    // and say yes only once a request carried the answer (or a stop withdrew it).
    let failure: WeftError | undefined
    for (;;) {
      const active = driver.active
      if (active && !isSettled(active.phase)) await active.done
      failure = (await this.proceed(gate.turnId, epoch)) ?? (await this.continuing.get(gate.turnId))
      if (failure || !driver.busy || !this.unsent.has(gate.turnId) || this.stops !== epoch) break
    }
    return failure ? { ok: false, error: failure } : { ok: true }
  }

  /**
   * Carry a tool result the UI gave (already shown in the store) in the turn's
   * next request and go on, as a client tool's result would; `undo` takes it back
   * if a stop withdraws it before it leaves.
   */
  async carry(turnId: string, undo: readonly Op[]): Promise<WeftError | undefined> {
    this.unsent.set(turnId, this.unsent.get(turnId) ?? [])
    this.undo.set(turnId, [...(this.undo.get(turnId) ?? []), ...undo])
    const epoch = this.stops
    const closing = this.ctx.driver.active
    if (closing?.turnId === turnId && !isSettled(closing.phase)) await closing.done
    return (await this.proceed(turnId, epoch)) ?? (await this.continuing.get(turnId))
  }

  /**
   * After a run: execute the client tools it called, then go on while nothing
   * waits for the user, at most `maxSteps` requests in a row. A turn the person
   * stopped goes on only with an answer they gave after stopping; a stop after
   * `epoch` withdraws what has not left yet.
   */
  async proceed(turnId: string, epoch = this.stops): Promise<WeftError | undefined> {
    const { store, driver, tools } = this.ctx
    const max = Math.max(0, this.ctx.options.maxSteps ?? 5)
    for (let steps = 0; ; steps++) {
      if (this.stops !== epoch) return this.stoppedAt(turnId, steps)
      if (driver.busy) return undefined
      const turn = own(store.getState().turns, turnId)
      const stopped = turn?.status === 'aborted' && this.unsent.has(turnId)
      if (!turn || (turn.status !== 'done' && !stopped)) return undefined
      const ran = stopped ? false : await tools.settle(turnId, this.ctx.options.tools)
      if (this.stops !== epoch) return this.stoppedAt(turnId, steps)
      if (ran === 'stopped') return undefined
      if (ran) this.unsent.set(turnId, this.unsent.get(turnId) ?? [])
      const answers = this.unsent.get(turnId)
      if (!answers || !turnSettled(store.getState(), turnId)) return undefined
      if (steps >= max) {
        const error = weftError('validation', `stopped after ${max} automatic requests in a row (maxSteps)`, { code: 'max_steps', retryable: false })
        store.getState().dispatch([{ op: 'problem', turnId, error }])
        return undefined
      }
      this.unsent.delete(turnId)
      this.undo.delete(turnId)
      const continuation = runTurn(this.ctx, {
        turnId, input: undefined, trigger: 'continue', answers, scope: this.nextScope(turnId),
        opening: [{ op: 'turn.open', turnId, role: 'assistant' }],
      })
      this.continuing.set(turnId, continuation)
      const failure = await continuation
      if (this.continuing.get(turnId) === continuation) this.continuing.delete(turnId)
      if (failure) {
        this.reopenGates(turnId, answers, failure)
        return failure
      }
    }
  }

  /** The definition a turn's protocol name stands for, as this client would resolve it; `undefined` when none is known. */
  private protocolOf(name: ProtocolName | undefined): ProtocolDefinition | undefined {
    return findProtocol(name, candidatesOf(this.ctx.options))
  }

  private nextScope(turnId: string): string {
    return `${turnId}~${++this.continuations}`
  }

  /**
   * A stop while the loop goes on: what has not left is withdrawn. The caller hears
   * "stopped" only when its answers had not left yet (no request made); after a
   * request carried them, the stop ended that request's answer, not theirs.
   */
  private stoppedAt(turnId: string, steps: number): WeftError | undefined {
    const error = this.withdraw(turnId)
    return steps === 0 ? error : undefined
  }

  /**
   * The person stopped before their answers reached a request: nothing is sent,
   * and the gates they answered are pending again rather than showing a yes that
   * went nowhere. Their choice, so no problem is recorded.
   */
  private withdraw(turnId: string): WeftError {
    const error = weftError('validation', 'stopped before the answer was sent', { code: 'stopped', retryable: false })
    const answers = this.unsent.get(turnId) ?? []
    this.unsent.delete(turnId)
    const state = this.ctx.store.getState()
    const ops: Op[] = [...(this.undo.get(turnId) ?? [])]
    this.undo.delete(turnId)
    for (const answer of answers) {
      const gate = own(state.gates, answer.gateId)
      if (gate && gate.status !== 'pending') ops.push(...reopenOps(state, gate, error).filter((op) => op.op !== 'problem'))
    }
    if (ops.length > 0) state.dispatch(ops)
    return error
  }

  /** The continuation was refused: the gates it carried are pending again, with the error on the turn. */
  private reopenGates(turnId: string, answers: readonly GateAnswerEntry[], error: WeftError): void {
    const state = this.ctx.store.getState()
    const ops: Op[] = [{ op: 'turn.finish', turnId, status: 'done' }]
    for (const answer of answers) {
      const gate = own(state.gates, answer.gateId)
      if (gate) ops.push(...reopenOps(state, gate, error))
    }
    // Tool results alone reopen no gate: the turn still says why they were not sent.
    if (ops.length === 1 && error.code === 'off_path') ops.push({ op: 'problem', turnId, error })
    state.dispatch(ops)
  }

  /** A gate answered at a URL the server named: the host's `continueGate` sends it, and its stream (if any) continues the turn. */
  private async continueThroughHost(gate: Gate, response: unknown): Promise<AnswerResult> {
    const { options, hostCalls, store } = this.ctx
    const continueGate = options.continueGate
    if (!continueGate) return refused('no continueGate function')
    const controller = new AbortController()
    hostCalls.add(controller)
    let request: Omit<StreamRequest, 'signal' | 'fetch'> | void
    try {
      const fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis)
      request = await continueGate(gate, response, { fetch: fetchImpl, signal: controller.signal })
    } catch (thrown) {
      const error = toWeftError(thrown, 'network')
      const state = store.getState()
      state.dispatch(reopenOps(state, gate, error))
      return { ok: false, error }
    } finally {
      hostCalls.delete(controller)
    }
    if (!request) return { ok: true }
    const failure = await runTurn(this.ctx, {
      turnId: gate.turnId, input: undefined, trigger: 'continue', request, scope: this.nextScope(gate.turnId),
      opening: [{ op: 'turn.open', turnId: gate.turnId, role: 'assistant' }],
    })
    if (failure) {
      this.reopenGates(gate.turnId, [{ gateId: gate.id, kind: gate.kind, response }], failure)
      return { ok: false, error: failure }
    }
    return { ok: true }
  }
}

/** A refused action's result: a `validation` error that retrying would not change. */
export function refused(message: string): { ok: false; error: WeftError } {
  return { ok: false, error: weftError('validation', message, { retryable: false }) }
}
