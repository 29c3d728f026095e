/**
 * Math in markdown, read by the lexer only when a host turns it on: which
 * dollars are math (pandoc's rule) and which are money, the block forms, a
 * block still streaming (open until its closer arrives, never a paragraph that
 * flips), and the streaming tail's rules with math on.
 */
import { describe, expect, it } from 'vitest'
import type { Token } from 'marked'
import { MarkdownBlocks } from '../../../src/components/markdown/blocks'
import type { MathToken } from '../../../src/components/markdown/math'
import { completeTail } from '../../../src/components/markdown/tail'

/** The math tokens anywhere in a text's tokens, as `type:text` (`open` marked with a `…`). */
function mathIn(text: string, { math = true, streaming = false } = {}): string[] {
  const { done, live } = new MarkdownBlocks({ math }).update(text, streaming)
  const out: string[] = []
  const walk = (tokens: readonly Token[] | undefined) => {
    for (const token of tokens ?? []) {
      if (token.type === 'math' || token.type === 'inlineMath') {
        const m = token as unknown as MathToken
        out.push(`${m.type}${m.display ? '(display)' : ''}:${m.text}${m.open ? '…' : ''}`)
      }
      const t = token as Token & { tokens?: Token[]; items?: Array<{ tokens: Token[] }> }
      walk(t.tokens)
      for (const item of t.items ?? []) walk(item.tokens)
    }
  }
  walk([...done, ...live].map((block) => block.token))
  return out
}

describe('inline math: the dollar rule', () => {
  it('reads $…$ with no space inside its delimiters, \\(…\\), and $$…$$ in a line as display math', () => {
    expect(mathIn('Euler: $e^{i\\pi} + 1 = 0$, done.')).toEqual(['inlineMath:e^{i\\pi} + 1 = 0'])
    expect(mathIn('Area \\(\\pi r^2\\) here')).toEqual(['inlineMath:\\pi r^2'])
    expect(mathIn('Then $$\\sum_i x_i$$ in the line')).toEqual(['inlineMath(display):\\sum_i x_i'])
    expect(mathIn('$a$ and $b$')).toEqual(['inlineMath:a', 'inlineMath:b'])
  })

  it('leaves money as text: a space after the opener or before the closer, a digit after the closer, an escaped dollar', () => {
    expect(mathIn('It costs $5 and $10 a month.')).toEqual([])
    expect(mathIn('Between $5-$10, or $ 20 $ flat.')).toEqual([])
    expect(mathIn('From $20 to $30')).toEqual([])
    expect(mathIn('A \\$x\\$ is literal')).toEqual([])
    expect(mathIn('Empty $$ and $ $')).toEqual([])
  })

  it('never reads math inside code, and reads no math at all when math is off', () => {
    expect(mathIn('Use `$x$` in shell')).toEqual([])
    expect(mathIn('```\n$$\nx\n$$\n```\n')).toEqual([])
    expect(mathIn('$x^2$ and\n\n$$\ny\n$$\n', { math: false })).toEqual([])
  })

  it('keeps markdown out of TeX: an underscore or star inside $…$ is no emphasis', () => {
    expect(mathIn('$a_1 + b_1$ and $x*y*z$')).toEqual(['inlineMath:a_1 + b_1', 'inlineMath:x*y*z'])
  })
})

describe('math blocks', () => {
  it('reads $$ … $$ and \\[ … \\] blocks, on their own lines or on one, after a paragraph line too', () => {
    expect(mathIn('$$\nE = mc^2\n$$\n')).toEqual(['math(display):E = mc^2'])
    expect(mathIn('$$E = mc^2$$\n')).toEqual(['math(display):E = mc^2'])
    expect(mathIn('\\[\na^2 + b^2 = c^2\n\\]\n')).toEqual(['math(display):a^2 + b^2 = c^2'])
    expect(mathIn('The formula:\n$$\nx = 1\n$$\nAfter.')).toEqual(['math(display):x = 1'])
  })

  it('a block that has not closed is open while streaming, and not math once the text is final', () => {
    expect(mathIn('Intro\n\n$$\n\\int_0^1 x', { streaming: true })).toEqual(['math(display):\\int_0^1 x…'])
    expect(mathIn('Intro\n\n$$\n\\int_0^1 x', { streaming: false })).toEqual([])
    // A price at the start of a line opens nothing, and does not cut its paragraph in two.
    expect(mathIn('$$5 is the price', { streaming: true })).toEqual([])
    const { live } = new MarkdownBlocks({ math: true }).update('I paid\n$$5 in total', false)
    expect(live.map((block) => block.token.type)).toEqual(['paragraph'])
  })
})

describe('completeTail with math on', () => {
  it('leaves an open math block as it is, as it does an open fence', () => {
    expect(completeTail('$$\n\\frac{**a', { math: true })).toBe('$$\n\\frac{**a')
    expect(completeTail('\\[\nx_', { math: true })).toBe('\\[\nx_')
    // Off, the same tail is completed as markdown.
    expect(completeTail('$$\n\\frac{**a')).toBe('$$\n\\frac{**a**')
  })

  it('a closed block is not open: what follows it is completed as usual', () => {
    expect(completeTail('$$\nx\n$$\nSome **bold', { math: true })).toBe('$$\nx\n$$\nSome **bold**')
    expect(completeTail('$$x$$\nSome *it', { math: true })).toBe('$$x$$\nSome *it*')
  })

  it('does not close emphasis that only TeX opened', () => {
    expect(completeTail('We have $x*y$ and **bo', { math: true })).toBe('We have $x*y$ and **bo**')
    expect(completeTail('We have $x*y$ here', { math: true })).toBe('We have $x*y$ here')
    expect(completeTail('We have $x*y$ here')).toBe('We have $x*y$ here*')
  })

  it('holds back a lone $ or \\ at the start of the last line (a block opener on its way)', () => {
    expect(completeTail('Intro\n$', { math: true })).toBe('Intro')
    expect(completeTail('Intro\n\\', { math: true })).toBe('Intro')
    expect(completeTail('Intro\n$')).toBe('Intro\n$')
  })
})
