/**
 * `respond` against an AG-UI server on loopback (requests parsed with
 * `@ag-ui/core`'s `RunAgentInputSchema`, answers written with `@ag-ui/encoder`):
 * a tool declared `{ ui: true }` goes to the agent in `RunAgentInput.tools` as a
 * frontend tool; the agent calls it and ends its run; `respond` sends the result
 * as the `role: "tool"` message AG-UI defines, and the agent goes on.
 */
import { EventType, type BaseEvent, type RunAgentInput } from '@ag-ui/core'
import { RunAgentInputSchema } from '@ag-ui/core/schemas'
import { EventEncoder } from '@ag-ui/encoder'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { AgentClient } from '../../helpers/built-in-client'
import type { AgentState, Message } from '../../../src/core/model/model'
import { createAgentStore, type AgentStore } from '../../../src/core/store/store'
import { startWebServer, type WebServer } from '../../helpers/web-server'
import { messageIn } from '../../../src/core/model/message-table'

let server: WebServer
let store: AgentStore
const inputs: RunAgentInput[] = []

function agent(input: RunAgentInput): BaseEvent[] {
  const { threadId, runId } = input
  const last = input.messages.at(-1)
  const events: BaseEvent[] = [{ type: EventType.RUN_STARTED, threadId, runId } as BaseEvent]
  if (last?.role === 'tool') {
    events.push(
      { type: EventType.TEXT_MESSAGE_START, messageId: 'a2', role: 'assistant' } as BaseEvent,
      { type: EventType.TEXT_MESSAGE_CONTENT, messageId: 'a2', delta: `picked ${String(last.content)}` } as BaseEvent,
      { type: EventType.TEXT_MESSAGE_END, messageId: 'a2' } as BaseEvent,
    )
  } else if (input.tools.some((t) => t.name === 'pickColor')) {
    events.push(
      { type: EventType.TOOL_CALL_START, toolCallId: 'call-pick', toolCallName: 'pickColor', parentMessageId: 'a1' } as BaseEvent,
      { type: EventType.TOOL_CALL_ARGS, toolCallId: 'call-pick', delta: '{"options":["teal","amber"]}' } as BaseEvent,
      { type: EventType.TOOL_CALL_END, toolCallId: 'call-pick' } as BaseEvent,
    )
  }
  events.push({ type: EventType.RUN_FINISHED, threadId, runId } as BaseEvent)
  return events
}

beforeAll(async () => {
  server = await startWebServer(async (request) => {
    const parsed = RunAgentInputSchema.safeParse(await request.json())
    if (!parsed.success) return new Response(parsed.error.message, { status: 422 })
    inputs.push(parsed.data as RunAgentInput)
    const encoder = new EventEncoder()
    const events = agent(parsed.data as RunAgentInput)
    if (!new URL(request.url).searchParams.has('slow')) {
      return new Response(events.map((event) => encoder.encodeSSE(event)).join(''), { headers: { 'content-type': encoder.getContentType() } })
    }
    // The run stays open after the call: its end comes later.
    const bytes = (part: BaseEvent[]) => new TextEncoder().encode(part.map((event) => encoder.encodeSSE(event)).join(''))
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes(events.slice(0, -1)))
        setTimeout(() => {
          controller.enqueue(bytes(events.slice(-1)))
          controller.close()
        }, 300)
      },
    })
    return new Response(body, { headers: { 'content-type': encoder.getContentType() } })
  })
})
afterAll(() => server.close())
beforeEach(() => {
  store = createAgentStore()
  inputs.length = 0
  server.bodies.length = 0
})

const messagesOf = (s: AgentState, turnId: string): Message[] => s.turns[turnId]!.messageIds.map((id) => messageIn(s.messages, id)!)

describe('respond: an AG-UI frontend tool the UI answers', () => {
  it('declares the tool, waits for the person, then sends the result as a tool message and the run goes on', async () => {
    const c = new AgentClient(store, {
      url: `${server.url}/agent`, protocol: 'ag-ui', conversationId: 'thread-1',
      tools: { pickColor: { ui: true, description: 'Ask the user to pick a colour', parameters: { type: 'object', properties: { options: { type: 'array' } } } } },
    })
    await c.send('pick a colour')
    expect(inputs[0]!.tools).toEqual([{ name: 'pickColor', description: 'Ask the user to pick a colour', parameters: { type: 'object', properties: { options: { type: 'array' } } } }])
    let s = store.getState()
    const call = messagesOf(s, s.turnIds[1]!).find((m) => m.type === 'tool')!
    expect(call.props).toMatchObject({ name: 'pickColor', state: 'input-available', input: { options: ['teal', 'amber'] } })
    // Nothing runs a tool the UI answers: no request until the person responds.
    await new Promise((r) => setTimeout(r, 20))
    expect(inputs).toHaveLength(1)

    expect(await c.respond('call-pick', { color: 'teal' })).toEqual({ ok: true })
    expect(inputs).toHaveLength(2)
    const next = inputs[1]!
    expect(next.threadId).toBe('thread-1')
    expect(next.messages.slice(1)).toEqual([
      { id: 'a1', role: 'assistant', toolCalls: [{ id: 'call-pick', type: 'function', function: { name: 'pickColor', arguments: '{"options":["teal","amber"]}' } }] },
      { id: expect.any(String), role: 'tool', toolCallId: 'call-pick', content: '{"color":"teal"}' },
    ])
    s = store.getState()
    expect(s.turnIds).toHaveLength(2)
    expect(messagesOf(s, s.turnIds[1]!).filter((m) => m.type === 'text').map((m) => m.props.content)).toEqual(['picked {"color":"teal"}'])
    expect(await c.respond('call-pick', { color: 'amber' })).toMatchObject({ ok: false, error: { code: 'answered' } })
    expect(inputs).toHaveLength(2)
  })

  it('a respond while the run that made the call is still open goes on once that run ends, in one request', async () => {
    const c = new AgentClient(store, { url: `${server.url}/agent?slow`, protocol: 'ag-ui', conversationId: 'thread-1', tools: { pickColor: { ui: true } } })
    const sending = c.send('pick a colour')
    await expect.poll(() => {
      const s = store.getState()
      const turn = s.turnIds[1]
      return turn ? messagesOf(s, turn).find((m) => m.type === 'tool')?.props.state : undefined
    }).toBe('input-available')
    expect(store.getState().status).toBe('streaming')
    const responding = c.respond('call-pick', { color: 'violet' })
    expect(inputs).toHaveLength(1)
    expect(await responding).toEqual({ ok: true })
    // Its result is the continuation's: by then the request went and the agent answered.
    expect(inputs).toHaveLength(2)
    await sending
    expect(inputs[1]!.messages.at(-1)).toMatchObject({ role: 'tool', toolCallId: 'call-pick', content: '{"color":"violet"}' })
    const s = store.getState()
    expect(s.turnIds).toHaveLength(2)
    expect(messagesOf(s, s.turnIds[1]!).filter((m) => m.type === 'text').map((m) => m.props.content)).toEqual(['picked {"color":"violet"}'])
  })
})
