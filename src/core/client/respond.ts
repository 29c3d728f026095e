/**
 * Tools the UI answers: a call the agent leaves for a person (a form, a choice)
 * gets its result from the page through `respond`, recorded on the call the way
 * a client tool's result is, and carried by the next request.
 */
import { weftError, type WeftError } from '../model/errors'
import type { AgentState, Message } from '../model/model'
import type { Op } from '../model/ops'
import { isJsonData } from '../util/is-json-data'
import { own } from '../util/record'
import { messageIn } from '../model/message-table'
import type { ClientContext } from './context'
import type { ContinuationLoop } from './continuation-loop'
import type { ClientTool } from './tool-calls'

/**
 * A tool the UI answers: the agent calls it, a renderer of the call asks the
 * person, and its `respond(result)` sends the result back. Declared in the
 * client's `tools` beside the tools the browser runs, so the request names it
 * to servers that take a list of the client's tools (AG-UI's `tools`).
 *
 * @example
 * const options: AgentClientOptions = { url: '/api/chat', tools: { pickColor: { ui: true, description: 'Ask the user for a colour' } } }
 */
export interface UiTool {
  ui: true
  description?: string
  /** JSON Schema of the input. */
  parameters?: unknown
}

/**
 * What `respond` reports: the result was recorded (and its continuation, if the
 * server answered, went through), or it was refused and nothing was sent.
 *
 * @example
 * const result: RespondResult = await client.respond(toolCallId, { color: 'teal' })
 * if (!result.ok) console.warn(result.error.code, result.error.message)
 */
export type RespondResult = { ok: true } | { ok: false; error: WeftError }

/** Why `respond` refuses, as the error's `code`. */
type Refusal = 'unknown_call' | 'not_ui_tool' | 'answered' | 'input_incomplete' | 'stopped' | 'not_json'

function refusal(code: Refusal, message: string): { error: WeftError } {
  return { error: weftError('validation', message, { code, retryable: false }) }
}

/** The newest tool message of the active path with this call id. */
function callOf(state: AgentState, toolCallId: string): Message | undefined {
  for (let i = state.turnIds.length - 1; i >= 0; i--) {
    const turn = own(state.turns, state.turnIds[i] as string)
    if (!turn) continue
    for (const id of turn.messageIds) {
      const message = messageIn(state.messages, id)
      if (message?.type === 'tool' && message.props.toolCallId === toolCallId) return message
    }
  }
  return undefined
}

/**
 * The call `respond` answers, or why it may not: it must be on the active path,
 * of a tool declared `{ ui: true }`, complete, without a result, in a turn the
 * person did not stop, and the result must be JSON data.
 *
 * @example
 * checkRespond(store.getState(), { pickColor: { ui: true } }, 'call-1', { color: 'teal' })
 */
export function checkRespond(
  state: AgentState, tools: Readonly<Record<string, ClientTool | UiTool>> | undefined, toolCallId: string, output: unknown,
): { call: Message } | { error: WeftError } {
  const call = callOf(state, toolCallId)
  if (!call) return refusal('unknown_call', `there is no tool call "${toolCallId}" on the active path`)
  const name = typeof call.props.name === 'string' ? call.props.name : ''
  const tool = tools ? own(tools, name) : undefined
  if (!tool || !('ui' in tool) || tool.ui !== true || call.props.providerExecuted === true) {
    return refusal('not_ui_tool', `"${name}" is not a tool the UI answers; declare it in the client's tools as { ui: true }`)
  }
  const s = call.props.state
  if (s === 'output-available' || s === 'output-error' || s === 'output-denied') return refusal('answered', `the tool call "${toolCallId}" already has a result`)
  if (s !== 'input-available') return refusal('input_incomplete', `the tool call "${toolCallId}" is not waiting for a result (${String(s)})`)
  if (own(state.turns, call.turnId)?.status === 'aborted') return refusal('stopped', 'the answer that made this call was stopped')
  if (!isJsonData(output)) return refusal('not_json', 'a tool result must be JSON data (no functions, class instances or cycles)')
  return { call }
}

/**
 * The ops that record the result on the call (as a client tool's result is)
 * and, apart, the ones that put the call back to waiting if a stop withdraws it.
 *
 * @example
 * const { apply, undo } = respondOps(call, { color: 'teal' })
 */
export function respondOps(call: Message, output: unknown): { apply: Op[]; undo: Op[] } {
  const turnId = call.turnId
  const name = String(call.props.name)
  return {
    apply: [
      { op: 'message.delta', turnId, messageId: call.id, type: 'tool', action: 'set', path: '', value: { state: 'output-available', output } },
      { op: 'message.finish', messageId: call.id, status: 'done' },
      { op: 'trace.node', turnId, node: { id: call.id, kind: 'tool', tool: name, label: name, status: 'done', result: output } },
    ],
    undo: [
      { op: 'message.delta', turnId, messageId: call.id, type: 'tool', action: 'replace', path: '', value: { ...call.props } },
      { op: 'message.finish', messageId: call.id, status: call.status === 'streaming' ? 'done' : call.status },
    ],
  }
}

/**
 * Record the UI's result on the call at once, then continue the answer with the
 * protocol's continuation request, exactly as a client tool's result does. A
 * refused call changes nothing and sends nothing.
 *
 * @example
 * await respond(context, loop, 'call-1', { color: 'teal' })
 */
export async function respond(ctx: ClientContext, loop: ContinuationLoop, toolCallId: string, output: unknown): Promise<RespondResult> {
  const state = ctx.store.getState()
  const checked = checkRespond(state, ctx.options.tools, toolCallId, output)
  if ('error' in checked) return { ok: false, error: checked.error }
  const { apply, undo } = respondOps(checked.call, output)
  state.dispatch(apply)
  const failure = await loop.carry(checked.call.turnId, undo)
  return failure ? { ok: false, error: failure } : { ok: true }
}
