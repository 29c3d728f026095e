/**
 * The framework-free agent client: one `send` opens a stream, decodes it and
 * feeds the store through the batcher. With a resume strategy it also survives
 * dropped connections and page reloads. The React hooks are thin bindings over it.
 */
import { createBatcher, defaultScheduler, type Batcher } from './batcher'
import { toWeftError, weftError, WeftStreamError, type WeftError } from './errors'
import { siblingAt } from './branches'
import {
  answerOps, checkFiles, checkGateResponse, isActionReview, reopenOps, toFilePart, toolMessage, turnSettled,
  type ActionResult, type AnswerResult, type FilePart, type GateResponse,
} from './conversation'
import { ClientToolRunner } from './client-tools'
import { newId } from './ids'
import { bindStoreClient } from './store-client'
import type { AgentState, Gate, ProtocolName } from './model'
import { getProtocol, protocolName, resolveProtocol } from './protocol/registry'
import type { GateAnswerEntry, RequestTrigger, ToolDeclaration } from './protocol/request'
import type { ProtocolDefinition } from './protocol/types'
import { isRecord, own } from './util/record'
import type { HydratedTurn, Op } from './ops'
import { FrameDecoder } from './pipeline'
import type { ResumeBinding } from './resume/binding'
import { TurnLedger } from './resume/ledger'
import { preloadResume, resolveResume } from './resume/load-binding'
import type { TurnMemory } from './resume/turn-memory'
import { isSettled, transition, type RunPhase } from './run-state'
import type { HistoryResult, ReplayFilter, ReplayItem, ResumeHandle } from './resume/types'
import type { AgentStore } from './store'
import { RESUME_EXPIRED, type AgentClientOptions, type RequestBody, type SendInput, type SourceBuildOptions } from './client-options'
import { defaultRequest, hostBody, textOf, type RequestPlan } from './request-plan'
import { isDoneFrame, type SSEFrame } from './transport/frames'
import { openStream, type OpenedStream, type StreamEndReason, type StreamRequest } from './transport/open-stream'

// The options, the send input and the first request live in modules of their own; hosts import them from here.
export * from './client-options'
export type { ActionResult, AnswerResult, ApprovalResponse, AttachmentLimits, ClientTool, FilePart, GateResponse, InterruptDecision } from './conversation'
export { textOf } from './request-plan'

/** How long the client waits for more bytes after the protocol's own end before it closes the connection. */
const DEFAULT_END_GRACE_MS = 300


interface ActiveRun {
  turnId: string
  /** Settles when the run does (its stream, reconnects and end included). */
  done?: Promise<void>
  controller: AbortController
  batcher: Batcher
  /** Where the run is (see `run-state.ts`); changed only through `transition`. */
  phase: RunPhase
  options: AgentClientOptions
  memory: TurnMemory
  resume?: ResumeBinding
  /** False once the handle was cleared: nothing may write it again. */
  keepHandle: boolean
  /** The latest handle (computed, or read from storage). */
  handle?: ResumeHandle
  savedText?: string
  /** What the current reconnect asked for, so its filter can align the replay. */
  requested?: { handle: ResumeHandle; fromStart: boolean }
  streamUrl?: string
  lastEventId?: string
  /** The store holds nothing of the turn: the first reconnect asks for all of it. */
  fromStart: boolean
  /** The turn exists in the store. */
  opened: boolean
  announced: boolean
  /** Reconnects in a row that brought nothing new. */
  failures: number
  /** The server's `retry:`. */
  retryMs?: number
  /** Ids of a continuation are scoped apart from the earlier runs of the same turn. */
  scope?: string
  /** Why the first request failed, if it did. */
  failure?: WeftError
  /** The stream ended and its last batch waits for the next frame: a stop then lets it finish. */
  finishing?: boolean
}

type Outcome =
  | { kind: 'aborted' }
  | { kind: 'finished'; reason: 'done' | 'eof' }
  | { kind: 'nothing' }
  | { kind: 'lost'; error: WeftError; progressed: boolean }
  | { kind: 'expired'; error: WeftError }
  | { kind: 'failed'; error: WeftError }

const COUNT_EVERYTHING = { counted: true } as const

/**
 * Opens agent streams and folds them into a store.
 *
 * @example
 * const client = new AgentClient(createAgentStore(), { url: '/api/agent' })
 * await client.send('Hello')
 * client.stop()
 */
export class AgentClient {
  private options: AgentClientOptions
  private active: ActiveRun | undefined
  /** The continuation each turn is sending, so an answer that another caller sent still learns its result. */
  private readonly continuing = new Map<string, Promise<WeftError | undefined>>()
  /** Answers and tool results per turn that no request has carried yet. */
  private readonly unsent = new Map<string, GateAnswerEntry[]>()
  /** Runs client tools as their calls' input completes. */
  private readonly tools: ClientToolRunner
  /** Host calls in flight (`continueGate`), aborted by `stop()`. */
  private readonly toolRuns = new Set<AbortController>()
  private continuations = 0
  /** Counts `stop()` calls: an answer or a tool result still on its way to a request is withdrawn when it moves on. */
  private stops = 0
  private readonly conversationId: string
  readonly store: AgentStore

  constructor(store: AgentStore, options: AgentClientOptions) {
    this.store = store
    this.tools = new ClientToolRunner(store)
    this.options = options
    this.conversationId = options.conversationId ?? options.resume?.conversationKey ?? newId('chat')
    bindStoreClient(store, this)
    preloadFor(options)
  }

  /** Replace the options; a run in flight keeps the ones it started with. */
  setOptions(options: AgentClientOptions): void {
    this.options = options
    preloadFor(options)
  }

