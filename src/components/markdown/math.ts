/**
 * TeX math in markdown, as marked tokens: `$…$` and `\(…\)` inline, `$$…$$` and
 * `\[…\]` as blocks (a `$$…$$` inside a paragraph is display math in its line).
 * Used only when a host turns math on; otherwise a `$` is plain text.
 *
 * The dollar rule (pandoc's): an opening `$` has a character that is not a space
 * right after it, a closing `$` has one right before it and no digit right after
 * it, and the math is not empty. So "costs $5 and $10" stays prose, and so does
 * "$5-$10"; `\$` is a literal dollar.
 */
import type { MarkedOptions, Token, TokenizerExtensionFunction, TokenizerStartFunction } from 'marked'

/**
 * A math token: `display` for a block or a `$$…$$` in a line; `open` for a block
 * whose closing delimiter has not arrived (an answer still streaming).
 *
 * @example
 * const token: MathToken = { type: 'math', raw: '$$x$$', text: 'x', display: true, open: false }
 */
export interface MathToken {
  type: 'math' | 'inlineMath'
  raw: string
  /** The TeX source between the delimiters. */
  text: string
  display: boolean
  open: boolean
}

const BLOCK_OPENER = /^ {0,3}(\$\$(?![ \t]*\d)|\\\[)/
const BLOCK = {
  $$: /^ {0,3}\$\$((?:\\[\s\S]|[^\\$]|\$(?!\$))*?)\$\$[ \t]*(?:\n|$)/,
  '\\[': /^ {0,3}\\\[([\s\S]*?)\\\][ \t]*(?:\n|$)/,
} as const
const INLINE_DISPLAY = /^\$\$(?!\$)((?:\\[\s\S]|[^\\$])+?)\$\$/
const INLINE_DOLLAR = /^\$(?![\s$])((?:\\[\s\S]|[^\\$\n])*?[^\s\\])\$(?!\d)/
const INLINE_PAREN = /^\\\(((?:\\(?!\))|[^\\\n])+?)\\\)/

/** A block tokenizer; while `streaming`, a block that has not closed runs to the end of the text, as an open block. */
function blockTokenizer(streaming: boolean): TokenizerExtensionFunction {
  return (src) => {
    const opener = BLOCK_OPENER.exec(src)
    if (!opener) return undefined
    const closed = BLOCK[opener[1]!.slice(0, 2) as keyof typeof BLOCK].exec(src)
    if (closed && closed[1]!.trim() !== '') return mathToken('math', closed[0], closed[1]!, true, false)
    const body = src.slice(opener[0].length)
    // A closer later on (one not ending its line) makes these lines a paragraph with math in it.
    if (!streaming || closed || body.includes(opener[1] === '$$' ? '$$' : '\\]')) return undefined
    return mathToken('math', src, body, true, true)
  }
}

const inline: TokenizerExtensionFunction = (src) => {
  if (src[0] === '$') {
    const display = INLINE_DISPLAY.exec(src)
    if (display) return mathToken('inlineMath', display[0], display[1]!, true, false)
    const math = INLINE_DOLLAR.exec(src)
    return math ? mathToken('inlineMath', math[0], math[1]!, false, false) : undefined
  }
  const paren = src.startsWith('\\(') ? INLINE_PAREN.exec(src) : null
  return paren ? mathToken('inlineMath', paren[0], paren[1]!, false, false) : undefined
}

function mathToken(type: MathToken['type'], raw: string, text: string, display: boolean, open: boolean): Token {
  const token: MathToken = { type, raw, text: text.trim(), display, open }
  return token as unknown as Token
}

// Where a paragraph or a run of text must stop, so the tokenizers above get to try.
const startBlock: TokenizerStartFunction = (src) => {
  const at = /(?:^|\n) {0,3}(?:\$\$(?![ \t]*\d)|\\\[)/.exec(src)
  return at ? at.index + (src[at.index] === '\n' ? 1 : 0) : undefined
}
const startInline: TokenizerStartFunction = (src) => {
  const at = /\$|\\\(/.exec(src)
  return at?.index
}

/**
 * marked's lexer options with the math tokenizers added. While `streaming`, a
 * math block whose closing delimiter has not arrived is an open block to the
 * end of the text; otherwise it is not math (its lines are a paragraph).
 *
 * @example
 * new Lexer(withMath({ gfm: true }, false)).lex('$x^2$')
 */
export function withMath(options: MarkedOptions, streaming: boolean): MarkedOptions {
  return {
    ...options,
    extensions: { block: [blockTokenizer(streaming)], inline: [inline], startBlock: [startBlock], startInline: [startInline], renderers: {}, childTokens: {} },
  } as MarkedOptions
}

/**
 * Whether the last lines of a streaming text are inside a math block that has not
 * closed (so the tail is left as it is, like an open code fence).
 *
 * @example
 * insideMathBlock(['$$', 'x^2']) // true
 */
export function insideMathBlock(lines: readonly string[]): boolean {
  let closer: string | undefined
  for (const line of lines) {
    if (closer === undefined) {
      const opener = BLOCK_OPENER.exec(line)
      if (!opener) continue
      closer = opener[1] === '$$' ? '$$' : '\\]'
      const rest = line.slice(opener[0].length).trimEnd()
      if (rest.length > closer.length && rest.endsWith(closer)) closer = undefined
    } else if (line.trimEnd().endsWith(closer)) {
      closer = undefined
    }
  }
  return closer !== undefined
}

/**
 * The spans of closed inline math in a line, blanked out (same length), so the
 * completion of emphasis does not read a `*` or `_` of TeX as markdown.
 *
 * @example
 * maskInlineMath('$a_1$ and *b') // '      and *b'
 */
export function maskInlineMath(line: string): string {
  let out = ''
  let i = 0
  while (i < line.length) {
    const c = line[i]!
    if (c === '\\' && line[i + 1] !== '(') {
      out += line.slice(i, i + 2)
      i += 2
      continue
    }
    const token = c === '$' || c === '\\' ? (inline.call({ lexer: undefined as never }, line.slice(i), []) as MathToken | undefined) : undefined
    if (token) {
      out += ' '.repeat(token.raw.length)
      i += token.raw.length
    } else {
      out += c
      i += 1
    }
  }
  return out
}
