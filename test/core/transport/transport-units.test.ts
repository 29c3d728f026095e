import { describe, expect, it } from 'vitest'
import { createFrameParser, httpError, isDoneFrame, parseRetryAfter, parseSSEText, type SSEFrame } from '../../../src/core/transport'

describe('parseSSEText', () => {
  it('reads fields, ids, events, retry and multi-line data', () => {
    expect(parseSSEText('id: 1\nevent: a\nretry: 500\ndata: x\ndata: y\n\ndata:no-space\n\n')).toEqual([
      { id: '1', event: 'a', retry: 500, data: 'x\ny' },
      { data: 'no-space' },
    ])
  })

  it('treats LF, CRLF and CR alike, including a CR as the very last character', () => {
    const expected: SSEFrame[] = [{ data: 'a\nb' }, { data: 'c' }]
    expect(parseSSEText('data: a\ndata: b\n\ndata: c\n\n')).toEqual(expected)
    expect(parseSSEText('data: a\r\ndata: b\r\n\r\ndata: c\r\n\r\n')).toEqual(expected)
    expect(parseSSEText('data: a\rdata: b\r\rdata: c\r\r')).toEqual(expected)
    expect(parseSSEText('data: a\rdata: b\r\n\ndata: c\n\r')).toEqual(expected)
  })

  it('strips one leading BOM', () => {
    expect(parseSSEText('\uFEFFdata: x\n\n')).toEqual([{ data: 'x' }])
  })

  it('drops an unterminated last event', () => {
    expect(parseSSEText('data: a\n\ndata: b\n')).toEqual([{ data: 'a' }])
    expect(parseSSEText('data: a\n\ndata: b')).toEqual([{ data: 'a' }])
  })

  it('keeps a data: [DONE] frame for the caller to recognise', () => {
    const frames = parseSSEText('data: a\n\ndata: [DONE]\n\ndata: b\n\n')
    expect(frames).toEqual([{ data: 'a' }, { data: '[DONE]' }, { data: 'b' }])
    expect(frames.map(isDoneFrame)).toEqual([false, true, false])
  })

  it('ignores comments, unknown fields and blocks without data', () => {
    expect(parseSSEText(': hi\n\nfoo: bar\ndata: x\n\nevent: lonely\n\n')).toEqual([{ data: 'x' }])
  })
})

describe('createFrameParser', () => {
  it('does not see a blank line in a CRLF pair split between pushes', () => {
    const frames: SSEFrame[] = []
    const parser = createFrameParser({ onFrame: (f) => frames.push(f) })
    parser.push('data: a\r')
    parser.push('\ndata: b\r')
    parser.push('\n')
    expect(frames).toEqual([])
    parser.push('\r')
    expect(frames).toEqual([{ data: 'a\nb' }])
  })

  it('dispatches an event ended by a lone CR without waiting for more input', () => {
    const frames: SSEFrame[] = []
    const parser = createFrameParser({ onFrame: (f) => frames.push(f) })
    parser.push('data: a\r\r')
    expect(frames).toEqual([{ data: 'a' }])
  })

  it('reports comments and retry', () => {
    const comments: string[] = []
    const retries: number[] = []
    const parser = createFrameParser({
      onFrame: () => {},
      onComment: (c) => comments.push(c),
      onRetry: (ms) => retries.push(ms),
    })
    parser.push(': one\n:two\nretry: 42\n\n')
    expect(comments).toEqual(['one', 'two'])
    expect(retries).toEqual([42])
  })
})

describe('httpError', () => {
  const res = (status: number, headers: Record<string, string> = {}): Response =>
    new Response(null, { status, headers })

  it('maps statuses to error types', () => {
    expect(httpError(res(401))).toMatchObject({ type: 'authentication', retryable: false, status: 401 })
    expect(httpError(res(403))).toMatchObject({ type: 'authentication', retryable: false, status: 403 })
    expect(httpError(res(408))).toMatchObject({ type: 'timeout', retryable: true })
    expect(httpError(res(429))).toMatchObject({ type: 'rate_limit', retryable: true })
    expect(httpError(res(404))).toMatchObject({ type: 'validation', retryable: false })
    expect(httpError(res(422))).toMatchObject({ type: 'validation', retryable: false })
    expect(httpError(res(502))).toMatchObject({ type: 'internal', retryable: true, status: 502 })
    expect(httpError(res(503))).toMatchObject({ type: 'internal', retryable: true })
  })

  it('reads Retry-After on any status', () => {
    expect(httpError(res(429, { 'retry-after': '7' })).retryAfterMs).toBe(7000)
    expect(httpError(res(503, { 'retry-after': '1' })).retryAfterMs).toBe(1000)
    expect(httpError(res(429)).retryAfterMs).toBeUndefined()
  })

  it('lifts message and code from a JSON body and quotes the body', () => {
    const e = httpError(res(400), '{"error":{"message":"bad model","type":"invalid_request_error"}}')
    expect(e.message).toBe('HTTP 400: bad model')
    expect(e.code).toBe('invalid_request_error')
    expect(e.detail).toBe('{"error":{"message":"bad model","type":"invalid_request_error"}}')
  })

  it('keeps the detail short and leaves non-JSON bodies out of the message', () => {
    const e = httpError(res(500), `<html>${'x'.repeat(1000)}</html>`)
    expect(e.message).toBe('HTTP 500')
    expect(e.detail?.startsWith('<html>xxx')).toBe(true)
    expect(e.detail!.length).toBeLessThanOrEqual(121)
  })
})

describe('parseRetryAfter', () => {
  const now = Date.parse('Wed, 21 Oct 2015 07:28:00 GMT')

  it('reads seconds', () => {
    expect(parseRetryAfter('0')).toBe(0)
    expect(parseRetryAfter(' 120 ')).toBe(120_000)
    expect(parseRetryAfter('1.5')).toBe(1500)
  })

  it('reads an HTTP date relative to now, never negative', () => {
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:30 GMT', now)).toBe(30_000)
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:00:00 GMT', now)).toBe(0)
  })

  it('gives undefined for missing or unreadable values', () => {
    expect(parseRetryAfter(null)).toBeUndefined()
    expect(parseRetryAfter('soon')).toBeUndefined()
    expect(parseRetryAfter('-5')).toBeUndefined()
  })
})
