/**
 * What the page gives the agent beside the conversation: the shared agent state
 * set with `setAgentState`, and context entries (the client's `context` option and
 * `addContext`). Each request body is compared whole, per protocol, and the stock
 * servers take them: an AG-UI server parsing with `RunAgentInputSchema`, and an AI
 * SDK route (`validateUIMessages`, `convertToModelMessages`, `streamText`) that reads
 * the extra `context` field the way a route reads any extra body field.
 */
import { RunAgentInputSchema } from '@ag-ui/core/schemas'
import { EventType, type BaseEvent, type RunAgentInput } from '@ag-ui/core'
import { EventEncoder } from '@ag-ui/encoder'
import type { LanguageModelV3StreamPart } from '@ai-sdk/provider'
import { convertToModelMessages, simulateReadableStream, streamText, validateUIMessages } from 'ai'
import { MockLanguageModelV3 } from 'ai/test'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { AgentClient } from '../../helpers/built-in-client'
import { fold } from '../../../src/core/fold/fold'
import { emptyState, type AgentState } from '../../../src/core/model/model'
import type { RequestContext } from '../../../src/core/protocol/request'
import { createAgentStore, type AgentStore } from '../../../src/core/store/store'
import { agUiRequest } from '../../../src/protocols/ag-ui/request'
import { langGraphRequest } from '../../../src/protocols/langgraph/request'
import { uiMessageRequest } from '../../../src/protocols/ui-message/request'
import { vocionRequest } from '../../../src/protocols/vocion/request'
import { yaoRequest } from '../../../src/protocols/yao/request'
import { startWebServer, type WebServer } from '../../helpers/web-server'

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } }

let agUi: WebServer
let aiSdk: WebServer
const inputs: RunAgentInput[] = []
/** The `context` field each AI SDK request carried, as the route read it. */
const routeContext: unknown[] = []
let store: AgentStore

