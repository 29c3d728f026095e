/**
 * The stock servers the host apps talk to, on loopback in the test process.
 * Each is written the way its framework's own documentation writes one, with
 * nothing added for weft: an AI SDK 6 route (`validateUIMessages`,
 * `convertToModelMessages`, `streamText`, `toUIMessageStreamResponse`) and an
 * AG-UI endpoint (`RunAgentInputSchema`, `EventEncoder`). Only the model is
 * scripted; everything else is the libraries' own code. Any other method or
 * path gets the 404 or 405 a framework answers, so a request weft should not
 * make shows up as an error in the page.
 *
 * The scenario is chosen by the question's words, so one server serves every
 * test of a host: `markdown` (a heading, a list and a ```ts block in many small
 * deltas), `approval` (a tool that needs a person's yes, then text), `slow`
 * (text slow enough to reload the page in the middle of it) and `math` (inline and
 * display math, prices, and a mermaid fence).
 */
import { EventType, type BaseEvent, type RunAgentInput } from '@ag-ui/core'
import { RunAgentInputSchema } from '@ag-ui/core/schemas'
import { EventEncoder } from '@ag-ui/encoder'
import type { LanguageModelV3Prompt, LanguageModelV3StreamPart } from '@ai-sdk/provider'
import { convertToModelMessages, simulateReadableStream, streamText, tool, validateUIMessages, type UIMessage } from 'ai'
import { MockLanguageModelV3 } from 'ai/test'
import { z } from 'zod'
import { startWebServer, type WebServer } from '../helpers/web-server'

/** The markdown answer: what the page must show as a heading, a list and a code block. */
export const MARKDOWN_ANSWER = [
  '## Release plan',
  '',
  'The release goes out in three steps:',
  '',
  '- Freeze the branch',
  '- Run the checks',
  '- Tag and publish',
  '',
  '```ts',
  'export function greet(name: string): string {',
  '  return `Hello, ${name}!`',
  '}',
  '```',
  '',
  'That is all.',
].join('\n')

/** The math answer: inline and display math, dollar amounts that stay prose, and a mermaid diagram. */
export const MATH_ANSWER = [
  'The roots of $ax^2 + bx + c = 0$ are',
  '',
  '$$',
  'x = \\frac{-b \\pm \\sqrt{b^2 - 4ac}}{2a}',
  '$$',
  '',
  'The plan costs $5 and $10 a month.',
  '',
  '```mermaid',
  'graph LR',
  '  Ask --> Answer',
  '```',
].join('\n')

/** What the model says once the approved tool has run. */
export const APPROVED_ANSWER = 'Deleted /tmp/report.txt as approved.'

/** The slow answer's words, one per delta; long enough to reload in the middle. */
export const SLOW_WORDS = Array.from({ length: 60 }, (_, i) => `word${i + 1}`)
/** The pause between two of the slow answer's words. */
export const SLOW_DELAY_MS = 150

/** The questions that pick each scenario. */
export const QUESTIONS = {
  markdown: 'Write the release plan',
  approval: 'Please delete the old report',
  slow: 'Tell me slowly',
  math: 'Show the formula',
} as const

type Scenario = keyof typeof QUESTIONS

function scenarioOf(question: string): Scenario {
  if (question.includes('delete')) return 'approval'
  if (question.includes('slowly')) return 'slow'
  if (question.includes('formula')) return 'math'
  return 'markdown'
}

/** A request the server received: what a test asks "did the server see …" of. */
export interface Received {
  method: string
  path: string
  status: number
  body: unknown
}

/** A started stock server and what it received, in order. */
export interface StockServer {
  url: string
  received: Received[]
  close(): Promise<void>
}

/** `text` in pieces of `size` characters, as a model streams tokens. */
function pieces(text: string, size: number): string[] {
  const out: string[] = []
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size))
  return out
}

/** Wraps a Request → Response handler so every request is recorded with the status it got. */
async function recordingServer(handle: (request: Request, body: unknown) => Promise<Response>): Promise<StockServer> {
  const received: Received[] = []
  const server: WebServer = await startWebServer(async (request) => {
    const path = new URL(request.url).pathname
    const text = request.method === 'GET' || request.method === 'HEAD' ? '' : await request.text()
    let body: unknown = text
    try {
      body = text ? JSON.parse(text) : undefined
    } catch {
      // Not JSON: kept as text, and the handler refuses it as its framework would.
    }
    const entry: Received = { method: request.method, path, status: 0, body }
    received.push(entry)
    let response: Response
    try {
      response = await handle(request, body)
    } catch (thrown) {
      // What a framework answers when a route throws (the SDK's validation errors do).
      response = new Response(thrown instanceof Error ? thrown.message : String(thrown), { status: 500 })
    }
    entry.status = response.status
    return response
  })
  return { url: server.url, received, close: () => server.close() }
}

