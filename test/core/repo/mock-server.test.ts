import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createParser, type EventSourceMessage } from 'eventsource-parser'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { encodeFrame } from '../../../mock/scenario'
import { findScenario, scenarios } from '../../../mock/scenarios/index'
import { createMockAgentHandler, sendJson, sliceBytes } from '../../../mock/server'

interface Collected {
  status: number
  headers: Headers
  events: EventSourceMessage[]
  comments: string[]
  chunks: number
  error?: unknown
}

/** Reads a whole SSE response with a streaming decoder, the way the kit's transport does. */
async function collect(url: string, init?: RequestInit): Promise<Collected> {
  const response = await fetch(url, init)
  const events: EventSourceMessage[] = []
  const comments: string[] = []
  const parser = createParser({
    onEvent: (event) => events.push(event),
    onComment: (comment) => comments.push(comment),
  })
  const decoder = new TextDecoder()
  const reader = response.body!.getReader()
  let chunks = 0
  let error: unknown
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      chunks++
      parser.feed(decoder.decode(value, { stream: true }))
    }
    parser.feed(decoder.decode())
  } catch (e) {
    error = e
  }
  return { status: response.status, headers: response.headers, events, comments, chunks, error }
}

const handler = createMockAgentHandler()
handler.route('GET', '/mock/echo/:name', ({ res, params, query }) => {
  sendJson(res, 200, { name: params.name, since: query.get('since') })
})

let server: Server
let base: string

beforeAll(async () => {
  server = createServer(handler)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  server.closeAllConnections()
  await new Promise<void>((resolve) => server.close(() => resolve()))
})

const dataOf = (events: EventSourceMessage[]) => events.map((e) => JSON.parse(e.data) as Record<string, unknown>)

describe('mock agent server', () => {
  it('lists the registered scenarios', async () => {
    const res = await fetch(`${base}/mock/scenarios`)
    expect(res.status).toBe(200)
    const list = (await res.json()) as { protocol: string; name: string; url: string }[]
    expect(list.length).toBe(scenarios.length)
    expect(list.map((s) => s.name)).toEqual(
      expect.arrayContaining(['simple-text', 'streaming-text', 'one-block', 'sequential-blocks', 'concurrent-threads']),
    )
    const keys = list.map((s) => `${s.protocol}/${s.name}`)
    expect(new Set(keys).size).toBe(keys.length)
  })

  it('streams a scenario as SSE', async () => {
    const scenario = findScenario('yao', 'streaming-text')!
    const got = await collect(`${base}/mock/stream/yao/streaming-text`)
    expect(got.status).toBe(200)
    expect(got.headers.get('content-type')).toMatch(/^text\/event-stream/)
    expect(got.headers.get('cache-control')).toBe('no-cache')
    expect(got.headers.get('x-accel-buffering')).toBe('no')
    expect(got.error).toBeUndefined()
    expect(dataOf(got.events)).toEqual(scenario.frames.map((f) => f.data))
    const text = dataOf(got.events)
      .filter((m) => m.type === 'text')
      .map((m) => (m.props as { content: string }).content)
      .join('')
    expect(text).toBe('Hello World!')
  })

  it('accepts POST and keeps comments, in CRLF mode too', async () => {
    const scenario = findScenario('yao', 'concurrent-threads')!
    const got = await collect(`${base}/mock/stream/yao/concurrent-threads?crlf=1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ messages: [] }),
    })
    expect(got.status).toBe(200)
    expect(got.comments).toEqual(['keepalive'])
    expect(dataOf(got.events)).toEqual(scenario.frames.filter((f) => f.data !== undefined).map((f) => f.data))
  })

  it('cut=k drops the connection after k frames', async () => {
    const got = await collect(`${base}/mock/stream/yao/one-block?cut=3`)
    expect(got.status).toBe(200)
    expect(got.events).toHaveLength(3)
    expect(got.error).toBeDefined()
    expect(dataOf(got.events).map((m) => m.chunk_id)).toEqual(['C1', 'C2', 'C3'])
  })

  it('linger=ms holds a cut connection open that long after its last frame, then drops it', async () => {
    const at = performance.now()
    const lingered = await collect(`${base}/mock/stream/yao/one-block?cut=3&linger=250`)
    expect(lingered.events).toHaveLength(3)
    expect(lingered.error).toBeDefined()
    // A lower bound of the wait itself (timers may fire a millisecond early), never a speed.
    expect(performance.now() - at).toBeGreaterThanOrEqual(245)
  })

  it('chunk=random slices the bytes but parses to the same data', async () => {
    const scenario = findScenario('yao', 'one-block')!
    const got = await collect(`${base}/mock/stream/yao/one-block?chunk=random&crlf=1&seed=7`)
    expect(got.error).toBeUndefined()
    expect(got.chunks).toBeGreaterThan(scenario.frames.length)
    expect(dataOf(got.events)).toEqual(scenario.frames.map((f) => f.data))
  })

  it('slices inside CRLF pairs and multibyte characters', () => {
    const bytes = Buffer.from(encodeFrame({ data: { content: '25°C 你好 👋' } }, '\r\n'))
    const slices = sliceBytes(bytes, () => 0.99)
    expect(Buffer.concat(slices)).toEqual(bytes)
    const decodedAlone = slices.map((s) => new TextDecoder().decode(s))
    expect(decodedAlone.some((s) => s.includes('\uFFFD'))).toBe(true)
    expect(slices.some((s) => s[s.length - 1] === 0x0d)).toBe(true)
  })

  it('answers 404 JSON for unknown scenarios and protocols', async () => {
    for (const path of ['/mock/stream/yao/nope', '/mock/stream/nope/simple-text', '/mock/nothing-here']) {
      const res = await fetch(base + path)
      expect(res.status).toBe(404)
      expect(res.headers.get('content-type')).toMatch(/application\/json/)
      expect(((await res.json()) as { error: string }).error).toBe('not_found')
    }
  })

  it('serves extra routes registered with handler.route()', async () => {
    const res = await fetch(`${base}/mock/echo/abc?since=4`)
    expect(await res.json()).toEqual({ name: 'abc', since: '4' })
  })

  it('status=<code> answers with that HTTP status instead of a stream', async () => {
    const res = await fetch(`${base}/mock/stream/yao/simple-text?status=503`)
    expect(res.status).toBe(503)
    await res.body?.cancel()
  })
})
