/**
 * The conversation loop against an AG-UI server on loopback: every request is
 * parsed with `@ag-ui/core`'s own `RunAgentInputSchema`, and the answer is
 * written with `@ag-ui/encoder`. Frontend tools, interrupts with `resume`,
 * regenerate and edit go end to end.
 */
import { EventType, type BaseEvent, type RunAgentInput } from '@ag-ui/core'
import { RunAgentInputSchema } from '@ag-ui/core/schemas'
import { EventEncoder } from '@ag-ui/encoder'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { selectBranch } from '../../../src/core/store/branches'
import { AgentClient } from '../../helpers/built-in-client'
import type { AgentState } from '../../../src/core/model/model'
import { createAgentStore, type AgentStore } from '../../../src/core/store/store'
import { startWebServer, type WebServer } from '../../helpers/web-server'
import { messageIn } from '../../../src/core/model/message-table'

let server: WebServer
let store: AgentStore
const inputs: RunAgentInput[] = []
let counter = 0

function text(messageId: string, content: string): BaseEvent[] {
  return [
    { type: EventType.TEXT_MESSAGE_START, messageId, role: 'assistant' } as BaseEvent,
    { type: EventType.TEXT_MESSAGE_CONTENT, messageId, delta: content } as BaseEvent,
    { type: EventType.TEXT_MESSAGE_END, messageId } as BaseEvent,
  ]
}

/** The agent: answers from the input it was given. */
function respond(input: RunAgentInput): BaseEvent[] {
  const { threadId, runId } = input
  const events: BaseEvent[] = [{ type: EventType.RUN_STARTED, threadId, runId } as BaseEvent]
  const finished = (extra: Record<string, unknown> = {}) => ({ type: EventType.RUN_FINISHED, threadId, runId, ...extra }) as BaseEvent
  const last = input.messages.at(-1)
  const n = ++counter
  if (input.resume?.length) {
    events.push(...text(`a${n}`, `resumed with ${JSON.stringify(input.resume[0]!.payload)}`), finished())
  } else if (last?.role === 'tool') {
    events.push(...text(`a${n}`, `tool said ${typeof last.content === 'string' ? last.content : ''}`), finished())
  } else if (last?.role === 'user' && String(last.content).includes('where') && input.tools.some((t) => t.name === 'getLocation')) {
    events.push(
      { type: EventType.TOOL_CALL_START, toolCallId: `call-${n}`, toolCallName: 'getLocation', parentMessageId: `a${n}` } as BaseEvent,
      { type: EventType.TOOL_CALL_ARGS, toolCallId: `call-${n}`, delta: '{"precise":true}' } as BaseEvent,
      { type: EventType.TOOL_CALL_END, toolCallId: `call-${n}` } as BaseEvent,
      finished(),
    )
  } else if (last?.role === 'user' && String(last.content).includes('email')) {
    events.push(...text(`a${n}`, 'Drafted.'), finished({
      outcome: { type: 'interrupt', interrupts: [{ id: `int-${n}`, reason: 'confirmation', message: 'Send the email?' }] },
    }))
  } else {
    const said = last?.role === 'user' ? (typeof last.content === 'string' ? last.content : 'parts') : '?'
    events.push(...text(`a${n}`, `echo ${said} #${n}`), finished())
  }
  return events
}

/** The events up to the first text, then the rest after a pause (time to steer). */
function slowResponse(encoder: EventEncoder, events: BaseEvent[]): Response {
  const first = events.findIndex((event) => event.type === EventType.TEXT_MESSAGE_CONTENT) + 1
  const bytes = (part: BaseEvent[]) => new TextEncoder().encode(part.map((event) => encoder.encodeSSE(event)).join(''))
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes(events.slice(0, first)))
      setTimeout(() => {
        try {
          controller.enqueue(bytes(events.slice(first)))
          controller.close()
        } catch {
          // The client went away (it steered).
        }
      }, 400)
    },
  })
  return new Response(body, { headers: { 'content-type': encoder.getContentType() } })
}

