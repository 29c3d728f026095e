/**
 * Client tools while an answer streams: a call starts as soon as its input is
 * complete (the store shows it `input-available`), not when the stream ends; its
 * output or error is folded into the tool message the moment it settles; and the
 * answer may go on once every call that started has a result.
 */
import { clientCalls, type ClientTool } from './tool-calls'
import type { UiTool } from './respond'
import type { Message } from '../model/model'
import type { Op } from '../model/ops'
import type { AgentStore } from '../store/store'
import { own } from '../util/record'
import { messageIn } from '../model/message-table'

/** What a stopped tool reports (its own later result is ignored). */
const STOPPED = 'The tool was stopped.'

interface RunningCall {
  turnId: string
  messageId: string
  controller: AbortController
  done: Promise<void>
}

/**
 * Runs the client's tools for the calls a turn makes.
 *
 * @example
 * const runner = new ClientToolRunner(store)
 * const tools = { getLocation: { execute: async () => ({ city: 'Paris' }) } }
 * runner.start(turnId, tools)
 * await runner.settle(turnId, tools) // true: results arrived that no request has carried
 */
export class ClientToolRunner {
  /** Calls started (or finished) here, so none runs twice. */
  private readonly started = new Set<string>()
  private readonly running = new Map<string, RunningCall>()
  /** Turns with results that no request has carried yet. */
  private readonly fresh = new Set<string>()
  /** Turns whose calls `stop()` cut short since they last settled. */
  private readonly stopped = new Set<string>()

  constructor(private readonly store: AgentStore) {}

  /** Start every call of the turn whose input is complete and whose tool the client has. */
  start(turnId: string, tools: Readonly<Record<string, ClientTool | UiTool>> | undefined): void {
    this.keepRunning(turnId)
    if (!tools) return
    const calls = clientCalls(this.store.getState(), turnId, tools, this.started)
    if (calls.length === 0) return
    const ops: Op[] = []
    for (const call of calls) {
      const toolCallId = call.props.toolCallId as string
      const name = call.props.name as string
      this.started.add(toolCallId)
      // The call shows as running (a streaming tool message) until its result is in.
      ops.push(
        { op: 'message.delta', turnId, messageId: call.id, type: 'tool', action: 'set', path: 'state', value: 'input-available' },
        { op: 'trace.node', turnId, node: { id: call.id, kind: 'tool', tool: name, label: name, status: 'progress', args: call.props.input } },
      )
      const controller = new AbortController()
      const running: RunningCall = { turnId, messageId: call.id, controller, done: Promise.resolve() }
      running.done = this.execute(own(tools, name) as ClientTool, call, controller).then((value) => {
        this.running.delete(toolCallId)
        this.fold(turnId, call, value)
      })
      this.running.set(toolCallId, running)
    }
    this.store.getState().dispatch(ops)
  }

  /**
   * Wait until every call of the turn that started has a result. `stopped` when
   * `stop()` cut one short; otherwise whether results arrived that no request carried.
   */
  async settle(turnId: string, tools: Readonly<Record<string, ClientTool | UiTool>> | undefined): Promise<boolean | 'stopped'> {
    this.start(turnId, tools)
    for (;;) {
      const pending = [...this.running.values()].filter((call) => call.turnId === turnId)
      if (pending.length === 0) break
      this.keepRunning(turnId)
      await Promise.all(pending.map((call) => call.done))
    }
    if (this.stopped.delete(turnId)) return 'stopped'
    const ran = this.fresh.has(turnId)
    this.fresh.delete(turnId)
    return ran
  }

  /** The stream's end closes the turn's messages; a call that still runs shows as running. */
  private keepRunning(turnId: string): void {
    const state = this.store.getState()
    const ops: Op[] = []
    for (const call of this.running.values()) {
      if (call.turnId === turnId && messageIn(state.messages, call.messageId)?.status !== 'streaming') ops.push({ op: 'message.finish', messageId: call.messageId, status: 'streaming' })
    }
    if (ops.length > 0) state.dispatch(ops)
  }

  /** True while a call of the turn runs. */
  busy(turnId: string): boolean {
    for (const call of this.running.values()) if (call.turnId === turnId) return true
    return false
  }

  /** Abort every running call through its signal; each ends as an `output-error` at once. */
  stop(): void {
    for (const call of this.running.values()) {
      this.stopped.add(call.turnId)
      call.controller.abort()
    }
  }

  private async execute(tool: ClientTool, call: Message, controller: AbortController): Promise<Record<string, unknown>> {
    const { signal } = controller
    const aborted = new Promise<Record<string, unknown>>((resolve) => {
      signal.addEventListener('abort', () => resolve({ state: 'output-error', errorText: STOPPED }), { once: true })
    })
    const ran = (async (): Promise<Record<string, unknown>> => {
      // A microtask first: `execute` never runs inside the store update that revealed its call.
      await Promise.resolve()
      try {
        const output = await tool.execute(call.props.input, { signal, turnId: call.turnId, toolCallId: call.props.toolCallId as string })
        return { state: 'output-available', output }
      } catch (thrown) {
        return { state: 'output-error', errorText: thrown instanceof Error ? thrown.message : String(thrown) }
      }
    })()
    const value = await Promise.race([ran, aborted])
    return signal.aborted ? { state: 'output-error', errorText: STOPPED } : value
  }

  private fold(turnId: string, call: Message, value: Record<string, unknown>): void {
    this.fresh.add(turnId)
    const failed = value.state === 'output-error'
    const ops: Op[] = [
      { op: 'message.delta', turnId, messageId: call.id, type: 'tool', action: 'set', path: '', value },
      { op: 'message.finish', messageId: call.id, status: failed ? 'error' : 'done' },
      failed
        ? { op: 'trace.fail', turnId, nodeId: call.id, tool: call.props.name as string, message: value.errorText as string }
        : { op: 'trace.node', turnId, node: { id: call.id, status: 'done', result: value.output } },
    ]
    this.store.getState().dispatch(ops)
  }
}
