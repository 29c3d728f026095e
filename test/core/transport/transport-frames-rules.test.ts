/**
 * Exact expectations for SSE framing: the fields a frame carries and none it
 * does not, where the [DONE] sentinel is recognised, the one leading BOM, and
 * CR line ends split between pieces of text, including empty pieces.
 */
import { describe, expect, it } from 'vitest'
import { createFrameParser, isDoneFrame, parseSSEText, type SSEFrame } from '../../../src/core/transport'

function parser() {
  const frames: SSEFrame[] = []
  return { frames, push: createFrameParser({ onFrame: (f) => frames.push(f) }).push }
}

describe('frame fields', () => {
  it('gives a frame only the fields its own event set, the id included', () => {
    expect(parseSSEText('data: a\n\nid: 1\ndata: b\n\nevent: e\ndata: c\n\nretry: 9\ndata: d\n\ndata: e\n\n')).toStrictEqual([
      { data: 'a' },
      { id: '1', data: 'b' },
      { event: 'e', data: 'c' },
      { data: 'd', retry: 9 },
      { data: 'e' },
    ])
  })

  it('reports comments through the sink', () => {
    const comments: string[] = []
    createFrameParser({ onFrame: () => {}, onComment: (c) => comments.push(c) }).push(': one\n\n')
    expect(comments).toEqual(['one'])
  })
})

describe('isDoneFrame', () => {
  it('recognises [DONE] with a little whitespace around it, and nothing longer', () => {
    expect(isDoneFrame({ data: '[DONE]' })).toBe(true)
    expect(isDoneFrame({ data: ' [DONE] ' })).toBe(true)
    expect(isDoneFrame({ data: `[DONE]${' '.repeat(8)}` })).toBe(true)
    expect(isDoneFrame({ data: `[DONE]${' '.repeat(9)}` })).toBe(false)
    expect(isDoneFrame({ data: '[DONE]x' })).toBe(false)
    expect(isDoneFrame({ data: '{"type":"finish"}' })).toBe(false)
  })
})

describe('feeding text in pieces', () => {
  it('strips a BOM only at the very start of the stream', () => {
    const p = parser()
    p.push('data: a')
    p.push('\uFEFFb\n\n')
    expect(p.frames).toStrictEqual([{ data: 'a\uFEFFb' }])
  })

  it('ignores empty pieces: a BOM after one is still the first character', () => {
    const p = parser()
    p.push('')
    p.push('\uFEFFdata: a\n\n')
    expect(p.frames).toStrictEqual([{ data: 'a' }])
  })

  it('keeps a CR and the LF after it one line end across an empty piece', () => {
    const p = parser()
    p.push('data: a\r')
    p.push('')
    p.push('\ndata: b\r\n\r\n')
    expect(p.frames).toStrictEqual([{ data: 'a\nb' }])
  })

  it('keeps a CR followed by another CR two line ends', () => {
    const p = parser()
    p.push('data: a\r')
    p.push('\r')
    expect(p.frames).toStrictEqual([{ data: 'a' }])
  })

  it('takes an LF after the LF that completed a split CRLF as a blank line', () => {
    const p = parser()
    p.push('data: a\r')
    p.push('\n')
    expect(p.frames).toEqual([])
    p.push('\n')
    expect(p.frames).toStrictEqual([{ data: 'a' }])
  })
})
