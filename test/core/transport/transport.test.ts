import { mulberry32 } from '../../../mock/sse'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WeftStreamError, type WeftError } from '../../../src/core/model/errors'
import { fetchJSON, openStream, type OpenedStream, type SSEFrame } from '../../../src/core/transport'

// ---------------------------------------------------------------- test server

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void | Promise<void>

const routes = new Map<string, Handler>()
let server: Server
let base = ''
let routeCount = 0

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const handler = routes.get(new URL(req.url ?? '/', 'http://local').pathname)
      if (!handler) {
        res.writeHead(404).end()
        return
      }
      void Promise.resolve(handler(req, res, Buffer.concat(chunks).toString('utf8'))).catch(() => res.destroy())
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  server.closeAllConnections()
  await new Promise<void>((resolve) => server.close(() => resolve()))
})

/** Register a handler under a fresh path and return its URL. */
function route(handler: Handler): string {
  const path = `/r${routeCount++}`
  routes.set(path, handler)
  return base + path
}

function sseHead(res: ServerResponse, extra: Record<string, string> = {}): void {
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', ...extra })
  res.flushHeaders()
}

/** A route that sends `text` as one SSE body and ends. */
function sseRoute(text: string | Buffer): string {
  return route((_req, res) => {
    sseHead(res)
    res.end(text)
  })
}

/** Resolves when the server sees the response's connection close. */
function closedPromise(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => res.on('close', () => resolve()))
}

const tick = (ms = 1): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/** A small seeded generator, so "random" chunking is reproducible. */
const rng = mulberry32

/** Write `bytes` in slices of 1..maxSize bytes, yielding to the event loop between them. */
async function dribble(res: ServerResponse, bytes: Buffer, seed: number, maxSize = 5): Promise<void> {
  const next = rng(seed)
  for (let at = 0; at < bytes.length; ) {
    const size = 1 + Math.floor(next() * maxSize)
    res.write(bytes.subarray(at, at + size))
    at += size
    await tick()
  }
}

async function collect(stream: OpenedStream): Promise<SSEFrame[]> {
  const frames: SSEFrame[] = []
  for await (const frame of stream.frames) frames.push(frame)
  return frames
}

/** The `WeftError` a promise rejects with (fails the test if it resolves or rejects otherwise). */
async function failure(work: Promise<unknown>): Promise<WeftError> {
  const thrown = await work.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(thrown).toBeInstanceOf(WeftStreamError)
  return (thrown as WeftStreamError).info
}

/** A fetch that re-chunks every response body into single bytes, whatever TCP did. */
const byteByByteFetch: typeof fetch = async (input, init) => {
  const response = await fetch(input, init)
  const split = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      for (const byte of chunk) controller.enqueue(Uint8Array.of(byte))
    },
  })
  return new Response(response.body?.pipeThrough(split) ?? null, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  })
}

// ---------------------------------------------------------------- framing over the wire

const UNICODE = 'héllo 世界 🎉'

