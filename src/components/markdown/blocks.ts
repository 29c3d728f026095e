/**
 * Markdown split into top-level blocks, incrementally: blocks that a later
 * block has closed are kept (same objects, so their views stay memoised), and
 * only the text from the last open block on is lexed again when more arrives.
 */
import { Lexer, type MarkedOptions, type Token } from 'marked'
import { completeTail } from './tail'

/**
 * One top-level block: its marked token and where it starts in the text (its key).
 *
 * @example
 * const block: MarkdownBlock = { key: 0, token: { type: 'hr', raw: '---\n' } }
 */
export interface MarkdownBlock {
  key: number
  token: Token
}

const OPTIONS: MarkedOptions = { gfm: true, breaks: false }

function lex(text: string): Token[] {
  return new Lexer(OPTIONS).lex(text)
}

/**
 * Lexes a growing markdown text into blocks, re-lexing only the tail. Give it
 * each new version of the text; a text that does not extend the previous one
 * starts over.
 *
 * @example
 * const blocks = new MarkdownBlocks()
 * blocks.update('# Title\n\nSome **bo', true) // heading (kept), paragraph "Some **bo**" (live)
 * blocks.update('# Title\n\nSome **bold**\n\nNext', true) // heading reused, paragraph kept, "Next" live
 */
export class MarkdownBlocks {
  private done: MarkdownBlock[] = []
  private doneText = ''
  /** Characters lexed so far, for the bench. */
  lexedChars = 0

  /** The blocks of `text`; while `streaming`, the last one is completed as its finished form. */
  update(text: string, streaming: boolean): MarkdownBlock[] {
    const source = text.replace(/\r\n?/g, '\n')
    if (!source.startsWith(this.doneText)) {
      this.done = []
      this.doneText = ''
    }
    const start = this.doneText.length
    const tail = source.slice(start)
    this.lexedChars += tail.length
    if (!streaming) return [...this.done, ...place(lex(tail), start)]
    // The completion touches only the end of the text, so blocks before the last keep their raw text.
    const tokens = lex(completeTail(tail))
    const closed = this.keepClosed(tokens, tail)
    return [...this.done, ...place(tokens.slice(closed), this.doneText.length)]
  }

  /**
   * Blocks before the last one that is not blank space are closed: a later
   * block has started. Returns how many tokens were kept.
   */
  private keepClosed(tokens: readonly Token[], tail: string): number {
    let lastContent = tokens.length - 1
    while (lastContent >= 0 && tokens[lastContent]!.type === 'space') lastContent--
    let offset = this.doneText.length
    const kept: MarkdownBlock[] = []
    let consumed = ''
    for (let i = 0; i < lastContent; i++) {
      const token = tokens[i]!
      consumed += token.raw
      if (token.type !== 'space' && token.type !== 'def') kept.push({ key: offset, token })
      offset += token.raw.length
    }
    // Only when the raws are the text itself is it safe to cut there.
    if (lastContent <= 0 || !tail.startsWith(consumed)) return 0
    this.done = this.done.concat(kept)
    this.doneText += consumed
    return lastContent
  }
}

function place(tokens: readonly Token[], start: number): MarkdownBlock[] {
  const out: MarkdownBlock[] = []
  let offset = start
  for (const token of tokens) {
    if (token.type !== 'space' && token.type !== 'def') out.push({ key: offset, token })
    offset += token.raw.length
  }
  return out
}
