/**
 * The LangGraph Platform API as the real in-memory server (`@langchain/langgraph-api`, what
 * `langgraph dev` runs) speaks it, over plain HTTP and SSE: the facts a LangGraph protocol relies
 * on (docs/protocols/langgraph-notes.md). One server for the file, with the graphs of ./graphs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type LangGraphServer, startLangGraphServer } from '../../scripts/langgraph-server.mjs'
import { type Frame, readFrames, readThenDrop } from './sse'

let server: LangGraphServer

beforeAll(async () => {
  server = await startLangGraphServer()
}, 60_000)

afterAll(async () => {
  await server?.stop()
})

interface Json {
  [key: string]: any
}

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; json: Json }> {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const text = await response.text()
  return { status: response.status, json: text ? JSON.parse(text) : null }
}

async function newThread(): Promise<string> {
  const { status, json } = await call('POST', '/threads', {})
  expect(status).toBe(200)
  expect(json.status).toBe('idle')
  return json.thread_id as string
}

function streamRun(threadId: string, body: Record<string, unknown>): Promise<Response> {
  return fetch(`${server.url}/threads/${threadId}/runs/stream`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
}

/** `[message chunk, metadata]` of a `messages` frame (stream mode `messages-tuple`). */
function tuple(frame: Frame): [Json, Json] {
  expect(Array.isArray(frame.data)).toBe(true)
  return frame.data as [Json, Json]
}

/** The text the `messages` frames streamed for one message id. */
function streamedText(frames: Frame[], messageId: string): string {
  return frames
    .filter((frame) => frame.event === 'messages')
    .map(tuple)
    .filter(([chunk]) => chunk.id === messageId)
    .map(([chunk]) => (typeof chunk.content === 'string' ? chunk.content : ''))
    .join('')
}

const UI_MODES = ['values', 'messages-tuple', 'updates']

