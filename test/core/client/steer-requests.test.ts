/**
 * What a steer and a queued message look like in each protocol's request, whole:
 * Hi / Hello, then "Weather?" whose answer was cut off at "Let me" (steered: the
 * turn ended `aborted`) or finished as "Let me look: sunny" (the queued message
 * went after it), then the new question "In Lyon?". Every protocol must show the
 * model its partial answer before the new message: those that send the whole
 * path (AI SDK, AG-UI, Vocion) carry it as they carry any answer; Yao and
 * LangGraph, whose servers keep the history and get only the new message, send
 * the partial answer the cancelled run never stored, right before it.
 */
import { describe, expect, it } from 'vitest'
import { fold } from '../../../src/core/fold/fold'
import { emptyState, type AgentState } from '../../../src/core/model/model'
import type { Op } from '../../../src/core/model/ops'
import type { RequestContext } from '../../../src/core/protocol/request'
import { agUiRequest } from '../../../src/protocols/ag-ui/request'
import { langGraphRequest, LANGGRAPH_STREAM_MODES } from '../../../src/protocols/langgraph/request'
import { uiMessageRequest } from '../../../src/protocols/ui-message/request'
import { vocionRequest } from '../../../src/protocols/vocion/request'
import { yaoRequest } from '../../../src/protocols/yao/request'

function conversation(second: 'aborted' | 'done'): AgentState {
  const question = (id: string, parentId: string | null, text: string): Op[] => [
    { op: 'turn.open', turnId: id, role: 'user', parentId },
    { op: 'message.put', turnId: id, messageId: `${id}-text`, role: 'user', type: 'text', props: { content: text }, status: 'done' },
    { op: 'turn.finish', turnId: id, status: 'done' },
  ]
  const answer = (id: string, parentId: string, messageId: string, text: string, status: 'aborted' | 'done'): Op[] => [
    { op: 'turn.open', turnId: id, role: 'assistant', parentId, metadata: { messageId } },
    { op: 'message.put', turnId: id, messageId: `${id}-text`, role: 'assistant', type: 'text', props: { content: text }, status: 'done' },
    { op: 'turn.finish', turnId: id, status },
  ]
  return fold(emptyState(), [
    ...question('u1', null, 'Hi'),
    ...answer('a1', 'u1', 'msg-1', 'Hello', 'done'),
    ...question('u2', 'a1', 'Weather?'),
    ...answer('a2', 'u2', 'msg-2', second === 'aborted' ? 'Let me' : 'Let me look: sunny', second),
    ...question('u3', 'a2', 'In Lyon?'),
  ])
}

const context = (state: AgentState): RequestContext => ({
  state, path: ['u1', 'a1', 'u2', 'a2', 'u3'], turnId: 'a3', trigger: 'submit', conversationId: 'chat-1', runId: 'run-1', tools: [], answers: [],
})

const uiText = (id: string, role: string, text: string) => ({ id, role, parts: [{ type: 'text', text, ...(role === 'assistant' ? { state: 'done' } : {}) }] })

describe.each(['aborted', 'done'] as const)('the request after an answer that ended %s', (second) => {
  const partial = second === 'aborted' ? 'Let me' : 'Let me look: sunny'

  it('ui-message: the whole path, the partial answer as an assistant message before the new question', () => {
    expect(uiMessageRequest(context(conversation(second)))).toStrictEqual({
      id: 'chat-1', trigger: 'submit-message',
      messages: [uiText('u1', 'user', 'Hi'), uiText('msg-1', 'assistant', 'Hello'), uiText('u2', 'user', 'Weather?'), uiText('msg-2', 'assistant', partial), uiText('u3', 'user', 'In Lyon?')],
    })
  })

  it('ag-ui: RunAgentInput with the partial answer in messages', () => {
    expect(agUiRequest(context(conversation(second)))).toStrictEqual({
      threadId: 'chat-1', runId: 'run-1', tools: [], context: [], state: {}, forwardedProps: {},
      messages: [
        { id: 'u1-text', role: 'user', content: 'Hi' },
        { id: 'a1-text', role: 'assistant', content: 'Hello' },
        { id: 'u2-text', role: 'user', content: 'Weather?' },
        { id: 'a2-text', role: 'assistant', content: partial },
        { id: 'u3-text', role: 'user', content: 'In Lyon?' },
      ],
    })
  })

  it('vocion: the whole path as plain messages', () => {
    expect(vocionRequest(context(conversation(second)))).toStrictEqual({
      conversationId: 'chat-1',
      messages: [
        { role: 'user', content: 'Hi' }, { role: 'assistant', content: 'Hello' }, { role: 'user', content: 'Weather?' },
        { role: 'assistant', content: partial }, { role: 'user', content: 'In Lyon?' },
      ],
    })
  })

  it('yao: the new question, after the partial answer only when it was stopped (the server keeps the finished one)', () => {
    expect(yaoRequest(context(conversation(second)))).toStrictEqual({
      chat_id: 'chat-1',
      messages: [...(second === 'aborted' ? [{ role: 'assistant', content: 'Let me' }] : []), { role: 'user', content: 'In Lyon?' }],
    })
  })

  it('langgraph: input messages, the stopped run\'s partial answer first', () => {
    expect(langGraphRequest(context(conversation(second)))).toStrictEqual({
      input: { messages: [...(second === 'aborted' ? [{ role: 'assistant', content: 'Let me' }] : []), { id: 'u3-text', role: 'user', content: 'In Lyon?' }] },
      stream_mode: [...LANGGRAPH_STREAM_MODES], stream_subgraphs: true,
    })
  })
})
