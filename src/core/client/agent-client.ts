/**
 * The framework-free agent client: one `send` opens a stream, decodes it and
 * feeds the store through the batcher. With a resume strategy it also survives
 * dropped connections and page reloads. The React hooks are thin bindings over it.
 *
 * The class is a small front: the run driver (`run-driver.ts`) connects and
 * reconnects, the persister (`resume-persister.ts`) keeps the handle, the
 * commands (`commands.ts`) open turns, and the continuation loop
 * (`continuation-loop.ts`) carries gate answers and client-tool results.
 */
import { siblingAt } from '../store/branches'
import { newId } from '../model/ids'
import { preloadResume } from '../resume/load-binding'
import type { AgentStore } from '../store/store'
import { edit, regenerate, submit } from './commands'
import type { ClientContext } from './context'
import { ContinuationLoop, refused } from './continuation-loop'
import type { ActionResult, AnswerResult, GateResponse } from './gates'
import type { AgentClientOptions, SendInput, SendOptions } from './options'
import { addContext, setAgentState, type AddContextResult, type AgentStateUpdate } from './agent-state'
import type { ContextEntry } from '../protocol/request'
import { MessageQueue } from './queue'
import { respond, type RespondResult } from './respond'
import { attach, retry } from './reattach'
import { detach } from './run-end'
import { RunDriver } from './run-driver'
import { ClientToolRunner } from './tool-runner'
import { halt } from './turn-runner'

/**
 * Opens agent streams and folds them into a store.
 *
 * @example
 * const client = new AgentClient(createAgentStore(), { url: '/api/agent' })
 * await client.send('Hello')
 * client.stop()
 */
export class AgentClient {
  readonly store: AgentStore
  private options: AgentClientOptions
  private readonly parts: { context: ClientContext; driver: RunDriver; loop: ContinuationLoop; queue: MessageQueue }

  constructor(store: AgentStore, options: AgentClientOptions) {
    this.store = store
    this.options = options
    const client = this
    const driver = new RunDriver()
    const context: ClientContext = {
      store, driver,
      conversationId: options.conversationId ?? options.resume?.conversationKey ?? newId('chat'),
      tools: new ClientToolRunner(store),
      frontendContext: new Set(),
      hostCalls: new Set(),
      get options() {
        return client.options
      },
    }
    const loop = new ContinuationLoop(context)
    const queue = new MessageQueue(context, loop, (input) => submit(context, loop, input, undefined))
    this.parts = { context, driver, loop, queue }
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
    return this.parts.driver.busy
  }

  /**
   * Send one input and stream the answer into the store. Resolves when the
   * stream ends (and any client tools and the requests they lead to are done);
   * never rejects (failures land in the store as typed errors).
   *
   * While a run is active (see `whileRunning`), the message is queued by default:
   * it shows in the store's `queue` and goes when the turn ends normally, and the
   * call resolves once it is queued. `{ whileRunning: 'steer' }` stops the run
   * (its partial answer stays, as interrupted) and sends the message at once.
   *
   * @example
   * await client.send({ text: 'Summarise this', files: [pdf] })
   * await client.send('Shorter, please', { whileRunning: 'steer' })
   */
  async send(input?: SendInput, options?: SendOptions): Promise<void> {
    const { context, loop, queue } = this.parts
    if ((options?.whileRunning ?? this.options.whileRunning ?? 'queue') === 'queue' && queue.running()) {
      queue.add(input)
      return
    }
    await this.then(submit(context, loop, input, undefined))
  }

  /**
   * Change the text of a queued message. Refused once it was sent or cancelled.
   *
   * @example
   * client.editQueued(queued.id, 'And in Lyon?')
   */
  editQueued(id: string, text: string): ActionResult {
    return this.parts.queue.edit(id, text)
  }

  /**
   * Take a message off the queue; it is never sent. Refused once it was sent.
   *
   * @example
   * client.cancelQueued(queued.id)
   */
  cancelQueued(id: string): ActionResult {
    return this.parts.queue.cancel(id)
  }

