/**
 * The streaming markdown tail and code fences: a closing fence as long as its
 * opening one or longer closes the block (CommonMark), a shorter one, one of the
 * other character or one with an info string does not; and text whose lines end
 * in CRLF is drawn exactly as the same text with LF, whole or cut anywhere while
 * it streams, fresh or fed token by token.
 */
import fc from 'fast-check'
import type { Token } from 'marked'
import { describe, expect, it } from 'vitest'
import { MarkdownBlocks } from '../../../src/components/markdown/blocks'
import { completeTail } from '../../../src/components/markdown/tail'

/** The tokens a fresh parser gives for `text` (closed and live blocks together; keys are offsets, and differ with CRLF). */
function tokens(text: string, streaming = true): Token[] {
  const { done, live } = new MarkdownBlocks().update(text, streaming)
  return [...done, ...live].map((block) => block.token)
}

const shape = (text: string) => tokens(text).map((t) => [t.type, t.raw])
const crlf = (text: string) => text.replace(/\n/g, '\r\n')

describe('completeTail: where a code fence ends', () => {
  it('a closing fence longer than the opening one closes it: the text after it is completed', () => {
    expect(completeTail('```\ncode\n````\nSome **bold')).toBe('```\ncode\n````\nSome **bold**')
    expect(completeTail('~~~\ncode\n~~~~~~\nSome *it')).toBe('~~~\ncode\n~~~~~~\nSome *it*')
  })

  it('a closing fence as long as the opening one closes it', () => {
    expect(completeTail('````\ncode\n````\nSome **bold')).toBe('````\ncode\n````\nSome **bold**')
  })

  it('a shorter fence does not close it: the text is still code, left as it is', () => {
    expect(completeTail('````\ncode\n```\nSome **bold')).toBe('````\ncode\n```\nSome **bold')
    expect(completeTail('~~~~~\ncode\n~~~~\nSome *it')).toBe('~~~~~\ncode\n~~~~\nSome *it')
  })

  it('a fence of the other character, or one with an info string, does not close it', () => {
    expect(completeTail('```\ncode\n~~~~\nSome **bold')).toBe('```\ncode\n~~~~\nSome **bold')
    expect(completeTail('```\ncode\n````js\nSome **bold')).toBe('```\ncode\n````js\nSome **bold')
  })

  it('a closing fence indented up to three spaces, or followed by spaces, closes it', () => {
    expect(completeTail('```\ncode\n   ````  \nSome **bold')).toBe('```\ncode\n   ````  \nSome **bold**')
    expect(completeTail('```\ncode\n```\t\nSome **bold')).toBe('```\ncode\n```\t\nSome **bold**')
  })

  it('a fence closed by a longer one can open again: the second is what counts', () => {
    expect(completeTail('```\na\n````\n\n```py\nb\nSome **bold')).toBe('```\na\n````\n\n```py\nb\nSome **bold')
    expect(completeTail('```\na\n````\n\n```py\nb\n```\nSome **bold')).toBe('```\na\n````\n\n```py\nb\n```\nSome **bold**')
  })
})

describe('MarkdownBlocks: the blocks a streaming text is drawn as', () => {
  it('a longer closing fence ends the code block and what follows is its own block', () => {
    expect(shape('```\ncode\n````\nSome **bold')).toEqual([['code', '```\ncode\n````\n'], ['paragraph', 'Some **bold**']])
  })

  it('a shorter closing fence leaves everything after it inside the code block', () => {
    expect(shape('````\ncode\n```\nSome **bold')).toEqual([['code', '````\ncode\n```\nSome **bold']])
  })

  it('CRLF gives the same blocks as LF, for both fence rules and the completed tail', () => {
    for (const text of ['```\ncode\n````\nSome **bold', '````\ncode\n```\nSome **bold', '| a | b |\n|--', '# Title\n\n- one\n- two\n-', 'See [the docs](https://ex']) {
      expect(tokens(crlf(text))).toEqual(tokens(text))
      expect(tokens(crlf(text), false)).toEqual(tokens(text, false))
    }
  })

  it('streamed a character at a time, a line that looked like a table\'s start stays in its paragraph, as with CRLF', () => {
    for (const text of ['Note: use a pipe\n| like this, then go on.', '~~gone\n|---|---|\nmore', 'Rows:\n| 1 | 2 |\n|---|-x and on']) {
      const lf = new MarkdownBlocks()
      const cr = new MarkdownBlocks()
      for (let i = 1; i < text.length; i++) {
        lf.update(text.slice(0, i), true)
        cr.update(crlf(text.slice(0, i)), true)
      }
      const finished = (parser: MarkdownBlocks, t: string) => {
        const { done, live } = parser.update(t, false)
        return [...done, ...live].map((block) => [block.token.type, block.token.raw])
      }
      expect(finished(lf, text)).toEqual([['paragraph', text]])
      expect(finished(cr, crlf(text))).toEqual([['paragraph', text]])
    }
  })

  it('a table whose header and delimiter rows are whole lines still closes the paragraph before it', () => {
    const blocks = new MarkdownBlocks()
    const { done, live } = blocks.update('Intro\n| a | b |\n|---|---|\n| 1', true)
    expect(done.map((b) => [b.token.type, b.token.raw])).toEqual([['paragraph', 'Intro\n']])
    expect(live.map((b) => b.token.type)).toEqual(['table'])
  })

  it('a stream cut between the CR and the LF of a line ending reads as the line ended', () => {
    expect(tokens('```\r\ncode\r\n````\r')).toEqual(tokens('```\ncode\n````\n'))
    expect(tokens('Some **bold\r')).toEqual(tokens('Some **bold\n'))
  })
})

