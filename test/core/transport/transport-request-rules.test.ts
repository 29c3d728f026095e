/**
 * Exact expectations for the plain request path: the `RequestInit` a request
 * becomes, the JSON fetch and every way it can fail (network, HTTP status, a
 * broken or non-JSON body, the caller's abort), the start of an error body that
 * is read for a message, and how a status and its body become a typed error.
 * Every response here is a real `Response` from an injected fetch.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { WeftStreamError } from '../../../src/core/model/errors'
import { fetchJSON, httpError, parseRetryAfter } from '../../../src/core/transport'
import { networkError, readStart, requestInit } from '../../../src/core/transport/request'
import { caught, fakeFetch, headerList, rejection } from '../../helpers/fake-fetch'

const encoder = new TextEncoder()

interface BodyOptions {
  /** What happens after the last chunk: the body ends, breaks, or stays open. */
  end?: 'close' | 'error' | 'hang'
  error?: unknown
  cancelled?: unknown[]
}

/** A body that hands out one chunk per read. */
function body(chunks: (string | Uint8Array)[], { end = 'close', error, cancelled }: BodyOptions = {}): ReadableStream<Uint8Array> {
  let i = 0
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks[i++]
      if (chunk !== undefined) controller.enqueue(typeof chunk === 'string' ? encoder.encode(chunk) : chunk)
      else if (end === 'close') controller.close()
      else if (end === 'error') controller.error(error ?? new Error('socket reset'))
      else return new Promise<void>(() => {})
    },
    cancel(reason) {
      cancelled?.push(reason)
    },
  })
}


afterEach(() => {
  vi.unstubAllGlobals()
})

describe('requestInit', () => {
  it('defaults to GET with the given Accept and nothing else', () => {
    const init = requestInit({ url: '/x' }, 'application/json', undefined)
    expect(Object.keys(init)).toEqual(['method', 'headers'])
    expect(init.method).toBe('GET')
    expect(headerList(init)).toEqual([['accept', 'application/json']])
  })

  it("keeps the caller's own Accept and headers", () => {
    const init = requestInit({ url: '/x', headers: { Accept: 'application/x-ndjson', 'X-Trace': 'a1' } }, 'application/json', undefined)
    expect(headerList(init)).toEqual([
      ['accept', 'application/x-ndjson'],
      ['x-trace', 'a1'],
    ])
  })

  it('adds extra headers over the caller’s', () => {
    const init = requestInit({ url: '/x', headers: { 'last-event-id': 'old', 'x-a': '1' } }, 'text/event-stream', undefined, {
      'Last-Event-ID': '7',
    })
    expect(headerList(init)).toEqual([
      ['accept', 'text/event-stream'],
      ['last-event-id', '7'],
      ['x-a', '1'],
    ])
  })

  it('passes method, signal, body and credentials through as given', () => {
    const controller = new AbortController()
    const init = requestInit(
      { url: '/x', method: 'POST', body: '{"a":1}', credentials: 'include' },
      'application/json',
      controller.signal,
    )
    expect(Object.keys(init)).toEqual(['method', 'headers', 'signal', 'body', 'credentials'])
    expect(init.method).toBe('POST')
    expect(init.signal).toBe(controller.signal)
    expect(init.body).toBe('{"a":1}')
    expect(init.credentials).toBe('include')
  })

  it('marks a streamed request body as half duplex, and only that', () => {
    const stream = body(['a'])
    const init = requestInit({ url: '/x', method: 'POST', body: stream }, 'application/json', undefined)
    expect(Object.keys(init)).toEqual(['method', 'headers', 'body', 'duplex'])
    expect(init.body).toBe(stream)
    expect((init as { duplex?: string }).duplex).toBe('half')
    expect(Object.keys(requestInit({ url: '/x', method: 'POST', body: null }, 'application/json', undefined))).toEqual([
      'method',
      'headers',
    ])
  })
})

