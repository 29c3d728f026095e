/**
 * Seven fold behaviours checked against each protocol's own client: where weft
 * used to differ, the test pins what the reference does (or, where weft differs
 * on purpose, what its protocol page says).
 */
import { describe, expect, it } from 'vitest'
import { foldStream } from '../../src/core/fold-stream'
import { messageList } from '../../src/core/message-table'
import type { AgentState, Message, TraceNode } from '../../src/core/model'
import type { Op } from '../../src/core/ops'
import { createAgUiDecoder } from '../../src/protocols/ag-ui/decoder'

type Ev = Record<string, unknown>
const TURN = 'turn-1'
const messagesOf = (state: AgentState): Message[] => messageList(state.messages).filter((m) => m.turnId === TURN)
const codes = (state: AgentState): (string | undefined)[] => state.turns[TURN]!.problems.map((p) => p.code)
const rows = (state: AgentState): TraceNode[] => Object.values(state.trace).filter((n) => n.turnId === TURN)

describe('1. UI message stream: a data part missing an expected field is kept', () => {
  const fold = (chunk: Ev) => foldStream([{ type: 'start' }, chunk, { type: 'finish' }], { protocol: 'ui-message' })

  it('data-terminal-info without data.text keeps the part as a data-terminal-info message, with an invalid problem', () => {
    const state = fold({ type: 'data-terminal-info', id: 'n1', data: { type: 'info' } })
    expect(messagesOf(state).map((m) => [m.type, m.props])).toEqual([['data-terminal-info', { data: { type: 'info' }, id: 'n1' }]])
    expect(codes(state)).toEqual(['invalid'])
  })

  it('data-further-questions without a questions list and data-thinking-step whose data is not an object are kept too', () => {
    const questions = fold({ type: 'data-further-questions', data: { question: 'why?' } })
    expect(messagesOf(questions).map((m) => [m.type, m.props.data])).toEqual([['data-further-questions', { question: 'why?' }]])
    expect(codes(questions)).toEqual(['invalid'])
    const step = fold({ type: 'data-thinking-step', id: 'k', data: 'planning' })
    expect(messagesOf(step).map((m) => [m.type, m.props.data])).toEqual([['data-thinking-step', 'planning']])
    expect(codes(step)).toEqual(['invalid'])
  })
})
