/**
 * The whole request the client sends, compared as one object (URL, method, every
 * header, credentials, signal and the body's JSON), for a send, a regenerate, an
 * edit and the continuation after a gate's answer, per protocol: the AI SDK chat
 * request, Yao's and Vocion's bodies, and for AG-UI the envelope only (its
 * `RunAgentInput` has tests of its own). A field dropped anywhere on the way (the
 * body builder, the host's options, the request plan) fails here.
 */
import { describe, expect, it } from 'vitest'
import { type AgentClientOptions } from '../../../src/core/client'
import { AgentClient } from '../../helpers/built-in-client'
import type { AgentState } from '../../../src/core/model/model'
import { createAgentStore, type AgentStore } from '../../../src/core/store/store'
import { fakeFetch, type Call } from '../../helpers/fake-fetch'

const API = 'http://agent.test/api/chat'
const HOST_HEADERS = { authorization: 'Bearer abc', 'x-tenant': 'acme' }
/** What every request of a send carries besides its body. */
const POST_HEADERS = { accept: 'text/event-stream', authorization: 'Bearer abc', 'content-type': 'application/json', 'x-tenant': 'acme' }

function sse(events: unknown[], done = false): Response {
  const text = events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('') + (done ? 'data: [DONE]\n\n' : '')
  return new Response(text, { status: 200, headers: { 'content-type': 'text/event-stream' } })
}

/** A request as the fake fetch saw it: every field of its `RequestInit`, headers as an object, the body parsed. */
function seen(call: Call): Record<string, unknown> {
  const { headers, body, ...rest } = call.init
  return {
    url: call.url, ...rest, headers: Object.fromEntries(new Headers(headers).entries()),
    ...(body !== undefined ? { body: typeof body === 'string' ? JSON.parse(body) : body } : {}),
  }
}

/** A POST of the client's own, with `body` as its JSON. */
const post = (body: unknown) => ({ url: API, method: 'POST', signal: expect.any(AbortSignal), credentials: 'include', headers: POST_HEADERS, body })

/** A client whose fetch answers each request with the next response queued. */
function setup(protocol: AgentClientOptions['protocol'], extra: Partial<AgentClientOptions> = {}) {
  const queue: Array<() => Response> = []
  const { fetch, calls } = fakeFetch(() => {
    const next = queue.shift()
    if (!next) throw new Error('no response queued')
    return next()
  })
  const store = createAgentStore()
  const client = new AgentClient(store, { url: API, protocol, conversationId: 'chat-1', credentials: 'include', headers: HOST_HEADERS, fetch, ...extra })
  return { store, client, calls, reply: (response: () => Response) => queue.push(response) }
}

const ids = (store: AgentStore) => store.getState().turnIds
const pendingGate = (s: AgentState) => Object.values(s.gates).find((g) => g.status === 'pending')!

describe('ui-message: the AI SDK chat request', () => {
  const answer = (messageId: string, text: string) => () => sse([
    { type: 'start', messageId },
    { type: 'text-start', id: 't' },
    { type: 'text-delta', id: 't', delta: text },
    { type: 'text-end', id: 't' },
    { type: 'finish' },
  ], true)
  const user = (id: string, text: string) => ({ id, role: 'user', parts: [{ type: 'text', text }] })
  const assistant = (id: string, text: string) => ({ id, role: 'assistant', parts: [{ type: 'text', text, state: 'done' }] })

  it('send, regenerate, edit and an approval\'s continuation, each exactly', async () => {
    const { store, client, calls, reply } = setup('ui-message')
    reply(answer('msg-1', 'Hello'))
    await client.send('Hi')
    const [q1] = ids(store) as [string]
    expect(seen(calls[0]!)).toStrictEqual(post({ id: 'chat-1', messages: [user(q1, 'Hi')], trigger: 'submit-message' }))

    reply(answer('msg-2', 'Hello again'))
    expect(await client.regenerate()).toEqual({ ok: true })
    expect(seen(calls[1]!)).toStrictEqual(post({ id: 'chat-1', messages: [user(q1, 'Hi')], trigger: 'regenerate-message', messageId: 'msg-1' }))

    reply(answer('msg-3', 'Hello there'))
    expect(await client.edit(q1, 'Hi there')).toEqual({ ok: true })
    const [q1b] = ids(store) as [string]
    expect(q1b).not.toBe(q1)
    expect(seen(calls[2]!)).toStrictEqual(post({ id: 'chat-1', messages: [user(q1b, 'Hi there')], trigger: 'submit-message' }))

    reply(() => sse([
      { type: 'start', messageId: 'msg-4' },
      { type: 'tool-input-available', toolCallId: 'call-1', toolName: 'deleteFile', input: { path: '/r.txt' } },
      { type: 'tool-approval-request', approvalId: 'ap-1', toolCallId: 'call-1' },
      { type: 'finish' },
    ], true))
    await client.send('delete it')
    const q2 = ids(store)[2]!
    const before = [user(q1b, 'Hi there'), assistant('msg-3', 'Hello there'), user(q2, 'delete it')]
    expect(seen(calls[3]!)).toStrictEqual(post({ id: 'chat-1', messages: before, trigger: 'submit-message' }))

    reply(answer('msg-4', 'Kept it.'))
    expect(await client.answer(pendingGate(store.getState()).id, { approved: false, reason: 'keep it' })).toEqual({ ok: true })
    expect(seen(calls[4]!)).toStrictEqual(post({
      id: 'chat-1',
      messages: [...before, {
        id: 'msg-4', role: 'assistant',
        parts: [{
          type: 'tool-deleteFile', toolCallId: 'call-1', state: 'approval-responded', input: { path: '/r.txt' },
          approval: { id: 'ap-1', approved: false, reason: 'keep it' },
        }],
      }],
      trigger: 'submit-message',
      messageId: 'msg-4',
    }))
    expect(calls).toHaveLength(5)
  })
})

