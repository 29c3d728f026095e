/**
 * Client tools run as soon as a call's input is complete, while the answer still
 * streams, against a stock AI SDK route (`streamText` over the SDK's mock model)
 * and an AG-UI server (`@ag-ui/encoder`, every request checked by `@ag-ui/core`).
 * The servers hold their stream open after the tool call until the browser's tool
 * has started, so a client that waited for the end of the stream would be seen
 * starting its tools only after the server gave up waiting.
 */
import type { LanguageModelV3Prompt, LanguageModelV3StreamPart } from '@ai-sdk/provider'
import { EventType, type BaseEvent, type RunAgentInput } from '@ag-ui/core'
import { RunAgentInputSchema } from '@ag-ui/core/schemas'
import { EventEncoder } from '@ag-ui/encoder'
import { convertToModelMessages, streamText, tool, validateUIMessages, type UIMessage } from 'ai'
import { MockLanguageModelV3 } from 'ai/test'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { type ClientTool } from '../../../src/core/client'
import { AgentClient } from '../../helpers/built-in-client'
import type { AgentState, Message } from '../../../src/core/model/model'
import { createAgentStore, type AgentStore } from '../../../src/core/store/store'
import { startWebServer, type WebServer } from '../../helpers/web-server'
import { messageIn, messageList } from '../../../src/core/model/message-table'

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } }
/** How long a server holds its stream for a tool to start before it gives up and ends it. */
const HOLD_MS = 4000

/** What happened, in order, on both sides. */
let log: string[] = []
let toolStarted: () => void = () => {}

/** Resolves when a tool starts, or after HOLD_MS; logs which. */
function holdForTool(): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      log.push('server gave up waiting')
      resolve()
    }, HOLD_MS)
    toolStarted = () => {
      clearTimeout(timer)
      resolve()
    }
  })
}

function started(name: string) {
  log.push(`${name} started`)
  toolStarted()
}

let store: AgentStore
const messagesOf = (s: AgentState, turnId: string): Message[] => s.turns[turnId]!.messageIds.map((id) => messageIn(s.messages, id)!)
const toolsOf = (s: AgentState, turnId: string) => messagesOf(s, turnId).filter((m) => m.type === 'tool')
const textOf = (s: AgentState, turnId: string) => messagesOf(s, turnId).filter((m) => m.type === 'text').map((m) => m.props.content).join(' ')

/** Resolves once the store's status leaves streaming (the answer's stream has ended). */
function streamEnded(): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      const status = store.getState().status
      if (status !== 'streaming' && status !== 'connecting') {
        unsubscribe()
        resolve()
      }
    }
    const unsubscribe = store.subscribe(check)
    check()
  })
}

/** A tool that starts, waits for the stream to end, reports how its call looks then, and answers. */
function observedTool(name: string, output: unknown, seen: Record<string, unknown>): ClientTool {
  return {
    description: name,
    execute: async (_input, { toolCallId }) => {
      started(name)
      seen[`${name}: while streaming`] = store.getState().status
      await streamEnded()
      const message = messageList(store.getState().messages).find((m) => m.props.toolCallId === toolCallId)!
      seen[`${name}: after the stream`] = { state: message.props.state, status: message.status }
      if (name === 'getTime') await new Promise((resolve) => setTimeout(resolve, 20))
      return output
    },
  }
}

beforeEach(() => {
  store = createAgentStore()
  log = []
})

// ------------------------------------------------------------------ a stock AI SDK route

let aiServer: WebServer
const aiBodies: UIMessage[][] = []
/** The browser's tools, as the route declares them: no `execute` on the server. */
const aiTools = {
  getLocation: tool({ description: 'The user\'s city', inputSchema: z.object({}) }),
  getTime: tool({ description: 'The time in a zone', inputSchema: z.object({ zone: z.string() }) }),
}

