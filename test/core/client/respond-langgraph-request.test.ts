/**
 * A tool the UI answers, on LangGraph: the result `respond` records goes in the
 * continuation as LangChain's tool message, the body compared whole.
 */
import { describe, expect, it } from 'vitest'
import { respondOps } from '../../../src/core/client/respond'
import { fold } from '../../../src/core/fold/fold'
import { messageIn } from '../../../src/core/model/message-table'
import { emptyState } from '../../../src/core/model/model'
import { langGraphRequest } from '../../../src/protocols/langgraph/request'

describe('respond on LangGraph', () => {
  it('continues with input: { messages: [{ role: "tool", tool_call_id, content }] }', () => {
    let state = fold(emptyState(), [
      { op: 'turn.open', turnId: 'u1', role: 'user' },
      { op: 'message.put', turnId: 'u1', messageId: 'u1-text', role: 'user', type: 'text', props: { content: 'Pick a colour' } },
      { op: 'turn.finish', turnId: 'u1', status: 'done' },
      { op: 'turn.open', turnId: 'a1', role: 'assistant', parentId: 'u1' },
      { op: 'message.put', turnId: 'a1', messageId: 'ai-1/call-pick', role: 'assistant', type: 'tool', props: { toolCallId: 'call-pick', name: 'pickColor', input: { options: ['teal'] }, state: 'input-available' } },
      { op: 'turn.finish', turnId: 'a1', status: 'done' },
    ])
    state = fold(state, respondOps(messageIn(state.messages, 'ai-1/call-pick')!, { color: 'teal' }).apply)
    const body = langGraphRequest({ state, path: ['u1', 'a1'], turnId: 'a1', trigger: 'continue', conversationId: 't1', runId: 'r1', tools: [], answers: [] })
    expect(body).toStrictEqual({
      input: { messages: [{ role: 'tool', tool_call_id: 'call-pick', content: '{"color":"teal"}' }] },
      stream_mode: ['values', 'messages-tuple', 'updates', 'custom'],
      stream_subgraphs: true,
    })
  })
})
