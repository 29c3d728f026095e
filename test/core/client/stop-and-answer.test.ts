/**
 * Stop and answer, in either order and in one tick, against a stock AI SDK
 * route with a tool that needs approval: the store ends consistent and there is
 * either one continuation or none, never a "yes" with nothing sent.
 */
import type { LanguageModelV3Prompt, LanguageModelV3StreamPart } from '@ai-sdk/provider'
import { convertToModelMessages, simulateReadableStream, streamText, tool, validateUIMessages } from 'ai'
import { MockLanguageModelV3 } from 'ai/test'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { AgentClient } from '../../helpers/built-in-client'
import { messageIn } from '../../../src/core/model/message-table'
import type { AgentState, Gate } from '../../../src/core/model/model'
import { createAgentStore, type AgentStore } from '../../../src/core/store/store'
import { uiMessageProtocol } from '../../../src/protocols/ui-message/protocol'
import { startWebServer, type WebServer } from '../../helpers/web-server'

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } }
let calls = 0

function reply(prompt: LanguageModelV3Prompt): LanguageModelV3StreamPart[] {
  const last = prompt.at(-1)
  if (last?.role === 'tool') {
    return [
      { type: 'stream-start', warnings: [] }, { type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'Deleted.' }, { type: 'text-end', id: 't' },
      { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
    ]
  }
  return [
    { type: 'stream-start', warnings: [] },
    { type: 'tool-call', toolCallId: `call-${++calls}`, toolName: 'deleteFile', input: JSON.stringify({ path: '/tmp/report.txt' }) },
    // A slow tail: the approval is asked for well before the stream ends.
    ...Array.from({ length: 10 }, () => ({ type: 'raw' as const, rawValue: {} })),
    { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage },
  ]
}

const tools = {
  deleteFile: tool({ description: 'Delete a file', inputSchema: z.object({ path: z.string() }), needsApproval: true, execute: async ({ path }) => ({ deleted: path }) }),
}

let server: WebServer
let store: AgentStore

beforeAll(async () => {
  server = await startWebServer(async (request) => {
    const body = (await request.json()) as { messages: unknown }
    const messages = await validateUIMessages({ messages: body.messages, tools: tools as Parameters<typeof validateUIMessages>[0]['tools'] })
    const slow = new URL(request.url).searchParams.has('slow')
    const model = new MockLanguageModelV3({ doStream: async ({ prompt }) => ({ stream: simulateReadableStream({ chunks: reply(prompt), chunkDelayInMs: slow ? 25 : null }) }) })
    return streamText({ model, messages: await convertToModelMessages(messages, { tools }), tools }).toUIMessageStreamResponse({ originalMessages: messages })
  })
})
afterAll(() => server.close())
beforeEach(() => {
  store = createAgentStore()
  server.bodies.length = 0
})

const client = (query = '') => new AgentClient(store, { url: `${server.url}/api/chat${query}`, protocol: uiMessageProtocol, conversationId: 'chat-1' })
const pendingGate = (s: AgentState): Gate | undefined => Object.values(s.gates).find((g) => g.status === 'pending')
const toolOf = (s: AgentState) => messageIn(s.messages, s.turns[s.turnIds[1]!]!.messageIds.map((id) => messageIn(s.messages, id)!).find((m) => m.type === 'tool')!.id)!
const textOf = (s: AgentState) => s.turns[s.turnIds[1]!]!.messageIds.map((id) => messageIn(s.messages, id)!).filter((m) => m.type === 'text').map((m) => m.props.content).join('')

describe('stop and answer, in any order', () => {
  it('stopped while the approval is pending, then approved: the continuation is sent and the answer goes on', async () => {
    const c = client('?slow')
    const sending = c.send('delete the report')
    await new Promise<void>((resolve) => {
      const off = store.subscribe((s) => {
        if (pendingGate(s)) {
          off()
          resolve()
        }
      })
    })
    c.stop()
    await sending
    let s = store.getState()
    expect(s.turns[s.turnIds[1]!]!.status).toBe('aborted')
    const gate = pendingGate(s)!
    expect(server.bodies).toHaveLength(1)

    expect(await c.answer(gate.id, { approved: true })).toEqual({ ok: true })
    s = store.getState()
    expect(server.bodies).toHaveLength(2)
    const sent = server.bodies[1] as { messages: Array<{ parts: Array<Record<string, unknown>> }> }
    expect(sent.messages.at(-1)!.parts.find((p) => p.type === 'tool-deleteFile')).toMatchObject({ state: 'approval-responded', approval: { approved: true } })
    expect(s.gates[gate.id]!.status).toBe('approved')
    expect(toolOf(s).props).toMatchObject({ state: 'output-available', output: { deleted: '/tmp/report.txt' } })
    expect(toolOf(s).status).toBe('done')
    expect(textOf(s)).toBe('Deleted.')
    expect(s.turns[s.turnIds[1]!]!.status).toBe('done')
    expect(s.status).toBe('done')
  })

  it('answered, then stopped in the same tick: nothing is sent, the gate is pending again, and a later answer goes', async () => {
    const c = client()
    await c.send('delete the report')
    let s = store.getState()
    const gate = pendingGate(s)!
    expect(server.bodies).toHaveLength(1)

    const answering = c.answer(gate.id, { approved: true })
    c.stop()
    expect(await answering).toMatchObject({ ok: false, error: { type: 'validation', code: 'stopped' } })
    // Let anything that might still leave, leave.
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(server.bodies).toHaveLength(1)
    s = store.getState()
    expect(s.gates[gate.id]!.status).toBe('pending')
    expect(s.gates[gate.id]!.response).toBeUndefined()
    expect(toolOf(s).props.state).toBe('approval-requested')
    expect(s.turns[s.turnIds[1]!]!.problems).toEqual([])

    expect(await c.answer(gate.id, { approved: true })).toEqual({ ok: true })
    expect(server.bodies).toHaveLength(2)
    expect(textOf(store.getState())).toBe('Deleted.')
  })

  it('stopped, then answered in the same tick: the answer is the later act, so it is sent', async () => {
    const c = client()
    await c.send('delete the report')
    const gate = pendingGate(store.getState())!
    c.stop()
    expect(await c.answer(gate.id, { approved: true })).toEqual({ ok: true })
    expect(server.bodies).toHaveLength(2)
    expect(store.getState().gates[gate.id]!.status).toBe('approved')
    expect(textOf(store.getState())).toBe('Deleted.')
  })
})