function modelStream(prompt: LanguageModelV3Prompt): ReadableStream<LanguageModelV3StreamPart> {
  const last = prompt.at(-1)
  return new ReadableStream({
    async start(controller) {
      controller.enqueue({ type: 'stream-start', warnings: [] })
      if (last?.role === 'tool') {
        const results = last.content.filter((p) => p.type === 'tool-result').map((p) => (p.type === 'tool-result' ? `${p.toolName}=${JSON.stringify(p.output)}` : ''))
        controller.enqueue({ type: 'text-start', id: 't' })
        controller.enqueue({ type: 'text-delta', id: 't', delta: `results: ${results.join(', ')}` })
        controller.enqueue({ type: 'text-end', id: 't' })
        controller.enqueue({ type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage })
        controller.close()
        return
      }
      controller.enqueue({ type: 'tool-call', toolCallId: 'call-loc', toolName: 'getLocation', input: '{}' })
      controller.enqueue({ type: 'tool-call', toolCallId: 'call-time', toolName: 'getTime', input: '{"zone":"Europe/Paris"}' })
      await holdForTool()
      log.push('stream finished')
      controller.enqueue({ type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage })
      controller.close()
    },
  })
}

// ------------------------------------------------------------------ an AG-UI server

let agServer: WebServer
const agInputs: RunAgentInput[] = []

async function* agEvents(input: RunAgentInput): AsyncGenerator<BaseEvent> {
  const { threadId, runId } = input
  yield { type: EventType.RUN_STARTED, threadId, runId } as BaseEvent
  const results = input.messages.filter((m) => m.role === 'tool')
  if (results.length > 0) {
    const said = results.map((m) => `${m.role === 'tool' ? m.toolCallId : ''}=${typeof m.content === 'string' ? m.content : ''}`).join(', ')
    yield { type: EventType.TEXT_MESSAGE_START, messageId: `a-${runId}`, role: 'assistant' } as BaseEvent
    yield { type: EventType.TEXT_MESSAGE_CONTENT, messageId: `a-${runId}`, delta: `results: ${said}` } as BaseEvent
    yield { type: EventType.TEXT_MESSAGE_END, messageId: `a-${runId}` } as BaseEvent
  } else {
    for (const [id, name, args] of [['call-loc', 'getLocation', '{}'], ['call-time', 'getTime', '{"zone":"Europe/Paris"}']] as const) {
      yield { type: EventType.TOOL_CALL_START, toolCallId: id, toolCallName: name, parentMessageId: 'a-calls' } as BaseEvent
      yield { type: EventType.TOOL_CALL_ARGS, toolCallId: id, delta: args } as BaseEvent
      yield { type: EventType.TOOL_CALL_END, toolCallId: id } as BaseEvent
    }
    await holdForTool()
    log.push('stream finished')
  }
  yield { type: EventType.RUN_FINISHED, threadId, runId } as BaseEvent
}

beforeAll(async () => {
  aiServer = await startWebServer(async (request) => {
    const body = (await request.json()) as { messages: unknown }
    const messages = await validateUIMessages({ messages: body.messages, tools: aiTools as unknown as Parameters<typeof validateUIMessages>[0]['tools'] })
    aiBodies.push(messages)
    const model = new MockLanguageModelV3({ doStream: async ({ prompt }) => ({ stream: modelStream(prompt) }) })
    return streamText({ model, messages: await convertToModelMessages(messages, { tools: aiTools }), tools: aiTools })
      .toUIMessageStreamResponse({ originalMessages: messages })
  })
  agServer = await startWebServer(async (request) => {
    const parsed = RunAgentInputSchema.safeParse(await request.json())
    if (!parsed.success) return new Response(parsed.error.message, { status: 422 })
    const input = parsed.data as RunAgentInput
    agInputs.push(input)
    const encoder = new EventEncoder()
    const text = new TextEncoder()
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        for await (const event of agEvents(input)) controller.enqueue(text.encode(encoder.encodeSSE(event)))
        controller.close()
      },
    })
    return new Response(body, { headers: { 'content-type': encoder.getContentType() } })
  })
})
afterAll(async () => {
  await aiServer.close()
  await agServer.close()
})

