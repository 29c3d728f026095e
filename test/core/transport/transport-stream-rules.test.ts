/**
 * Exact expectations for opening and reading an event stream over an injected
 * fetch: the request it sends, each way the open can end (aborted before or
 * during the fetch, a silent or failing fetch, a refusal, a 204, a body that is
 * not an event stream), and how iteration ends (end of body, `[DONE]`, a break,
 * the caller's abort, a broken or silent body, the grace period after the
 * protocol's end), with the request's lifeline that tells those apart.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { openStream, type OpenedStream, type SSEFrame, type StreamRequest } from '../../../src/core/transport'
import { Lifeline, LifelineAbort } from '../../../src/core/transport/lifeline'
import { caught, fakeFetch, headerList, rejection } from '../../helpers/fake-fetch'

const encoder = new TextEncoder()

/** A body the test writes to: each chunk sent is one read. */
function feed() {
  let controller!: ReadableStreamDefaultController<Uint8Array>
  const cancelled: unknown[] = []
  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c
    },
    cancel(reason) {
      cancelled.push(reason)
    },
  })
  return {
    stream,
    cancelled,
    send(...chunks: (string | Uint8Array)[]) {
      for (const chunk of chunks) controller.enqueue(typeof chunk === 'string' ? encoder.encode(chunk) : chunk)
    },
    end() {
      controller.close()
    },
    fail(reason: unknown) {
      controller.error(reason)
    },
  }
}

const EVENT_STREAM = { 'content-type': 'text/event-stream' }

/** An event stream response over `chunks`, ended unless `open`. */
function sse(chunks: (string | Uint8Array)[], { open = false } = {}) {
  const body = feed()
  body.send(...chunks)
  if (!open) body.end()
  return { body, response: new Response(body.stream, { headers: EVENT_STREAM }) }
}

const never = <T>(): Promise<T> => new Promise<T>(() => {})
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function collect(stream: OpenedStream): Promise<SSEFrame[]> {
  const frames: SSEFrame[] = []
  for await (const frame of stream.frames) frames.push(frame)
  return frames
}

async function collectBatches(stream: OpenedStream): Promise<SSEFrame[][]> {
  const batches: SSEFrame[][] = []
  for await (const batch of stream.batches) batches.push(batch)
  return batches
}

const open = (response: Response, req: Partial<StreamRequest> = {}, hooks = {}) =>
  openStream({ url: '/events', fetch: fakeFetch(() => response).fetch, ...req }, hooks)


describe('the request openStream sends', () => {
  it('asks for an event stream under its own signal and resumes from lastEventId', async () => {
    const { fetch, calls } = fakeFetch(() => sse([]).response)
    const stream = await openStream({ url: '/events', lastEventId: '7', fetch })
    expect(calls.map((c) => c.url)).toEqual(['/events'])
    expect(Object.keys(calls[0]!.init)).toEqual(['method', 'headers', 'signal'])
    expect(calls[0]!.init.signal).toBeInstanceOf(AbortSignal)
    expect(headerList(calls[0]!.init)).toEqual([
      ['accept', 'text/event-stream'],
      ['last-event-id', '7'],
    ])
    expect(stream.lastEventId).toBe('7')
  })

  it('sends no Last-Event-ID without one, or for an empty one', async () => {
    for (const lastEventId of [undefined, '']) {
      const { fetch, calls } = fakeFetch(() => sse([]).response)
      const stream = await openStream({ url: '/events', fetch, ...(lastEventId === undefined ? {} : { lastEventId }) })
      expect(headerList(calls[0]!.init)).toEqual([['accept', 'text/event-stream']])
      expect(stream.lastEventId).toBeUndefined()
    }
  })
})

