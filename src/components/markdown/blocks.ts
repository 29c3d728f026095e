/**
 * Markdown split into top-level blocks, incrementally: blocks that a later
 * block has closed are kept (same objects, so their views stay memoised), and
 * only the text from the last open block on is lexed again when more arrives.
 */
import { Lexer, type MarkedOptions, type Token } from 'marked'
import { withMath } from './math'
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
const MATH: MarkedOptions = withMath(OPTIONS, false)
const MATH_STREAMING: MarkedOptions = withMath(OPTIONS, true)

function lex(text: string, options: MarkedOptions): Token[] {
  return new Lexer(options).lex(text)
}

/**
 * How a `MarkdownBlocks` reads its text.
 *
 * @example
 * const options: MarkdownBlocksOptions = { math: true }
 */
export interface MarkdownBlocksOptions {
  /** Read `$…$`, `$$…$$`, `\\(…\\)` and `\\[…\\]` as math tokens (default false: a `$` is text). */
  math?: boolean
}

/**
 * The blocks of a text: `done` (closed; the same array while none closes, so a
 * view of them can be memoised as a whole) and `live` (the open block, completed
 * as its finished form while streaming).
 *
 * @example
 * const { done, live } = new MarkdownBlocks().update('# Hi\n\nText', true)
 */
export interface MarkdownBlockList {
  done: readonly MarkdownBlock[]
  live: readonly MarkdownBlock[]
}

/**
 * Lexes a growing markdown text into blocks, re-lexing only the tail. Give it
 * each new version of the text; a text that does not extend the previous one
 * starts over.
 *
 * @example
 * const blocks = new MarkdownBlocks()
 * blocks.update('# Title\n\nSome **bo', true) // done: heading; live: paragraph "Some **bo**"
 * blocks.update('# Title\n\nSome **bold**\n\nNext', true) // the same heading; the paragraph closes; "Next" is live
 */
export class MarkdownBlocks {
  /**
   * A parser for a view that mounts with `text`, starting from the closed blocks
   * of a parser still alive whose text this one goes on from. The finished answer
   * is drawn as a new node (so it is announced once) and the virtual list takes a
   * finished turn in as a new row: without this, both remounts lex the whole answer
   * again, the longest frames of a long answer's end.
   *
   * @example
   * const parser = MarkdownBlocks.forText(message.props.content)
   */
  static forText(text: string, options: MarkdownBlocksOptions = {}): MarkdownBlocks {
    const parser = new MarkdownBlocks(options)
    const donor = lastLong?.deref()
    if (donor?.extends(text) && donor.math === parser.math) {
      parser.done = donor.done
      parser.doneLength = donor.doneLength
      parser.doneEdges = donor.doneEdges
    }
    return parser
  }

  /** Whether math is read (a parser's tokens never mix the two readings). */
  readonly math: boolean

  constructor(options: MarkdownBlocksOptions = {}) {
    this.math = options.math === true
  }

  private done: readonly MarkdownBlock[] = []
  /** How much of the text is closed, and its first and last characters (to see that a new text extends it). */
  private doneLength = 0
  private doneEdges = ''
  /** Characters lexed so far, for the bench. */
  lexedChars = 0

  /** The blocks of `text`; while `streaming`, the last one is completed as its finished form. */
  update(text: string, streaming: boolean): MarkdownBlockList {
    if (!this.extends(text)) {
      this.done = []
      this.doneLength = 0
      this.doneEdges = ''
    }
    if (text.length >= REUSE_FROM && lastLong?.deref() !== this) lastLong = new WeakRef(this)
    const start = this.doneLength
    const tail = text.slice(start).replace(/\r\n?/g, '\n')
    this.lexedChars += tail.length
    if (!streaming) return { done: this.done, live: place(lex(tail, this.math ? MATH : OPTIONS), start) }
    // The completion touches only the end of the text, so blocks before the last keep their raw text.
    const tokens = lex(completeTail(tail, { math: this.math }), this.math ? MATH_STREAMING : OPTIONS)
    // A carriage return would put the raws out of step with the text: nothing closes then.
    const closed = tail.length === text.length - start ? this.keepClosed(tokens, tail, text) : 0
    return { done: this.done, live: place(tokens.slice(closed), this.doneLength) }
  }

