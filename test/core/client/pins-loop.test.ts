/**
 * Exact rules of the conversation loop against a stock AI SDK route (`streamText`
 * over the SDK's own mock model, `toUIMessageStreamResponse`, every request passed
 * through `validateUIMessages` and `convertToModelMessages`): which answer a
 * `regenerate()` without an id replaces, and what a client tool that throws leaves
 * in its tool message.
 */
import type { LanguageModelV3Prompt, LanguageModelV3StreamPart } from '@ai-sdk/provider'
import { convertToModelMessages, simulateReadableStream, streamText, tool, validateUIMessages, type UIMessage } from 'ai'
import { MockLanguageModelV3 } from 'ai/test'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { selectBranch } from '../../../src/core/store/branches'
import { AgentClient } from '../../helpers/built-in-client'
import { messageIn } from '../../../src/core/model/message-table'
import type { AgentState, Message } from '../../../src/core/model/model'
import { createAgentStore, type AgentStore } from '../../../src/core/store/store'
import { startWebServer, type WebServer } from '../../helpers/web-server'

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } }
let answers = 0

function textReply(text: string): LanguageModelV3StreamPart[] {
  return [
    { type: 'stream-start', warnings: [] },
    { type: 'text-start', id: 't' },
    { type: 'text-delta', id: 't', delta: text },
    { type: 'text-end', id: 't' },
    { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
  ]
}

/** The model echoes the last question with a running number, calls getLocation on "where", and reports a tool's result. */
function reply(prompt: LanguageModelV3Prompt): LanguageModelV3StreamPart[] {
  const last = prompt.at(-1)
  if (last?.role === 'tool') {
    const result = last.content.find((part) => part.type === 'tool-result')
    return textReply(`tool said ${JSON.stringify(result?.type === 'tool-result' ? result.output : null)}`)
  }
  const text = last?.role === 'user' ? last.content.map((part) => (part.type === 'text' ? part.text : '')).join('') : ''
  if (text.includes('where')) {
    return [
      { type: 'stream-start', warnings: [] },
      { type: 'tool-call', toolCallId: 'call-where', toolName: 'getLocation', input: '{}' },
      { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage },
    ]
  }
  return textReply(`echo ${text} #${++answers}`)
}

const tools = {
  getLocation: tool({ description: 'The user\'s city', inputSchema: z.object({}), outputSchema: z.object({ city: z.string() }) }),
}

let server: WebServer
let store: AgentStore

beforeAll(async () => {
  server = await startWebServer(async (request) => {
    const body = (await request.json()) as { messages: unknown }
    const messages = await validateUIMessages({ messages: body.messages, tools: tools as Parameters<typeof validateUIMessages>[0]['tools'] })
    const model = new MockLanguageModelV3({
      doStream: async ({ prompt }) => ({ stream: simulateReadableStream({ chunks: reply(prompt), chunkDelayInMs: null }) }),
    })
    const result = streamText({ model, messages: await convertToModelMessages(messages, { tools }), tools })
    return result.toUIMessageStreamResponse({ originalMessages: messages, generateMessageId: () => `msg-${++answers}` })
  })
})
afterAll(() => server.close())
beforeEach(() => {
  store = createAgentStore()
  server.bodies.length = 0
})

function client(extra: Partial<ConstructorParameters<typeof AgentClient>[1]> = {}): AgentClient {
  return new AgentClient(store, { url: `${server.url}/api/chat`, protocol: 'ui-message', conversationId: 'chat-1', ...extra })
}

const messagesOf = (s: AgentState, turnId: string): Message[] => s.turns[turnId]!.messageIds.map((id) => messageIn(s.messages, id)!)
const textOf = (s: AgentState, turnId: string) => messagesOf(s, turnId).filter((m) => m.type === 'text').map((m) => m.props.content).join('')
const lastBody = () => server.bodies.at(-1) as { id: string; trigger: string; messageId?: string; messages: UIMessage[] }
const serverId = (s: AgentState, turnId: string) => s.turns[turnId]!.metadata.messageId as string

describe('regenerate() without an id', () => {
  it('replaces the last answer on the active path, not the first, and leaves the earlier answers alone', async () => {
    const c = client()
    await c.send('first')
    await c.send('second')
    const before = store.getState()
    const [q1, a1, q2, a2] = before.turnIds as [string, string, string, string]
    expect(before.turnIds).toHaveLength(4)
    const a1Text = textOf(before, a1)
    const a2Text = textOf(before, a2)

    expect(await c.regenerate()).toEqual({ ok: true })
    const s = store.getState()
    const fresh = s.turnIds[3]!
    // The path keeps the first exchange and the second question; only the last answer is new.
    expect(s.turnIds).toEqual([q1, a1, q2, fresh])
    expect(fresh).not.toBe(a2)
    expect(s.turns[fresh]!.parentId).toBe(q2)
    expect(selectBranch(s, fresh)).toMatchObject({ index: 1, count: 2 })
    expect(selectBranch(s, a1)).toMatchObject({ count: 1 })
    expect(textOf(s, a1)).toBe(a1Text)
    expect(textOf(s, a2)).toBe(a2Text)
    // The request names the answer it replaces and carries everything before it.
    const body = lastBody()
    expect(body.trigger).toBe('regenerate-message')
    expect(body.messageId).toBe(serverId(before, a2))
    expect(body.messages.map((m) => [m.role, m.id])).toEqual([['user', q1], ['assistant', serverId(before, a1)], ['user', q2]])
    expect(textOf(s, fresh)).toMatch(/^echo second #\d+$/)
  })

  it('after an edit, replaces the answer on the shown branch, not the newest answer of another branch', async () => {
    const c = client()
    await c.send('first')
    await c.send('second')
    const old = store.getState().turnIds
    // An edit of the first question: the shown path is now [q1', a1'], the longer branch is hidden.
    expect(await c.edit(old[0]!, 'first again')).toEqual({ ok: true })
    const shown = store.getState()
    const [q1b, a1b] = shown.turnIds as [string, string]
    expect(shown.turnIds).toHaveLength(2)

    expect(await c.regenerate()).toEqual({ ok: true })
    const s = store.getState()
    expect(s.turnIds).toHaveLength(2)
    expect(s.turnIds[0]).toBe(q1b)
    expect(s.turns[s.turnIds[1]!]!.parentId).toBe(q1b)
    expect(selectBranch(s, s.turnIds[1]!)).toMatchObject({ index: 1, count: 2 })
    expect(lastBody().messageId).toBe(serverId(shown, a1b))
    expect(lastBody().messages.map((m) => m.id)).toEqual([q1b])
    // The hidden branch is untouched: its last answer has no sibling.
    expect(selectBranch(s, old[3]!)).toMatchObject({ count: 1 })
  })
})

describe('a client tool whose execute throws', () => {
  it('ends its tool message as output-error with the error text and status error, before anything goes on', async () => {
    const c = client({ maxSteps: 0, tools: { getLocation: { execute: () => { throw new Error('no GPS') } } } })
    await c.send('where am I?')
    const s = store.getState()
    const answer = s.turnIds[1]!
    const tool = messagesOf(s, answer).find((m) => m.type === 'tool')!
    expect(tool.status).toBe('error')
    expect(tool.props.state).toBe('output-error')
    expect(tool.props.errorText).toBe('no GPS')
    expect(tool.props.toolCallId).toBe('call-where')
    expect(tool.props.name).toBe('getLocation')
    expect(tool.props.input).toEqual({})
    expect('output' in tool.props).toBe(false)
    expect(server.bodies).toHaveLength(1)
  })

  it('keeps status error after the error went back and the answer went on', async () => {
    const c = client({ tools: { getLocation: { execute: async () => Promise.reject('denied by the person') } } })
    await c.send('where am I?')
    const s = store.getState()
    const answer = s.turnIds[1]!
    const tool = messagesOf(s, answer).find((m) => m.type === 'tool')!
    expect([tool.status, tool.props.state, tool.props.errorText]).toEqual(['error', 'output-error', 'denied by the person'])
    expect(server.bodies).toHaveLength(2)
    const part = lastBody().messages.at(-1)!.parts.find((p) => p.type === 'tool-getLocation')
    expect(part).toMatchObject({ state: 'output-error', errorText: 'denied by the person' })
    expect(textOf(s, answer)).toContain('denied by the person')
    expect(s.turns[answer]!.status).toBe('done')
  })

  it('a tool stopped while it runs ends the same way, with the stop as its error text', async () => {
    let c: AgentClient
    c = client({
      tools: {
        getLocation: { execute: () => new Promise(() => { queueMicrotask(() => c.stop()) }) },
      },
    })
    await c.send('where am I?')
    const s = store.getState()
    const tool = messagesOf(s, s.turnIds[1]!).find((m) => m.type === 'tool')!
    expect([tool.status, tool.props.state, tool.props.errorText]).toEqual(['error', 'output-error', 'The tool was stopped.'])
    expect(server.bodies).toHaveLength(1)
  })

  it('a tool that succeeds ends with status done, so the error status is the failure\'s own', async () => {
    const c = client({ maxSteps: 0, tools: { getLocation: { execute: async () => ({ city: 'Paris' }) } } })
    await c.send('where am I?')
    const s = store.getState()
    const tool = messagesOf(s, s.turnIds[1]!).find((m) => m.type === 'tool')!
    expect([tool.status, tool.props.state, tool.props.output]).toEqual(['done', 'output-available', { city: 'Paris' }])
  })
})