describe('openStream framing', () => {
  const crlfText =
    `id: 1\r\nevent: greet\r\ndata: ${UNICODE}\r\n\r\n` +
    `data: second 🎉\r\ndata: ${UNICODE}\r\n\r\n` +
    `: note\r\nid: 2\r\ndata: ${'é'.repeat(40)}\r\n\r\n`
  const crlfFrames: SSEFrame[] = [
    { id: '1', event: 'greet', data: UNICODE },
    { data: `second 🎉\n${UNICODE}` },
    { id: '2', data: 'é'.repeat(40) },
  ]

  for (const seed of [1, 2, 3, 42]) {
    it(`decodes UTF-8 and CRLF split across random chunks (seed ${seed})`, async () => {
      const url = route(async (_req, res) => {
        sseHead(res)
        await dribble(res, Buffer.from(crlfText, 'utf8'), seed)
        res.end()
      })
      const stream = await openStream({ url })
      expect(await collect(stream)).toEqual(crlfFrames)
      expect(stream.endReason).toBe('eof')
    })
  }

  it('decodes a body delivered one byte at a time', async () => {
    const url = sseRoute(Buffer.from(crlfText, 'utf8'))
    const stream = await openStream({ url, fetch: byteByByteFetch })
    expect(await collect(stream)).toEqual(crlfFrames)
  })

  it('handles CR-only line ends, also split from their blank line', async () => {
    const url = route(async (_req, res) => {
      sseHead(res)
      await dribble(res, Buffer.from(`event: a\rdata: x\rdata: ${UNICODE}\r\rdata: y\r\r`, 'utf8'), 7, 3)
      res.end()
    })
    expect(await collect(await openStream({ url }))).toEqual([
      { event: 'a', data: `x\n${UNICODE}` },
      { data: 'y' },
    ])
  })

  it('handles CR-only line ends one byte at a time', async () => {
    const url = sseRoute(`data: x\r\rdata: y\r\r`)
    expect(await collect(await openStream({ url, fetch: byteByByteFetch }))).toEqual([{ data: 'x' }, { data: 'y' }])
  })

  it('handles LF line ends and joins multi-line data with \\n', async () => {
    const url = sseRoute('data: one\ndata: two\ndata:\ndata:three\n\nevent: e\ndata: {"a":1}\n\n')
    expect(await collect(await openStream({ url }))).toEqual([
      { data: 'one\ntwo\n\nthree' },
      { event: 'e', data: '{"a":1}' },
    ])
  })

  it('strips a leading BOM, even split across chunks, and only one', async () => {
    const url = route(async (_req, res) => {
      sseHead(res)
      for (const byte of [0xef, 0xbb, 0xbf]) {
        res.write(Uint8Array.of(byte))
        await tick()
      }
      res.end('data: x\n\n')
    })
    expect(await collect(await openStream({ url }))).toEqual([{ data: 'x' }])

    const twice = sseRoute(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf]), Buffer.from('data: x\n\n')]))
    // The second BOM makes the first field name "\uFEFFdata", which the standard ignores.
    expect(await collect(await openStream({ url: twice }))).toEqual([])
  })

  it('keeps the last id across events and exposes it as lastEventId', async () => {
    const url = sseRoute('id: a\ndata: 1\n\ndata: 2\n\nid: b\ndata: 3\n\ndata: 4\n\nid:\ndata: 5\n\n')
    const stream = await openStream({ url, lastEventId: 'start' })
    expect(stream.lastEventId).toBe('start')
    const seen: (string | undefined)[] = []
    const ids: (string | undefined)[] = []
    for await (const frame of stream.frames) {
      seen.push(stream.lastEventId)
      ids.push(frame.id)
    }
    expect(seen).toEqual(['a', 'a', 'b', 'b', undefined])
    expect(ids).toEqual(['a', undefined, 'b', undefined, ''])
  })

  it('reports retry: through the hook and on the frame', async () => {
    const url = sseRoute('retry: 2500\ndata: x\n\ndata: y\n\nretry: 10\n\nretry: nope\ndata: z\n\n')
    const retries: number[] = []
    const frames = await collect(await openStream({ url }, { onRetry: (ms) => retries.push(ms) }))
    expect(retries).toEqual([2500, 10])
    expect(frames).toEqual([{ data: 'x', retry: 2500 }, { data: 'y' }, { data: 'z', retry: 10 }])
  })

  it('reports comments and does not turn them into frames', async () => {
    const url = sseRoute(': keepalive\n\n:hi\ndata: x\n\n:\n\n')
    const comments: string[] = []
    const frames = await collect(await openStream({ url }, { onComment: (c) => comments.push(c) }))
    expect(comments).toEqual(['keepalive', 'hi', ''])
    expect(frames).toEqual([{ data: 'x' }])
  })

  it('ends at data: [DONE] and closes the connection', async () => {
    let closed: Promise<void> | undefined
    const url = route((_req, res) => {
      closed = closedPromise(res)
      sseHead(res)
      // The server keeps the connection open after [DONE]; the client must hang up.
      res.write('data: a\n\ndata: [DONE]\n\ndata: after\n\n')
    })
    const stream = await openStream({ url })
    expect(await collect(stream)).toEqual([{ data: 'a' }])
    expect(stream.endReason).toBe('done')
    await closed
  })

  it('drops an unterminated last event', async () => {
    const url = sseRoute('data: a\n\ndata: b\n')
    const stream = await openStream({ url })
    expect(await collect(stream)).toEqual([{ data: 'a' }])
    expect(stream.endReason).toBe('eof')
  })

  it('has no endReason while running', async () => {
    const url = sseRoute('data: a\n\n')
    const stream = await openStream({ url })
    const during: unknown[] = []
    for await (const _frame of stream.frames) during.push(stream.endReason)
    expect(during).toEqual([undefined])
    expect(stream.endReason).toBe('eof')
  })
})

// ---------------------------------------------------------------- the request