  /**
   * Whether `text` goes on from the closed text. Streamed text only grows at its
   * end, so the edges of the closed part are compared rather than all of it,
   * which would cost a pass over the whole answer per token.
   */
  private extends(text: string): boolean {
    return text.length >= this.doneLength && edges(text, this.doneLength) === this.doneEdges
  }

  /**
   * Blocks before the last one that is not blank space are closed: a later
   * block has started. A table closes nothing until its header and delimiter
   * rows are whole lines: a header row alone or a delimiter row still arriving
   * (a table by the completion, or by a delimiter cut short) may yet turn out to
   * be lines of the paragraph before it. Returns how many tokens were kept.
   */
  private keepClosed(tokens: readonly Token[], tail: string, text: string): number {
    const lastBefore = (at: number) => {
      let i = at
      while (i >= 0 && tokens[i]!.type === 'space') i--
      return i
    }
    let lastContent = lastBefore(tokens.length - 1)
    if (lastContent > 0 && tokens[lastContent]!.type === 'table') {
      // The completion changes only the last line, so the table starts at the same place in the tail.
      let start = 0
      for (let i = 0; i < lastContent; i++) start += tokens[i]!.raw.length
      const headerEnd = tail.indexOf('\n', start)
      if (headerEnd < 0 || tail.indexOf('\n', headerEnd + 1) < 0) lastContent = lastBefore(lastContent - 1)
    }
    const closed = tokens.slice(0, Math.max(lastContent, 0))
    const consumed = closed.map((token) => token.raw).join('')
    // Only when the raws are the text itself is it safe to cut there.
    if (lastContent <= 0 || !tail.startsWith(consumed)) return 0
    const kept = place(closed, this.doneLength)
    if (kept.length > 0) this.done = this.done.concat(kept)
    this.doneLength += consumed.length
    this.doneEdges = edges(text, this.doneLength)
    return lastContent
  }
}

const EDGE = 48

/** Texts shorter than this lex again in well under a millisecond: their parsers are not offered to new views. */
const REUSE_FROM = 2_000
/**
 * The parser of the long text updated last, weakly held: a view that mounts again
 * finds its closed blocks while the old view still holds them, and this never
 * keeps a parser alive.
 */
let lastLong: WeakRef<MarkdownBlocks> | undefined

function edges(text: string, length: number): string {
  return length <= 2 * EDGE ? text.slice(0, length) : text.slice(0, EDGE) + text.slice(length - EDGE, length)
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

/** Blocks per group: per update, only the group holding the open block is drawn again. */
const GROUP = 32

/**
 * `blocks` cut into groups of 32, keeping each group of `previous` that holds the
 * same blocks (the same array, so its memoised view is not drawn again). Blocks
 * only ever change at the end (closed ones are kept, open ones are new objects on
 * each update), so comparing a group's first and last block is enough; a list
 * that started over gets new groups.
 *
 * @example
 * const first = groupsOf(blocks, [])
 * groupsOf([...blocks, next], first)[0] === first[0] // true once the first group is full
 */
export function groupsOf(blocks: readonly MarkdownBlock[], previous: ReadonlyArray<readonly MarkdownBlock[]>): ReadonlyArray<readonly MarkdownBlock[]> {
  const out: Array<readonly MarkdownBlock[]> = []
  for (let start = 0; start < blocks.length; start += GROUP) {
    const end = Math.min(blocks.length, start + GROUP)
    const old = previous[out.length]
    out.push(old && old.length === end - start && old[0] === blocks[start] && old[old.length - 1] === blocks[end - 1] ? old : blocks.slice(start, end))
  }
  return out
}
