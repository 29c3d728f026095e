/**
 * Server-chosen ids become keys of the model's records. None of them may reach
 * an object prototype or a built-in, whatever the protocol.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { foldStream } from '../../../src/umbrella/defaults'
import type { AgentState } from '../../../src/core/model/model'
import { messageIn, messageList, messageRecord } from '../../../src/core/model/message-table'
import { traceRecord } from '../../../src/core/model/trace-table'

const HOSTILE = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf']

function expectNoPollution(): void {
  const probe: Record<string, unknown> = {}
  for (const key of ['status', 'props', 'polluted', 'turnId', 'childIds', 'messageIds']) {
    expect(probe[key], key).toBeUndefined()
    expect(Object.prototype.hasOwnProperty.call(Object.prototype, key), key).toBe(false)
    expect(Object.prototype.hasOwnProperty.call(Object, key), key).toBe(false)
    expect(Object.prototype.hasOwnProperty.call(Object.prototype.toString, key), key).toBe(false)
  }
}

function expectPlainRecords(state: AgentState): void {
  for (const record of [state.turns, messageRecord(state.messages), state.blocks, state.threads, traceRecord(state.trace), state.gates]) {
    expect(Object.getPrototypeOf(record)).toBe(Object.prototype)
  }
}

afterEach(() => {
  // If a test polluted anyway, do not let it leak into the next.
  for (const key of ['status', 'props', 'polluted', 'turnId', 'childIds', 'messageIds']) {
    delete (Object.prototype as Record<string, unknown>)[key]
  }
})

describe('hostile ids', () => {
  it.each(HOSTILE)('AG-UI message, tool call, step and interrupt ids named %s', (id) => {
    const state = foldStream([
      { type: 'RUN_STARTED', threadId: id, runId: id },
      { type: 'STEP_STARTED', stepName: id },
      { type: 'TEXT_MESSAGE_START', messageId: id, role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: id, delta: 'hello' },
      { type: 'TEXT_MESSAGE_END', messageId: id },
      { type: 'TOOL_CALL_START', toolCallId: id, toolCallName: 'search', parentMessageId: id },
      { type: 'TOOL_CALL_ARGS', toolCallId: id, delta: '{"q":1}' },
      { type: 'TOOL_CALL_END', toolCallId: id },
      { type: 'TOOL_CALL_RESULT', messageId: `${id}-r`, toolCallId: id, content: '{}' },
      { type: 'SUBAGENT_STARTED', subagentRunId: id, name: id },
      { type: 'STEP_FINISHED', stepName: id },
      { type: 'RUN_FINISHED', threadId: id, runId: id, outcome: { type: 'interrupt', interrupts: [{ id, reason: 'ok?' }] } },
    ], { protocol: 'ag-ui' })
    expectNoPollution()
    expectPlainRecords(state)
    const turn = state.turns['turn-1']!
    if (id === '__proto__' || id === 'constructor' || id === 'prototype') {
      expect(turn.problems.some((p) => p.message.includes(id))).toBe(true)
    } else {
      // Ordinary names that happen to be on Object.prototype are ordinary ids.
      expect(Object.prototype.hasOwnProperty.call(messageRecord(state.messages), id)).toBe(true)
      expect(messageIn(state.messages, id)!.props.content).toBe('hello')
    }
  })

  it.each(HOSTILE)('Yao, UI stream and Vocion ids named %s are scoped and harmless', (id) => {
    const yao = foldStream([{ chunk_id: id, message_id: id, block_id: id, thread_id: id, type: 'text', props: { content: 'a' }, delta: true }], { protocol: 'yao' })
    const ui = foldStream([
      { type: 'start', messageId: id }, { type: 'text-start', id }, { type: 'text-delta', id, delta: 'b' },
      { type: 'tool-input-start', toolCallId: id, toolName: id }, { type: 'tool-output-available', toolCallId: id, output: {} },
      { type: 'data-thinking-step', data: { id, title: 't', status: 'completed' } }, { type: 'finish' },
    ], { protocol: 'ui-message' })
    const vocion = foldStream([
      { type: 'trace_node', id, parentId: id, kind: 'tool', status: 'start', label: id, actor: { id, kind: 'lead', name: id } },
      { type: 'hitl_gate', gate: { name: id, question: '?' } },
      { type: 'done', response: 'c' },
    ], { protocol: 'vocion' })
    expectNoPollution()
    for (const state of [yao, ui, vocion]) expectPlainRecords(state)
    expect(messageList(yao.messages).map((m) => m.props.content)).toEqual(['a'])
  })

  it('history and snapshots with hostile ids are refused, not applied', () => {
    const state = foldStream([
      { type: 'MESSAGES_SNAPSHOT', messages: [{ id: '__proto__', role: 'assistant', content: 'x' }, { id: 'ok', role: 'assistant', content: 'fine' }] },
    ], { protocol: 'ag-ui' })
    expectNoPollution()
    expect(messageIn(state.messages, 'ok')!.props.content).toBe('fine')
  })
})
