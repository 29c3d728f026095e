/**
 * The incremental JSON parser's fast path: a container whose closing bracket is in
 * the piece at hand is read by `JSON.parse` in one native call instead of character
 * by character.
 */
import { freezeClean } from './frozen-json'
import { isSafeKey } from './record'
import { JsonTokenReader } from './partial-json-tokens'

/**
 * Containers that start this close to the root are first tried whole (see `whole`).
 * The bound keeps the cost of tries that fail linear: a failed try reads at most to
 * the end of the piece, and only this many open containers can fail on one character.
 */
export const WHOLE_BELOW_DEPTH = 8

/** A container tried whole nests at most this deep, so freezing it never recurses far. */
const WHOLE_MAX_DEPTH = 64

/**
 * The token reader with whole containers read in one call where they can be.
 *
 * @example
 * class Reader extends JsonWholeReader {}
 */
export abstract class JsonWholeReader extends JsonTokenReader {
  /** How deep the brackets of the container `containerEnd` last found nest. */
  private skimmed = 0
  /** In the current piece, containers that start before this index are read whole one at a time (see `singly`). */
  protected singlesBefore = 0

  /**
   * A container whose closing bracket is in this piece is read by `JSON.parse` in one
   * native call, frozen and placed as a closed container: character by character it
   * cost several times as much. In an array, the whole containers that follow it are
   * read in the same call, since a call's own cost was most of a small item's. Returns
   * where the read ends, or `-1` when the container is not whole here, is not JSON (raw
   * control characters in its strings, which this parser accepts, included), holds an
   * unsafe key or nests too deep: the character-by-character read then takes it, and
   * tells what is wrong exactly where it is.
   */
  protected whole(text: string, start: number): number {
    let end = this.containerEnd(text, start)
    if (end < 0) return -1
    let deepest = this.skimmed
    let count = 1
    if (this.stack[this.stack.length - 1]?.isArray && start >= this.singlesBefore) {
      for (;;) {
        let i = skipSpace(text, end)
        if (text.charCodeAt(i) !== 0x2c /* , */) break
        i = skipSpace(text, i + 1)
        const code = text.charCodeAt(i)
        if (code !== 0x7b && code !== 0x5b) break
        const next = this.containerEnd(text, i)
        if (next < 0) break
        end = next
        count++
        if (this.skimmed > deepest) deepest = this.skimmed
      }
    }
    let values: unknown[]
    try {
      values = count === 1 ? [JSON.parse(text.slice(start, end))] : (JSON.parse(`[${text.slice(start, end)}]`) as unknown[])
    } catch {
      return this.singly(text, start, end, count)
    }
    for (const value of values) if (freezeClean(value, WHOLE_MAX_DEPTH) < 0) return this.singly(text, start, end, count)
    const top = this.stack[this.stack.length - 1]
    if (top?.isArray) {
      // Many at once into an open array: what `place` does for each, without a holder per value.
      this.touch()
      const array = top.container as unknown[]
      for (const value of values) array.push(value)
    } else {
      this.place(values[0], values[0])
    }
    if (this.stack.length + deepest > this.deepestSeen) this.deepestSeen = this.stack.length + deepest
    this.valueDone()
    return end
  }

  /**
   * A run of containers that failed as one is tried again one by one up to where it
   * ended, so a bad item late in a long run costs the run once, not once per item
   * before it. A single container that failed is left to the character-by-character read.
   */
  private singly(text: string, start: number, end: number, count: number): number {
    if (count === 1) return -1
    this.singlesBefore = end
    return this.whole(text, start)
  }

  /**
   * Where the container opening at `start` ends (just past its closing bracket),
   * skipping strings, with how deep its brackets nest in `skimmed`; `-1` when it does
   * not end in `text`, nests too deep or has a string that may be an unsafe key. Depth
   * and unsafe keys are the text's, as the character-by-character read finds them: a
   * key given twice may replace a deeper value, or one holding `__proto__`, and both
   * are still told. Whether the brackets pair up is left to `JSON.parse`.
   */
  private containerEnd(text: string, start: number): number {
    let nesting = 0
    let deepest = 0
    for (let i = start; i < text.length; i++) {
      const code = text.charCodeAt(i)
      if (code === 0x22 /* " */) {
        const close = stringEnd(text, i)
        if (close < 0 || mayBeUnsafeKey(text, i, close)) return -1
        i = close
      } else if (code === 0x7b || code === 0x5b) {
        if (++nesting > deepest && (deepest = nesting) > WHOLE_MAX_DEPTH) return -1
      } else if ((code === 0x7d || code === 0x5d) && --nesting === 0) {
        this.skimmed = deepest
        return i + 1
      }
    }
    return -1
  }
}

/** The first index at or after `i` that is not JSON whitespace. */
function skipSpace(text: string, i: number): number {
  for (;;) {
    const code = text.charCodeAt(i)
    if (code !== 0x20 && code !== 0x0a && code !== 0x0d && code !== 0x09) return i
    i++
  }
}

/** The index of the quote that ends the string opening at `start`: one not after an odd run of backslashes; `-1` if none. */
function stringEnd(text: string, start: number): number {
  let quote = start
  for (;;) {
    quote = text.indexOf('"', quote + 1)
    if (quote < 0) return -1
    let slashes = 0
    while (text.charCodeAt(quote - 1 - slashes) === 0x5c) slashes++
    if (slashes % 2 === 0) return quote
  }
}

/**
 * Whether the string between the quotes at `open` and `close` is, or may be once its
 * escapes are read, a key that could reach a prototype. Only strings of a length that
 * could spell one are looked at: a key's own characters, or up to six per character
 * when escaped.
 */
function mayBeUnsafeKey(text: string, open: number, close: number): boolean {
  const length = close - open - 1
  if (length < 9 || length > 66) return false
  if (length === 9 || length === 11) {
    const raw = text.slice(open + 1, close)
    if (!isSafeKey(raw)) return true
  }
  for (let i = open + 1; i < close; i++) {
    if (text.charCodeAt(i) === 0x5c) {
      try {
        return !isSafeKey(JSON.parse(text.slice(open, close + 1)) as string)
      } catch {
        return true
      }
    }
  }
  return false
}
