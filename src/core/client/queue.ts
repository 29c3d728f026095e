/**
 * Messages sent while the agent runs. With `whileRunning: 'queue'` (the
 * default) a send waits in the store's `queue` until the running turn ends
 * normally and nothing else waits (no gate, no client tool, no continuation),
 * then goes as its own question; the next one goes when that answer ends the
 * same way. A stop or a failure keeps the queue and sends nothing until the
 * person asks (`sendQueued`) or a later answer ends normally. With `'steer'` the
 * run is stopped, its partial answer kept as the interrupted answer, and the
 * message goes at once.
 */
import { newId } from '../model/ids'
import type { AgentState, QueuedMessage } from '../model/model'
import { own } from '../util/record'
import type { ClientContext } from './context'
import { refused } from './continuation-loop'
import type { ActionResult } from './gates'
import type { SendInput } from './options'
import { textOf } from './request-plan'

/**
 * The client's queue: the messages live in the store (`state.queue`, so they
 * render and are saved with the conversation), their files and other input
 * fields here, with the client that queued them.
 *
 * @example
 * const queue = new MessageQueue(context, loop, (input) => submit(context, loop, input, undefined))
 * if (queue.running()) queue.add('And tomorrow?')
 */
export class MessageQueue {
  /** The whole input of each message queued here (its files, a host's own fields). */
  private readonly inputs = new Map<string, SendInput>()
  /** Queued sends taken off the queue whose turn has not ended yet. */
  private sending = 0

  constructor(
    private readonly ctx: ClientContext,
    private readonly loop: { busy(turnId: string): boolean },
    private readonly submit: (input: SendInput) => Promise<unknown>,
  ) {}

  /**
   * True while a send should wait: a request is open or scheduled, a client tool
   * runs, the loop owes the server an answer, or a queued message is on its way.
   * A gate waiting for the person is not a run: the agent is idle, asking, and a
   * send then goes at once, as it does with `useChat` (the gate stays pending on
   * its turn). The queue itself still waits for the gate (`drain`).
   */
  running(): boolean {
    const { driver, store, tools } = this.ctx
    if (driver.busy || this.sending > 0) return true
    const last = lastAnswer(store.getState())
    return last !== undefined && (tools.busy(last) || this.loop.busy(last))
  }

  /** Queue a send; its text shows at once under the running turn. */
  add(input: SendInput | undefined): QueuedMessage {
    const id = newId('queued')
    const files = typeof input === 'object' && input !== null && Array.isArray(input.files) ? input.files.length : 0
    const message: QueuedMessage = { id, text: textOf(input) ?? '', ...(files > 0 ? { files } : {}) }
    this.inputs.set(id, input ?? '')
    this.ctx.store.getState().dispatch([{ op: 'queue.put', message }])
    return message
  }

  /** Change a queued message's text (its files stay); refused once it has left or was cancelled. */
  edit(id: string, text: string): ActionResult {
    const queued = queuedIn(this.ctx.store.getState(), id)
    if (!queued) return refused(`there is no queued message "${id}"`)
    this.ctx.store.getState().dispatch([{ op: 'queue.put', message: { ...queued, text } }])
    return { ok: true }
  }

  /** Take a queued message off the queue without sending it. */
  cancel(id: string): ActionResult {
    if (!queuedIn(this.ctx.store.getState(), id)) return refused(`there is no queued message "${id}"`)
    this.inputs.delete(id)
    this.ctx.store.getState().dispatch([{ op: 'queue.remove', id }])
    return { ok: true }
  }

  /**
   * Send the first queued message (or the one named) now, whatever runs: the
   * caller stops what runs first. Refused when there is none.
   */
  sendNow(id?: string): Promise<ActionResult> {
    const queue = this.ctx.store.getState().queue ?? []
    const queued = id === undefined ? queue[0] : queuedIn(this.ctx.store.getState(), id)
    if (!queued) return Promise.resolve(refused(id === undefined ? 'nothing is queued' : `there is no queued message "${id}"`))
    return this.dispatchSend(queued).then(() => ({ ok: true }))
  }

  /**
   * After an action's run and loop ended: when the answer on the shown path ended
   * normally and nothing waits, send the next message this client queued. A
   * queue that came with a loaded conversation, or the queue of a conversation
   * the store was switched to, is never sent on its own: only `sendNow` sends it.
   */
  drain(): void {
    if (this.running()) return
    const state = this.ctx.store.getState()
    const last = lastAnswer(state)
    if (!last || own(state.turns, last)?.status !== 'done' || hasPendingGate(state, last)) return
    const next = (state.queue ?? []).find((queued) => this.inputs.has(queued.id))
    if (next) void this.dispatchSend(next)
  }

  /** Take the message off the queue and send it, with its latest text and the files it was queued with. */
  private async dispatchSend(queued: QueuedMessage): Promise<void> {
    const kept = this.inputs.get(queued.id)
    this.inputs.delete(queued.id)
    this.ctx.store.getState().dispatch([{ op: 'queue.remove', id: queued.id }])
    const input: SendInput = typeof kept === 'object' && kept !== null ? { ...kept, text: queued.text } : queued.text
    this.sending += 1
    try {
      await this.submit(input)
    } finally {
      this.sending -= 1
    }
    this.drain()
  }
}

/** The last turn of the shown path when it is an answer. */
function lastAnswer(state: AgentState): string | undefined {
  const id = state.turnIds.at(-1)
  return id !== undefined && own(state.turns, id)?.role === 'assistant' ? id : undefined
}

function hasPendingGate(state: AgentState, turnId: string): boolean {
  return (own(state.turns, turnId)?.gateIds ?? []).some((id) => own(state.gates, id)?.status === 'pending')
}

function queuedIn(state: AgentState, id: string): QueuedMessage | undefined {
  return (state.queue ?? []).find((queued) => queued.id === id)
}