beforeAll(async () => {
  server = await startWebServer(async (request) => {
    const parsed = RunAgentInputSchema.safeParse(await request.json())
    if (!parsed.success) return new Response(parsed.error.message, { status: 422 })
    inputs.push(parsed.data as RunAgentInput)
    const encoder = new EventEncoder()
    const events = respond(parsed.data as RunAgentInput)
    const last = parsed.data.messages.at(-1)
    if (last?.role === 'user' && String(last.content).includes('slowly')) return slowResponse(encoder, events)
    const body = events.map((event) => encoder.encodeSSE(event)).join('')
    return new Response(body, { headers: { 'content-type': encoder.getContentType() } })
  })
})
afterAll(() => server.close())
beforeEach(() => {
  store = createAgentStore()
  inputs.length = 0
  server.bodies.length = 0
})

function client(extra: Partial<ConstructorParameters<typeof AgentClient>[1]> = {}): AgentClient {
  return new AgentClient(store, { url: `${server.url}/agent`, protocol: 'ag-ui', conversationId: 'thread-1', ...extra })
}

const textOf = (s: AgentState, turnId: string) =>
  s.turns[turnId]!.messageIds.map((id) => messageIn(s.messages, id)!).filter((m) => m.type === 'text').map((m) => m.props.content).join(' ')