describe('yao: { chat_id, messages: [the newest question] }', () => {
  let seq = 0
  const answer = (text: string) => () => sse([
    { chunk_id: 'C1', type: 'event', props: { event: 'stream_start', data: { request_id: `q${++seq}` } } },
    { chunk_id: 'C2', message_id: 'M1', type: 'text', props: { content: text } },
    { chunk_id: 'C3', type: 'event', props: { event: 'stream_end', data: { status: 'completed' } } },
  ])

  it('send, regenerate, edit and a continuation after a gate\'s answer, each exactly', async () => {
    const { store, client, calls, reply } = setup('yao')
    reply(answer('Hello'))
    await client.send('Hi')
    expect(seen(calls[0]!)).toStrictEqual(post({ chat_id: 'chat-1', messages: [{ role: 'user', content: 'Hi' }] }))

    reply(answer('Hello again'))
    expect(await client.regenerate()).toEqual({ ok: true })
    expect(seen(calls[1]!)).toStrictEqual(post({ chat_id: 'chat-1', messages: [{ role: 'user', content: 'Hi' }] }))

    reply(answer('Hello there'))
    expect(await client.edit(ids(store)[0]!, 'Hi there')).toEqual({ ok: true })
    expect(seen(calls[2]!)).toStrictEqual(post({ chat_id: 'chat-1', messages: [{ role: 'user', content: 'Hi there' }] }))

    reply(answer('Shall I?'))
    await client.send('delete it')
    expect(seen(calls[3]!)).toStrictEqual(post({ chat_id: 'chat-1', messages: [{ role: 'user', content: 'delete it' }] }))
    // Yao's wire has no gates: one the host opened on the answer goes on through Yao's own request.
    const turnId = ids(store)[3]!
    store.getState().dispatch([{ op: 'gate.open', gate: { id: 'g1', turnId, kind: 'approval', question: 'Delete?', payload: {} } }])
    reply(answer('Kept it.'))
    expect(await client.answer('g1', { approved: false, reason: 'keep it' })).toEqual({ ok: true })
    expect(seen(calls[4]!)).toStrictEqual(post({ chat_id: 'chat-1', messages: [{ role: 'user', content: 'delete it' }] }))
    expect(calls).toHaveLength(5)
  })
})

