/**
 * Every field of what goes out, compared as one whole object: each protocol's
 * request body as its builder makes it, the request plan (url, method, headers,
 * body, credentials), the `RequestInit` handed to fetch, and AG-UI's whole
 * `RunAgentInput` as the client sends it with the host's headers and credentials.
 * A mutation tool never deletes an object's field, so a field lost on the way is
 * only caught by comparing the whole object. (The client-level requests of the
 * other protocols are pinned in `pins-request-shape.test.ts`; the resume requests,
 * with the host's credentials and headers, in `pins-resume-request.test.ts`.)
 */
import { describe, expect, it } from 'vitest'
import { AgentClient } from '../../helpers/built-in-client'
import type { AgentClientOptions } from '../../../src/core/client/options'
import { fold } from '../../../src/core/fold/fold'
import { emptyState, type AgentState } from '../../../src/core/model/model'
import type { Op } from '../../../src/core/model/ops'
import type { RequestContext } from '../../../src/core/protocol/request'
import { defaultRequest } from '../../../src/core/client/request-plan'
import { createAgentStore } from '../../../src/core/store/store'
import { requestInit } from '../../../src/core/transport/request'
import { agUiRequest } from '../../../src/protocols/ag-ui/request'
import { uiMessageRequest } from '../../../src/protocols/ui-message/request'
import { vocionRequest } from '../../../src/protocols/vocion/request'
import { yaoRequest } from '../../../src/protocols/yao/request'
import { fakeFetch, type Call } from '../../helpers/fake-fetch'

/** A conversation: Hi / Hello / More?, with the answer's turn named by its stream's message id. */
function conversation(): AgentState {
  const ops: Op[] = [
    { op: 'turn.open', turnId: 'u1', role: 'user' },
    { op: 'message.put', turnId: 'u1', messageId: 'u1-text', role: 'user', type: 'text', props: { content: 'Hi' } },
    { op: 'turn.finish', turnId: 'u1', status: 'done' },
    { op: 'turn.open', turnId: 'a1', role: 'assistant', parentId: 'u1', metadata: { messageId: 'msg-1' } },
    { op: 'message.put', turnId: 'a1', messageId: 'a1-text', role: 'assistant', type: 'text', props: { content: 'Hello' } },
    { op: 'turn.finish', turnId: 'a1', status: 'done' },
    { op: 'turn.open', turnId: 'u2', role: 'user', parentId: 'a1' },
    { op: 'message.put', turnId: 'u2', messageId: 'u2-text', role: 'user', type: 'text', props: { content: 'More?' } },
    { op: 'turn.finish', turnId: 'u2', status: 'done' },
    { op: 'agentState.set', value: { city: 'Paris', visits: [1, 2] } },
  ]
  return fold(emptyState(), ops)
}

const context = (state: AgentState, extra: Partial<RequestContext> = {}): RequestContext => ({
  state, path: ['u1', 'a1', 'u2'], turnId: 'a2', trigger: 'submit', conversationId: 'chat-1', runId: 'run-1', tools: [], answers: [], ...extra,
})

const uiText = (id: string, role: string, text: string) => ({ id, role, parts: [{ type: 'text', text, ...(role === 'assistant' ? { state: 'done' } : {}) }] })

