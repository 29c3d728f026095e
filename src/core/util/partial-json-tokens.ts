/**
 * Reading the tokens of the incremental JSON parser: strings and keys (with their
 * escapes), numbers (shown digit by digit, taken back when they turn out bad) and
 * `true`/`false`/`null`.
 */
import { isSafeKey } from './record'
import { JsonParseStack, type Token } from './partial-json-stack'

const NUMBER_FINAL = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/
const NUMBER_PREFIX = /^-?(?:0|[1-9]\d*)?(?:\.\d*)?(?:[eE][+-]?\d*)?$/
const LITERAL_VALUES = { true: true, false: false, null: null } as const
const SIMPLE_ESCAPES: Readonly<Record<string, string>> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' }

/**
 * The parse stack with its tokens read: a token may span any number of pieces.
 *
 * @example
 * class Reader extends JsonTokenReader {}
 */
export abstract class JsonTokenReader extends JsonParseStack {
  protected continueToken(text: string, start: number): number {
    const token = this.token as Token
    switch (token.kind) {
      case 'key':
      case 'string':
        return this.continueString(token, text, start)
      case 'number': {
        let i = start
        while (i < text.length && isNumberChar(text.charCodeAt(i))) i++
        token.text += text.slice(start, i)
        if (i < text.length) this.finishNumber(token, i)
        return i
      }
      case 'literal': {
        let i = start
        while (i < text.length && token.text.length < token.target.length) {
          token.text += text[i]
          i++
          if (!token.target.startsWith(token.text)) {
            this.fail(`"${token.text}" is not true, false or null`, i - 1)
            return i
          }
        }
        if (token.text === token.target) {
          this.token = undefined
          const value = LITERAL_VALUES[token.target]
          this.place(value, value)
          this.valueDone()
        }
        return i
      }
    }
  }

  private continueString(token: Extract<Token, { kind: 'key' | 'string' }>, text: string, start: number): number {
    let i = start
    let runStart = i
    while (i < text.length) {
      if (token.escape.at !== 'none') {
        if (runStart < i) take(token, text.slice(runStart, i))
        i = this.continueEscape(token, text, i)
        runStart = i
        if (this.failure) return text.length
        continue
      }
      const code = text.charCodeAt(i)
      if (code === 0x22 /* " */) {
        take(token, text.slice(runStart, i))
        this.token = undefined
        if (token.kind === 'key') {
          const top = this.stack[this.stack.length - 1]
          const safe = isSafeKey(token.text)
          if (top) {
            top.key = token.text
            if (!safe) top.clean = false
          }
          if (this.unsafe === undefined && !safe) this.unsafe = token.text
          this.expect = 'colon'
        } else {
          this.flushString(token)
          this.valueDone()
        }
        return i + 1
      }
      if (code === 0x5c /* \ */) {
        take(token, text.slice(runStart, i))
        token.escape = { at: 'backslash' }
        i++
        runStart = i
        continue
      }
      i++
    }
    if (runStart < i) take(token, text.slice(runStart, i))
    return i
  }

  private continueEscape(
    token: Extract<Token, { kind: 'key' | 'string' }>, text: string, i: number,
  ): number {
    const escape = token.escape
    if (escape.at === 'backslash') {
      const char = text[i] as string
      if (char === 'u') {
        token.escape = { at: 'unicode', hex: '' }
      } else if (Object.prototype.hasOwnProperty.call(SIMPLE_ESCAPES, char)) {
        take(token, SIMPLE_ESCAPES[char] as string)
        token.escape = { at: 'none' }
      } else {
        this.fail(`bad escape "\\${char}"`, i)
      }
      return i + 1
    }
    if (escape.at === 'unicode') {
      while (i < text.length && escape.hex.length < 4) {
        const char = text[i] as string
        if (!/[0-9a-fA-F]/.test(char)) {
          this.fail(`bad unicode escape "\\u${escape.hex}${char}"`, i)
          return i + 1
        }
        escape.hex += char
        i++
      }
      if (escape.hex.length === 4) {
        take(token, String.fromCharCode(parseInt(escape.hex, 16)))
        token.escape = { at: 'none' }
      }
    }
    return i
  }

  /** Called at the end of each push: show what a token in progress has so far. */
  protected flushToken(): void {
    const token = this.token
    if (!token || this.failure) return
    if (token.kind === 'string') this.flushString(token)
    else if (token.kind === 'number') this.showNumber(token, false)
  }

  private finishNumber(token: Extract<Token, { kind: 'number' }>, at: number): void {
    if (!NUMBER_FINAL.test(token.text)) {
      this.badNumber(token, at)
      return
    }
    this.token = undefined
    this.showNumber(token, true)
    this.valueDone()
  }

  private showNumber(token: Extract<Token, { kind: 'number' }>, final: boolean): void {
    if (!final && !NUMBER_PREFIX.test(token.text)) {
      // `consumed` already counts this push: the number's text ends here.
      this.badNumber(token, 0)
      return
    }
    const value = parseFloat(token.text)
    if (!Number.isFinite(value)) {
      // Too large for a double: left out, as the whole text would have it; what showed is taken back.
      this.takeBack(token)
      return
    }
    if (Object.is(value, token.shown)) return
    token.shown = value
    if (!token.holder) token.holder = this.place(value, value)
    else {
      this.write(token.holder, value)
      this.onEdit?.({ kind: 'set', path: token.holder.path, value })
    }
  }

  /**
   * A number that turned out not to be one, and what it showed so far taken back.
   * The failure names the number's text up to its first character that no number
   * could go on with (`"0+"` of `0+e`), placed at that character; a number whose
   * every character could go on (`1.`, `-`) fails where its text ends. Either way the
   * result is the same wherever the pieces were cut: a cut inside the number would
   * otherwise name only the part before the cut.
   */
  private badNumber(token: Extract<Token, { kind: 'number' }>, at: number): void {
    this.takeBack(token)
    let good = 1
    while (good < token.text.length && NUMBER_PREFIX.test(token.text.slice(0, good + 1))) good++
    if (good < token.text.length) {
      this.failure = { message: `"${token.text.slice(0, good + 1)}" is not a number`, offset: token.start + good }
      this.token = undefined
    } else {
      this.fail(`"${token.text}" is not a number`, at)
    }
  }

  /** Take back what a number showed so far. */
  private takeBack(token: Extract<Token, { kind: 'number' }>): void {
    const holder = token.holder
    if (!holder) return
    if (holder.container) {
      this.touch()
      if (Array.isArray(holder.container)) holder.container.pop()
      else delete (holder.container as Record<string, unknown>)[holder.key as string]
    } else {
      this.root = undefined
    }
    this.onEdit?.({ kind: 'delete', path: holder.path })
    token.holder = undefined
    token.shown = undefined
  }
}

/** Add a piece to the string being read (a module function: one closure per piece would be garbage). */
function take(token: Extract<Token, { kind: 'key' | 'string' }>, piece: string): void {
  if (token.kind === 'key') token.text += piece
  else token.pending += piece
}

function isNumberChar(code: number): boolean {
  // 0-9 . + - e E
  return (code >= 0x30 && code <= 0x39) || code === 0x2e || code === 0x2b || code === 0x2d || code === 0x65 || code === 0x45
}