describe('vocion: { conversationId, messages: the whole active path }', () => {
  const answer = (text: string, more: unknown[] = []) => () => sse([
    { type: 'stream_meta', streamId: `s-${text.length}` },
    { type: 'answering' },
    { type: 'response_delta', delta: text },
    ...more,
    { type: 'done' },
  ])

  it('send, regenerate, edit, and the gate\'s answer sent as the host\'s continueGate asked', async () => {
    const answered: unknown[] = []
    const { store, client, calls, reply } = setup('vocion', {
      continueGate: async (gate, response) => {
        answered.push([gate.url, response])
        return { url: gate.url!, method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer gate' }, body: JSON.stringify(response), credentials: 'include' }
      },
    })
    reply(answer('Hello'))
    await client.send('Hi')
    expect(seen(calls[0]!)).toStrictEqual(post({ conversationId: 'chat-1', messages: [{ role: 'user', content: 'Hi' }] }))

    reply(answer('Hello again'))
    expect(await client.regenerate()).toEqual({ ok: true })
    expect(seen(calls[1]!)).toStrictEqual(post({ conversationId: 'chat-1', messages: [{ role: 'user', content: 'Hi' }] }))

    reply(answer('Hello there'))
    expect(await client.edit(ids(store)[0]!, 'Hi there')).toEqual({ ok: true })
    expect(seen(calls[2]!)).toStrictEqual(post({ conversationId: 'chat-1', messages: [{ role: 'user', content: 'Hi there' }] }))

    reply(answer('Shall I?', [{ type: 'hitl_gate', gate: { name: 'delete-file', question: 'Delete?', payload: { path: '/r.txt' }, resumeUrl: 'http://agent.test/rpc/gate/1' } }]))
    await client.send('delete it')
    expect(seen(calls[3]!)).toStrictEqual(post({
      conversationId: 'chat-1',
      messages: [{ role: 'user', content: 'Hi there' }, { role: 'assistant', content: 'Hello there' }, { role: 'user', content: 'delete it' }],
    }))

    reply(answer('Kept it.'))
    expect(await client.answer(pendingGate(store.getState()).id, { approved: false, reason: 'keep it' })).toEqual({ ok: true })
    expect(answered).toEqual([['http://agent.test/rpc/gate/1', { approved: false, reason: 'keep it' }]])
    expect(seen(calls[4]!)).toStrictEqual({
      url: 'http://agent.test/rpc/gate/1', method: 'POST', signal: expect.any(AbortSignal), credentials: 'include',
      headers: { accept: 'text/event-stream', authorization: 'Bearer gate', 'content-type': 'application/json' },
      body: { approved: false, reason: 'keep it' },
    })
    expect(calls).toHaveLength(5)
  })
})

describe('ag-ui: the envelope of each request (the RunAgentInput body is pinned elsewhere)', () => {
  let run = 0
  const answer = (text: string, outcome?: unknown) => () => {
    const runId = `run-${++run}`
    return sse([
      { type: 'RUN_STARTED', threadId: 'chat-1', runId },
      ...(text ? [
        { type: 'TEXT_MESSAGE_START', messageId: `m-${run}`, role: 'assistant' },
        { type: 'TEXT_MESSAGE_CONTENT', messageId: `m-${run}`, delta: text },
        { type: 'TEXT_MESSAGE_END', messageId: `m-${run}` },
      ] : []),
      { type: 'RUN_FINISHED', threadId: 'chat-1', runId, ...(outcome ? { outcome } : {}) },
    ])
  }
  const envelope = (call: Call) => {
    const { body, ...rest } = seen(call)
    expect(body).toMatchObject({ threadId: 'chat-1' })
    return rest
  }
  const { body: _body, ...postEnvelope } = post(undefined)

  it('send, regenerate, edit and an interrupt\'s resume go to the url with the host\'s headers and credentials', async () => {
    const { store, client, calls, reply } = setup('ag-ui')
    reply(answer('Hello'))
    await client.send('Hi')
    reply(answer('Hello again'))
    expect(await client.regenerate()).toEqual({ ok: true })
    reply(answer('Hello there'))
    expect(await client.edit(ids(store)[0]!, 'Hi there')).toEqual({ ok: true })
    reply(answer('Shall I?', { type: 'interrupt', interrupts: [{ id: 'int-1', reason: 'confirmation', message: 'Delete?' }] }))
    await client.send('delete it')
    reply(answer('Kept it.'))
    expect(await client.answer(pendingGate(store.getState()).id, { approved: false, reason: 'keep it' })).toEqual({ ok: true })
    expect(calls).toHaveLength(5)
    for (const call of calls) expect(envelope(call)).toStrictEqual(postEnvelope)
    expect((seen(calls[4]!).body as { resume?: unknown }).resume).toEqual([expect.objectContaining({ interruptId: 'int-1', payload: { approved: false, reason: 'keep it' } })])
  })
})

describe('the host\'s options on every request', () => {
  it('headers as a function are read for each request; a host content-type and method are kept', async () => {
    let n = 0
    const { client, calls, reply } = setup('vocion', {
      headers: () => ({ authorization: `Bearer t${++n}`, 'content-type': 'application/vnd.agent+json' }),
      method: 'PUT',
    })
    const answer = () => sse([{ type: 'stream_meta', streamId: 's' }, { type: 'response_delta', delta: 'ok' }, { type: 'done' }])
    reply(answer)
    await client.send('Hi')
    reply(answer)
    await client.regenerate()
    expect(calls.map(seen)).toStrictEqual([1, 2].map((i) => ({
      url: API, method: 'PUT', signal: expect.any(AbortSignal), credentials: 'include',
      headers: { accept: 'text/event-stream', authorization: `Bearer t${i}`, 'content-type': 'application/vnd.agent+json' },
      body: { conversationId: 'chat-1', messages: [{ role: 'user', content: 'Hi' }] },
    })))
  })

  it('without credentials, none is sent; a GET sends no body', async () => {
    const { client, calls, reply } = setup('vocion', { credentials: undefined, method: 'GET', headers: undefined })
    reply(() => sse([{ type: 'stream_meta', streamId: 's' }, { type: 'done' }]))
    await client.send('Hi')
    expect(calls.map(seen)).toStrictEqual([{ url: API, method: 'GET', signal: expect.any(AbortSignal), headers: { accept: 'text/event-stream' } }])
  })
})