  /**
   * Send a queued message now (by default the first): a run still active is
   * stopped first, as a steer does. The way to send a queue that a stop or a
   * failure held back, or that came with a loaded conversation.
   *
   * @example
   * await client.sendQueued()
   */
  sendQueued(id?: string): Promise<ActionResult> {
    return this.parts.queue.sendNow(id)
  }

  /**
   * Ask again for an answer (by default the last one on the active path). The
   * old answer stays as a sibling branch.
   *
   * @example
   * await client.regenerate()
   */
  regenerate(turnId?: string): Promise<ActionResult> {
    return this.then(regenerate(this.parts.context, this.parts.loop, turnId))
  }

  /**
   * Replace a question: a new user turn beside `turnId` and its answer. The old
   * question and everything after it stay on their branch.
   *
   * @example
   * await client.edit(userTurnId, 'What about Lyon?')
   */
  edit(turnId: string, input: SendInput): Promise<ActionResult> {
    return this.then(edit(this.parts.context, this.parts.loop, turnId, input))
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
  answer<Kind extends string = string>(gateId: string, response: GateResponse<Kind>): Promise<AnswerResult> {
    return this.then(this.parts.loop.answer(gateId, response))
  }

  /**
   * Give the result of a tool the UI answers (declared `{ ui: true }` in `tools`):
   * the call shows it at once, and the answer goes on with the protocol's
   * continuation request, as after a client tool. Refused, with nothing sent, for
   * an unknown call, a tool not declared so, a call that already has a result
   * (a second `respond`), one whose answer was stopped, or a result that is not JSON data.
   *
   * @example
   * const result = await client.respond(toolCallId, { color: 'teal' })
   */
  respond(toolCallId: string, output: unknown): Promise<RespondResult> {
    return this.then(respond(this.parts.context, this.parts.loop, toolCallId, output))
  }

  /**
   * Set the shared agent state from the page: the store's `agentState` changes at
   * once, and the next request carries it where the protocol has a field for state
   * (AG-UI's `RunAgentInput.state`). Refused unless the result is a plain object of JSON data.
   *
   * @example
   * client.setAgentState((current) => ({ ...current, theme: 'teal' }))
   */
  setAgentState(update: AgentStateUpdate): ActionResult {
    return setAgentState(this.store, update)
  }

  /**
   * Tell the agent something with every request from now on (see `ContextEntry`),
   * until the returned function takes it back. Refused unless the description is
   * text and the value JSON data.
   *
   * @example
   * const added = client.addContext({ description: 'The open document', value: { title: 'Q3 report' } })
   * if (added.ok) added.remove()
   */
  addContext(entry: ContextEntry): AddContextResult {
    return addContext(this.parts.context.frontendContext, entry)
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
  attach(): Promise<boolean> {
    return this.then(attach(this.parts.context))
  }

  /**
   * Try again after a resumable stream gave up (or failed): reconnect from where
   * it stopped, with a fresh reconnect budget. Without such a stream, attaches
   * to a stored handle if there is one.
   *
   * @example
   * if (status === 'error') await client.retry()
   */
  retry(): Promise<void> {
    return this.then(retry(this.parts.context))
  }

  /**
   * Abort the request in flight, mark its turn `aborted` and forget its resume
   * handle. An answer given before it that no request has carried yet is withdrawn:
   * its gate is pending again and nothing is sent.
   *
   * @example
   * stopButton.onclick = () => client.stop()
   */
  stop(): void {
    this.parts.loop.stopped()
    halt(this.parts.context)
  }

  /** Once an action's run and loop are over, the queue may send its next message. */
  private async then<T>(action: Promise<T>): Promise<T> {
    const result = await action
    this.parts.queue.drain()
    return result
  }

  /**
   * Let go of the stream, e.g. when a component unmounts. A plain stream is
   * stopped; a resumable one is only detached: its turn and its handle stay, so
   * the next `attach()` (another mount, a reload) picks it up.
   *
   * @example
   * useEffect(() => () => client.dispose(), [client])
   */
  dispose(): void {
    const run = this.parts.driver.active
    if (!run) return
    if (run.resume) detach(run)
    else this.stop()
  }
}

/** A client whose options resume starts loading the machinery now, before its first send or attach. */
function preloadFor(options: AgentClientOptions): void {
  if (options.resume) preloadResume().catch(() => undefined)
}