/** Lines of markdown where fences, their lengths and the tail's completions meet. */
const TOP_LEVEL = [
  '```', '````', '`````', '```js', '````ts', '~~~', '~~~~', '~~~py', '   ```', '  ````  ', '    ```',
  'code()', 'Some **bold', 'an *em* and _un', '`tick', '~~gone', '[link](https://ex', '[1',
  '| a | b |', '|---|---|', '| 1 | 2 |', '#', '# Title', '', '', 'plain text',
] as const
/** Containers: the tail reads fences at the top level, so a fence inside a list item or a quote is left to the second property's text alone. */
const CONTAINERS = ['- item', '1. first', '-', '> quote'] as const
const markdownOf = (lines: readonly string[], maxLength: number) => fc.array(fc.constantFrom(...lines), { minLength: 1, maxLength }).map((picked) => picked.join('\n'))
const markdown = markdownOf([...TOP_LEVEL, ...CONTAINERS], 10)
const topLevel = markdownOf(TOP_LEVEL, 14)

/** `text` with each LF kept or made a CRLF, and for each position of `text` its position in the result. */
function withEndings(text: string, crlfAt: readonly boolean[]): { converted: string; at: number[] } {
  let converted = ''
  const at: number[] = []
  let n = 0
  for (const ch of text) {
    at.push(converted.length)
    converted += ch === '\n' && crlfAt[n++ % crlfAt.length] ? '\r\n' : ch
  }
  at.push(converted.length)
  return { converted, at }
}

describe('property: LF and CRLF line endings give the same blocks', () => {
  it('for the whole text and every prefix of it, streaming or finished', () => {
    fc.assert(fc.property(markdown, fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }), (text, crlfAt) => {
      const { converted, at } = withEndings(text, crlfAt)
      expect(tokens(converted, false)).toEqual(tokens(text, false))
      for (let i = 0; i <= text.length; i++) {
        const cut = converted.slice(0, at[i])
        expect(tokens(cut)).toEqual(tokens(text.slice(0, i)))
        // Cut between a CR and its LF: the line has ended.
        if (converted[at[i]!] === '\r') expect(tokens(converted.slice(0, at[i]! + 1))).toEqual(tokens(text.slice(0, i + 1)))
      }
    }))
  })

  it('fed token by token to one parser, as a streaming message is, each step draws the same as with LF', () => {
    fc.assert(fc.property(topLevel, fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }), fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 6 }), (text, crlfAt, steps) => {
      const { converted, at } = withEndings(text, crlfAt)
      const lf = new MarkdownBlocks()
      const cr = new MarkdownBlocks()
      const drawn = (list: { done: readonly { token: Token }[]; live: readonly { token: Token }[] }) => [...list.done, ...list.live].map((b) => b.token)
      let i = 0
      for (let k = 0; i < text.length; k++) {
        i = Math.min(text.length, i + steps[k % steps.length]!)
        expect(drawn(cr.update(converted.slice(0, at[i]), true))).toEqual(drawn(lf.update(text.slice(0, i), true)))
      }
      expect(drawn(cr.update(converted, false))).toEqual(drawn(lf.update(text, false)))
    }))
  })
})
