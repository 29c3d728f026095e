/**
 * The parse state of the incremental JSON parser and the moves on it: the stack of
 * open containers, what comes next, and where each new value is put. The token
 * readers (`partial-json-tokens`) and the whole-container fast path
 * (`partial-json-whole`) build on it; `IncrementalJsonParser` is the public class.
 */
import type { IncrementalJsonParserOptions, JsonEdit, JsonParseFailure, JsonPathSegment } from './partial-json-types'

export type Container = Record<string, unknown> | unknown[]

/** Where paths go when nobody listens for edits: no array per value. */
const NO_PATH: JsonPathSegment[] = []

export interface Frame {
  container: Container
  isArray: boolean
  path: JsonPathSegment[]
  /** The key whose value comes next (objects only). */
  key?: string
  /** No key in it or in what it holds could reach a prototype: once closed, it is its own snapshot. */
  clean: boolean
}

export type Expect = 'value' | 'value-or-close' | 'key-or-close' | 'key' | 'colon' | 'comma-or-close' | 'end'

export type Token =
  | { kind: 'key'; text: string; escape: Escape }
  | { kind: 'string'; holder: Holder; pending: string; escape: Escape }
  | { kind: 'number'; text: string; start: number; holder?: Holder; shown?: number }
  | { kind: 'literal'; text: string; target: 'true' | 'false' | 'null' }

/** Inside a string: no escape, just after a backslash, or inside `\uXXXX` with the hex digits so far. */
export type Escape = { at: 'none' } | { at: 'backslash' } | { at: 'unicode'; hex: string }

/** Where a value lives: its container (none for the root) and its key or index. */
export interface Holder {
  container?: Container
  key: string | number
  path: JsonPathSegment[]
}

const LITERALS = { t: 'true', f: 'false', n: 'null' } as const

/**
 * The parser's state and the structural moves on it (brackets, keys, commas, where a
 * value goes); reading the tokens themselves is left to the classes built on it.
 *
 * @example
 * class Reader extends JsonParseStack {}
 */
export abstract class JsonParseStack {
  protected root: unknown = undefined
  protected readonly stack: Frame[] = []
  protected expect: Expect = 'value'
  protected token: Token | undefined
  protected consumed = 0
  protected failure: JsonParseFailure | undefined
  protected readonly onEdit: ((edit: JsonEdit) => void) | undefined
  protected deepestSeen = 0
  protected unsafe: string | undefined
  /** Containers changed since the last snapshot; an ancestor of a changed one is always here too. */
  protected readonly dirty = new Set<Container>()

  constructor(options: IncrementalJsonParserOptions = {}) {
    this.onEdit = options.onEdit
  }

  /** The containers on the stack change: mark them, stopping at one already marked (its ancestors are). */
  protected touch(): void {
    for (let i = this.stack.length - 1; i >= 0; i--) {
      const container = (this.stack[i] as Frame).container
      if (this.dirty.has(container)) return
      this.dirty.add(container)
    }
  }

  protected structural(text: string, i: number): void {
    const char = text[i] as string
    switch (this.expect) {
      case 'value':
        this.startValue(char, i)
        return
      case 'value-or-close':
        if (char === ']') this.close(char, i)
        else this.startValue(char, i)
        return
      case 'key-or-close':
        if (char === '}') this.close(char, i)
        else if (char === '"') this.token = { kind: 'key', text: '', escape: { at: 'none' } }
        else this.fail(`expected a key or "}", got "${char}"`, i)
        return
      case 'key':
        if (char === '"') this.token = { kind: 'key', text: '', escape: { at: 'none' } }
        else this.fail(`expected a key, got "${char}"`, i)
        return
      case 'colon':
        if (char === ':') this.expect = 'value'
        else this.fail(`expected ":", got "${char}"`, i)
        return
      case 'comma-or-close': {
        const top = this.stack[this.stack.length - 1]
        if (char === ',') this.expect = top?.isArray ? 'value' : 'key'
        else if (char === ']' || char === '}') this.close(char, i)
        else this.fail(`expected "," or a closing bracket, got "${char}"`, i)
        return
      }
      case 'end':
        this.fail(`unexpected "${char}" after the end of the value`, i)
        return
    }
  }