/** What a framework answers outside the one route: 405 on its path, 404 elsewhere. */
function notRouted(request: Request): Response | undefined {
  const path = new URL(request.url).pathname
  if (path !== '/api/chat') return new Response('Not Found', { status: 404 })
  if (request.method !== 'POST') return new Response('Method Not Allowed', { status: 405, headers: { allow: 'POST' } })
  return undefined
}

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } }

function modelText(text: string[]): LanguageModelV3StreamPart[] {
  return [
    { type: 'stream-start', warnings: [] },
    { type: 'text-start', id: 't' },
    ...text.map((delta) => ({ type: 'text-delta' as const, id: 't', delta })),
    { type: 'text-end', id: 't' },
    { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
  ]
}

/** The scripted model: answers from the prompt it is given, as a real one would. */
function modelReply(prompt: LanguageModelV3Prompt): { chunks: LanguageModelV3StreamPart[]; delay: number } {
  const last = prompt.at(-1)
  // The approved tool ran on the server; the model now answers with its result in the prompt.
  if (last?.role === 'tool') return { chunks: modelText(pieces(APPROVED_ANSWER, 6)), delay: 2 }
  const question = last?.role === 'user' ? last.content.map((part) => (part.type === 'text' ? part.text : '')).join('') : ''
  switch (scenarioOf(question)) {
    case 'approval':
      return {
        chunks: [
          { type: 'stream-start', warnings: [] },
          { type: 'tool-call', toolCallId: 'call-delete-1', toolName: 'deleteFile', input: JSON.stringify({ path: '/tmp/report.txt' }) },
          { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage },
        ],
        delay: 2,
      }
    case 'slow':
      return { chunks: modelText(SLOW_WORDS.map((word) => `${word} `)), delay: SLOW_DELAY_MS }
    case 'markdown':
      return { chunks: modelText(pieces(MARKDOWN_ANSWER, 5)), delay: 2 }
    case 'math':
      return { chunks: modelText(pieces(MATH_ANSWER, 5)), delay: 2 }
  }
}

/** The server-side tools: one that needs a person's approval before it runs (AI SDK 6 `needsApproval`). */
const tools = {
  deleteFile: tool({
    description: 'Delete a file',
    inputSchema: z.object({ path: z.string() }),
    needsApproval: true,
    execute: async ({ path }) => ({ deleted: path }),
  }),
}

/**
 * A stock AI SDK 6 chat route at `POST /api/chat`, and nothing else: no resume
 * endpoint (`GET /api/chat/<id>/stream` is a 404, as it is for a route that
 * never set one up). An approval arrives as the SDK's client sends it, the tool
 * part in state `approval-responded` in the next POST; `streamText` then runs
 * the approved tool itself and the model answers with its result.
 *
 * @example
 * const route = await startAiSdkRoute()
 * // proxy the host's /api to route.url
 */
export async function startAiSdkRoute(): Promise<StockServer> {
  return recordingServer(async (request, body) => {
    const refused = notRouted(request)
    if (refused) return refused
    const { messages: raw } = (body ?? {}) as { messages?: unknown }
    const messages = await validateUIMessages({ messages: raw, tools: tools as Parameters<typeof validateUIMessages>[0]['tools'] })
    const model = new MockLanguageModelV3({
      doStream: async ({ prompt }) => {
        const { chunks, delay } = modelReply(prompt)
        return { stream: simulateReadableStream({ chunks, chunkDelayInMs: delay }) }
      },
    })
    const result = streamText({ model, messages: await convertToModelMessages(messages, { tools }), tools })
    return result.toUIMessageStreamResponse({ originalMessages: messages })
  })
}

/** The AI SDK messages of a recorded chat request. */
export function uiMessagesOf(received: Received): UIMessage[] {
  const messages = (received.body as { messages?: unknown } | undefined)?.messages
  return Array.isArray(messages) ? (messages as UIMessage[]) : []
}

/** An AG-UI text message, streamed delta by delta. */
function agText(messageId: string, deltas: string[]): BaseEvent[] {
  return [
    { type: EventType.TEXT_MESSAGE_START, messageId, role: 'assistant' } as BaseEvent,
    ...deltas.map((delta) => ({ type: EventType.TEXT_MESSAGE_CONTENT, messageId, delta }) as BaseEvent),
    { type: EventType.TEXT_MESSAGE_END, messageId } as BaseEvent,
  ]
}

/** The AG-UI agent: its events for one run, and the pause between them. */
function agRun(input: RunAgentInput, run: number): { events: BaseEvent[]; delay: number } {
  const { threadId, runId } = input
  const started = { type: EventType.RUN_STARTED, threadId, runId } as BaseEvent
  const finished = (extra: Record<string, unknown> = {}) => ({ type: EventType.RUN_FINISHED, threadId, runId, ...extra }) as BaseEvent
  const answer = `answer-${run}`
  const resumed = input.resume?.find((entry) => entry.status === 'resolved')
  if (resumed) {
    // The interrupt was answered: the held tool runs, then the agent reports.
    const toolCallId = `call-${resumed.interruptId}`
    return {
      events: [
        started,
        { type: EventType.TOOL_CALL_RESULT, messageId: `${answer}-tool`, toolCallId, content: JSON.stringify({ deleted: '/tmp/report.txt' }) } as BaseEvent,
        ...agText(answer, pieces(APPROVED_ANSWER, 6)),
        finished(),
      ],
      delay: 2,
    }
  }
  const last = input.messages.at(-1)
  const question = last?.role === 'user' && typeof last.content === 'string' ? last.content : ''
  switch (scenarioOf(question)) {
    case 'approval': {
      const interruptId = `approve-${run}`
      const toolCallId = `call-${interruptId}`
      return {
        events: [
          started,
          { type: EventType.TOOL_CALL_START, toolCallId, toolCallName: 'deleteFile', parentMessageId: answer } as BaseEvent,
          { type: EventType.TOOL_CALL_ARGS, toolCallId, delta: JSON.stringify({ path: '/tmp/report.txt' }) } as BaseEvent,
          { type: EventType.TOOL_CALL_END, toolCallId } as BaseEvent,
          finished({ outcome: { type: 'interrupt', interrupts: [{ id: interruptId, reason: 'tool_approval', message: 'Delete /tmp/report.txt?', toolCallId }] } }),
        ],
        delay: 2,
      }
    }
    case 'slow':
      return { events: [started, ...agText(answer, SLOW_WORDS.map((word) => `${word} `)), finished()], delay: SLOW_DELAY_MS }
    case 'markdown':
      return { events: [started, ...agText(answer, pieces(MARKDOWN_ANSWER, 5)), finished()], delay: 2 }
    case 'math':
      return { events: [started, ...agText(answer, pieces(MATH_ANSWER, 5)), finished()], delay: 2 }
  }
}

/**
 * A stock AG-UI endpoint at `POST /api/chat`: every body through AG-UI's own
 * `RunAgentInputSchema` (422 when it is not a `RunAgentInput`), the run's
 * events written by `@ag-ui/encoder` as server-sent events, one at a time. A
 * tool that needs approval ends the run with an interrupt outcome; the answer
 * comes back as a run whose input carries `resume`.
 *
 * @example
 * const agent = await startAgUiServer()
 */
export async function startAgUiServer(): Promise<StockServer> {
  let runs = 0
  return recordingServer(async (request, body) => {
    const refused = notRouted(request)
    if (refused) return refused
    const parsed = RunAgentInputSchema.safeParse(body)
    if (!parsed.success) return new Response(parsed.error.message, { status: 422 })
    const { events, delay } = agRun(parsed.data as RunAgentInput, ++runs)
    const encoder = new EventEncoder()
    const bytes = new TextEncoder()
    let timer: ReturnType<typeof setTimeout> | undefined
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const event = events.shift()
        if (!event) return controller.close()
        await new Promise<void>((resolve) => (timer = setTimeout(resolve, delay)))
        controller.enqueue(bytes.encode(encoder.encodeSSE(event)))
      },
      cancel() {
        clearTimeout(timer)
        events.length = 0
      },
    })
    return new Response(stream, { headers: { 'content-type': encoder.getContentType(), 'cache-control': 'no-cache' } })
  })
}

/** The AG-UI input of a recorded request. */
export function runInputOf(received: Received): RunAgentInput | undefined {
  const parsed = RunAgentInputSchema.safeParse(received.body)
  return parsed.success ? (parsed.data as RunAgentInput) : undefined
}