  /** The options the next send uses (a recorder wraps their `fetch`). */
  get currentOptions(): AgentClientOptions {
    return this.options
  }

  /** True while a request is open or a reconnect is scheduled. */
  get busy(): boolean {
    return this.active !== undefined && !isSettled(this.active.phase)
  }

  /**
   * Send one input and stream the answer into the store. Resolves when the
   * stream ends (and any client tools and the requests they lead to are done);
   * never rejects (failures land in the store as typed errors).
   */
  async send(input?: SendInput): Promise<void> {
    await this.submit(input, undefined)
  }

  /**
   * Ask again for an answer (by default the last one on the active path). The
   * old answer stays as a sibling branch.
   *
   * @example
   * await client.regenerate()
   */
  async regenerate(turnId?: string): Promise<ActionResult> {
    const state = this.store.getState()
    const targetId = turnId ?? [...state.turnIds].reverse().find((id) => own(state.turns, id)?.role === 'assistant')
    const target = targetId ? own(state.turns, targetId) : undefined
    if (!target || target.role !== 'assistant') return refused(`there is no answer${turnId ? ` "${turnId}"` : ''} to regenerate`)
    const answer = newId('turn')
    const protocol = protocolName(this.options.protocol) ?? target.protocol
    await this.runTurn({
      turnId: answer, input: undefined, trigger: 'regenerate', replacing: target.id,
      opening: [{ op: 'turn.open', turnId: answer, role: 'assistant', parentId: target.parentId ?? null, protocol }],
    })
    await this.proceed(answer)
    return { ok: true }
  }

  /**
   * Replace a question: a new user turn beside `turnId` and its answer. The old
   * question and everything after it stay on their branch.
   *
   * @example
   * await client.edit(userTurnId, 'What about Lyon?')
   */
  async edit(turnId: string, input: SendInput): Promise<ActionResult> {
    const turn = own(this.store.getState().turns, turnId)
    if (!turn || turn.role !== 'user') return refused(`"${turnId}" is not a question that can be edited`)
    return this.submit(input, turn.parentId ?? null)
  }

  /**
   * Show the sibling at `index` of `turnId` (a regenerated answer, an edited
   * question) and the branch below it. A run in flight is stopped first.
   *
   * @example
   * client.selectBranch(answerId, 0)
   */
  selectBranch(turnId: string, index: number): ActionResult {
    const sibling = siblingAt(this.store.getState(), turnId, index)
    if (!sibling) return refused(`"${turnId}" has no branch ${index}`)
    if (this.busy) this.stop()
    this.store.getState().dispatch([{ op: 'branch.select', turnId: sibling }])
    return { ok: true }
  }

  /**
   * Answer a gate: an approval (`{ approved, reason? }`), an action review
   * (`{ decisions }`) or an interrupt's value. The store shows the answer at once;
   * the run then goes on the way its protocol expects. A second answer, or an
   * answer to an unknown gate, is refused and changes nothing.
   *
   * @example
   * await client.answer(gate.id, { approved: true })
   */
  async answer<Kind extends string = string>(gateId: string, response: GateResponse<Kind>): Promise<AnswerResult> {
    const state = this.store.getState()
    const checked = checkGateResponse(state, gateId, response)
    if ('error' in checked) return { ok: false, error: checked.error }
    const { gate } = checked
    const turn = own(state.turns, gate.turnId)
    const hostRoute = gate.url !== undefined || this.protocolOf(turn?.protocol)?.gateAnswers === 'host'
    if (hostRoute && !this.options.continueGate) {
      return refused('this gate is answered at a URL the server named; give the client a continueGate function to send it there')
    }
    this.store.getState().dispatch(answerOps(state, gate, response))
    if (hostRoute && this.options.continueGate) return this.continueThroughHost(gate, response)
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
    const closing = this.active
    if (closing?.turnId === gate.turnId && !isSettled(closing.phase)) await closing.done
    const failure = (await this.proceed(gate.turnId, epoch)) ?? (await this.continuing.get(gate.turnId))
    return failure ? { ok: false, error: failure } : { ok: true }
  }

  /** The definition a turn's protocol name stands for, as this client would resolve it; `undefined` when none is known. */
  private protocolOf(name: ProtocolName | undefined): ProtocolDefinition | undefined {
    if (name === undefined) return undefined
    const option = this.options.protocol
    if (typeof option === 'object' && option.name === name) return option
    return this.options.protocols?.find((p) => p.name === name) ?? getProtocol(name)
  }