describe('each protocol\'s request body, whole', () => {
  it('ui-message: { id, messages, trigger }, plus messageId for a regenerate and a continuation, and resume for a review', () => {
    const state = conversation()
    // A user message goes by its turn's id; an answer by its stream's message id.
    const messages = [uiText('u1', 'user', 'Hi'), uiText('msg-1', 'assistant', 'Hello'), uiText('u2', 'user', 'More?')]
    expect(uiMessageRequest(context(state))).toStrictEqual({ id: 'chat-1', messages, trigger: 'submit-message' })
    expect(uiMessageRequest(context(state, { path: ['u1'], trigger: 'regenerate', replacing: 'a1' }))).toStrictEqual({
      id: 'chat-1', messages: [messages[0]], trigger: 'regenerate-message', messageId: 'msg-1',
    })
    expect(uiMessageRequest(context(state, { path: ['u1', 'a1'], trigger: 'continue' }))).toStrictEqual({
      id: 'chat-1', messages: messages.slice(0, 2), trigger: 'submit-message', messageId: 'msg-1',
    })
    const decisions = { decisions: [{ type: 'approve' }] }
    expect(uiMessageRequest(context(state, { answers: [{ gateId: 'g1', kind: 'action-review', response: decisions }] }))).toStrictEqual({
      id: 'chat-1', messages, trigger: 'submit-message', resume: decisions,
    })
  })

  it('yao: { chat_id, messages: [the newest question] }', () => {
    expect(yaoRequest(context(conversation()))).toStrictEqual({ chat_id: 'chat-1', messages: [{ role: 'user', content: 'More?' }] })
  })

  it('vocion: { conversationId, messages: the whole path }', () => {
    expect(vocionRequest(context(conversation()))).toStrictEqual({
      conversationId: 'chat-1',
      messages: [{ role: 'user', content: 'Hi' }, { role: 'assistant', content: 'Hello' }, { role: 'user', content: 'More?' }],
    })
  })

  it('ag-ui: the whole RunAgentInput, with tools, the shared state and the interrupts it answers', () => {
    const state = conversation()
    const body = agUiRequest(context(state, {
      runId: 'run-7',
      tools: [{ name: 'search', description: 'Find things', parameters: { type: 'object' } }, { name: 'noop' }],
      answers: [
        { gateId: 'g1', kind: 'interrupt', interruptId: 'int-1', response: { approved: true } },
        { gateId: 'g2', kind: 'approval', interruptId: 'ap-1', response: { approved: false } },
        { gateId: 'g3', kind: 'interrupt', response: 'no id' },
      ],
    }))
    expect(body).toStrictEqual({
      threadId: 'chat-1',
      runId: 'run-7',
      messages: [
        { id: 'u1-text', role: 'user', content: 'Hi' },
        { id: 'a1-text', role: 'assistant', content: 'Hello' },
        { id: 'u2-text', role: 'user', content: 'More?' },
      ],
      tools: [{ name: 'search', description: 'Find things', parameters: { type: 'object' } }, { name: 'noop', description: '' }],
      context: [],
      state: { city: 'Paris', visits: [1, 2] },
      forwardedProps: {},
      resume: [{ interruptId: 'int-1', status: 'resolved', payload: { approved: true } }],
    })
    expect(agUiRequest(context(state, { path: [] }))).toStrictEqual({
      threadId: 'chat-1', runId: 'run-1', messages: [], tools: [], context: [], state: { city: 'Paris', visits: [1, 2] }, forwardedProps: {},
    })
  })
})

describe('the request plan, whole', () => {
  const headersOf = (plan: ReturnType<typeof defaultRequest>) => ({ ...plan, headers: Object.fromEntries(new Headers(plan.headers).entries()) })

  it('a POST of the built body as JSON, with the host\'s headers and credentials', () => {
    const plan = defaultRequest({ url: '/api/agent', headers: { authorization: 'Bearer t' }, credentials: 'include' }, 'Hi', 'turn-1', { messages: [] })
    expect(headersOf(plan)).toStrictEqual({
      url: '/api/agent', method: 'POST', headers: { authorization: 'Bearer t', 'content-type': 'application/json' }, body: '{"messages":[]}', credentials: 'include',
    })
  })

  it('without a built body, { input } of the text; headers read from a function; credentials left unset', () => {
    const plan = defaultRequest({ url: '/api/agent', headers: () => ({ 'x-a': '1' }) }, { text: 'Hi' }, 'turn-1')
    expect(headersOf(plan)).toStrictEqual({ url: '/api/agent', method: 'POST', headers: { 'content-type': 'application/json', 'x-a': '1' }, body: '{"input":"Hi"}', credentials: undefined })
  })

  it('a GET sends no body and no content type; a string body goes as it is', () => {
    expect(headersOf(defaultRequest({ url: '/a', method: 'GET', credentials: 'same-origin' }, 'Hi', 't', { messages: [] }))).toStrictEqual({
      url: '/a', method: 'GET', headers: {}, body: null, credentials: 'same-origin',
    })
    expect(headersOf(defaultRequest({ url: '/a', body: 'raw text' }, 'Hi', 't'))).toStrictEqual({ url: '/a', method: 'POST', headers: {}, body: 'raw text', credentials: undefined })
  })
})

