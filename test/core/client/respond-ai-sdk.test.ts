/**
 * `respond` against a stock AI SDK route: a tool with no `execute` on the server
 * is one the UI answers. Its call ends the answer waiting; `respond` records the
 * result on the call and the continuation goes out as the SDK's own client sends
 * a client tool's output, which `validateUIMessages` and `convertToModelMessages`
 * take and the model answers from. A second `respond`, one after a stop, one for
 * a call with a result or an undeclared tool, are refused and send nothing.
 */
import type { LanguageModelV3Prompt, LanguageModelV3StreamPart } from '@ai-sdk/provider'
import { convertToModelMessages, simulateReadableStream, streamText, tool, validateUIMessages, type UIMessage } from 'ai'
import { MockLanguageModelV3 } from 'ai/test'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { AgentClient } from '../../helpers/built-in-client'
import type { AgentState, Message } from '../../../src/core/model/model'
import { createAgentStore, type AgentStore } from '../../../src/core/store/store'
import { startWebServer, type WebServer } from '../../helpers/web-server'
import { messageIn } from '../../../src/core/model/message-table'

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } }

function reply(prompt: LanguageModelV3Prompt): LanguageModelV3StreamPart[] {
  const last = prompt.at(-1)
  if (last?.role === 'tool') {
    const result = last.content.find((part) => part.type === 'tool-result')
    const text = `picked ${JSON.stringify(result?.type === 'tool-result' ? result.output : null)}`
    return [
      { type: 'stream-start', warnings: [] },
      { type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: text }, { type: 'text-end', id: 't' },
      { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
    ]
  }
  return [
    { type: 'stream-start', warnings: [] },
    { type: 'tool-call', toolCallId: 'call-pick', toolName: 'pickColor', input: JSON.stringify({ options: ['teal', 'amber'] }) },
    { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage },
  ]
}

const tools = {
  pickColor: tool({ description: 'Ask the user to pick a colour', inputSchema: z.object({ options: z.array(z.string()) }), outputSchema: z.object({ color: z.string() }) }),
}

let server: WebServer
let store: AgentStore
const received: UIMessage[][] = []

beforeAll(async () => {
  server = await startWebServer(async (request) => {
    const body = (await request.json()) as { messages: unknown }
    const messages = await validateUIMessages({ messages: body.messages, tools: tools as Parameters<typeof validateUIMessages>[0]['tools'] })
    received.push(messages)
    const model = new MockLanguageModelV3({ doStream: async ({ prompt }) => ({ stream: simulateReadableStream({ chunks: reply(prompt), chunkDelayInMs: null }) }) })
    const result = streamText({ model, messages: await convertToModelMessages(messages, { tools }), tools })
    return result.toUIMessageStreamResponse({ originalMessages: messages, generateMessageId: () => `msg-${received.length}` })
  })
})
afterAll(() => server.close())
beforeEach(() => {
  store = createAgentStore()
  server.bodies.length = 0
  received.length = 0
})

function client(declared = true): AgentClient {
  return new AgentClient(store, {
    url: `${server.url}/api/chat`, protocol: 'ui-message', conversationId: 'chat-1',
    ...(declared ? { tools: { pickColor: { ui: true as const } } } : {}),
  })
}

const messagesOf = (s: AgentState, turnId: string): Message[] => s.turns[turnId]!.messageIds.map((id) => messageIn(s.messages, id)!)
const textOf = (s: AgentState, turnId: string) => messagesOf(s, turnId).filter((m) => m.type === 'text').map((m) => m.props.content).join('')
const callOf = (s: AgentState) => messagesOf(s, s.turnIds[1]!).find((m) => m.type === 'tool')!

describe('respond: a tool the UI answers, against a stock AI SDK route', () => {
  it('the call waits; respond records the result and the answer goes on in the same turn', async () => {
    const c = client()
    await c.send('pick a colour')
    let s = store.getState()
    expect(callOf(s).props).toMatchObject({ toolCallId: 'call-pick', name: 'pickColor', state: 'input-available', input: { options: ['teal', 'amber'] } })
    expect(server.bodies).toHaveLength(1)

    const result = await c.respond('call-pick', { color: 'teal' })
    expect(result).toEqual({ ok: true })
    s = store.getState()
    expect(callOf(s).props).toMatchObject({ state: 'output-available', output: { color: 'teal' } })
    expect(textOf(s, s.turnIds[1]!)).toBe('picked {"type":"json","value":{"color":"teal"}}')
    expect(s.turnIds).toHaveLength(2)
    expect(s.status).toBe('done')

    // The continuation is the SDK's own for a client tool's output: the same message id, the tool part with its output.
    expect(server.bodies).toHaveLength(2)
    const [question, answer] = s.turnIds.map((id) => s.turns[id]!)
    expect(server.bodies[1]).toStrictEqual({
      id: 'chat-1',
      messages: [
        { id: question!.id, role: 'user', parts: [{ type: 'text', text: 'pick a colour' }] },
        {
          id: answer!.metadata.messageId, role: 'assistant',
          parts: [{ type: 'step-start' }, { type: 'tool-pickColor', toolCallId: 'call-pick', state: 'output-available', input: { options: ['teal', 'amber'] }, output: { color: 'teal' } }],
        },
      ],
      trigger: 'submit-message',
      messageId: answer!.metadata.messageId,
    })
  })

  it('a second respond, or one for a call that has a result, is refused and sends nothing', async () => {
    const c = client()
    await c.send('pick a colour')
    const [first, second] = await Promise.all([c.respond('call-pick', { color: 'teal' }), c.respond('call-pick', { color: 'amber' })])
    expect(first).toEqual({ ok: true })
    expect(second).toMatchObject({ ok: false, error: { type: 'validation', code: 'answered' } })
    expect(await c.respond('call-pick', { color: 'amber' })).toMatchObject({ ok: false, error: { code: 'answered' } })
    expect(server.bodies).toHaveLength(2)
    expect(callOf(store.getState()).props.output).toEqual({ color: 'teal' })
  })

  it('for an unknown call, an undeclared tool or a result that is not JSON: refused, nothing sent', async () => {
    const undeclared = client(false)
    await undeclared.send('pick a colour')
    expect(await undeclared.respond('call-pick', { color: 'teal' })).toMatchObject({ ok: false, error: { code: 'not_ui_tool' } })
    const c = client()
    expect(await c.respond('nope', { color: 'teal' })).toMatchObject({ ok: false, error: { code: 'unknown_call' } })
    expect(await c.respond('call-pick', { color: () => 'teal' })).toMatchObject({ ok: false, error: { code: 'not_json' } })
    expect(callOf(store.getState()).props.state).toBe('input-available')
    expect(server.bodies).toHaveLength(1)
  })

  it('a stop before the result leaves withdraws it: the call waits again and nothing is sent', async () => {
    const c = client()
    await c.send('pick a colour')
    const pending = c.respond('call-pick', { color: 'teal' })
    // Shown at once.
    expect(callOf(store.getState()).props).toMatchObject({ state: 'output-available', output: { color: 'teal' } })
    c.stop()
    expect(await pending).toMatchObject({ ok: false, error: { code: 'stopped' } })
    expect(callOf(store.getState()).props.state).toBe('input-available')
    expect(callOf(store.getState()).props.output).toBeUndefined()
    expect(server.bodies).toHaveLength(1)
    // Its own answer had ended before the stop, so the person may still answer it.
    expect(await c.respond('call-pick', { color: 'amber' })).toEqual({ ok: true })
    expect(server.bodies).toHaveLength(2)
  })

  it('a call whose answer the person stopped is refused, and nothing is sent', async () => {
    const c = client()
    await c.send('pick a colour')
    store.getState().dispatch([{ op: 'turn.finish', turnId: store.getState().turnIds[1]!, status: 'aborted' }])
    expect(await c.respond('call-pick', { color: 'teal' })).toMatchObject({ ok: false, error: { code: 'stopped' } })
    expect(callOf(store.getState()).props.state).toBe('input-available')
    expect(server.bodies).toHaveLength(1)
  })
})
