/** Helpers to read a folded Yao state in tests. */
import type { AgentState, Message } from '../../src/core/model/model'
import { messageIn } from '../../src/core/model/message-table'

/** Messages of a turn in order. */
export function messagesOf(state: AgentState, turnId = 'turn-1'): Message[] {
  return (state.turns[turnId]?.messageIds ?? []).map((id) => messageIn(state.messages, id) as Message)
}

/** `props.content` of each message of a turn. */
export function contents(state: AgentState, turnId = 'turn-1'): unknown[] {
  return messagesOf(state, turnId).map((m) => m.props.content)
}

/** SSE text for a list of events. */
export function sse(events: readonly unknown[]): string {
  return events.map((e) => `data: ${typeof e === 'string' ? e : JSON.stringify(e)}\n\n`).join('')
}