describe('the RequestInit handed to fetch, whole', () => {
  it('method, headers with accept, signal, body and credentials', () => {
    const signal = new AbortController().signal
    const init = requestInit({ url: '/x', method: 'POST', headers: { authorization: 'Bearer t' }, body: '{}', credentials: 'include' }, 'text/event-stream', signal, { 'last-event-id': 'e3' })
    expect({ ...init, headers: Object.fromEntries(new Headers(init.headers).entries()) }).toStrictEqual({
      method: 'POST', headers: { accept: 'text/event-stream', authorization: 'Bearer t', 'last-event-id': 'e3' }, signal, body: '{}', credentials: 'include',
    })
  })

  it('a bare request: a GET with only accept', () => {
    const init = requestInit({ url: '/x' }, 'application/json', undefined)
    expect({ ...init, headers: Object.fromEntries(new Headers(init.headers).entries()) }).toStrictEqual({ method: 'GET', headers: { accept: 'application/json' } })
  })
})

describe('AG-UI through the client: the whole request', () => {
  const API = 'http://agent.test/api/agent'
  const sse = (events: unknown[]) => new Response(events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join(''), { status: 200, headers: { 'content-type': 'text/event-stream' } })
  const seen = (call: Call) => {
    const { headers, body, ...rest } = call.init
    return { url: call.url, ...rest, headers: Object.fromEntries(new Headers(headers).entries()), body: JSON.parse(body as string) as Record<string, unknown> }
  }

  it('every field of the first send, the host\'s headers and credentials with it', async () => {
    let runs = 0
    const { fetch, calls } = fakeFetch(() => {
      const runId = `r${++runs}`
      return sse([
        { type: 'RUN_STARTED', threadId: 'thread-1', runId },
        { type: 'TEXT_MESSAGE_START', messageId: `m${runs}`, role: 'assistant' },
        { type: 'TEXT_MESSAGE_CONTENT', messageId: `m${runs}`, delta: 'Hello' },
        { type: 'TEXT_MESSAGE_END', messageId: `m${runs}` },
        { type: 'RUN_FINISHED', threadId: 'thread-1', runId },
      ])
    })
    const store = createAgentStore()
    const options: AgentClientOptions = {
      url: API, protocol: 'ag-ui', conversationId: 'thread-1', credentials: 'include', headers: { authorization: 'Bearer abc' }, fetch,
      tools: { lookup: { description: 'Look it up', parameters: { type: 'object', properties: {} }, execute: () => null } },
    }
    const client = new AgentClient(store, options)
    await client.send('Hi')
    const [first] = calls.map(seen)
    const question = store.getState().turnIds[0]!
    const userMessageId = store.getState().turns[question]!.messageIds[0]!
    expect(first).toStrictEqual({
      url: API, method: 'POST', signal: expect.any(AbortSignal), credentials: 'include',
      headers: { accept: 'text/event-stream', authorization: 'Bearer abc', 'content-type': 'application/json' },
      body: {
        threadId: 'thread-1', runId: expect.any(String),
        messages: [{ id: userMessageId, role: 'user', content: 'Hi' }],
        tools: [{ name: 'lookup', description: 'Look it up', parameters: { type: 'object', properties: {} } }],
        context: [], state: {}, forwardedProps: {},
      },
    })
    await client.send('More?')
    const second = seen(calls[1]!)
    expect(second.body.messages).toStrictEqual([
      { id: userMessageId, role: 'user', content: 'Hi' },
      { id: 'm1', role: 'assistant', content: 'Hello' },
      { id: store.getState().turns[store.getState().turnIds[2]!]!.messageIds[0]!, role: 'user', content: 'More?' },
    ])
    expect(second.body.runId).not.toBe(first!.body.runId)
  })
})