describe('networkError', () => {
  it('names the low-level cause and its code', () => {
    const cause = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' })
    const error = networkError('Request failed', new TypeError('fetch failed', { cause }))
    expect(error).toBeInstanceOf(WeftStreamError)
    expect(error.info).toStrictEqual({
      type: 'network',
      message: 'Request failed: fetch failed (connect ECONNREFUSED 127.0.0.1:9)',
      retryable: true,
      code: 'ECONNREFUSED',
    })
  })

  it('gives the message alone when there is no cause, or the cause says the same', () => {
    expect(networkError('Request failed', new Error('offline')).info).toStrictEqual({
      type: 'network',
      message: 'Request failed: offline',
      retryable: true,
    })
    expect(networkError('Request failed', new Error('offline', { cause: new Error('offline') })).info).toStrictEqual({
      type: 'network',
      message: 'Request failed: offline',
      retryable: true,
    })
  })

  it('reads a code from a cause that is a plain record, and only a string code', () => {
    expect(networkError('Request failed', new Error('offline', { cause: { code: 'ENOTFOUND' } })).info).toStrictEqual({
      type: 'network',
      message: 'Request failed: offline',
      retryable: true,
      code: 'ENOTFOUND',
    })
    const numbered = Object.assign(new Error('reset'), { code: 104 })
    expect(networkError('Request failed', new Error('offline', { cause: numbered })).info).toStrictEqual({
      type: 'network',
      message: 'Request failed: offline (reset)',
      retryable: true,
    })
  })

  it('turns anything thrown into text and keeps at most 200 characters of it', () => {
    expect(networkError('Request failed', 'socket hang up').info.message).toBe('Request failed: socket hang up')
    expect(networkError('Lost', new Error('x'.repeat(300))).info.message).toBe(`Lost: ${'x'.repeat(200)}…`)
  })
})

describe('readStart', () => {
  it('reads a short body to its end, joining a character split between chunks', async () => {
    const bytes = encoder.encode('né!')
    const response = new Response(body([bytes.slice(0, 2), bytes.slice(2)]))
    expect(await readStart(response, 100)).toBe('né!')
  })

  it('stops once the limit is reached and cancels the rest', async () => {
    const cancelled: unknown[] = []
    const response = new Response(body(['abcd', 'efgh', 'ijkl'], { end: 'hang', cancelled }))
    expect(await readStart(response, 4)).toBe('abcd')
    expect(cancelled).toEqual([undefined])
    expect(await readStart(new Response(body(['abcd', 'efgh', 'ijkl'])), 5)).toBe('abcdefgh')
  })

  it('gives what arrived when the body breaks, and nothing for no body', async () => {
    expect(await readStart(new Response(body(['par', 'tial'], { end: 'error' })), 100)).toBe('partial')
    expect(await readStart(new Response(null, { status: 500 }), 100)).toBe('')
  })

  it('waits for each read through the given wait', async () => {
    const waited: unknown[] = []
    const wait = <T>(work: Promise<T>): Promise<T> => {
      waited.push(work)
      return work
    }
    expect(await readStart(new Response(body(['a', 'b'])), 100, wait)).toBe('ab')
    expect(waited).toHaveLength(3)
  })
})