describe('a LangGraph server', () => {
  it('streams a tool-calling run as metadata, values, messages (tuples) and updates frames with consecutive ids', async () => {
    const threadId = await newThread()
    const response = await streamRun(threadId, {
      assistant_id: 'agent',
      input: { messages: [{ role: 'user', content: 'What is the weather in Paris?' }] },
      stream_mode: UI_MODES,
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/)
    // The run's address is in Content-Location (not Location, which the SDK's automatic reconnect looks for).
    const location = response.headers.get('content-location') ?? ''
    expect(location).toMatch(new RegExp(`^/threads/${threadId}/runs/[0-9a-f-]{36}$`))
    expect(response.headers.get('location')).toBeNull()
    const frames = await readFrames(response)

    // The first frame names the run; every frame has an id, counting from 0; no `end` frame closes the stream.
    expect(frames[0]).toEqual({ event: 'metadata', id: '0', data: { run_id: location.split('/').pop(), attempt: 1 } })
    expect(frames.map((frame) => frame.id)).toEqual(frames.map((_, index) => String(index)))
    expect(new Set(frames.map((frame) => frame.event))).toEqual(new Set(['metadata', 'values', 'messages', 'updates']))

    // `messages-tuple` frames are named `messages`: [chunk, metadata], metadata naming the node.
    const [firstChunk, firstMeta] = tuple(frames.find((frame) => frame.event === 'messages')!)
    expect(firstChunk).toMatchObject({ type: 'ai', content: 'Let ' })
    expect(firstMeta).toMatchObject({ langgraph_node: 'agent', thread_id: threadId, run_id: location.split('/').pop() })
    expect(firstMeta.langgraph_checkpoint_ns).toMatch(/^agent:/)
    const askId = firstChunk.id as string
    expect(streamedText(frames, askId)).toBe('Let me look up the weather.')

    // The tool call streams as tool_call_chunks: id and name on the first, the arguments in pieces.
    const toolChunks = frames
      .filter((frame) => frame.event === 'messages')
      .map(tuple)
      .flatMap(([chunk]) => (chunk.tool_call_chunks ?? []) as Json[])
    expect(toolChunks[0]).toMatchObject({ id: 'call_weather_1', name: 'get_weather', index: 0 })
    expect(toolChunks.map((chunk) => chunk.args).join('')).toBe('{"city": "Paris"}')

    // The tool's result comes whole, as one `messages` frame of type `tool`, from the `tools` node.
    const toolFrames = frames.filter((frame) => frame.event === 'messages').map(tuple).filter(([chunk]) => chunk.type === 'tool')
    expect(toolFrames).toHaveLength(1)
    expect(toolFrames[0]![0]).toMatchObject({ tool_call_id: 'call_weather_1', content: '{"city":"Paris","sky":"sunny","celsius":21}' })
    expect(toolFrames[0]![1].langgraph_node).toBe('tools')

    // `updates` frames are keyed by node; the last `values` frame is the whole state.
    expect(frames.filter((frame) => frame.event === 'updates').map((frame) => Object.keys(frame.data as Json))).toEqual([['agent'], ['tools'], ['agent']])
    const last = frames.filter((frame) => frame.event === 'values').at(-1)!.data as Json
    expect(last.messages.map((message: Json) => message.type)).toEqual(['human', 'ai', 'tool', 'ai'])
    expect(last.messages[1].tool_calls).toEqual([{ name: 'get_weather', args: { city: 'Paris' }, id: 'call_weather_1', type: 'tool_call' }])
    expect(last.messages[3].content).toBe('It is sunny in Paris, 21 degrees.')
    expect(streamedText(frames, last.messages[3].id)).toBe('It is sunny in Paris, 21 degrees.')

    const thread = await call('GET', `/threads/${threadId}`)
    expect(thread.json.status).toBe('idle')
  })

  it('stops at interrupt(), says so in updates, values, the thread and its state, and finishes on a run with command.resume', async () => {
    const threadId = await newThread()
    const first = await readFrames(await streamRun(threadId, {
      assistant_id: 'approval',
      input: { messages: [{ role: 'user', content: 'Email Ada to say hello.' }] },
      stream_mode: UI_MODES,
    }))
    const request = { question: 'Send this email?', tool: 'send_email', args: { to: 'ada@example.com', subject: 'Hello' } }

    // The interrupt is an `updates` frame keyed `__interrupt__`, then a `values` frame holding only `__interrupt__`.
    const [interruptUpdate, interruptValues] = first.slice(-2)
    expect(interruptUpdate!.event).toBe('updates')
    expect(interruptUpdate!.data).toEqual({ __interrupt__: [{ id: expect.any(String), value: request }] })
    expect(interruptValues!.event).toBe('values')
    expect(interruptValues!.data).toEqual(interruptUpdate!.data)
    const interruptId = (interruptUpdate!.data as Json).__interrupt__[0].id as string

    // The thread is `interrupted`, its interrupts keyed by task id; the state's next node holds the interrupt.
    const thread = await call('GET', `/threads/${threadId}`)
    expect(thread.json.status).toBe('interrupted')
    expect(Object.values(thread.json.interrupts as Json)).toEqual([[{ id: interruptId, value: request }]])
    const state = await call('GET', `/threads/${threadId}/state`)
    expect(state.json.next).toEqual(['approval'])
    expect(state.json.tasks).toHaveLength(1)
    expect(state.json.tasks[0]).toMatchObject({ name: 'approval', interrupts: [{ id: interruptId, value: request }] })
    expect(state.json.values.messages.map((message: Json) => message.type)).toEqual(['human', 'ai'])

    // A new run with `command: { resume }` (no input) answers the interrupt and runs to the end.
    const second = await readFrames(await streamRun(threadId, {
      assistant_id: 'approval',
      command: { resume: { approved: true } },
      stream_mode: UI_MODES,
    }))
    expect(second[0]!.event).toBe('metadata')
    expect(second.filter((frame) => frame.event === 'updates').map((frame) => Object.keys(frame.data as Json))).toEqual([['approval'], ['answer']])
    expect(second.some((frame) => JSON.stringify(frame.data).includes('__interrupt__'))).toBe(false)
    const final = second.filter((frame) => frame.event === 'values').at(-1)!.data as Json
    expect(final.messages.map((message: Json) => [message.type, message.content])).toEqual([
      ['human', 'Email Ada to say hello.'],
      ['ai', 'I will send the email.'],
      ['tool', 'sent'],
      ['ai', 'Done: the email is sent.'],
    ])
    expect((await call('GET', `/threads/${threadId}`)).json.status).toBe('idle')
    const after = await call('GET', `/threads/${threadId}/state`)
    expect(after.json.next).toEqual([])
    expect(after.json.tasks).toEqual([])
  })

  it('lets a dropped resumable run be rejoined with Last-Event-ID, from the next frame on, while the run went on', async () => {
    const threadId = await newThread()
    const { response, frames: before } = await readThenDrop(`${server.url}/threads/${threadId}/runs/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        assistant_id: 'long',
        input: { messages: [{ role: 'user', content: 'Count.' }] },
        config: { configurable: { chunks: 60, delayMs: 20 } },
        stream_mode: ['messages-tuple'],
        stream_resumable: true,
      }),
    }, 6)
    const runPath = response.headers.get('content-location')!
    const lastId = before.at(-1)!.id!
    expect(lastId).toBe('5')
    // The run does not stop with the connection (on_disconnect defaults to continue).
    expect((await call('GET', runPath)).json.status).toBe('running')

    const rejoin = await fetch(`${server.url}${runPath}/stream`, { headers: { 'Last-Event-ID': lastId } })
    const after = await readFrames(rejoin)
    expect(after[0]!.id).toBe('6')
    const all = [...before, ...after]
    expect(all.map((frame) => frame.id)).toEqual(all.map((_, index) => String(index)))
    const text = all.filter((frame) => frame.event === 'messages').map((frame) => tuple(frame)[0].content).join('')
    // What the long graph's model says (test/langgraph/graphs/long.ts): w1 … w60.
    expect(text).toBe(Array.from({ length: 60 }, (_, index) => `w${index + 1}`).join(' '))
    expect((await call('GET', runPath)).json.status).toBe('success')
  })
})
