/**
 * `interrupt()` as gates. A node that calls `interrupt(value)` ends the run
 * with `{ __interrupt__: [{ id, value }] }`; each becomes a gate of kind
 * `interrupt` whose payload is the value, answered with `command: { resume }`.
 */
import type { Op } from '../../core/index'
import { idOf, isRecord, nonEmpty } from '../../protocol-kit/index'
import type { LangGraphStream } from './stream-state'

/**
 * The question a gate shows for an interrupt's value: its `question`,
 * `message` or `description`, the value itself when it is text, else a default.
 *
 * @example
 * interruptQuestion({ question: 'Send this email?' }) // 'Send this email?'
 */
export function interruptQuestion(value: unknown): string {
  if (typeof value === 'string' && value.trim() !== '') return value
  if (isRecord(value)) {
    const asked = nonEmpty(value.question) ?? nonEmpty(value.message) ?? nonEmpty(value.description)
    if (asked) return asked
    const requests = Array.isArray(value.action_requests) ? value.action_requests : undefined
    const first = requests?.[0]
    if (isRecord(first)) return nonEmpty(first.description) ?? `Allow ${nonEmpty(first.name) ?? 'this action'}?`
  }
  return 'The agent is waiting for your answer.'
}

/**
 * The tool call an interrupt's value names: `tool_call_id` / `toolCallId`, else
 * the latest call of the stream to the tool it names (`tool`, `name`) that has no result yet.
 *
 * @example
 * interruptedCall(stream, { tool: 'send_email' }) // 'call_email_1'
 */
function interruptedCall(stream: LangGraphStream, value: unknown): string | undefined {
  if (!isRecord(value)) return undefined
  const named = idOf(value.tool_call_id) ?? idOf(value.toolCallId)
  if (named) return named
  const tool = nonEmpty(value.tool) ?? nonEmpty(value.name)
  if (!tool) return undefined
  let found: string | undefined
  for (const call of stream.calls.values()) if (call.name === tool && !call.resulted) found = call.id
  return found
}

/**
 * Gates for a list of interrupts; each interrupt id opens one gate, once.
 *
 * @example
 * interruptOps(stream, [{ id: 'i1', value: { question: 'Send this email?' } }], ['approval:7f'])
 */
export function interruptOps(stream: LangGraphStream, list: unknown, namespace: readonly string[]): Op[] {
  if (!Array.isArray(list)) return [stream.problem('"__interrupt__" is not a list', list, 'interrupt')]
  const ops: Op[] = []
  for (const item of list) {
    if (!isRecord(item)) {
      ops.push(stream.problem('an interrupt that is not an object', item, 'interrupt'))
      continue
    }
    const interruptId = idOf(item.id) ?? idOf(item.interrupt_id)
    const gateId = interruptId ?? stream.fresh('interrupt')
    if (stream.gates.has(gateId)) continue
    stream.gates.add(gateId)
    const value = item.value
    const toolCallId = interruptedCall(stream, value)
    const extra: Record<string, unknown> = { ...(interruptId ? { interruptId } : {}), ...(namespace.length ? { namespace: namespace.join('|') } : {}) }
    ops.push({
      op: 'gate.open',
      gate: {
        id: gateId, turnId: stream.turnId, kind: 'interrupt', question: interruptQuestion(value), payload: value ?? null,
        ...(toolCallId ? { toolCallId } : {}), ...(Object.keys(extra).length ? { extra } : {}),
      },
    })
    const call = toolCallId ? stream.calls.get(toolCallId) : undefined
    if (call && !call.resulted) {
      ops.push({ op: 'message.delta', ...stream.place(call.messageId, 'tool', call.lane), action: 'set', path: 'state', value: 'approval-requested' })
    }
  }
  return ops
}
