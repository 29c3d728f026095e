/**
 * Splits streamed text into answer and reasoning at `<think>` / `</think>` tags,
 * also when a tag is cut across deltas (`<thi` + `nk>`). A possible tag start at
 * the end of a delta is held back until the next delta tells, so tag text never
 * reaches the answer.
 */

/**
 * A piece of text with the side it belongs to, or a `</think>` that had no opening tag.
 *
 * @example
 * const piece: ThinkPiece = { kind: 'reasoning', text: 'plan' }
 */
export type ThinkPiece =
  | { kind: 'text' | 'reasoning'; text: string }
  | { kind: 'orphan-close' }

const OPEN = '<think>'
const CLOSE = '</think>'

/**
 * One text part's tag state. Whitespace right around a tag is dropped (models put
 * newlines there); all other text comes out exactly as it went in.
 *
 * @example
 * const s = new ThinkTagSplitter()
 * s.push('<thi')           // []
 * s.push('nk>plan</think>Hi') // [{ kind: 'reasoning', text: 'plan' }, { kind: 'text', text: 'Hi' }]
 */
export class ThinkTagSplitter {
  private inThink = false
  /** The end of the last delta, when it may be the start of a tag. */
  private partial = ''
  /** Trailing whitespace, held until we know whether a tag follows it. */
  private heldSpace = ''
  /** Just after a tag: leading whitespace is dropped. */
  private trimStart = false

  /** True while inside `<think>`. */
  get thinking(): boolean {
    return this.inThink
  }

  /**
   * The pieces one delta yields.
   *
   * @example
   * new ThinkTagSplitter().push('a<think>b') // [{ kind: 'text', text: 'a' }, { kind: 'reasoning', text: 'b' }]
   */
  push(delta: string): ThinkPiece[] {
    const plain = this.plain(delta)
    if (plain !== undefined) return plain === '' ? [] : [{ kind: this.side(), text: plain }]
    // `partial` is at most a tag's length, so the work stays proportional to the delta.
    const text = this.partial + delta
    this.partial = ''
    const out: ThinkPiece[] = []
    let from = 0
    for (;;) {
      const close = text.indexOf(CLOSE, from)
      const open = this.inThink ? -1 : text.indexOf(OPEN, from)
      const at = open >= 0 && (close < 0 || open < close) ? open : close
      if (at < 0) {
        const keep = heldTagStart(text, from, this.inThink)
        this.emit(out, text.slice(from, text.length - keep))
        this.partial = text.slice(text.length - keep)
        return out
      }
      this.emit(out, text.slice(from, at))
      this.heldSpace = ''
      if (at === open) {
        this.inThink = true
        from = at + OPEN.length
      } else {
        if (this.inThink) this.inThink = false
        else out.push({ kind: 'orphan-close' })
        from = at + CLOSE.length
      }
      this.trimStart = true
    }
  }

  /**
   * The text a delta adds to the current side when it cannot touch a tag (no `<`
   * in it, nothing held back from a cut tag, no tag just before it), with the
   * whitespace held back as `push` holds it; `undefined` when it may touch a tag.
   * Every token of a plain answer takes this path, with no pieces built.
   *
   * @example
   * new ThinkTagSplitter().plain('Hi ') // 'Hi' (the space waits for what follows)
   */
  plain(delta: string): string | undefined {
    if (this.partial !== '' || this.trimStart || delta.indexOf('<') >= 0) return undefined
    let end = delta.length
    while (end > 0 && isSpace(delta.charCodeAt(end - 1))) end--
    if (end === 0) {
      this.heldSpace += delta
      return ''
    }
    const text = this.heldSpace === '' ? delta.slice(0, end) : this.heldSpace + delta.slice(0, end)
    this.heldSpace = end === delta.length ? '' : delta.slice(end)
    return text
  }

  /**
   * What is still held back, at the end of the part: a cut tag that never finished is plain text.
   *
   * @example
   * const s = new ThinkTagSplitter(); s.push('x <thi'); s.flush() // [{ kind: 'text', text: ' <thi' }]
   */
  flush(): ThinkPiece[] {
    const out: ThinkPiece[] = []
    const partial = this.partial
    this.partial = ''
    this.emit(out, partial)
    if (this.heldSpace) {
      out.push({ kind: this.side(), text: this.heldSpace })
      this.heldSpace = ''
    }
    return out
  }

  private side(): 'text' | 'reasoning' {
    return this.inThink ? 'reasoning' : 'text'
  }

  private emit(out: ThinkPiece[], raw: string): void {
    let text = raw
    if (text === '') return
    if (this.trimStart) {
      let start = 0
      while (start < text.length && isSpace(text.charCodeAt(start))) start++
      text = text.slice(start)
      if (text === '') return
      this.trimStart = false
    }
    let end = text.length
    while (end > 0 && isSpace(text.charCodeAt(end - 1))) end--
    if (end === 0) {
      this.heldSpace += text
      return
    }
    out.push({ kind: this.side(), text: this.heldSpace + text.slice(0, end) })
    this.heldSpace = text.slice(end)
  }
}

/** How many characters at the end of `text` (after `from`) could begin a tag. */
function heldTagStart(text: string, from: number, inThink: boolean): number {
  const max = Math.min(CLOSE.length - 1, text.length - from)
  // A tag starts at a `<`: only those positions of the last few characters are tried, longest tail first.
  for (let at = text.indexOf('<', text.length - max); at >= 0; at = text.indexOf('<', at + 1)) {
    if (tailStarts(CLOSE, text, at) || (!inThink && tailStarts(OPEN, text, at))) return text.length - at
  }
  return 0
}

/** Whether `text` from `at` to its end is the start of `tag`, compared in place. */
function tailStarts(tag: string, text: string, at: number): boolean {
  if (text.length - at > tag.length) return false
  for (let i = at; i < text.length; i++) if (text.charCodeAt(i) !== tag.charCodeAt(i - at)) return false
  return true
}

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09
}