  private async submit(input: SendInput | undefined, parentId: string | null | undefined): Promise<ActionResult> {
    const options = this.options
    const files = typeof input === 'object' && input !== null && Array.isArray(input.files) ? input.files : []
    const invalid = checkFiles(files, options.attachments)
    if (invalid) {
      this.store.getState().dispatch([{ op: 'stream.status', status: 'error', error: invalid }])
      options.onError?.(invalid)
      return { ok: false, error: invalid }
    }
    let parts: FilePart[] = []
    // Without files nothing is awaited, so the turn opens in the same tick as the call.
    if (files.length > 0) {
      try {
        parts = await Promise.all(files.map((file) => toFilePart(file, options.upload)))
      } catch (thrown) {
        const error = toWeftError(thrown, 'validation')
        this.store.getState().dispatch([{ op: 'stream.status', status: 'error', error }])
        options.onError?.(error)
        return { ok: false, error }
      }
    }
    const turnId = newId('turn')
    // Files alone (the composer sends '' with them) make a question without a text part.
    const typed = textOf(input)
    const text = typed !== undefined && typed.trim() === '' && parts.length > 0 ? undefined : typed
    const opening: Op[] = []
    if (text !== undefined || parts.length > 0) {
      const userTurn = newId('user')
      opening.push({ op: 'turn.open', turnId: userTurn, role: 'user', ...(parentId !== undefined ? { parentId } : {}) })
      parts.forEach((part, i) => opening.push({ op: 'message.put', turnId: userTurn, messageId: `${userTurn}/file:${i}`, role: 'user', type: 'file', props: { ...part }, status: 'done' }))
      if (text !== undefined) opening.push({ op: 'message.put', turnId: userTurn, messageId: `${userTurn}/text`, role: 'user', type: 'text', props: { content: text }, status: 'done' })
      opening.push({ op: 'turn.finish', turnId: userTurn, status: 'done' })
    }
    opening.push({ op: 'turn.open', turnId, role: 'assistant', protocol: protocolName(options.protocol), ...(opening.length === 0 && parentId !== undefined ? { parentId } : {}) })
    await this.runTurn({ turnId, input, trigger: 'submit', opening })
    await this.proceed(turnId)
    return { ok: true }
  }