describe('openStream request', () => {
  let echo = ''
  beforeAll(() => {
    echo = route((req, res, body) => {
      sseHead(res)
      res.end(`data: ${JSON.stringify({ method: req.method, headers: req.headers, body })}\n\n`)
    })
  })

  async function echoed(stream: OpenedStream): Promise<{ method: string; headers: Record<string, string>; body: string }> {
    const [frame] = await collect(stream)
    return JSON.parse(frame?.data ?? 'null') as { method: string; headers: Record<string, string>; body: string }
  }

  it('passes method, headers, body and credentials through, and asks for an event stream', async () => {
    const inits: (RequestInit | undefined)[] = []
    const counting: typeof fetch = (input, init) => {
      inits.push(init)
      return fetch(input, init)
    }
    const stream = await openStream({
      url: echo,
      method: 'PUT',
      headers: { 'x-test': 'yes', 'content-type': 'application/json' },
      body: '{"q":"héllo"}',
      credentials: 'include',
      fetch: counting,
    })
    const got = await echoed(stream)
    expect(inits).toHaveLength(1)
    expect(inits[0]?.credentials).toBe('include')
    expect(got.method).toBe('PUT')
    expect(got.body).toBe('{"q":"héllo"}')
    expect(got.headers['x-test']).toBe('yes')
    expect(got.headers['content-type']).toBe('application/json')
    expect(got.headers.accept).toBe('text/event-stream')
    expect(got.headers['last-event-id']).toBeUndefined()
  })

  it("keeps the caller's Accept header", async () => {
    const got = await echoed(await openStream({ url: echo, headers: { Accept: 'text/event-stream, application/json' } }))
    expect(got.headers.accept).toBe('text/event-stream, application/json')
  })

  it('sends Last-Event-ID when resuming', async () => {
    const got = await echoed(await openStream({ url: echo, lastEventId: 'evt-41' }))
    expect(got.headers['last-event-id']).toBe('evt-41')
  })

  it('uses the injected fetch', async () => {
    let calls = 0
    const counting: typeof fetch = (input, init) => {
      calls++
      return fetch(input, init)
    }
    await collect(await openStream({ url: sseRoute('data: x\n\n'), fetch: counting }))
    await collect(await openStream({ url: sseRoute('data: x\n\n'), fetch: counting }))
    expect(calls).toBe(2)
  })

  it('calls onOpen with the response', async () => {
    const opened: number[] = []
    const stream = await openStream({ url: sseRoute('data: x\n\n') }, { onOpen: (r) => opened.push(r.status) })
    expect(opened).toEqual([200])
    await collect(stream)
  })
})

// ---------------------------------------------------------------- HTTP outcomes

describe('openStream HTTP errors', () => {
  const statusRoute = (status: number, body: string, headers: Record<string, string> = {}): string =>
    route((_req, res) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers })
      res.end(body)
    })

  it('maps 401 and 403 to authentication', async () => {
    for (const status of [401, 403]) {
      const info = await failure(openStream({ url: statusRoute(status, '{"error":"no token"}') }))
      expect(info).toMatchObject({ type: 'authentication', status, retryable: false })
      expect(info.message).toContain('no token')
      expect(info.detail).toBe('{"error":"no token"}')
    }
  })

  it('maps 429 to rate_limit with Retry-After seconds', async () => {
    const info = await failure(openStream({ url: statusRoute(429, '{}', { 'retry-after': '3' }) }))
    expect(info).toMatchObject({ type: 'rate_limit', status: 429, retryable: true, retryAfterMs: 3000 })
  })

  it('maps 400 to validation with a short quote of the body', async () => {
    const body = JSON.stringify({ error: { message: 'messages must not be empty', code: 'empty' }, pad: 'x'.repeat(500) })
    const info = await failure(openStream({ url: statusRoute(400, body) }))
    expect(info).toMatchObject({ type: 'validation', status: 400, retryable: false, code: 'empty' })
    expect(info.message).toContain('messages must not be empty')
    expect(info.detail?.startsWith('{"error":')).toBe(true)
    expect(info.detail!.length).toBeLessThan(200)
  })

  it('maps 500 to internal, retryable', async () => {
    const info = await failure(openStream({ url: statusRoute(500, 'upstream exploded') }))
    expect(info).toMatchObject({ type: 'internal', status: 500, retryable: true, detail: 'upstream exploded' })
  })

  it('gives an empty stream for 204', async () => {
    const url = route((_req, res) => {
      res.writeHead(204).end()
    })
    const opened: number[] = []
    const stream = await openStream({ url }, { onOpen: (r) => opened.push(r.status) })
    expect(stream.response.status).toBe(204)
    expect(await collect(stream)).toEqual([])
    expect(stream.endReason).toBe('eof')
    expect(opened).toEqual([204])
  })

  it('rejects a 2xx that is not an event stream, quoting its start', async () => {
    const html = `<!doctype html><html><head><title>Login</title></head><body>${'<p>filler</p>'.repeat(100)}</body></html>`
    const url = route((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      res.end(html)
    })
    const info = await failure(openStream({ url }))
    expect(info.type).toBe('protocol')
    expect(info.message).toContain('text/html')
    expect(info.message).toContain('<!doctype html><html><head><title>Login</title>')
    expect(info.detail).toBe(`${html.slice(0, 120)}…`)
  })
})