describe('opening a stream', () => {
  it('does not fetch at all when the caller has already aborted', async () => {
    const controller = new AbortController()
    controller.abort()
    const { fetch, calls } = fakeFetch(() => sse([]).response)
    const stream = await openStream({ url: '/events', signal: controller.signal, lastEventId: '4', fetch })
    expect(calls).toEqual([])
    expect([stream.response.status, stream.response.statusText, stream.response.body]).toEqual([499, 'Client Closed Request', null])
    expect(stream.endReason).toBe('aborted')
    expect(stream.lastEventId).toBe('4')
    expect(await collect(stream)).toEqual([])
  })

  it('ends as aborted when the caller aborts while the fetch is pending, even a fetch that ignores its signal', async () => {
    const controller = new AbortController()
    const { fetch, calls } = fakeFetch(() => never())
    const pending = openStream({ url: '/events', signal: controller.signal, fetch })
    await sleep(1)
    controller.abort()
    const stream = await pending
    expect([stream.response.status, stream.response.statusText]).toEqual([499, 'Client Closed Request'])
    expect(stream.endReason).toBe('aborted')
    expect(await collectBatches(stream)).toEqual([])
    expect(calls[0]!.init.signal?.aborted).toBe(true)
    expect(calls[0]!.init.signal?.reason).toBe(controller.signal.reason)
  })

  it('rejects a failed fetch as a network error', async () => {
    const fetch = fakeFetch(() => Promise.reject(new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED') }))).fetch
    expect(await rejection(openStream({ url: '/events', fetch }))).toStrictEqual({
      type: 'network',
      message: 'Request failed: fetch failed (connect ECONNREFUSED)',
      retryable: true,
    })
  })

  it('rejects a fetch that stays silent past the idle timeout as a timeout', async () => {
    const fetch = fakeFetch(() => never()).fetch
    expect(await rejection(openStream({ url: '/events', fetch, idleTimeoutMs: 20 }))).toStrictEqual({
      type: 'timeout',
      message: 'No data from the server for 20 ms waiting for the response',
      retryable: true,
    })
  })

  it('rejects a refusal with the message its body gives, and lets go of the caller’s signal', async () => {
    const controller = new AbortController()
    const text = '{"error":"model overloaded","code":"overloaded"}'
    const { fetch, calls } = fakeFetch(() => new Response(text, { status: 503, statusText: 'Service Unavailable' }))
    expect(await rejection(openStream({ url: '/events', signal: controller.signal, fetch }))).toStrictEqual({
      type: 'internal',
      message: 'HTTP 503 Service Unavailable: model overloaded',
      retryable: true,
      status: 503,
      code: 'overloaded',
      detail: text,
    })
    controller.abort()
    expect(calls[0]!.init.signal?.aborted).toBe(false)
  })

  it('quotes what arrived of a refusal whose body goes silent', async () => {
    const body = feed()
    body.send('upstream ')
    const response = new Response(body.stream, { status: 502 })
    expect(await rejection(open(response, { idleTimeoutMs: 20 }))).toStrictEqual({
      type: 'internal',
      message: 'HTTP 502',
      retryable: true,
      status: 502,
      detail: 'upstream',
    })
  })

  it.each([
    { what: 'a refusal’s body', start: 'partial', init: { status: 500 } },
    { what: 'the start of a wrong body', start: '{"partial":', init: { headers: { 'content-type': 'application/json' } } },
  ])('ends as aborted, with the response, when the caller aborts while $what is read', async ({ start, init }) => {
    const controller = new AbortController()
    const body = feed()
    body.send(start)
    const response = new Response(body.stream, init)
    const pending = open(response, { signal: controller.signal })
    await sleep(5)
    controller.abort()
    const stream = await pending
    expect(stream.response).toBe(response)
    expect(stream.endReason).toBe('aborted')
    expect(await collect(stream)).toEqual([])
  })

  it('gives a 204, or a response without a body, as a stream that has already ended', async () => {
    const opened: Response[] = []
    const noContent = new Response(null, { status: 204 })
    const stream = await open(noContent, {}, { onOpen: (r: Response) => opened.push(r) })
    expect(stream.endReason).toBe('eof')
    expect(stream.response).toBe(noContent)
    expect(opened).toEqual([noContent])
    expect(opened[0]).toBe(noContent)
    expect(await collect(stream)).toEqual([])

    const bodiless = await open(new Response(null, { status: 200, headers: EVENT_STREAM }))
    expect(bodiless.endReason).toBe('eof')
    expect(await collectBatches(bodiless)).toEqual([])
  })

  it('rejects a body that is not an event stream as a protocol error quoting its start', async () => {
    const html = new Response('  <html>hi</html>\n', { headers: { 'content-type': 'text/html' } })
    expect(await rejection(open(html))).toStrictEqual({
      type: 'protocol',
      message: 'Expected an event stream (text/event-stream) but got "text/html": "<html>hi</html>"',
      retryable: false,
      status: 200,
      detail: '<html>hi</html>',
    })
    const untyped = new Response(encoder.encode('hello'), { status: 201 })
    expect(await rejection(open(untyped))).toStrictEqual({
      type: 'protocol',
      message: 'Expected an event stream (text/event-stream) but got no content type: "hello"',
      retryable: false,
      status: 201,
      detail: 'hello',
    })
  })

  it('reads the content type without regard to case or parameters, and calls onOpen', async () => {
    const response = new Response('data: a\n\n', { headers: { 'content-type': ' Text/Event-Stream ; charset=UTF-8' } })
    const opened: Response[] = []
    const stream = await open(response, {}, { onOpen: (r: Response) => opened.push(r) })
    expect(opened).toEqual([response])
    expect(await collect(stream)).toStrictEqual([{ data: 'a' }])
    expect(stream.endReason).toBe('eof')
  })
})

describe('reading frames', () => {
  it('tracks the last event id frame by frame; an empty id resets it', async () => {
    const { response } = sse(['id: 1\ndata: a\n\ndata: b\n\nid:\ndata: c\n\ndata: d\n\nid: 9\ndata: e\n\n'])
    const stream = await open(response, { lastEventId: '0' })
    const seen: (string | undefined)[] = []
    const frames: SSEFrame[] = []
    for await (const frame of stream.frames) {
      frames.push(frame)
      seen.push(stream.lastEventId)
    }
    expect(frames).toStrictEqual([{ id: '1', data: 'a' }, { data: 'b' }, { id: '', data: 'c' }, { data: 'd' }, { id: '9', data: 'e' }])
    expect(seen).toEqual(['1', '1', undefined, undefined, '9'])
  })

  it('tracks the last event id when reading batches too', async () => {
    const stream = await open(sse(['id: 3\ndata: a\n\n']).response)
    expect(await collectBatches(stream)).toStrictEqual([[{ id: '3', data: 'a' }]])
    expect(stream.lastEventId).toBe('3')
  })

  it('groups frames by the read that completed them and never yields an empty batch', async () => {
    const { response } = sse(['data: he', 'llo\n\ndata: x\n\n', ': ping\n\n', 'data: y\n\n'])
    const stream = await open(response)
    expect(await collectBatches(stream)).toStrictEqual([[{ data: 'hello' }, { data: 'x' }], [{ data: 'y' }]])
    expect(stream.endReason).toBe('eof')
  })

  it('joins a character split between reads', async () => {
    const bytes = encoder.encode('data: né\n\n')
    const stream = await open(sse([bytes.slice(0, 8), bytes.slice(8)]).response)
    expect(await collect(stream)).toStrictEqual([{ data: 'né' }])
  })

  it('strips exactly one leading byte order mark', async () => {
    const bom = new Uint8Array([0xef, 0xbb, 0xbf])
    const one = await open(sse([bom, 'data: a\n\ndata: b\n\n']).response)
    expect(await collect(one)).toStrictEqual([{ data: 'a' }, { data: 'b' }])
    const two = await open(sse([bom, bom, 'data: a\n\ndata: b\n\n']).response)
    expect(await collect(two)).toStrictEqual([{ data: 'b' }])
  })

  it('reports comments and retry through the hooks', async () => {
    const comments: string[] = []
    const retries: number[] = []
    const hooks = { onComment: (c: string) => comments.push(c), onRetry: (ms: number) => retries.push(ms) }
    const stream = await open(sse([': keepalive\n\nretry: 1500\ndata: a\n\n']).response, {}, hooks)
    expect(await collect(stream)).toStrictEqual([{ data: 'a', retry: 1500 }])
    expect(comments).toEqual(['keepalive'])
    expect(retries).toEqual([1500])
  })

  it('can be read only once, by frames or by batches', async () => {
    const stream = await open(sse(['data: a\n\n']).response)
    expect(await collect(stream)).toStrictEqual([{ data: 'a' }])
    const again = 'an opened stream can be read once, by frames or by batches'
    expect(() => stream.batches[Symbol.asyncIterator]()).toThrow(new Error(again))
    expect(() => stream.frames[Symbol.asyncIterator]()).toThrow(new Error(again))
  })

  it('releases the body once the end is read', async () => {
    const { response, body } = sse(['data: a\n\n'])
    const stream = await open(response)
    expect(await collect(stream)).toStrictEqual([{ data: 'a' }])
    expect(stream.endReason).toBe('eof')
    expect(response.body?.locked).toBe(false)
    expect(body.cancelled).toEqual([])
  })
})

describe('the end of a stream', () => {
  it('stops at [DONE] as the first frame of a read and closes the body', async () => {
    const { response, body } = sse(['data: a\n\n', 'data: [DONE]\n\ndata: late\n\n', 'data: after\n\n'])
    const stream = await open(response)
    expect(await collectBatches(stream)).toStrictEqual([[{ data: 'a' }]])
    expect(stream.endReason).toBe('done')
    expect(body.cancelled).toEqual([undefined])
  })

  it('stops at [DONE] in the middle of a read, keeping the frames before it', async () => {
    const stream = await open(sse(['data: a\n\ndata: [DONE]\n\ndata: late\n\n', 'data: after\n\n']).response)
    expect(await collect(stream)).toStrictEqual([{ data: 'a' }])
    expect(stream.endReason).toBe('done')
  })

  it('with readPastDone, delivers [DONE] and what follows and still ends as done', async () => {
    const stream = await open(sse(['data: a\n\n', 'data: [DONE]\n\ndata: late\n\n', ': bye\n\n']).response, { readPastDone: true })
    expect(await collect(stream)).toStrictEqual([{ data: 'a' }, { data: '[DONE]' }, { data: 'late' }])
    expect(stream.endReason).toBe('done')
  })

  it('with readPastDone and no [DONE], ends as eof', async () => {
    const stream = await open(sse(['data: a\n\n', ': ping\n\n']).response, { readPastDone: true })
    expect(await collect(stream)).toStrictEqual([{ data: 'a' }])
    expect(stream.endReason).toBe('eof')
  })

  it('ends as aborted when the consumer leaves the loop, closing and releasing the body', async () => {
    const { response, body } = sse(['data: a\n\n', 'data: b\n\n'], { open: true })
    const stream = await open(response)
    for await (const frame of stream.frames) {
      expect(frame).toStrictEqual({ data: 'a' })
      break
    }
    expect(stream.endReason).toBe('aborted')
    expect(body.cancelled).toEqual([undefined])
    expect(response.body?.locked).toBe(false)
  })

  it('ends as aborted when the caller aborts while a read is pending', async () => {
    const controller = new AbortController()
    const { response, body } = sse(['data: a\n\n'], { open: true })
    const stream = await open(response, { signal: controller.signal })
    const it = stream.frames[Symbol.asyncIterator]()
    expect(await it.next()).toStrictEqual({ done: false, value: { data: 'a' } })
    const next = it.next()
    await sleep(1)
    controller.abort()
    expect(await next).toStrictEqual({ done: true, value: undefined })
    expect(stream.endReason).toBe('aborted')
    expect(body.cancelled).toHaveLength(1)
  })

  it('ends as aborted when the caller aborts between batches, even with the end of the body already in', async () => {
    const controller = new AbortController()
    const stream = await open(sse(['data: a\n\n']).response, { signal: controller.signal })
    const batches: SSEFrame[][] = []
    for await (const batch of stream.batches) {
      batches.push(batch)
      controller.abort()
    }
    expect(batches).toStrictEqual([[{ data: 'a' }]])
    expect(stream.endReason).toBe('aborted')
  })

  it('yields nothing more once the caller aborts while a read is being parsed', async () => {
    const controller = new AbortController()
    const hooks = { onComment: () => controller.abort() }
    const stream = await open(sse([': stop\n\ndata: a\n\n', 'data: b\n\n']).response, { signal: controller.signal }, hooks)
    expect(await collectBatches(stream)).toEqual([])
    expect(stream.endReason).toBe('aborted')
  })

  it('stops within a batch when the caller aborts between its frames', async () => {
    const controller = new AbortController()
    const stream = await open(sse(['data: a\n\ndata: b\n\n']).response, { signal: controller.signal })
    const frames: SSEFrame[] = []
    for await (const frame of stream.frames) {
      frames.push(frame)
      controller.abort()
    }
    expect(frames).toStrictEqual([{ data: 'a' }])
    expect(stream.endReason).toBe('aborted')
  })

  it('throws a network error when the body breaks, leaving endReason undefined', async () => {
    const { response, body } = sse(['data: a\n\n'], { open: true })
    const stream = await open(response)
    const frames: SSEFrame[] = []
    const reading = (async () => {
      for await (const frame of stream.frames) {
        frames.push(frame)
        body.fail(new Error('socket reset'))
      }
    })()
    expect(await rejection(reading)).toStrictEqual({
      type: 'network',
      message: 'Connection lost while streaming: socket reset',
      retryable: true,
    })
    expect(frames).toStrictEqual([{ data: 'a' }])
    expect(stream.endReason).toBeUndefined()
  })

  it('throws a timeout when the body goes silent, leaving endReason undefined', async () => {
    const stream = await open(sse(['data: a\n\n'], { open: true }).response, { idleTimeoutMs: 20 })
    const frames: SSEFrame[] = []
    const reading = (async () => {
      for await (const frame of stream.frames) frames.push(frame)
    })()
    expect(await rejection(reading)).toStrictEqual({
      type: 'timeout',
      message: 'No data from the server for 20 ms while streaming',
      retryable: true,
    })
    expect(frames).toStrictEqual([{ data: 'a' }])
    expect(stream.endReason).toBeUndefined()
  })

  it('does not count the time the consumer spends between reads as silence', async () => {
    const stream = await open(sse(['data: a\n\n', 'data: b\n\n']).response, { idleTimeoutMs: 15 })
    const frames: SSEFrame[] = []
    for await (const frame of stream.frames) {
      frames.push(frame)
      await sleep(40)
    }
    expect(frames).toStrictEqual([{ data: 'a' }, { data: 'b' }])
    expect(stream.endReason).toBe('eof')
  })

  it('never times out with idleTimeoutMs 0', async () => {
    const { response, body } = sse([], { open: true })
    const stream = await open(response, { idleTimeoutMs: 0 })
    setTimeout(() => {
      body.send('data: a\n\n')
      body.end()
    }, 30)
    expect(await collect(stream)).toStrictEqual([{ data: 'a' }])
    expect(stream.endReason).toBe('eof')
  })

  it('after settle, ends cleanly as eof when no more bytes come within the grace', async () => {
    const { response, body } = sse(['data: a\n\n'], { open: true })
    const stream = await open(response, { idleTimeoutMs: 5000 })
    const frames: SSEFrame[] = []
    for await (const frame of stream.frames) {
      frames.push(frame)
      stream.settle(10)
    }
    expect(frames).toStrictEqual([{ data: 'a' }])
    expect(stream.endReason).toBe('eof')
    expect(body.cancelled).toHaveLength(1)
  })

  it('after settle, ends as done when a [DONE] was read past', async () => {
    const stream = await open(sse(['data: [DONE]\n\n'], { open: true }).response, { readPastDone: true, idleTimeoutMs: 5000 })
    stream.settle(10)
    expect(await collect(stream)).toStrictEqual([{ data: '[DONE]' }])
    expect(stream.endReason).toBe('done')
  })

  it('after settle with a grace longer than the idle timeout, still times out at the idle timeout', async () => {
    const stream = await open(sse([], { open: true }).response, { idleTimeoutMs: 20 })
    stream.settle(60_000)
    expect(await rejection(collect(stream))).toStrictEqual({
      type: 'timeout',
      message: 'No data from the server for 20 ms while streaming',
      retryable: true,
    })
  })
})

describe('Lifeline', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it('is a named error with a fixed message when it aborts', () => {
    const abort = new LifelineAbort()
    expect(abort).toBeInstanceOf(Error)
    expect([abort.name, abort.message]).toEqual(['LifelineAbort', 'request aborted'])
  })

  it('reports nothing while running', () => {
    const line = new Lifeline(undefined, 100)
    expect([line.callerAborted, line.timedOut, line.graceOver, line.signal.aborted]).toEqual([false, false, false, false])
  })

  it('rejects a wait when the caller aborts, even if the work never settles', async () => {
    const caller = new AbortController()
    const line = new Lifeline(caller.signal, 0)
    const waiting = line.within(never())
    const reason = new Error('user stopped')
    caller.abort(reason)
    const thrown = await caught(waiting)
    expect(thrown).toBeInstanceOf(LifelineAbort)
    expect([line.callerAborted, line.timedOut, line.graceOver]).toEqual([true, false, false])
    expect(line.signal.aborted).toBe(true)
    expect(line.signal.reason).toBe(reason)
  })

  it('starts aborted when the caller already was', () => {
    const caller = new AbortController()
    const reason = new Error('gone')
    caller.abort(reason)
    const line = new Lifeline(caller.signal, 100)
    expect(line.signal.aborted).toBe(true)
    expect(line.signal.reason).toBe(reason)
    expect(line.callerAborted).toBe(true)
  })

  it('times out after idleMs without data', async () => {
    vi.useFakeTimers()
    const line = new Lifeline(undefined, 100)
    const waiting = caught(line.within(never()))
    await vi.advanceTimersByTimeAsync(99)
    expect(line.signal.aborted).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect(await waiting).toBeInstanceOf(LifelineAbort)
    expect([line.callerAborted, line.timedOut, line.graceOver]).toEqual([false, true, false])
    const reason = line.signal.reason as DOMException
    expect(reason).toBeInstanceOf(DOMException)
    expect([reason.name, reason.message]).toEqual(['TimeoutError', 'no data for 100 ms'])
  })

  it('after settle, ends the wait at the shorter grace as a grace over, not a timeout', async () => {
    vi.useFakeTimers()
    const line = new Lifeline(undefined, 100)
    line.settle(30)
    const waiting = caught(line.within(never()))
    await vi.advanceTimersByTimeAsync(30)
    expect(await waiting).toBeInstanceOf(LifelineAbort)
    expect([line.timedOut, line.graceOver]).toEqual([false, true])
    expect((line.signal.reason as DOMException).message).toBe('no data for 30 ms')
  })

  it('uses the grace when the idle timeout is off', async () => {
    vi.useFakeTimers()
    const line = new Lifeline(undefined, 0)
    line.settle(30)
    const waiting = caught(line.within(never()))
    await vi.advanceTimersByTimeAsync(30)
    expect(await waiting).toBeInstanceOf(LifelineAbort)
    expect([line.timedOut, line.graceOver]).toEqual([false, true])
  })

  it('keeps the idle timeout when the grace is longer, and goes back to it after settle(undefined)', async () => {
    vi.useFakeTimers()
    const line = new Lifeline(undefined, 100)
    line.settle(500)
    const waiting = caught(line.within(never()))
    await vi.advanceTimersByTimeAsync(100)
    expect(await waiting).toBeInstanceOf(LifelineAbort)
    expect([line.timedOut, line.graceOver]).toEqual([true, false])

    const other = new Lifeline(undefined, 100)
    other.settle(30)
    other.settle(undefined)
    const otherWaiting = caught(other.within(never()))
    await vi.advanceTimersByTimeAsync(100)
    expect(await otherWaiting).toBeInstanceOf(LifelineAbort)
    expect([other.timedOut, other.graceOver]).toEqual([true, false])
  })

  it('never times out with idleMs 0 and no grace', async () => {
    vi.useFakeTimers()
    const line = new Lifeline(undefined, 0)
    void line.within(never())
    await vi.advanceTimersByTimeAsync(60_000)
    expect([line.signal.aborted, line.timedOut, line.graceOver]).toEqual([false, false, false])
  })

  it('stops the watchdog once the work settles', async () => {
    vi.useFakeTimers()
    const line = new Lifeline(undefined, 100)
    expect(await line.within(Promise.resolve(7))).toBe(7)
    await vi.advanceTimersByTimeAsync(1000)
    expect([line.signal.aborted, line.timedOut]).toEqual([false, false])
  })

  it('after dispose, neither the watchdog nor the caller aborts it, and later waits are not watched', async () => {
    vi.useFakeTimers()
    const caller = new AbortController()
    const line = new Lifeline(caller.signal, 100)
    void line.within(never())
    line.dispose()
    line.dispose()
    await vi.advanceTimersByTimeAsync(1000)
    expect(line.signal.aborted).toBe(false)
    void line.within(never())
    await vi.advanceTimersByTimeAsync(1000)
    expect(line.signal.aborted).toBe(false)
    caller.abort()
    expect(line.signal.aborted).toBe(false)
    expect(line.callerAborted).toBe(true)
  })
})