describe.each([
  ['AI SDK route', 'ui-message'],
  ['AG-UI server', 'ag-ui'],
] as const)('%s: client tools run when their input is complete', (_name, protocol) => {
  const client = (tools: Record<string, ClientTool>, extra: Partial<ConstructorParameters<typeof AgentClient>[1]> = {}) => new AgentClient(store, {
    url: `${protocol === 'ag-ui' ? agServer.url : aiServer.url}/chat`, protocol, conversationId: 'chat-tools', tools, ...extra,
  })
  const requests = () => (protocol === 'ag-ui' ? agInputs.length : aiBodies.length)

  beforeEach(() => {
    aiBodies.length = 0
    agInputs.length = 0
  })

  it('starts each tool while the answer streams, shows it running past the stream\'s end, and goes on once both have results', async () => {
    const seen: Record<string, unknown> = {}
    const c = client({ getLocation: observedTool('getLocation', { city: 'Paris' }, seen), getTime: observedTool('getTime', '09:30', seen) })
    await c.send('where am I, and what time is it?')
    // The tools started before the server let the stream end; it never had to give up.
    expect(log.slice(0, 2).sort()).toEqual(['getLocation started', 'getTime started'])
    expect(log).toContain('stream finished')
    expect(log).not.toContain('server gave up waiting')
    expect(log.indexOf('stream finished')).toBeGreaterThan(log.indexOf('getLocation started'))
    expect(seen).toEqual({
      'getLocation: while streaming': 'streaming',
      'getTime: while streaming': 'streaming',
      // Still running after the stream ended: the call shows Running, not Called.
      'getLocation: after the stream': { state: 'input-available', status: 'streaming' },
      'getTime: after the stream': { state: 'input-available', status: 'streaming' },
    })
    // One continuation, sent once both calls had their result.
    expect(requests()).toBe(2)
    const s = store.getState()
    const answer = s.turnIds[1]!
    expect(toolsOf(s, answer).map((m) => [m.props.name, m.props.state, m.props.output, m.status])).toEqual([
      ['getLocation', 'output-available', { city: 'Paris' }, 'done'],
      ['getTime', 'output-available', '09:30', 'done'],
    ])
    expect(textOf(s, answer)).toMatch(protocol === 'ag-ui'
      ? /^results: call-loc=\{"city":"Paris"\}, call-time=09:30$/
      : /^results: getLocation=\{"type":"json","value":\{"city":"Paris"\}\}, getTime=\{"type":"text","value":"09:30"\}$/)
    expect(s.status).toBe('done')
  })

  it('stop() while a tool runs aborts it through its signal; its error is folded in and nothing more is sent', async () => {
    const signals: AbortSignal[] = []
    let c: AgentClient | undefined
    const waits: ClientTool = {
      execute: (_input, { signal }) => new Promise((resolve, reject) => {
        signals.push(signal)
        started('tool')
        signal.addEventListener('abort', () => reject(new Error('aborted by the signal')))
        if (signals.length === 2) void streamEnded().then(() => c!.stop())
      }),
    }
    c = client({ getLocation: waits, getTime: waits })
    await c.send('where am I?')
    expect(signals).toHaveLength(2)
    expect(signals.every((s) => s.aborted)).toBe(true)
    expect(requests()).toBe(1)
    const s = store.getState()
    expect(toolsOf(s, s.turnIds[1]!).map((m) => [m.props.state, m.props.errorText])).toEqual([
      ['output-error', 'The tool was stopped.'], ['output-error', 'The tool was stopped.'],
    ])
  })

  it('a tool that throws is an output-error with its message, and the answer goes on with it', async () => {
    const c = client({
      getLocation: { execute: () => { started('getLocation'); throw new Error('no GPS') } },
      getTime: { execute: async () => '09:30' },
    })
    await c.send('where am I?')
    expect(log).not.toContain('server gave up waiting')
    expect(requests()).toBe(2)
    const s = store.getState()
    expect(toolsOf(s, s.turnIds[1]!).map((m) => [m.props.state, m.props.errorText ?? m.props.output])).toEqual([
      ['output-error', 'no GPS'], ['output-available', '09:30'],
    ])
    expect(textOf(s, s.turnIds[1]!)).toContain('no GPS')
  })
})
