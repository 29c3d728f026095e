/**
 * The tool calls of a turn as the loop sees them: which ones the client runs,
 * and when nothing in the turn waits any more so the answer may go on.
 */
import type { AgentState, Message } from '../model/model'
import { own } from '../util/record'
import { messageIn } from '../model/message-table'
import type { UiTool } from './respond'

/**
 * A tool the browser runs. Its output (or its error's message) goes back to the
 * server in the next request.
 *
 * @example
 * const getLocation: ClientTool = { description: "The user's city", execute: async () => ({ city: 'Paris' }) }
 */
export interface ClientTool {
  description?: string
  /** JSON Schema of the input (AG-UI declares it in `RunAgentInput.tools`). */
  parameters?: unknown
  execute(input: unknown, context: { signal: AbortSignal; turnId: string; toolCallId: string }): unknown
}
/** The turn's tool message of a call. */
export function toolMessage(state: AgentState, turnId: string, toolCallId: string): Message | undefined {
  const turn = own(state.turns, turnId)
  if (!turn) return undefined
  for (const id of turn.messageIds) {
    const message = messageIn(state.messages, id)
    if (message?.type === 'tool' && message.props.toolCallId === toolCallId) return message
  }
  return undefined
}

/** Tool calls of a turn whose input is complete, that the client runs and has not run. */
export function clientCalls(state: AgentState, turnId: string, tools: Readonly<Record<string, ClientTool | UiTool>>, started: ReadonlySet<string>): Message[] {
  const turn = own(state.turns, turnId)
  if (!turn) return []
  const out: Message[] = []
  for (const id of turn.messageIds) {
    const message = messageIn(state.messages, id)
    if (!message || message.type !== 'tool' || message.props.providerExecuted === true) continue
    const name = message.props.name
    const callId = message.props.toolCallId
    if (message.props.state !== 'input-available' || typeof name !== 'string' || typeof callId !== 'string') continue
    // A tool the UI answers waits for `respond`; nothing runs it here.
    const tool = own(tools, name)
    if (!tool || !('execute' in tool) || typeof tool.execute !== 'function' || started.has(callId)) continue
    out.push(message)
  }
  return out
}

/**
 * True when nothing in the turn waits for the user or the client: every tool
 * call the server did not run has a result or an answered approval, and every gate is resolved.
 * A stopped turn waits only for its gates.
 */
export function turnSettled(state: AgentState, turnId: string): boolean {
  const turn = own(state.turns, turnId)
  if (!turn || (turn.status !== 'done' && turn.status !== 'aborted')) return false
  for (const id of turn.gateIds) if (own(state.gates, id)?.status === 'pending') return false
  // A stopped turn goes on only with the person's answers: a call cut off mid-input will not complete.
  if (turn.status === 'aborted') return true
  for (const id of turn.messageIds) {
    const message = messageIn(state.messages, id)
    if (!message || message.type !== 'tool' || message.props.providerExecuted === true) continue
    const s = message.props.state
    if (s === 'input-streaming' || s === 'input-available' || s === 'approval-requested') return false
    if (message.props.preliminary === true) return false
  }
  return true
}