describe('fetchJSON', () => {
  it('parses the body and hands back the response, asking for JSON', async () => {
    const response = new Response('{"runId":"r1","steps":[1,2]}', { status: 201 })
    const { fetch, calls } = fakeFetch(() => response)
    const out = await fetchJSON<{ runId: string; steps: number[] }>({ url: '/runs', method: 'POST', body: '{"q":1}', fetch })
    expect(out).toStrictEqual({ response, data: { runId: 'r1', steps: [1, 2] } })
    expect(out.response).toBe(response)
    expect(calls.map((c) => c.url)).toEqual(['/runs'])
    expect(Object.keys(calls[0]!.init)).toEqual(['method', 'headers', 'body'])
    expect(calls[0]!.init.method).toBe('POST')
    expect(calls[0]!.init.body).toBe('{"q":1}')
    expect(headerList(calls[0]!.init)).toEqual([['accept', 'application/json']])
  })

  it('uses the global fetch when the request brings none', async () => {
    const { fetch, calls } = fakeFetch(() => new Response('[1]'))
    vi.stubGlobal('fetch', fetch)
    expect((await fetchJSON<number[]>({ url: '/list' })).data).toEqual([1])
    expect(calls.map((c) => c.url)).toEqual(['/list'])
  })

  it('passes the caller’s signal to fetch', async () => {
    const controller = new AbortController()
    const { fetch, calls } = fakeFetch(() => new Response('{}'))
    await fetchJSON({ url: '/x', signal: controller.signal, fetch })
    expect(calls[0]!.init.signal).toBe(controller.signal)
  })

  it('gives data undefined for a response without a body or with only blanks', async () => {
    const empty = new Response(null, { status: 204 })
    expect(await fetchJSON({ url: '/x', fetch: fakeFetch(() => empty).fetch })).toStrictEqual({ response: empty, data: undefined })
    const blank = new Response('  \n ', { status: 202 })
    expect(await fetchJSON({ url: '/x', fetch: fakeFetch(() => blank).fetch })).toStrictEqual({ response: blank, data: undefined })
  })

  it('rejects a failed fetch as a network error naming the cause', async () => {
    const cause = Object.assign(new Error('getaddrinfo ENOTFOUND api'), { code: 'ENOTFOUND' })
    const fetch = fakeFetch(() => Promise.reject(new TypeError('fetch failed', { cause }))).fetch
    expect(await rejection(fetchJSON({ url: '/x', fetch }))).toStrictEqual({
      type: 'network',
      message: 'Request failed: fetch failed (getaddrinfo ENOTFOUND api)',
      retryable: true,
      code: 'ENOTFOUND',
    })
  })

  it('rejects with the abort reason when the caller aborts the fetch', async () => {
    const controller = new AbortController()
    const fetch = fakeFetch(
      (init) =>
        new Promise<Response>((_, reject) => {
          init.signal?.addEventListener('abort', () => reject(init.signal?.reason))
        }),
    ).fetch
    const pending = fetchJSON({ url: '/x', signal: controller.signal, fetch })
    controller.abort()
    const thrown = await caught(pending)
    expect(thrown).toBe(controller.signal.reason)
    expect(thrown).toBeInstanceOf(DOMException)
    expect((thrown as DOMException).name).toBe('AbortError')
  })

  it('maps a refused status with the message, code and start of its body', async () => {
    const text = '{"error":{"message":"no such run","code":"run_missing"}}'
    const response = new Response(text, { status: 404, statusText: 'Not Found', headers: { 'retry-after': '3' } })
    expect(await rejection(fetchJSON({ url: '/x', fetch: fakeFetch(() => response).fetch }))).toStrictEqual({
      type: 'validation',
      message: 'HTTP 404 Not Found: no such run',
      retryable: false,
      status: 404,
      code: 'run_missing',
      retryAfterMs: 3000,
      detail: text,
    })
  })

  it('maps a refused status without a body to the bare status', async () => {
    const response = new Response(null, { status: 503 })
    expect(await rejection(fetchJSON({ url: '/x', fetch: fakeFetch(() => response).fetch }))).toStrictEqual({
      type: 'internal',
      message: 'HTTP 503',
      retryable: true,
      status: 503,
    })
  })

  it('rejects with the abort reason when the caller aborted as a refusal arrived', async () => {
    const controller = new AbortController()
    const fetch = fakeFetch(() => {
      controller.abort()
      return new Response('{"message":"busy"}', { status: 500 })
    }).fetch
    const thrown = await caught(fetchJSON({ url: '/x', signal: controller.signal, fetch }))
    expect(thrown).toBe(controller.signal.reason)
  })

  it('rejects a body that breaks while being read as a network error', async () => {
    const response = new Response(body(['{"a":'], { end: 'error', error: new Error('socket reset') }))
    expect(await rejection(fetchJSON({ url: '/x', fetch: fakeFetch(() => response).fetch }))).toStrictEqual({
      type: 'network',
      message: 'Connection lost while reading the response: socket reset',
      retryable: true,
    })
  })

  it('rejects with the abort reason when the body breaks because the caller aborted', async () => {
    const controller = new AbortController()
    const fetch = fakeFetch((init) => {
      let fail: (reason: unknown) => void = () => {}
      const stream = new ReadableStream<Uint8Array>({
        start(c) {
          c.enqueue(encoder.encode('{"a":'))
          fail = (reason) => c.error(reason)
        },
      })
      init.signal?.addEventListener('abort', () => fail(init.signal?.reason))
      return new Response(stream)
    }).fetch
    const pending = fetchJSON({ url: '/x', signal: controller.signal, fetch })
    await new Promise((resolve) => setTimeout(resolve, 5))
    controller.abort()
    expect(await caught(pending)).toBe(controller.signal.reason)
  })

  it('rejects a body that is not JSON as a protocol error quoting it and its content type', async () => {
    const response = new Response(' <html>oops</html>\n', { status: 200, headers: { 'content-type': 'text/html' } })
    expect(await rejection(fetchJSON({ url: '/x', fetch: fakeFetch(() => response).fetch }))).toStrictEqual({
      type: 'protocol',
      message: 'Expected JSON (text/html): "<html>oops</html>"',
      retryable: false,
      status: 200,
      detail: '<html>oops</html>',
    })
    const bare = new Response(encoder.encode('nope'), { status: 201 })
    expect(await rejection(fetchJSON({ url: '/x', fetch: fakeFetch(() => bare).fetch }))).toStrictEqual({
      type: 'protocol',
      message: 'Expected JSON: "nope"',
      retryable: false,
      status: 201,
      detail: 'nope',
    })
  })
})

