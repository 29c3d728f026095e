/**
 * The AG-UI event names the decoder knows, and small readers for wire values.
 */
import type { DetectInput } from '../../core/index'
import { isRecord } from '../../protocol-kit/index'

/**
 * Every AG-UI 1.0 event type, plus the `THINKING_*` events of the 0.0.x line
 * that servers still send.
 *
 * @example
 * AG_UI_EVENT_TYPES.has('TOOL_CALL_RESULT') // true
 */
export const AG_UI_EVENT_TYPES: ReadonlySet<string> = new Set([
  'RUN_STARTED', 'RUN_FINISHED', 'RUN_ERROR',
  'STEP_STARTED', 'STEP_FINISHED',
  'TEXT_MESSAGE_START', 'TEXT_MESSAGE_CONTENT', 'TEXT_MESSAGE_END', 'TEXT_MESSAGE_CHUNK',
  'TOOL_CALL_START', 'TOOL_CALL_ARGS', 'TOOL_CALL_END', 'TOOL_CALL_RESULT', 'TOOL_CALL_CHUNK',
  'REASONING_START', 'REASONING_END',
  'REASONING_MESSAGE_START', 'REASONING_MESSAGE_CONTENT', 'REASONING_MESSAGE_END', 'REASONING_MESSAGE_CHUNK',
  'REASONING_ENCRYPTED_VALUE',
  'STATE_SNAPSHOT', 'STATE_DELTA', 'MESSAGES_SNAPSHOT',
  'ACTIVITY_SNAPSHOT', 'ACTIVITY_DELTA',
  'RAW', 'CUSTOM',
  'SUBAGENT_STARTED', 'SUBAGENT_FINISHED', 'SUBAGENT_ERROR',
  // 0.0.x, deprecated in favour of REASONING_*
  'THINKING_START', 'THINKING_END',
  'THINKING_TEXT_MESSAGE_START', 'THINKING_TEXT_MESSAGE_CONTENT', 'THINKING_TEXT_MESSAGE_END',
])

/**
 * How sure it is that a stream speaks AG-UI: 1 for an `event:` line naming an
 * AG-UI event, 0.9 for a `type` field that does, 0 otherwise.
 *
 * @example
 * sniffAgUi({ meta: { event: 'RUN_STARTED' }, first: {} }) // 1
 * sniffAgUi({ first: { type: 'TEXT_MESSAGE_START', messageId: 'm1' } }) // 0.9
 */
export function sniffAgUi({ first, meta }: DetectInput): number {
  if (meta?.event !== undefined && AG_UI_EVENT_TYPES.has(meta.event)) return 1
  if (isRecord(first) && typeof first.type === 'string' && AG_UI_EVENT_TYPES.has(first.type)) return 0.9
  return 0
}

/**
 * The first of `names` present on `record` as a string (empty strings count).
 *
 * @example
 * textField({ text: 'Hi' }, 'content', 'text') // 'Hi'
 */
export function textField(record: Record<string, unknown>, ...names: string[]): string | undefined {
  for (const name of names) {
    const value = record[name]
    if (typeof value === 'string') return value
  }
  return undefined
}
