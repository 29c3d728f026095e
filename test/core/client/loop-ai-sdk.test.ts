/**
 * The conversation loop against a stock AI SDK route: `streamText` over the
 * SDK's own mock model, `toUIMessageStreamResponse`, with every request passed
 * through `validateUIMessages` and `convertToModelMessages`. Approvals, client
 * tools, regenerate, edit, branches and files go end to end.
 */
import type { LanguageModelV3Prompt, LanguageModelV3StreamPart } from '@ai-sdk/provider'
import { convertToModelMessages, simulateReadableStream, streamText, tool, validateUIMessages, type UIMessage } from 'ai'
import { MockLanguageModelV3 } from 'ai/test'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { selectBranch } from '../../../src/core/store/branches'
import { AgentClient } from '../../helpers/built-in-client'
import type { AgentState, Message } from '../../../src/core/model/model'
import { createAgentStore, type AgentStore } from '../../../src/core/store/store'
import { startWebServer, type WebServer } from '../../helpers/web-server'
import { messageIn } from '../../../src/core/model/message-table'

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } }
let answers = 0

function textReply(text: string): LanguageModelV3StreamPart[] {
  return [
    { type: 'stream-start', warnings: [] },
    { type: 'text-start', id: 't' },
    { type: 'text-delta', id: 't', delta: text.slice(0, 4) },
    { type: 'text-delta', id: 't', delta: text.slice(4) },
    { type: 'text-end', id: 't' },
    { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
  ]
}

function toolCall(toolName: string, input: unknown): LanguageModelV3StreamPart[] {
  return [
    { type: 'stream-start', warnings: [] },
    { type: 'tool-call', toolCallId: `call-${toolName}-${++answers}`, toolName, input: JSON.stringify(input) },
    { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage },
  ]
}

/** The model answers from what the prompt holds, so each request shows what the client sent. */
function reply(prompt: LanguageModelV3Prompt): LanguageModelV3StreamPart[] {
  const last = prompt.at(-1)
  if (last?.role === 'tool') {
    const result = last.content.find((part) => part.type === 'tool-result')
    return textReply(`tool said ${JSON.stringify(result?.type === 'tool-result' ? result.output : null)}`)
  }
  if (last?.role !== 'user') return textReply('nothing to answer')
  const text = last.content.map((part) => (part.type === 'text' ? part.text : '')).join('')
  const files = last.content.filter((part) => part.type === 'file')
  if (files.length > 0) {
    const file = files[0]!
    const data = file.type === 'file' ? file.data : undefined
    const bytes = data instanceof URL ? data.href : typeof data === 'string' ? data : data instanceof Uint8Array ? Buffer.from(data).toString('utf8') : ''
    return textReply(`file ${file.type === 'file' ? file.mediaType : ''} says ${bytes}`)
  }
  if (text.includes('delete')) return toolCall('deleteFile', { path: '/tmp/report.txt' })
  if (text.includes('where')) return toolCall('getLocation', {})
  return textReply(`echo ${text} #${++answers}`)
}

const tools = {
  deleteFile: tool({
    description: 'Delete a file', inputSchema: z.object({ path: z.string() }), needsApproval: true,
    execute: async ({ path }) => ({ deleted: path }),
  }),
  getLocation: tool({ description: 'The user\'s city', inputSchema: z.object({}), outputSchema: z.object({ city: z.string() }) }),
}

let server: WebServer
let store: AgentStore
const received: UIMessage[][] = []
/** The prompt the model was given, per request. */
const prompts: LanguageModelV3Prompt[] = []

/** A question that asks for a slow answer: its first words, then the rest after a pause (time to steer). */
const isSlow = (prompt: LanguageModelV3Prompt) => {
  const last = prompt.at(-1)
  return last?.role === 'user' && last.content.some((part) => part.type === 'text' && part.text.includes('slowly'))
}

function slowly(parts: LanguageModelV3StreamPart[]): ReadableStream<LanguageModelV3StreamPart> {
  const first = parts.findIndex((part) => part.type === 'text-delta') + 1
  return new ReadableStream({
    start(controller) {
      for (const part of parts.slice(0, first)) controller.enqueue(part)
      setTimeout(() => {
        for (const part of parts.slice(first)) controller.enqueue(part)
        controller.close()
      }, 400)
    },
  })
}

beforeAll(async () => {
  server = await startWebServer(async (request) => {
    const body = (await request.json()) as { messages: unknown }
    const messages = await validateUIMessages({ messages: body.messages, tools: tools as Parameters<typeof validateUIMessages>[0]['tools'] })
    received.push(messages)
    const model = new MockLanguageModelV3({
      // The model takes uploaded images by URL, as hosted providers do.
      supportedUrls: { 'image/*': [/^http:\/\/127\.0\.0\.1/] },
      doStream: async ({ prompt }) => {
        prompts.push(prompt)
        return { stream: isSlow(prompt) ? slowly(reply(prompt)) : simulateReadableStream({ chunks: reply(prompt), chunkDelayInMs: null }) }
      },
    })
    const result = streamText({ model, messages: await convertToModelMessages(messages, { tools }), tools })
    return result.toUIMessageStreamResponse({ originalMessages: messages, generateMessageId: () => `msg-${++answers}` })
  })
})
afterAll(() => server.close())
beforeEach(() => {
  store = createAgentStore()
  server.bodies.length = 0
  received.length = 0
  prompts.length = 0
})

function client(extra: Partial<ConstructorParameters<typeof AgentClient>[1]> = {}): AgentClient {
  return new AgentClient(store, { url: `${server.url}/api/chat`, protocol: 'ui-message', conversationId: 'chat-1', ...extra })
}

const path = (s: AgentState) => s.turnIds.map((id) => s.turns[id]!)
const messagesOf = (s: AgentState, turnId: string): Message[] => s.turns[turnId]!.messageIds.map((id) => messageIn(s.messages, id)!)
const textOf = (s: AgentState, turnId: string) => messagesOf(s, turnId).filter((m) => m.type === 'text').map((m) => m.props.content).join('')
const lastBody = () => server.bodies.at(-1) as Record<string, unknown> & { messages: UIMessage[] }

describe('AI SDK route: the chat request', () => {
  it('sends id, messages, trigger, and the SDK validates and answers', async () => {
    const c = client()
    await c.send('hello')
    const s = store.getState()
    expect(s.status).toBe('done')
    expect(lastBody()).toMatchObject({ id: 'chat-1', trigger: 'submit-message', messages: [{ role: 'user', parts: [{ type: 'text', text: 'hello' }] }] })
    expect(textOf(s, s.turnIds[1]!)).toMatch(/^echo hello #\d+$/)
    await c.send('again')
    // The whole active path goes back, the answer under the id the server gave it.
    const second = lastBody().messages
    expect(second.map((m) => m.role)).toEqual(['user', 'assistant', 'user'])
    expect(second[1]!.id).toBe(s.turns[s.turnIds[1]!]!.metadata.messageId)
    expect(second[1]!.parts).toEqual([{ type: 'step-start' }, { type: 'text', text: textOf(s, s.turnIds[1]!), state: 'done' }])
  })
})

describe('AI SDK route: approvals', () => {
  it('approve → the server runs the tool and the answer goes on in the same turn', async () => {
    const c = client()
    await c.send('please delete the report')
    let s = store.getState()
    const answer = s.turnIds[1]!
    const gate = Object.values(s.gates).find((g) => g.status === 'pending')!
    expect(gate.kind).toBe('tool-approval')
    const result = await c.answer(gate.id, { approved: true })
    expect(result).toEqual({ ok: true })
    s = store.getState()
    expect(s.gates[gate.id]!.status).toBe('approved')
    // The continuation carried the approval the way the SDK writes it.
    const sent = lastBody()
    expect(sent.trigger).toBe('submit-message')
    expect(sent.messageId).toBe(s.turns[answer]!.metadata.messageId)
    const part = sent.messages.at(-1)!.parts.find((p) => p.type === 'tool-deleteFile') as Record<string, unknown>
    expect(part).toMatchObject({ state: 'approval-responded', approval: { approved: true } })
    const tool = messagesOf(s, answer).find((m) => m.type === 'tool')!
    expect(tool.props).toMatchObject({ state: 'output-available', output: { deleted: '/tmp/report.txt' } })
    expect(textOf(s, answer)).toBe('tool said {"type":"json","value":{"deleted":"/tmp/report.txt"}}')
    expect(s.turnIds).toHaveLength(2)
    expect(s.status).toBe('done')
  })

  it('deny with a reason → output-denied, and the model hears it', async () => {
    const c = client()
    await c.send('delete it')
    const gate = Object.values(store.getState().gates)[0]!
    await c.answer(gate.id, { approved: false, reason: 'keep it' })
    const s = store.getState()
    expect(s.gates[gate.id]!.status).toBe('rejected')
    const tool = messagesOf(s, s.turnIds[1]!).find((m) => m.type === 'tool')!
    expect(tool.props.state).toBe('output-denied')
    expect(textOf(s, s.turnIds[1]!)).toContain('execution-denied')
  })

  it('a second answer, an unknown gate or a malformed answer is refused and changes nothing', async () => {
    const c = client()
    await c.send('delete it')
    const gate = Object.values(store.getState().gates)[0]!
    const bad = await c.answer(gate.id, { approved: 'yes' })
    expect(bad).toMatchObject({ ok: false, error: { type: 'validation' } })
    expect(store.getState().gates[gate.id]!.status).toBe('pending')
    expect(await c.answer('nope', { approved: true })).toMatchObject({ ok: false, error: { type: 'validation' } })
    await c.answer(gate.id, { approved: true })
    const before = server.bodies.length
    const again = await c.answer(gate.id, { approved: false })
    expect(again).toMatchObject({ ok: false, error: { type: 'validation' } })
    expect(store.getState().gates[gate.id]!.status).toBe('approved')
    expect(server.bodies.length).toBe(before)
  })

  it('a server that refuses the continuation puts the gate back to pending with the error', async () => {
    let refuse = false
    const c = client({ fetch: (input, init) => (refuse ? Promise.resolve(new Response('no', { status: 503 })) : fetch(input, init)) })
    await c.send('delete it')
    const gate = Object.values(store.getState().gates)[0]!
    refuse = true
    const result = await c.answer(gate.id, { approved: true })
    expect(result).toMatchObject({ ok: false, error: { status: 503 } })
    const s = store.getState()
    expect(s.gates[gate.id]!.status).toBe('pending')
    const tool = messagesOf(s, s.turnIds[1]!).find((m) => m.type === 'tool')!
    expect(tool.props.state).toBe('approval-requested')
    expect(s.turns[s.turnIds[1]!]!.problems.some((p) => p.status === 503)).toBe(true)
    refuse = false
    expect(await c.answer(gate.id, { approved: true })).toEqual({ ok: true })
    expect(store.getState().gates[gate.id]!.status).toBe('approved')
  })
})

describe('AI SDK route: client tools', () => {
  it('runs a registered tool, folds its output and goes on', async () => {
    const seen: unknown[] = []
    const c = client({ tools: { getLocation: { execute: async (input, { turnId }) => (seen.push([input, turnId]), { city: 'Paris' }) } } })
    await c.send('where am I?')
    const s = store.getState()
    const answer = s.turnIds[1]!
    expect(seen).toEqual([[{}, answer]])
    const tool = messagesOf(s, answer).find((m) => m.type === 'tool')!
    expect(tool.props).toMatchObject({ state: 'output-available', output: { city: 'Paris' } })
    expect(textOf(s, answer)).toBe('tool said {"type":"json","value":{"city":"Paris"}}')
    const part = lastBody().messages.at(-1)!.parts.find((p) => p.type === 'tool-getLocation')
    expect(part).toMatchObject({ state: 'output-available', output: { city: 'Paris' } })
  })

  it('a tool that throws gives output-error with its message, which goes back too', async () => {
    const c = client({ tools: { getLocation: { execute: () => { throw new Error('no GPS') } } } })
    await c.send('where am I?')
    const s = store.getState()
    const tool = messagesOf(s, s.turnIds[1]!).find((m) => m.type === 'tool')!
    expect(tool.props).toMatchObject({ state: 'output-error', errorText: 'no GPS' })
    expect(textOf(s, s.turnIds[1]!)).toContain('no GPS')
  })

  it('stop() aborts a running tool through its signal and sends nothing more', async () => {
    let aborted = false
    let c: AgentClient
    c = client({
      tools: {
        getLocation: {
          execute: (_input, { signal }) => new Promise((resolve) => {
            signal.addEventListener('abort', () => { aborted = true; resolve({ city: 'late' }) })
            queueMicrotask(() => c.stop())
          }),
        },
      },
    })
    await c.send('where am I?')
    const s = store.getState()
    expect(aborted).toBe(true)
    expect(server.bodies).toHaveLength(1)
    const tool = messagesOf(s, s.turnIds[1]!).find((m) => m.type === 'tool')!
    expect(tool.props.state).toBe('output-error')
  })

  it('maxSteps bounds the automatic requests', async () => {
    const c = client({ maxSteps: 0, tools: { getLocation: { execute: async () => ({ city: 'Paris' }) } } })
    await c.send('where am I?')
    const s = store.getState()
    expect(server.bodies).toHaveLength(1)
    expect(s.turns[s.turnIds[1]!]!.problems.map((p) => p.code)).toContain('max_steps')
  })
})

describe('AI SDK route: regenerate, edit, branches', () => {
  it('regenerate keeps the old answer as a sibling and sends the question again', async () => {
    const c = client()
    await c.send('hello')
    const first = store.getState().turnIds[1]!
    const firstText = textOf(store.getState(), first)
    expect(await c.regenerate()).toEqual({ ok: true })
    let s = store.getState()
    const second = s.turnIds[1]!
    expect(second).not.toBe(first)
    expect(lastBody()).toMatchObject({ trigger: 'regenerate-message', messageId: s.turns[first]!.metadata.messageId })
    expect(lastBody().messages.map((m) => m.role)).toEqual(['user'])
    expect(textOf(s, second)).not.toBe(firstText)
    expect(selectBranch(s, second)).toMatchObject({ index: 1, count: 2 })
    expect(c.selectBranch(second, 0)).toEqual({ ok: true })
    s = store.getState()
    expect(s.turnIds[1]).toBe(first)
    expect(textOf(s, first)).toBe(firstText)
    // A request carries the active path only.
    await c.send('next')
    expect(lastBody().messages[1]!.id).toBe(s.turns[first]!.metadata.messageId)
  })

  it('edit starts a new branch from the question and keeps the old one', async () => {
    const c = client()
    await c.send('first question')
    await c.send('second question')
    const old = store.getState().turnIds
    expect(await c.edit(old[0]!, 'edited question')).toEqual({ ok: true })
    let s = store.getState()
    expect(s.turnIds).toHaveLength(2)
    expect(lastBody().messages).toEqual([expect.objectContaining({ role: 'user', parts: [{ type: 'text', text: 'edited question' }] })])
    expect(textOf(s, s.turnIds[1]!)).toMatch(/^echo edited question/)
    expect(selectBranch(s, s.turnIds[0]!)).toMatchObject({ index: 1, count: 2 })
    c.selectBranch(s.turnIds[0]!, 0)
    s = store.getState()
    expect(s.turnIds).toEqual(old)
    expect(await c.edit(old[1]!, 'x')).toMatchObject({ ok: false, error: { type: 'validation' } })
    expect(c.selectBranch(old[0]!, 7)).toEqual({ ok: true })
    expect(c.selectBranch('missing', 0)).toMatchObject({ ok: false })
  })
})

describe('AI SDK route: files', () => {
  it('a file goes as a data URL file part the SDK converts for the model', async () => {
    const c = client()
    await c.send({ text: 'read this', files: [new File(['hi there'], 'note.txt', { type: 'text/plain' })] })
    const s = store.getState()
    const user = path(s)[0]!
    expect(messagesOf(s, user.id).map((m) => m.type)).toEqual(['file', 'text'])
    expect(lastBody().messages[0]!.parts[0]).toEqual({ type: 'file', mediaType: 'text/plain', filename: 'note.txt', url: 'data:text/plain;base64,aGkgdGhlcmU=' })
    expect(textOf(s, s.turnIds[1]!)).toContain('file text/plain says')
  })

  it('files without text: the question is the file part alone, and the SDK takes it', async () => {
    const c = client()
    await c.send({ text: '', files: [new File(['just this'], 'only.txt', { type: 'text/plain' })] })
    const s = store.getState()
    expect(messagesOf(s, path(s)[0]!.id).map((m) => m.type)).toEqual(['file'])
    expect(lastBody().messages).toEqual([{
      id: path(s)[0]!.id, role: 'user',
      parts: [{ type: 'file', mediaType: 'text/plain', filename: 'only.txt', url: 'data:text/plain;base64,anVzdCB0aGlz' }],
    }])
    expect(textOf(s, s.turnIds[1]!)).toBe('file text/plain says anVzdCB0aGlz')
  })

  it('a host upload gives the URL; limits refuse a file before anything is sent', async () => {
    const c = client({ upload: async (file) => `${server.url}/files/${(file as File).name}`, attachments: { accept: ['image/*'], maxSize: 100, maxCount: 1 } })
    const result = await c.edit('none', 'x')
    expect(result.ok).toBe(false)
    await c.send({ text: 'big', files: [new File(['x'.repeat(200)], 'a.png', { type: 'image/png' })] })
    expect(store.getState().error).toMatchObject({ type: 'validation', code: 'attachment_size' })
    await c.send({ text: 'pdf', files: [new File(['x'], 'a.pdf', { type: 'application/pdf' })] })
    expect(store.getState().error).toMatchObject({ type: 'validation', code: 'attachment_type' })
    await c.send({ text: 'two', files: [new File(['x'], 'a.png', { type: 'image/png' }), new File(['y'], 'b.png', { type: 'image/png' })] })
    expect(store.getState().error).toMatchObject({ code: 'attachment_count' })
    expect(server.bodies).toHaveLength(0)
    expect(store.getState().turnIds).toHaveLength(0)
    await c.send({ text: 'ok', files: [new File(['x'], 'a.png', { type: 'image/png' })] })
    expect(lastBody().messages[0]!.parts[0]).toMatchObject({ type: 'file', url: `${server.url}/files/a.png`, mediaType: 'image/png' })
    expect(textOf(store.getState(), store.getState().turnIds[1]!)).toBe(`file image/png says ${server.url}/files/a.png`)
  })
})

describe('AI SDK route: a message sent while the answer streams', () => {
  const until = async (check: () => boolean) => {
    for (let i = 0; i < 400 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 5))
  }

  it('steered: the route validates the interrupted answer and the model reads it before the new message', async () => {
    const c = client()
    const first = c.send('tell me slowly')
    await until(() => path(store.getState()).length === 2 && textOf(store.getState(), store.getState().turnIds[1]!) !== '')
    const partial = textOf(store.getState(), store.getState().turnIds[1]!)
    expect(partial).toBe('echo')
    await c.send('In Lyon?', { whileRunning: 'steer' })
    await first
    const s = store.getState()
    expect(s.error).toBeUndefined()
    expect(path(s).map((t) => t.status)).toEqual(['done', 'aborted', 'done', 'done'])
    expect(textOf(s, s.turnIds[3]!)).toMatch(/^echo In Lyon\? #\d+$/)
    // validateUIMessages took it, and convertToModelMessages gave the model the partial answer, then the new message.
    expect(received).toHaveLength(2)
    const said = (content: LanguageModelV3Prompt[number]['content']) =>
      (typeof content === 'string' ? content : content.map((part) => (part.type === 'text' ? part.text : '')).join(''))
    expect(prompts[1]!.map((m) => [m.role, said(m.content)])).toEqual([
      ['user', 'tell me slowly'], ['assistant', 'echo'], ['user', 'In Lyon?'],
    ])
  })

  it('queued: the route gets the finished answer, then the queued message', async () => {
    const c = client()
    const first = c.send('tell me slowly')
    await until(() => path(store.getState()).length === 2 && textOf(store.getState(), store.getState().turnIds[1]!) !== '')
    await c.send('In Lyon?')
    expect(store.getState().queue?.map((q) => q.text)).toEqual(['In Lyon?'])
    await first
    await until(() => !c.busy && path(store.getState()).length === 4 && store.getState().status === 'done')
    const s = store.getState()
    expect(path(s).map((t) => t.status)).toEqual(['done', 'done', 'done', 'done'])
    expect(received).toHaveLength(2)
    expect(prompts[1]!.map((m) => m.role)).toEqual(['user', 'assistant', 'user'])
    expect(textOf(s, s.turnIds[1]!)).toMatch(/^echo tell me slowly #\d+$/)
  })
})