describe('AG-UI: RunAgentInput', () => {
  it('every request passes the AG-UI schema and carries the active path', async () => {
    const c = client()
    await c.send('hello')
    await c.send('again')
    expect(store.getState().error?.message).toBeUndefined()
    expect(server.bodies).toHaveLength(2)
    expect(inputs).toHaveLength(2)
    const second = inputs[1]!
    expect(second.threadId).toBe('thread-1')
    expect(second.runId).not.toBe(inputs[0]!.runId)
    expect(second.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user'])
    expect(second.messages[1]).toMatchObject({ role: 'assistant', content: expect.stringMatching(/^echo hello #/) })
    const s = store.getState()
    expect(textOf(s, s.turnIds[3]!)).toMatch(/^echo again #/)
  })

  it('the schema is real: a body that is not a RunAgentInput is refused', async () => {
    const c = client({ body: (_input, { built }) => ({ ...(built as Record<string, unknown>), messages: [{ role: 'user' }] }) })
    await c.send('hello')
    expect(store.getState().error).toMatchObject({ status: 422 })
    expect(inputs).toHaveLength(0)
  })
})

describe('AG-UI: frontend tools', () => {
  it('declares the tool, runs it, and sends its result as a role "tool" message', async () => {
    const c = client({ tools: { getLocation: { description: 'The user\'s city', parameters: { type: 'object', properties: { precise: { type: 'boolean' } } }, execute: async (input) => ({ city: 'Paris', input }) } } })
    await c.send('where am I?')
    expect(inputs[0]!.tools).toEqual([{ name: 'getLocation', description: 'The user\'s city', parameters: { type: 'object', properties: { precise: { type: 'boolean' } } } }])
    expect(inputs).toHaveLength(2)
    const next = inputs[1]!
    const call = next.messages.find((m) => m.role === 'assistant')
    expect(call).toMatchObject({ toolCalls: [{ type: 'function', function: { name: 'getLocation', arguments: '{"precise":true}' } }] })
    expect(next.messages.at(-1)).toMatchObject({ role: 'tool', toolCallId: (call as { toolCalls: Array<{ id: string }> }).toolCalls[0]!.id, content: '{"city":"Paris","input":{"precise":true}}' })
    const s = store.getState()
    expect(s.turnIds).toHaveLength(2)
    expect(textOf(s, s.turnIds[1]!)).toBe('tool said {"city":"Paris","input":{"precise":true}}')
  })
})

describe('AG-UI: interrupts', () => {
  it('an answered interrupt resumes with the resume entry AG-UI defines', async () => {
    const c = client()
    await c.send('send the email')
    const gate = Object.values(store.getState().gates)[0]!
    expect(gate).toMatchObject({ kind: 'interrupt', status: 'pending', question: 'Send the email?' })
    expect(await c.answer(gate.id, { approved: true })).toEqual({ ok: true })
    expect(store.getState().gates[gate.id]!.status).toBe('approved')
    expect(inputs.at(-1)!.resume).toEqual([{ interruptId: gate.id, status: 'resolved', payload: { approved: true } }])
    const s = store.getState()
    expect(textOf(s, s.turnIds[1]!)).toBe('Drafted. resumed with {"approved":true}')
    expect(await c.answer(gate.id, { approved: true })).toMatchObject({ ok: false, error: { type: 'validation' } })
  })
})

describe('AG-UI: regenerate and edit', () => {
  it('regenerate sends the path up to the question; edit sends the edited question', async () => {
    const c = client()
    await c.send('one')
    await c.regenerate()
    expect(inputs.at(-1)!.messages.map((m) => m.role)).toEqual(['user'])
    let s = store.getState()
    expect(selectBranch(s, s.turnIds[1]!)).toMatchObject({ index: 1, count: 2 })
    await c.edit(s.turnIds[0]!, 'two')
    expect(inputs.at(-1)!.messages).toEqual([expect.objectContaining({ role: 'user', content: 'two' })])
    s = store.getState()
    expect(textOf(s, s.turnIds[1]!)).toMatch(/^echo two #/)
    c.selectBranch(s.turnIds[0]!, 0)
    expect(store.getState().turnIds[0]).not.toBe(s.turnIds[0])
  })

  it('a file becomes an AG-UI binary content part the schema accepts', async () => {
    const c = client()
    await c.send({ text: 'look', files: [new File(['abc'], 'a.png', { type: 'image/png' })] })
    expect(inputs[0]!.messages[0]).toMatchObject({
      role: 'user', content: [{ type: 'text', text: 'look' }, { type: 'image', source: { type: 'data', value: 'YWJj', mimeType: 'image/png' } }],
    })
  })
})

describe('AG-UI: a message sent while the answer streams', () => {
  const until = async (check: () => boolean) => {
    for (let i = 0; i < 400 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 5))
  }
  const answerText = () => {
    const s = store.getState()
    return s.turnIds[1] ? textOf(s, s.turnIds[1]) : ''
  }

  it('steered: the schema accepts the input, whose messages end with the interrupted answer and the new message', async () => {
    const c = client()
    const first = c.send('tell me slowly')
    await until(() => answerText() !== '')
    await c.send('In Lyon?', { whileRunning: 'steer' })
    await first
    const s = store.getState()
    expect(s.error).toBeUndefined()
    expect(s.turnIds.map((id) => s.turns[id]!.status)).toEqual(['done', 'aborted', 'done', 'done'])
    expect(inputs).toHaveLength(2)
    expect(inputs[1]!.messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'tell me slowly'], ['assistant', expect.stringMatching(/^echo tell me slowly #\d+$/)], ['user', 'In Lyon?'],
    ])
    expect(textOf(s, s.turnIds[3]!)).toMatch(/^echo In Lyon\? #\d+$/)
  })

  it('queued: the message goes in the next run, after the finished answer', async () => {
    const c = client()
    const first = c.send('tell me slowly')
    await until(() => answerText() !== '')
    await c.send('In Lyon?')
    expect(inputs).toHaveLength(1)
    await first
    await until(() => !c.busy && store.getState().turnIds.length === 4 && store.getState().status === 'done')
    const s = store.getState()
    expect(s.turnIds.map((id) => s.turns[id]!.status)).toEqual(['done', 'done', 'done', 'done'])
    expect(inputs[1]!.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user'])
  })
})