beforeAll(async () => {
  agUi = await startWebServer(async (request) => {
    const parsed = RunAgentInputSchema.safeParse(await request.json())
    if (!parsed.success) return new Response(parsed.error.message, { status: 422 })
    const input = parsed.data as RunAgentInput
    inputs.push(input)
    const encoder = new EventEncoder()
    const events: BaseEvent[] = [
      { type: EventType.RUN_STARTED, threadId: input.threadId, runId: input.runId } as BaseEvent,
      { type: EventType.TEXT_MESSAGE_START, messageId: `m-${inputs.length}`, role: 'assistant' } as BaseEvent,
      { type: EventType.TEXT_MESSAGE_CONTENT, messageId: `m-${inputs.length}`, delta: `state ${JSON.stringify(input.state)}` } as BaseEvent,
      { type: EventType.TEXT_MESSAGE_END, messageId: `m-${inputs.length}` } as BaseEvent,
      { type: EventType.RUN_FINISHED, threadId: input.threadId, runId: input.runId } as BaseEvent,
    ]
    return new Response(events.map((event) => encoder.encodeSSE(event)).join(''), { headers: { 'content-type': encoder.getContentType() } })
  })
  aiSdk = await startWebServer(async (request) => {
    const body = (await request.json()) as { messages: unknown; context?: unknown }
    routeContext.push(body.context)
    const messages = await validateUIMessages({ messages: body.messages })
    const text = `context ${JSON.stringify(body.context ?? null)}`
    const chunks: LanguageModelV3StreamPart[] = [
      { type: 'stream-start', warnings: [] },
      { type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: text }, { type: 'text-end', id: 't' },
      { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
    ]
    const model = new MockLanguageModelV3({ doStream: async () => ({ stream: simulateReadableStream({ chunks, chunkDelayInMs: null }) }) })
    return streamText({ model, messages: await convertToModelMessages(messages) }).toUIMessageStreamResponse({ originalMessages: messages })
  })
})
afterAll(() => {
  agUi.close()
  aiSdk.close()
})
beforeEach(() => {
  store = createAgentStore()
  inputs.length = 0
  routeContext.length = 0
  agUi.bodies.length = 0
  aiSdk.bodies.length = 0
})

describe('setAgentState', () => {
  it('applies at once, takes an updater, and AG-UI sends it as RunAgentInput.state', async () => {
    const c = new AgentClient(store, { url: `${agUi.url}/agent`, protocol: 'ag-ui', conversationId: 'thread-1' })
    expect(c.setAgentState({ theme: 'amber', tabs: ['a'] })).toEqual({ ok: true })
    expect(store.getState().agentState).toEqual({ theme: 'amber', tabs: ['a'] })
    expect(c.setAgentState((current) => ({ ...current, theme: 'teal' }))).toEqual({ ok: true })
    expect(store.getState().agentState).toEqual({ theme: 'teal', tabs: ['a'] })
    await c.send('hello')
    expect(inputs).toHaveLength(1)
    expect(inputs[0]!.state).toEqual({ theme: 'teal', tabs: ['a'] })
    expect(agUi.bodies[0]).toMatchObject({ state: { theme: 'teal', tabs: ['a'] }, context: [] })
  })

  it('refuses what is not a plain object of JSON data, and changes nothing', () => {
    const c = new AgentClient(store, { url: `${agUi.url}/agent`, protocol: 'ag-ui' })
    c.setAgentState({ kept: true })
    const refusals: unknown[] = [
      { f: () => 1 }, { when: new Date(0) }, ['a'], 'text', null,
      JSON.parse('{"nested":{"__proto__":{"polluted":true}}}'), JSON.parse('{"constructor":{"prototype":{}}}'),
    ]
    for (const value of refusals) {
      expect(c.setAgentState(value as Record<string, unknown>)).toMatchObject({ ok: false, error: { type: 'validation', code: 'not_json' } })
    }
    expect(c.setAgentState(() => {
      throw new Error('no')
    })).toMatchObject({ ok: false, error: { code: 'not_json' } })
    expect(store.getState().agentState).toEqual({ kept: true })
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })
})

describe('context', () => {
  it('AG-UI: the option, then what addContext added, as RunAgentInput.context (values as text); remove takes it back', async () => {
    const c = new AgentClient(store, {
      url: `${agUi.url}/agent`, protocol: 'ag-ui', conversationId: 'thread-1',
      context: [{ description: 'Locale', value: 'fr-FR' }],
    })
    const doc = { title: 'Q3 report', page: 4 }
    const added = c.addContext({ description: 'The open document', value: doc })
    expect(added.ok).toBe(true)
    // A copy was taken: a later change of the host's object is not sent.
    doc.page = 5
    await c.send('hello')
    expect(inputs[0]!.context).toEqual([
      { description: 'Locale', value: 'fr-FR' },
      { description: 'The open document', value: '{"title":"Q3 report","page":4}' },
    ])
    if (added.ok) added.remove()
    await c.send('again')
    expect(inputs[1]!.context).toEqual([{ description: 'Locale', value: 'fr-FR' }])
    expect(c.addContext({ description: 'bad', value: (() => 1) as unknown as string })).toMatchObject({ ok: false, error: { code: 'not_json' } })
    expect(c.addContext({ description: 1 as unknown as string, value: 'x' })).toMatchObject({ ok: false })
  })

  it('AI SDK: an extra top-level context field the route reads; none without entries', async () => {
    const c = new AgentClient(store, { url: `${aiSdk.url}/api/chat`, protocol: 'ui-message', conversationId: 'chat-1' })
    await c.send('first')
    expect(Object.keys(aiSdk.bodies[0] as object).sort()).toEqual(['id', 'messages', 'trigger'])
    const added = c.addContext({ description: 'The open document', value: { title: 'Q3 report' } })
    await c.send('second')
    expect(routeContext).toEqual([undefined, [{ description: 'The open document', value: { title: 'Q3 report' } }]])
    const s = store.getState()
    const last = s.turns[s.turnIds.at(-1)!]!
    expect(last.status).toBe('done')
    if (added.ok) added.remove()
  })
})

/** A conversation of one question, with a shared state. */
function conversation(): AgentState {
  return fold(emptyState(), [
    { op: 'turn.open', turnId: 'u1', role: 'user' },
    { op: 'message.put', turnId: 'u1', messageId: 'u1-text', role: 'user', type: 'text', props: { content: 'Hi' } },
    { op: 'turn.finish', turnId: 'u1', status: 'done' },
    { op: 'agentState.set', value: { theme: 'teal' } },
  ])
}

describe('each protocol\'s body with context, whole', () => {
  const entries = [{ description: 'Locale', value: 'fr-FR' }, { description: 'Doc', value: { page: 4 } }] as const
  const ctx = (extra: Partial<RequestContext> = {}): RequestContext => ({
    state: conversation(), path: ['u1'], turnId: 'a1', trigger: 'submit', conversationId: 'chat-1', runId: 'run-1', tools: [], answers: [], ...extra,
  })

  it('ag-ui: context as [{ description, value }] with text values, state as the store holds it', () => {
    expect(agUiRequest(ctx({ context: entries }))).toStrictEqual({
      threadId: 'chat-1', runId: 'run-1', messages: [{ id: 'u1-text', role: 'user', content: 'Hi' }], tools: [],
      context: [{ description: 'Locale', value: 'fr-FR' }, { description: 'Doc', value: '{"page":4}' }], state: { theme: 'teal' }, forwardedProps: {},
    })
  })

  it('ui-message: an extra context field with the values as given; no state field', () => {
    expect(uiMessageRequest(ctx({ context: entries }))).toStrictEqual({
      id: 'chat-1', messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Hi' }] }], trigger: 'submit-message',
      context: [{ description: 'Locale', value: 'fr-FR' }, { description: 'Doc', value: { page: 4 } }],
    })
  })

  it('yao, vocion and langgraph have no field for it: their bodies are the same with or without', () => {
    for (const build of [yaoRequest, vocionRequest, langGraphRequest]) {
      expect(build(ctx({ context: entries }))).toStrictEqual(build(ctx()))
    }
  })
})