// ---------------------------------------------------------------- failures and stopping

describe('openStream failures', () => {
  it('maps a refused connection to a retryable network error', async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise<void>((resolve) => closed.close(() => resolve()))
    const info = await failure(openStream({ url: `http://127.0.0.1:${port}/` }))
    expect(info).toMatchObject({ type: 'network', retryable: true, code: 'ECONNREFUSED' })
  })

  it('throws a network error from the iterator when the socket dies mid-stream', async () => {
    const url = route(async (_req, res) => {
      sseHead(res)
      res.write('data: a\n\ndata: par')
      await tick(20)
      res.socket?.destroy()
    })
    const stream = await openStream({ url })
    const frames: SSEFrame[] = []
    const info = await failure(
      (async () => {
        for await (const frame of stream.frames) frames.push(frame)
      })(),
    )
    expect(frames).toEqual([{ data: 'a' }])
    expect(info).toMatchObject({ type: 'network', retryable: true })
  })

  it('times out a silent stream and hangs up', async () => {
    let closed: Promise<void> | undefined
    const url = route((_req, res) => {
      closed = closedPromise(res)
      sseHead(res)
      res.write('data: a\n\n')
    })
    const stream = await openStream({ url, idleTimeoutMs: 100 })
    const frames: SSEFrame[] = []
    const info = await failure(
      (async () => {
        for await (const frame of stream.frames) frames.push(frame)
      })(),
    )
    expect(frames).toEqual([{ data: 'a' }])
    expect(info).toMatchObject({ type: 'timeout', retryable: true })
    await closed
  })

  it('times out while waiting for response headers', async () => {
    const url = route(() => {
      // never answers
    })
    const info = await failure(openStream({ url, idleTimeoutMs: 100 }))
    expect(info).toMatchObject({ type: 'timeout', retryable: true })
  })

  it('stays alive on keepalive comments that arrive within the idle timeout', async () => {
    const url = route(async (_req, res) => {
      sseHead(res)
      // Together far longer than the timeout; each gap far shorter.
      for (let i = 0; i < 12; i++) {
        res.write(': ping\n\n')
        await tick(25)
      }
      res.end('data: finally\n\n')
    })
    const comments: string[] = []
    const stream = await openStream({ url, idleTimeoutMs: 250 }, { onComment: (c) => comments.push(c) })
    expect(await collect(stream)).toEqual([{ data: 'finally' }])
    expect(comments).toHaveLength(12)
    expect(stream.endReason).toBe('eof')
  })

  it('stops quietly when the caller aborts mid-stream, and hangs up', async () => {
    let closed: Promise<void> | undefined
    const url = route((_req, res) => {
      closed = closedPromise(res)
      sseHead(res)
      res.write('data: a\n\n')
    })
    const controller = new AbortController()
    const stream = await openStream({ url, signal: controller.signal })
    const frames: SSEFrame[] = []
    for await (const frame of stream.frames) {
      frames.push(frame)
      setTimeout(() => controller.abort(), 10)
    }
    expect(frames).toEqual([{ data: 'a' }])
    expect(stream.endReason).toBe('aborted')
    await closed
  })

  it('stops yielding already-received frames once the caller aborts', async () => {
    const url = sseRoute('data: a\n\ndata: b\n\ndata: c\n\n')
    const controller = new AbortController()
    const stream = await openStream({ url, signal: controller.signal })
    const frames: SSEFrame[] = []
    for await (const frame of stream.frames) {
      frames.push(frame)
      controller.abort()
    }
    expect(frames).toEqual([{ data: 'a' }])
    expect(stream.endReason).toBe('aborted')
  })

  it('resolves as aborted when the caller aborts before the response arrives', async () => {
    let requested: () => void = () => {}
    const arrived = new Promise<void>((resolve) => (requested = resolve))
    const url = route(() => requested())
    const controller = new AbortController()
    const opening = openStream({ url, signal: controller.signal })
    await arrived
    controller.abort()
    const stream = await opening
    expect(stream.endReason).toBe('aborted')
    expect(stream.response.ok).toBe(false)
    expect(await collect(stream)).toEqual([])
  })

  it('does not fetch at all with an already aborted signal', async () => {
    let calls = 0
    const counting: typeof fetch = (input, init) => {
      calls++
      return fetch(input, init)
    }
    const stream = await openStream({ url: sseRoute('data: x\n\n'), signal: AbortSignal.abort(), fetch: counting })
    expect(calls).toBe(0)
    expect(stream.endReason).toBe('aborted')
  })

  it('hangs up when the consumer breaks out of the loop', async () => {
    let closed: Promise<void> | undefined
    const url = route(async (_req, res) => {
      closed = closedPromise(res)
      sseHead(res)
      for (let i = 0; i < 1000 && !res.destroyed; i++) {
        res.write(`data: ${i}\n\n`)
        await tick(5)
      }
      res.end()
    })
    const stream = await openStream({ url })
    const frames: SSEFrame[] = []
    for await (const frame of stream.frames) {
      frames.push(frame)
      if (frames.length === 2) break
    }
    expect(frames).toEqual([{ data: '0' }, { data: '1' }])
    expect(stream.endReason).toBe('aborted')
    await closed
  })

  it('times out even when an injected fetch ignores the signal', async () => {
    const never: typeof fetch = () => new Promise<Response>(() => {})
    const info = await failure(openStream({ url: 'http://invalid.test/', fetch: never, idleTimeoutMs: 50 }))
    expect(info.type).toBe('timeout')
  })
})