describe('httpError', () => {
  const res = (status: number, init: ResponseInit = {}): Response => new Response(null, { ...init, status })

  it('gives the bare status, with its reason phrase when there is one', () => {
    expect(httpError(res(404))).toStrictEqual({ type: 'validation', message: 'HTTP 404', retryable: false, status: 404 })
    expect(httpError(res(418, { statusText: "I'm a teapot" }))).toStrictEqual({
      type: 'validation',
      message: "HTTP 418 I'm a teapot",
      retryable: false,
      status: 418,
    })
  })

  it('draws the class boundaries at 400, 500 and 600', () => {
    const types = [302, 399, 400, 499, 500, 599].map((status) => httpError(res(status)).type)
    expect(types).toEqual(['unknown', 'unknown', 'validation', 'validation', 'internal', 'internal'])
    const odd = res(500)
    Object.defineProperty(odd, 'status', { value: 600 })
    expect(httpError(odd)).toStrictEqual({ type: 'unknown', message: 'HTTP 600', retryable: false, status: 600 })
  })

  it('reads a JSON body that arrives with blanks around it', () => {
    expect(httpError(res(429), '  {"message":"slow down"}\n')).toStrictEqual({
      type: 'rate_limit',
      message: 'HTTP 429: slow down',
      retryable: true,
      status: 429,
      detail: '{"message":"slow down"}',
    })
  })

  it('skips empty strings when looking for the message', () => {
    expect(httpError(res(403), '{"message":"","error":"quota exceeded"}').message).toBe('HTTP 403: quota exceeded')
  })
})

describe('parseRetryAfter', () => {
  const now = Date.parse('Wed, 21 Oct 2015 07:28:00 GMT')

  it('reads fractional seconds with more than one decimal', () => {
    expect(parseRetryAfter('1.25')).toBe(1250)
  })

  it('reads a date that starts with the day of the month', () => {
    expect(parseRetryAfter('21 Oct 2015 07:28:30 GMT', now)).toBe(30_000)
  })
})