  /** Open (or reopen) a turn and stream one request into it. Resolves with the error when the request itself failed. */
  private async runTurn(plan: {
    turnId: string
    input: SendInput | undefined
    trigger: RequestTrigger
    opening: Op[]
    replacing?: string
    answers?: readonly GateAnswerEntry[]
    scope?: string
    request?: RequestPlan
  }): Promise<WeftError | undefined> {
    const options = this.options
    // A continuation of a turn on a branch no longer shown would send a conversation without it.
    if (plan.trigger === 'continue' && !this.store.getState().turnIds.includes(plan.turnId)) {
      return weftError('validation', 'this answer is on a branch that is not shown; select it again to go on', { code: 'off_path', retryable: false })
    }
    // Awaited only while the resume machinery loads: otherwise the turn opens in this tick.
    let bound = resolveResume(options)
    if (bound instanceof Promise) bound = await bound
    const { binding, error: unresolved } = bound
    const previous = this.active
    // A stream of another conversation that was only detached stays resumable there.
    if (previous?.phase === 'parked' && previous.resume && binding && previous.resume.key !== binding.key) this.active = undefined
    this.halt()
    const { turnId, input } = plan
    // A run without resume still counts its events in a ledger; it never compares them.
    const memory: TurnMemory = binding ? binding.openMemory(this.store, turnId) : { ledger: new TurnLedger() }
    const dispatch = (ops: readonly Op[]) => this.store.getState().dispatch(ops)
    dispatch([
      ...plan.opening,
      { op: 'stream.status', status: 'connecting' },
      { op: 'cursor', cursor: { turnId, eventCount: 0, streamId: undefined, lastEventId: undefined, sequence: undefined, protocol: protocolName(options.protocol) } },
    ])
    const state = this.store.getState()
    const protocol = options.protocol ?? protocolOf(state, turnId)
    const run = this.createRun(turnId, protocol && !options.protocol ? { ...options, protocol } : options, binding, memory, { opened: true, fromStart: false })
    run.scope = plan.scope
    this.active = run
    // Building the request (a host source, a protocol's builder) is part of connecting.
    transition(run, 'connecting')
    if (unresolved) {
      this.fail(run, unresolved)
      return unresolved
    }

    let request: RequestPlan
    try {
      const fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis)
      const at = state.turnIds.indexOf(turnId)
      const path = state.turnIds.slice(0, plan.trigger === 'continue' ? at + 1 : Math.max(at, 0))
      const build = (over: SourceBuildOptions = {}): RequestBody | undefined => {
        const named = protocol ?? over.protocol
        const builder = named === undefined ? undefined : resolveProtocol(named, options.protocols).request
        return builder?.({
          state, path, turnId, trigger: plan.trigger, conversationId: over.conversationId ?? this.conversationId, runId: newId('run'), input,
          tools: declareTools(options.tools), answers: plan.answers ?? [], replacing: plan.replacing,
        })
      }
      if (plan.request) request = plan.request
      else if (options.source) {
        request = await options.source.open({
          input, turnId, signal: run.controller.signal, fetch: fetchImpl, dispatch, trigger: plan.trigger,
          build: (over = {}) => {
            const built = build(over)
            return hostBody(options, input, turnId, built !== undefined && over.extend ? over.extend(built) : built, plan.trigger)
          },
        })
      } else request = defaultRequest(options, input, turnId, build(), plan.trigger)
    } catch (thrown) {
      const error = toWeftError(thrown, 'network')
      if (!isSettled(run.phase) && !run.controller.signal.aborted) this.fail(run, error)
      return error
    }
    if (run.controller.signal.aborted) return undefined
    await (run.done = this.drive(run, request))
    return run.failure
  }

  /**
   * After a run: execute the client tools it called, then go on while nothing
   * waits for the user, at most `maxSteps` requests in a row. A turn the person
   * stopped goes on only with an answer they gave after stopping; a `stop()` after
   * `epoch` withdraws what has not left yet.
   */
  private async proceed(turnId: string, epoch = this.stops): Promise<WeftError | undefined> {
    const max = Math.max(0, this.options.maxSteps ?? 5)
    for (let steps = 0; ; steps++) {
      if (this.stops !== epoch) return this.withdraw(turnId)
      if (this.busy) return undefined
      const turn = own(this.store.getState().turns, turnId)
      const stopped = turn?.status === 'aborted' && this.unsent.has(turnId)
      if (!turn || (turn.status !== 'done' && !stopped)) return undefined
      const ran = stopped ? false : await this.tools.settle(turnId, this.options.tools)
      if (this.stops !== epoch) return this.withdraw(turnId)
      if (ran === 'stopped') return undefined
      if (ran) this.unsent.set(turnId, this.unsent.get(turnId) ?? [])
      const answers = this.unsent.get(turnId)
      if (!answers || !turnSettled(this.store.getState(), turnId)) return undefined
      if (steps >= max) {
        const error = weftError('validation', `stopped after ${max} automatic requests in a row (maxSteps)`, { code: 'max_steps', retryable: false })
        this.store.getState().dispatch([{ op: 'problem', turnId, error }])
        return undefined
      }
      this.unsent.delete(turnId)
      const continuation = this.runTurn({
        turnId, input: undefined, trigger: 'continue', answers, scope: `${turnId}~${++this.continuations}`,
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

  /**
   * The person stopped before their answers reached a request: nothing is sent,
   * and the gates they answered are pending again rather than showing a yes that
   * went nowhere. Their choice, so no problem is recorded.
   */
  private withdraw(turnId: string): WeftError {
    const error = weftError('validation', 'stopped before the answer was sent', { code: 'stopped', retryable: false })
    const answers = this.unsent.get(turnId) ?? []
    this.unsent.delete(turnId)
    const state = this.store.getState()
    const ops: Op[] = []
    for (const answer of answers) {
      const gate = own(state.gates, answer.gateId)
      if (gate && gate.status !== 'pending') ops.push(...reopenOps(state, gate, error).filter((op) => op.op !== 'problem'))
    }
    if (ops.length > 0) state.dispatch(ops)
    return error
  }

  /** The continuation was refused: the gates it carried are pending again, with the error on the turn. */
  private reopenGates(turnId: string, answers: readonly GateAnswerEntry[], error: WeftError): void {
    const state = this.store.getState()
    const ops: Op[] = [{ op: 'turn.finish', turnId, status: 'done' }]
    for (const answer of answers) {
      const gate = own(state.gates, answer.gateId)
      if (gate) ops.push(...reopenOps(state, gate, error))
    }
    // Tool results alone reopen no gate: the turn still says why they were not sent.
    if (ops.length === 1 && error.code === 'off_path') ops.push({ op: 'problem', turnId, error })
    state.dispatch(ops)
  }

  private async continueThroughHost(gate: Gate, response: unknown): Promise<AnswerResult> {
    const continueGate = this.options.continueGate
    if (!continueGate) return refused('no continueGate function')
    const controller = new AbortController()
    this.toolRuns.add(controller)
    let request: Omit<StreamRequest, 'signal' | 'fetch'> | void
    try {
      const fetchImpl = this.options.fetch ?? globalThis.fetch.bind(globalThis)
      request = await continueGate(gate, response, { fetch: fetchImpl, signal: controller.signal })
    } catch (thrown) {
      const error = toWeftError(thrown, 'network')
      const state = this.store.getState()
      state.dispatch(reopenOps(state, gate, error))
      return { ok: false, error }
    } finally {
      this.toolRuns.delete(controller)
    }
    if (!request) return { ok: true }
    const failure = await this.runTurn({
      turnId: gate.turnId, input: undefined, trigger: 'continue', request, scope: `${gate.turnId}~${++this.continuations}`,
      opening: [{ op: 'turn.open', turnId: gate.turnId, role: 'assistant' }],
    })
    if (failure) {
      this.reopenGates(gate.turnId, [{ gateId: gate.id, kind: gate.kind, response }], failure)
      return { ok: false, error: failure }
    }
    return { ok: true }
  }

  /**
   * Pick up the stream whose handle is stored for this conversation (after a
   * reload, or when a component mounts again). Resolves true when there was one.
   * When the store still holds the turn, only what is missing is asked for;
   * a fresh store gets the whole turn replayed from the start.
   *
   * @example
   * useEffect(() => { void client.attach() }, [client])
   */
  async attach(): Promise<boolean> {
    let bound = resolveResume(this.options)
    if (bound instanceof Promise) bound = await bound
    const { binding, error } = bound
    if (error && !this.busy) {
      this.store.getState().dispatch([{ op: 'stream.status', status: 'error', error }])
      this.options.onError?.(error)
    }
    if (!binding || this.busy) return false
    const stored = binding.stored()
    if (!stored) return false
    const turn = own(this.store.getState().turns, stored.turnId)
    if (turn && turn.status !== 'streaming') {
      binding.clear()
      return false
    }
    let memory = turn ? binding.findMemory(this.store, stored.turnId) : undefined
    if (!memory) {
      memory = binding.openMemory(this.store, stored.turnId)
      // The store kept the turn but this page lost its ledger: trust the stored count.
      if (turn) memory.ledger.seed(stored.count)
    }
    const run = this.createRun(stored.turnId, this.options, binding, memory, { opened: Boolean(turn), fromStart: !turn, handle: stored })
    this.active = run
    if (!turn && !binding.strategy.replaysFromStart) {
      // The turn cannot be rebuilt from the stream alone.
      await this.expire(run, weftError('validation', 'this stream cannot be replayed from its start', { retryable: false }))
      return true
    }
    const ops: Op[] = [
      { op: 'stream.status', status: 'reconnecting' },
      {
        op: 'cursor',
        cursor: { turnId: stored.turnId, protocol: stored.protocol, eventCount: memory.ledger.count, streamId: undefined, lastEventId: undefined, sequence: undefined },
      },
    ]
    if (turn) ops.unshift({ op: 'turn.open', turnId: stored.turnId, role: turn.role })
    this.store.getState().dispatch(ops)
    await (run.done = this.drive(run))
    return true
  }

  /**
   * Try again after a resumable stream gave up (or failed): reconnect from where
   * it stopped, with a fresh reconnect budget. Without such a stream, attaches
   * to a stored handle if there is one.
   *
   * @example
   * if (status === 'error') await client.retry()
   */
  async retry(): Promise<void> {
    const previous = this.active
    if (!previous || previous.phase !== 'parked' || !previous.resume) {
      if (!this.busy) await this.attach()
      return
    }
    let bound = resolveResume(this.options)
    if (bound instanceof Promise) {
      bound = await bound
      if (this.active !== previous) return
    }
    const run = this.createRun(previous.turnId, this.options, bound.binding ?? previous.resume, previous.memory, {
      opened: previous.opened, fromStart: previous.fromStart, handle: previous.handle,
    })
    run.announced = previous.announced
    run.streamUrl = previous.streamUrl
    run.lastEventId = previous.lastEventId
    run.savedText = previous.savedText
    this.active = run
    this.store.getState().dispatch([{ op: 'stream.status', status: 'reconnecting' }])
    transition(run, 'connecting')
    await (run.done = this.drive(run))
  }

  /**
   * Abort the request in flight, mark its turn `aborted` and forget its resume
   * handle. An answer given before it that no request has carried yet is withdrawn:
   * its gate is pending again and nothing is sent.
   */
  stop(): void {
    this.stops += 1
    this.halt()
  }

  /** What `stop()` does to the run, without withdrawing answers: a new run of this client's own ends the one before. */
  private halt(): void {
    this.tools.stop()
    for (const controller of this.toolRuns) controller.abort()
    const run = this.active
    if (run?.finishing && !isSettled(run.phase)) {
      // Everything arrived: the answer is complete, not stopped.
      run.batcher.flush()
      return
    }
    if (run && (!isSettled(run.phase) || run.phase === 'parked')) {
      transition(run, 'aborted')
      run.batcher.flush()
      this.forget(run)
      const ops: Op[] = [{ op: 'stream.status', status: 'aborted' }]
      if (run.opened) ops.unshift({ op: 'turn.finish', turnId: run.turnId, status: 'aborted' })
      this.store.getState().dispatch(ops)
      run.controller.abort()
      return
    }
    // Nothing runs: a handle stored for the conversation goes too.
    const bound = resolveResume(this.options)
    if (bound instanceof Promise) void bound.then(({ binding }) => binding?.clear())
    else bound.binding?.clear()
  }

  /**
   * Let go of the stream, e.g. when a component unmounts. A plain stream is
   * stopped; a resumable one is only detached: its turn and its handle stay, so
   * the next `attach()` (another mount, a reload) picks it up.
   */
  dispose(): void {
    const run = this.active
    if (!run) return
    if (!run.resume) {
      this.stop()
      return
    }
    if (isSettled(run.phase)) return
    run.batcher.flush()
    // A stream that had ended settles in that flush: nothing is left to detach.
    if (isSettled(run.phase)) return
    this.persist(run)
    transition(run, 'parked')
    run.controller.abort()
  }

  private createRun(
    turnId: string,
    options: AgentClientOptions,
    resume: ResumeBinding | undefined,
    memory: TurnMemory,
    init: { opened: boolean; fromStart: boolean; handle?: ResumeHandle },
  ): ActiveRun {
    // The handle is written once per flushed batch: what the store shows is what it resumes from.
    const batcher = createBatcher((ops) => {
      this.store.getState().dispatch(ops)
      this.persist(run)
      // A call whose input just completed runs now, while the answer goes on streaming.
      if (!isSettled(run.phase)) this.tools.start(run.turnId, run.options.tools)
    }, options.scheduler ?? defaultScheduler(), (thrown) => {
      // The store took the batch (the fold never throws); a listener of the host's did.
      this.store.getState().dispatch([{ op: 'problem', turnId: run.turnId, error: toWeftError(thrown, 'unknown') }])
    })
    const run: ActiveRun = {
      turnId, options, resume, memory, batcher,
      controller: new AbortController(),
      phase: 'idle', keepHandle: resume !== undefined,
      handle: init.handle, fromStart: init.fromStart, opened: init.opened, announced: false, failures: 0,
    }
    return run
  }

  /** Connect, read, and reconnect while the stream is lost, until it ends one way or another. */
  private async drive(run: ActiveRun, initial?: RequestPlan): Promise<void> {
    let request = initial
    for (;;) {
      if (isSettled(run.phase) || run.controller.signal.aborted) return
      if (run.phase !== 'connecting') transition(run, 'connecting')
      const resuming = request === undefined
      let outcome: Outcome
      try {
        outcome = await this.connect(run, request ?? this.resumeRequest(run), resuming)
      } catch (thrown) {
        outcome = { kind: 'failed', error: toWeftError(thrown, 'unknown') }
      }
      request = undefined
      if (isSettled(run.phase) || run.controller.signal.aborted) return
      switch (outcome.kind) {
        case 'aborted':
          return
        case 'finished':
          await this.complete(run, outcome.reason)
          return
        case 'nothing':
          await this.nothingLeft(run)
          return
        case 'expired':
          await this.expire(run, outcome.error)
          return
        case 'failed':
          if (resuming) this.park(run, outcome.error)
          else this.fail(run, outcome.error)
          return
        case 'lost': {
          const resume = run.resume
          // The handle is read from the store: what was read must be in it, though its frame has not come yet.
          run.batcher.flush()
          if (!resume || !this.currentHandle(run)) {
            this.fail(run, outcome.error)
            return
          }
          run.failures = outcome.progressed ? 1 : run.failures + 1
          if (run.failures > resume.maxRetries) {
            this.park(run, resume.exhausted(outcome.error))
            return
          }
          transition(run, 'reconnecting')
          run.batcher.push([{ op: 'stream.status', status: 'reconnecting' }])
          run.batcher.flush()
          const floor = Math.max(run.retryMs ?? 0, outcome.error.retryAfterMs ?? 0)
          if (!(await resume.sleep(resume.delay(run.failures, floor), run.controller.signal))) return
          if (isSettled(run.phase) || run.controller.signal.aborted) return
        }
      }
    }
  }

  /** One connection: open it, fold what is new, and say how it ended. */
  private async connect(run: ActiveRun, request: RequestPlan, resuming: boolean): Promise<Outcome> {
    const { options, controller } = run
    const fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis)
    let stream: OpenedStream
    try {
      stream = await openStream(
        { ...request, signal: controller.signal, fetch: fetchImpl, idleTimeoutMs: options.idleTimeoutMs, readPastDone: true },
        { onRetry: (ms) => (run.retryMs = ms) },
      )
    } catch (thrown) {
      if (controller.signal.aborted || isSettled(run.phase)) return { kind: 'aborted' }
      const error = toWeftError(thrown, 'network')
      if (!resuming) return { kind: 'failed', error }
      // 404 and 410: the stream is gone; 405: the route has no resume endpoint (a stock AI SDK route answers only POST).
      if (error.status === 404 || error.status === 405 || error.status === 410) return { kind: 'expired', error }
      return error.retryable ? { kind: 'lost', error, progressed: false } : { kind: 'failed', error }
    }
    if (controller.signal.aborted || isSettled(run.phase) || stream.endReason === 'aborted') return { kind: 'aborted' }
    if (resuming && stream.response.status === 204) return { kind: 'nothing' }
    if (!resuming) run.streamUrl = request.url

    const reader = (run.memory.reader ??= new FrameDecoder({
      turnId: run.turnId, scope: run.scope, protocol: options.protocol ?? run.handle?.protocol, protocols: options.protocols,
      headers: stream.response.headers, onData: options.onData,
      priorToolCall: (toolCallId) => {
        const message = toolMessage(this.store.getState(), run.turnId, toolCallId)
        return message ? { messageId: message.id, name: typeof message.props.name === 'string' ? message.props.name : 'tool' } : undefined
      },
      runId: request.runId,
    }))
    transition(run, 'streaming')
    run.batcher.push([{ op: 'stream.status', status: 'streaming' }])
    const filter = resuming ? this.replayFilter(run) : undefined
    let progressed = false
    const take = (items: readonly ReplayItem[]) => {
      if (items.length === 0) return
      for (const item of items) if (this.fold(run, reader, item)) progressed = true
      run.batcher.push(reader.flush())
      run.batcher.push([{ op: 'cursor', cursor: { ...reader.cursor(), eventCount: run.memory.ledger.count, lastEventId: run.lastEventId } }])
    }
    const grace = Math.max(1, options.endGraceMs ?? DEFAULT_END_GRACE_MS)
    /** Set at `[DONE]`: the replay filter is over, and what follows is only reported. */
    let replay = filter
    try {
      // One await per arrival of bytes, not per frame: a frame's work stays synchronous.
      for await (const batch of stream.batches) {
        if (isSettled(run.phase)) break
        const ready: ReplayItem[] = []
        for (const frame of batch) {
          if (isDoneFrame(frame)) {
            // The frames before it go first, so whatever follows lands after the end.
            if (replay) for (const out of replay.end(true)) ready.push(out)
            replay = undefined
            take(ready.splice(0))
            reader.done()
            continue
          }
          const item = this.identify(run, frame)
          if (replay) for (const out of replay.push(item)) ready.push(out)
          else ready.push(item)
        }
        take(ready)
        // One rule for both paths: read on to the end of the body, as foldStream
        // does, but once the protocol has ended only while bytes keep coming, so a
        // server that holds the connection open does not hold the turn.
        stream.settle(reader.ended ? grace : undefined)
      }
    } catch (thrown) {
      if (controller.signal.aborted || isSettled(run.phase)) return { kind: 'aborted' }
      if (reader.ended) {
        if (replay) take(replay.end(true))
        return { kind: 'finished', reason: 'eof' }
      }
      replay?.end(false)
      return { kind: 'lost', error: toWeftError(thrown, 'network'), progressed }
    }
    if (isSettled(run.phase) || controller.signal.aborted) return { kind: 'aborted' }
    // Read again: the loop above moved it on.
    const endReason = endReasonOf(stream)
    if (endReason === 'aborted' || isSettled(run.phase)) return { kind: 'aborted' }
    const final = endReason === 'done'
    if (replay) take(replay.end(final || reader.ended))
    // A server that said nothing more will come (Yao's `read_complete`, not live) ended the stream itself.
    if (final || reader.ended || filter?.settled) return { kind: 'finished', reason: final || filter?.settled ? 'done' : 'eof' }
    // Without a strategy the end of the body is the end of the turn.
    if (!run.resume) return { kind: 'finished', reason: 'eof' }
    // A resumed connection that closes cleanly with nothing new: the server has no more.
    if (resuming && !progressed) return { kind: 'nothing' }
    return { kind: 'lost', error: weftError('network', 'the stream ended before the agent finished'), progressed }
  }

  private identify(run: ActiveRun, frame: SSEFrame): ReplayItem {
    let event: unknown
    let json = true
    try {
      event = JSON.parse(frame.data)
    } catch {
      json = false
    }
    return run.resume ? run.resume.identify(frame, event, json) : { frame, event, json, fingerprint: '', ...COUNT_EVERYTHING }
  }

  /** Fold one event; true when it counted. */
  private fold(run: ActiveRun, reader: FrameDecoder, item: ReplayItem): boolean {
    if (!run.opened) {
      run.opened = true
      run.batcher.push([{ op: 'turn.open', turnId: run.turnId, role: 'assistant', protocol: reader.protocol ?? run.handle?.protocol }])
    }
    const ops = item.json ? reader.parsed(item.event, item.frame) : reader.frame(item.frame)
    run.memory.ledger.record(item)
    if (item.frame.id !== undefined) run.lastEventId = item.frame.id === '' ? undefined : item.frame.id
    run.batcher.push(ops)
    if (!run.announced && reader.protocol) {
      run.announced = true
      run.batcher.push([{ op: 'turn.update', turnId: run.turnId, protocol: reader.protocol }, { op: 'cursor', cursor: { protocol: reader.protocol } }])
    }
    return item.counted
  }

  private resumeRequest(run: ActiveRun): RequestPlan {
    const resume = run.resume
    const handle = this.currentHandle(run)
    if (!resume || !handle) throw new WeftStreamError(weftError('validation', 'there is no stream to resume', { retryable: false }))
    const fromStart = run.fromStart && run.memory.ledger.count === 0
    run.requested = { handle, fromStart }
    return resume.request(handle, fromStart, run.options)
  }

  private replayFilter(run: ActiveRun): ReplayFilter | undefined {
    const resume = run.resume
    const requested = run.requested
    if (!resume || !requested) return undefined
    return resume.filter(run.memory.ledger, requested, (error) => run.batcher.push([{ op: 'problem', turnId: run.turnId, error }]))
  }

  /** The handle for the turn as it stands (or the stored one, while nothing was folded here). */
  private currentHandle(run: ActiveRun): ResumeHandle | undefined {
    const resume = run.resume
    if (!resume) return undefined
    run.handle = resume.handle({
      turnId: run.turnId,
      cursor: this.store.getState().cursor,
      ledger: run.memory.ledger,
      protocol: run.memory.reader?.protocol ?? protocolName(run.options.protocol) ?? run.handle?.protocol,
      streamUrl: run.streamUrl,
      previous: run.handle,
    })
    return run.handle
  }

  private persist(run: ActiveRun): void {
    const resume = run.resume
    if (!resume || !run.keepHandle) return
    const handle = this.currentHandle(run)
    if (!handle) return
    const text = JSON.stringify(handle)
    if (text !== run.savedText && resume.write(handle)) run.savedText = text
  }

  /** The turn is over, or was stopped: its handle and ledger go. */
  private forget(run: ActiveRun): void {
    const resume = run.resume
    if (!resume) return
    run.keepHandle = false
    resume.forget(this.store, run.turnId)
  }

  /**
   * The stream ended: its last ops go with the next scheduled batch, and the run
   * settles right after that batch is folded, in the same task, so the end of an
   * answer is drawn in the frame's one commit rather than a second one.
   */
  private complete(run: ActiveRun, reason: 'done' | 'eof'): Promise<void> {
    if (!run.opened) {
      this.settleQuietly(run)
      return Promise.resolve()
    }
    if (run.memory.reader) run.batcher.push(run.memory.reader.end(reason))
    else run.batcher.push([{ op: 'turn.finish', turnId: run.turnId, status: 'done' }])
    run.finishing = true
    return new Promise((resolve) => {
      run.batcher.afterFlush(() => {
        try {
          if (!isSettled(run.phase)) this.settleFinished(run)
        } finally {
          resolve()
        }
      })
    })
  }

  /** After the end's batch is folded: the turn's own status says how the run ends. */
  private settleFinished(run: ActiveRun): void {
    const turn = own(this.store.getState().turns, run.turnId)
    if (turn?.status === 'error') {
      // The turn already carries the agent's error; only the stream shows it.
      this.endInError(run, turn.error ?? weftError('unknown', 'the agent reported an error'), { handle: 'forget', closeTurn: false })
      return
    }
    this.forget(run)
    if (turn?.status === 'aborted') {
      transition(run, 'aborted')
      this.store.getState().dispatch([{ op: 'stream.status', status: 'aborted' }])
    } else {
      transition(run, 'done')
      this.store.getState().dispatch([{ op: 'stream.status', status: 'done' }])
      run.options.onFinish?.(run.turnId)
    }
  }

  /** A re-attach found nothing: no turn was opened, so nothing shows. */
  private settleQuietly(run: ActiveRun): void {
    run.batcher.flush()
    transition(run, 'done')
    this.forget(run)
    this.store.getState().dispatch([{ op: 'stream.status', status: 'idle' }])
  }

  /** The server has nothing more (204, or an empty replay). */
  private async nothingLeft(run: ActiveRun): Promise<void> {
    if (!run.opened) {
      this.settleQuietly(run)
      return
    }
    const reader = run.memory.reader
    // The server finished while nobody listened: history has the end of the turn.
    if (this.historyLoader(run) && !reader?.ended) await this.fromHistory(run, 'ended', weftError('network', 'the stream finished while disconnected'))
    else await this.complete(run, 'eof')
  }

  /**
   * The server has no stream to resume: rebuild the conversation from history, or
   * keep what arrived as an interrupted answer. Only a stream this page cannot
   * replay at all (no server answered) is an error.
   */
  private async expire(run: ActiveRun, cause: WeftError): Promise<void> {
    const error: WeftError = { ...cause, code: RESUME_EXPIRED, retryable: false }
    if (this.historyLoader(run)) {
      await this.fromHistory(run, 'expired', error)
      return
    }
    if (cause.status !== undefined) this.interrupt(run, error)
    else this.endInError(run, error, { handle: 'forget', closeTurn: true })
  }

  /**
   * Nothing to resume: the turn keeps every token it received and ends `aborted`
   * with the reason as a problem, so it reads as an interrupted answer to retry,
   * not as a failure. The handle goes: there is nothing left to reconnect to.
   */
  private interrupt(run: ActiveRun, reason: WeftError): void {
    run.batcher.flush()
    transition(run, 'aborted')
    this.forget(run)
    const ops: Op[] = [{ op: 'stream.status', status: 'aborted' }]
    if (run.opened) {
      ops.unshift(...(run.memory.reader?.release() ?? []), { op: 'problem', turnId: run.turnId, error: reason }, { op: 'turn.finish', turnId: run.turnId, status: 'aborted' })
    }
    this.store.getState().dispatch(ops)
  }

  private async fromHistory(run: ActiveRun, reason: 'expired' | 'ended', error: WeftError): Promise<void> {
    const resume = run.resume
    const loader = this.historyLoader(run)
    if (!resume || !loader) return
    run.batcher.flush()
    const handle = run.handle
    this.forget(run)
    let result: HistoryResult
    try {
      result = await loader({ conversationKey: resume.key, handle, reason, signal: run.controller.signal })
    } catch (thrown) {
      if (isSettled(run.phase) || run.controller.signal.aborted) return
      this.endInError(run, toWeftError(thrown, 'unknown'), { handle: 'leave', closeTurn: true })
      return
    }
    if (isSettled(run.phase) || run.controller.signal.aborted) return
    if (!result || result.length === 0) {
      // History had nothing to add: keep what arrived and close the turn.
      if (!run.opened) {
        this.endInError(run, error, { handle: 'leave', closeTurn: false })
        return
      }
      const reader = run.memory.reader
      const closing = reader?.end('eof') ?? []
      // What arrived stopped short of the protocol's end, and history has no more: the answer stays cut off.
      if (reader?.truncated) {
        transition(run, 'aborted')
        this.store.getState().dispatch([...closing, { op: 'stream.status', status: 'aborted' }])
        return
      }
      transition(run, 'done')
      this.store.getState().dispatch([...closing, { op: 'turn.finish', turnId: run.turnId, status: 'done' }, { op: 'stream.status', status: 'done' }])
      return
    }
    // History is the whole conversation: it replaces what the store held.
    transition(run, 'done')
    this.store.getState().reset()
    const ops: Op[] = isOpList(result) ? [...result] : [{ op: 'hydrate', turns: [...result], at: 'end' }]
    ops.push({ op: 'stream.status', status: 'done' })
    this.store.getState().dispatch(ops)
  }

  /** How the run's conversation is read again when its stream cannot go on. */
  private historyLoader(run: ActiveRun) {
    return run.resume?.historyLoader(run.options, () => run.memory.reader?.protocol)
  }

  /** Stop reconnecting but keep the turn and its handle: `retry()` goes on from here. */
  private park(run: ActiveRun, error: WeftError): void {
    this.endInError(run, error, { handle: 'keep', closeTurn: false })
  }

  private fail(run: ActiveRun, error: WeftError): void {
    run.failure = error
    this.endInError(run, error, { handle: 'leave', closeTurn: true })
  }

  /**
   * The one way a run ends in error: what arrived is flushed, the handle is
   * kept (the run parks, `retry()` goes on), forgotten or left alone, the stream
   * (and, when asked, the turn) shows the error, and the host hears of it.
   */
  private endInError(run: ActiveRun, error: WeftError, how: { handle: 'keep' | 'forget' | 'leave'; closeTurn: boolean }): void {
    run.batcher.flush()
    if (how.handle === 'keep') this.persist(run)
    transition(run, how.handle === 'keep' ? 'parked' : 'error')
    if (how.handle === 'forget') this.forget(run)
    const ops: Op[] = [{ op: 'stream.status', status: 'error', error }]
    if (how.closeTurn && run.opened) {
      ops.unshift({ op: 'turn.finish', turnId: run.turnId, status: 'error', error })
      // The turn ends here for good: what the decoder held back for the next event is shown too.
      if (run.memory.reader) ops.unshift(...run.memory.reader.release())
    }
    this.store.getState().dispatch(ops)
    run.options.onError?.(error)
  }
}

function refused(message: string): { ok: false; error: WeftError } {
  return { ok: false, error: weftError('validation', message, { retryable: false }) }
}

/** The protocol a turn speaks: its own, else the latest one named on the active path before it. */
function protocolOf(state: AgentState, turnId: string): ProtocolName | undefined {
  const own_ = own(state.turns, turnId)?.protocol
  if (own_) return own_
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

function endReasonOf(stream: OpenedStream): StreamEndReason | undefined {
  return stream.endReason
}

function isOpList(result: readonly HydratedTurn[] | readonly Op[]): result is readonly Op[] {
  const first = result[0] as { op?: unknown } | undefined
  return typeof first?.op === 'string'
}

/** A client whose options resume starts loading the machinery now, before its first send or attach. */
function preloadFor(options: AgentClientOptions): void {
  if (options.resume) preloadResume().catch(() => undefined)
}