// ---------------------------------------------------------------- fetchJSON

describe('fetchJSON', () => {
  it('parses JSON and passes the request through', async () => {
    const url = route((req, res, body) => {
      res.writeHead(202, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ runId: 'r1', method: req.method, accept: req.headers.accept, body }))
    })
    const { response, data } = await fetchJSON<{ runId: string; method: string; accept: string; body: string }>({
      url,
      method: 'POST',
      body: '{"x":1}',
    })
    expect(response.status).toBe(202)
    expect(data).toEqual({ runId: 'r1', method: 'POST', accept: 'application/json', body: '{"x":1}' })
  })

  it('gives undefined data for an empty body', async () => {
    const url = route((_req, res) => {
      res.writeHead(204).end()
    })
    expect((await fetchJSON<undefined>({ url })).data).toBeUndefined()
  })

  it('rejects a non-JSON body as protocol, quoting its start', async () => {
    const url = route((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' })
      res.end(`<html>${'x'.repeat(300)}</html>`)
    })
    const info = await failure(fetchJSON({ url }))
    expect(info.type).toBe('protocol')
    expect(info.message).toContain('<html>xxx')
    expect(info.detail!.length).toBeLessThanOrEqual(121)
  })

  it('maps HTTP errors like streams do', async () => {
    const url = route((_req, res) => {
      res.writeHead(429, { 'retry-after': '5', 'content-type': 'application/json' })
      res.end('{"message":"slow down"}')
    })
    const info = await failure(fetchJSON({ url }))
    expect(info).toMatchObject({ type: 'rate_limit', retryAfterMs: 5000, status: 429 })
    expect(info.message).toContain('slow down')
  })

  it('maps a refused connection to network', async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise<void>((resolve) => closed.close(() => resolve()))
    expect(await failure(fetchJSON({ url: `http://127.0.0.1:${port}/` }))).toMatchObject({ type: 'network', retryable: true })
  })

  it('rejects with the abort itself, not a WeftStreamError, when the caller aborts', async () => {
    const url = route(() => {
      // never answers
    })
    const controller = new AbortController()
    const pending = fetchJSON({ url, signal: controller.signal })
    setTimeout(() => controller.abort(), 10)
    const thrown = await pending.then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(thrown).not.toBeInstanceOf(WeftStreamError)
    expect((thrown as Error).name).toBe('AbortError')
  })

  it('uses the injected fetch', async () => {
    let calls = 0
    const fake: typeof fetch = async () => {
      calls++
      return new Response('{"ok":true}', { status: 200, headers: { 'content-type': 'application/json' } })
    }
    expect((await fetchJSON({ url: 'http://invalid.test/', fetch: fake })).data).toEqual({ ok: true })
    expect(calls).toBe(1)
  })
})