  protected startValue(char: string, i: number): void {
    if (char === '{' || char === '[') {
      const isArray = char === '['
      const container: Container = isArray ? [] : {}
      const holder = this.place(container, isArray ? [] : {})
      this.stack.push({ container, isArray, path: holder.path, clean: true })
      if (this.stack.length > this.deepestSeen) this.deepestSeen = this.stack.length
      this.expect = isArray ? 'value-or-close' : 'key-or-close'
    } else if (char === '"') {
      this.token = { kind: 'string', holder: this.place('', ''), pending: '', escape: { at: 'none' } }
    } else if (char === '-' || (char >= '0' && char <= '9')) {
      this.token = { kind: 'number', text: char, start: this.consumed + i }
    } else if (char === 't' || char === 'f' || char === 'n') {
      this.token = { kind: 'literal', text: char, target: LITERALS[char] }
    } else {
      this.fail(`unexpected "${char}" where a value should start`, i)
    }
  }

  protected close(char: string, i: number): void {
    const top = this.stack[this.stack.length - 1]
    if (!top || (char === ']') !== top.isArray) {
      this.fail(`unexpected "${char}"`, i)
      return
    }
    this.stack.pop()
    // A closed container never changes again: frozen where it is, it is shared by every
    // snapshot from now on instead of copied, and one holding an unsafe key taints its parents.
    if (top.clean) Object.freeze(top.container)
    else {
      const parent = this.stack[this.stack.length - 1]
      if (parent) parent.clean = false
    }
    this.valueDone()
  }

  protected valueDone(): void {
    this.expect = this.stack.length === 0 ? 'end' : 'comma-or-close'
  }

  /** Put a new value where the parse stands and report it; returns where it lives. */
  protected place(value: unknown, fresh: unknown): Holder {
    const top = this.stack[this.stack.length - 1]
    let holder: Holder
    if (!top) {
      this.root = value
      holder = { key: '', path: this.onEdit ? [] : NO_PATH }
    } else if (top.isArray) {
      this.touch()
      const array = top.container as unknown[]
      const index = array.length
      array.push(value)
      holder = { container: array, key: index, path: this.onEdit ? [...top.path, index] : NO_PATH }
    } else {
      this.touch()
      const key = top.key ?? ''
      setOwn(top.container as Record<string, unknown>, key, value)
      holder = { container: top.container, key, path: this.onEdit ? [...top.path, key] : NO_PATH }
    }
    this.onEdit?.({ kind: 'set', path: holder.path, value: fresh })
    return holder
  }

  protected write(holder: Holder, value: unknown): void {
    // A value in progress lives in the container on top of the stack.
    if (holder.container) {
      this.touch()
      ;(holder.container as Record<string, unknown>)[holder.key as string] = value
    } else {
      this.root = value
    }
  }

  protected flushString(token: Extract<Token, { kind: 'string' }>): void {
    if (token.pending === '') return
    const { holder } = token
    const current = holder.container ? (holder.container as Record<string, unknown>)[holder.key as string] : this.root
    this.write(holder, (current as string) + token.pending)
    this.onEdit?.({ kind: 'append', path: holder.path, text: token.pending })
    token.pending = ''
  }

  protected fail(message: string, at: number): void {
    // What a string read before its bad character is its text, shown as a cut there
    // would have shown it, so the value after the failure does not depend on the cuts.
    if (this.token?.kind === 'string') this.flushString(this.token)
    this.failure = { message, offset: this.consumed + at }
    this.token = undefined
  }
}

/** Set an own property, also for `__proto__`, which plain assignment would treat as the prototype. */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true })
  else target[key] = value
}
