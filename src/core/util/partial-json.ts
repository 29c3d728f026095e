/**
 * An incremental JSON parser for tool input that streams in pieces. It keeps a
 * parse stack and the token in progress between pieces, so each `push` costs
 * the length of the new text only, never the length of what came before.
 */
import { freezeClean } from './frozen-json'
import { isSafeKey, seal } from './record'

/**
 * One step of a path into a JSON value: an object key or an array index.
 *
 * @example
 * const path: JsonPathSegment[] = ['filters', 'year', 0]
 */

/** Below this many characters of input every flush takes a snapshot (a copy that small is cheap). */
const SNAPSHOT_ALWAYS_BELOW = 16_384

/**
 * Containers that start this close to the root are first tried whole (see `whole`).
 * The bound keeps the cost of tries that fail linear: a failed try reads at most to
 * the end of the piece, and only this many open containers can fail on one character.
 */
const WHOLE_BELOW_DEPTH = 8

/** A container tried whole nests at most this deep, so freezing it never recurses far. */
const WHOLE_MAX_DEPTH = 64

export type JsonPathSegment = string | number

/**
 * One change to the value the parser builds, in the order it happened. Values in
 * edits are fresh (primitives, `''`, `{}` or `[]`), never shared with the parser's
 * own tree, so a consumer may keep or freeze them.
 *
 * @example
 * const edits: JsonEdit[] = []
 * new IncrementalJsonParser({ onEdit: (e) => edits.push(e) }).push('{"q":"ma')
 * // edits: set [] {}, set ['q'] '', append ['q'] 'ma'
 */
export type JsonEdit =
  | { kind: 'set'; path: readonly JsonPathSegment[]; value: unknown }
  | { kind: 'append'; path: readonly JsonPathSegment[]; text: string }
  /** A number shown so far turned out not to be one, or too large for a double: it is taken away. */
  | { kind: 'delete'; path: readonly JsonPathSegment[] }

/**
 * Options for an `IncrementalJsonParser`.
 *
 * @example
 * const options: IncrementalJsonParserOptions = { onEdit: (edit) => console.log(edit.kind, edit.path) }
 */
export interface IncrementalJsonParserOptions {
  /** Receives every change to the value, so a consumer can mirror it without copying the whole value. */
  onEdit?: (edit: JsonEdit) => void
}

/**
 * Why the parser stopped, with the offset (in characters pushed so far) of the offending character.
 *
 * @example
 * const p = new IncrementalJsonParser(); p.push('{"a" 1}')
 * p.error // { message: 'expected ":", got "1"', offset: 5 }
 */
/**
 * What a snapshot leaves out, besides the keys that could reach a prototype
 * (`__proto__`, `constructor`, `prototype`), which it always leaves out.
 *
 * @example
 * parser.snapshot({ maxDepth: 64 })
 */
export interface JsonSnapshotOptions {
  /** Containers nested deeper than this are left out (default: no limit). */
  maxDepth?: number
}

/**
 * Why a text is not JSON: the parser's message and the offset it stopped at.
 *
 * @example
 * const failure: JsonParseFailure = { message: 'unexpected "}"', offset: 7 }
 */
export interface JsonParseFailure {
  message: string
  offset: number
}

type Container = Record<string, unknown> | unknown[]

/** Where paths go when nobody listens for edits: no array per value. */
const NO_PATH: JsonPathSegment[] = []

interface Frame {
  container: Container
  isArray: boolean
  path: JsonPathSegment[]
  /** The key whose value comes next (objects only). */
  key?: string
  /** No key in it or in what it holds could reach a prototype: once closed, it is its own snapshot. */
  clean: boolean
}

type Expect = 'value' | 'value-or-close' | 'key-or-close' | 'key' | 'colon' | 'comma-or-close' | 'end'

type Token =
  | { kind: 'key'; text: string; escape: Escape }
  | { kind: 'string'; holder: Holder; pending: string; escape: Escape }
  | { kind: 'number'; text: string; start: number; holder?: Holder; shown?: number }
  | { kind: 'literal'; text: string; target: 'true' | 'false' | 'null' }

/** Inside a string: no escape, just after a backslash, or inside `\uXXXX` with the hex digits so far. */
type Escape = { at: 'none' } | { at: 'backslash' } | { at: 'unicode'; hex: string }

/** Where a value lives: its container (none for the root) and its key or index. */
interface Holder {
  container?: Container
  key: string | number
  path: JsonPathSegment[]
}

const NUMBER_FINAL = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/
const NUMBER_PREFIX = /^-?(?:0|[1-9]\d*)?(?:\.\d*)?(?:[eE][+-]?\d*)?$/
const LITERALS = { t: 'true', f: 'false', n: 'null' } as const
const LITERAL_VALUES = { true: true, false: false, null: null } as const
const SIMPLE_ESCAPES: Readonly<Record<string, string>> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' }

/**
 * Parses JSON text that arrives in pieces and always knows the best value so far:
 * strings show as far as they came, objects hold the keys whose values have begun,
 * numbers show their digits so far, `true`/`false`/`null` show once complete.
 * Raw control characters inside strings are accepted (stricter than `JSON.parse`,
 * which rejects them) because models emit them and the intent is clear.
 *
 * The value `push` returns is the parser's own, live tree: its open containers
 * change on the next `push` (a container is frozen where it is once it closes).
 * Copy it to keep it, take a `snapshot`, or mirror the changes with `onEdit`.
 *
 * @example
 * const parser = new IncrementalJsonParser()
 * parser.push('{"city":"San Fra') // { city: 'San Fra' }
 * parser.push('ncisco","days":3}') // { city: 'San Francisco', days: 3 }
 * parser.complete // true
 */
export class IncrementalJsonParser {
  private root: unknown = undefined
  private readonly stack: Frame[] = []
  private expect: Expect = 'value'
  private token: Token | undefined
  private consumed = 0
  /** `consumed` when the last snapshot was taken. */
  private snapshotAt = 0
  private failure: JsonParseFailure | undefined
  private readonly onEdit: ((edit: JsonEdit) => void) | undefined
  private deepestSeen = 0
  private unsafe: string | undefined
  /** Containers changed since the last snapshot; an ancestor of a changed one is always here too. */
  private readonly dirty = new Set<Container>()
  /** The frozen copy of each container the last snapshot that reached it made. */
  private readonly published = new WeakMap<Container, Container>()
  /** How deep the brackets of the container `containerEnd` last found nest. */
  private skimmed = 0
  /** In the current piece, containers that start before this index are read whole one at a time (see `singly`). */
  private singlesBefore = 0

  constructor(options: IncrementalJsonParserOptions = {}) {
    this.onEdit = options.onEdit
  }

  /** The best value so far (`undefined` before any value began). Live: see the class notes. */
  get value(): unknown {
    return this.root
  }

  /**
   * How deep the value nests, in containers (`{}` is 1, `{"a":[]}` is 2), so far.
   *
   * @example
   * const p = new IncrementalJsonParser(); p.push('{"a":[[')
   * p.depth // 3
   */
  get depth(): number {
    return this.deepestSeen
  }

  /**
   * The first key that could reach a prototype (`__proto__`, `constructor`,
   * `prototype`), which snapshots leave out; `undefined` while there is none.
   *
   * @example
   * const p = new IncrementalJsonParser(); p.push('{"__proto__":{')
   * p.unsafeKey // '__proto__'
   */
  get unsafeKey(): string | undefined {
    return this.unsafe
  }

  /** True once a whole JSON value has been read. */
  get complete(): boolean {
    return this.expect === 'end' && this.token === undefined
  }

  /** Set once the text stopped being JSON; later pushes are ignored. */
  get error(): JsonParseFailure | undefined {
    return this.failure
  }

  /**
   * Feed the next piece of text and get the best value so far.
   *
   * @example
   * const p = new IncrementalJsonParser()
   * p.push('[1, 2') // [1, 2]
   */
  push(text: string): unknown {
    if (this.failure || text.length === 0) return this.root
    this.singlesBefore = 0
    let i = 0
    while (i < text.length && !this.failure) {
      if (this.token) {
        i = this.continueToken(text, i)
        continue
      }
      const code = text.charCodeAt(i)
      if (code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09) {
        i++
        continue
      }
      if ((code === 0x7b || code === 0x5b) && this.stack.length < WHOLE_BELOW_DEPTH && (this.expect === 'value' || this.expect === 'value-or-close') && !this.onEdit) {
        const end = this.whole(text, i)
        if (end > 0) {
          i = end
          continue
        }
      }
      this.structural(text, i)
      i++
    }
    this.consumed += text.length
    this.flushToken()
    return this.root
  }

  /**
   * The value at a path inside the tree (live, like `value`).
   *
   * @example
   * const p = new IncrementalJsonParser(); p.push('{"a":[{"b":1}]}')
   * p.valueAt(['a', 0, 'b']) // 1
   */
  valueAt(path: readonly JsonPathSegment[]): unknown {
    let node = this.root
    for (const segment of path) {
      if (node === null || typeof node !== 'object') return undefined
      if (!Object.prototype.hasOwnProperty.call(node, segment)) return undefined
      node = (node as Record<string, unknown>)[segment as string]
    }
    return node
  }

  /**
   * A frozen copy of the value so far that shares every container unchanged since
   * the previous snapshot, so taking one costs about the size of what changed, not
   * of the whole value (a changed object is walked key by key; a changed array
   * copies its final elements in one slice; a closed container, frozen when it closed,
   * is shared as it is). Snapshots are frozen all through and their root is sealed (see
   * `seal`): never mutated, by the parser or by anyone, and stored by the fold without a copy.
   *
   * @example
   * const p = new IncrementalJsonParser()
   * p.push('{"a":{"b":1},"c":"x')
   * const first = p.snapshot() as { a: object; c: string }
   * p.push('yz"}')
   * const second = p.snapshot() as { a: object; c: string } // { a: { b: 1 }, c: 'xyz' }
   * second.a === first.a        // true: unchanged, shared
   */
  snapshot(options: JsonSnapshotOptions = {}): unknown {
    const out = this.publish(this.root, options, 0)
    this.dirty.clear()
    this.snapshotAt = this.consumed
    return out
  }

  /**
   * Whether a snapshot is worth taking now: always while the text is short, and
   * past that once the text has grown by an eighth since the last one. A snapshot
   * costs about the size of the value's changed containers (a long array's copy),
   * so taking one per network read made a long input quadratic; spaced by its
   * growth, all of them together cost a few times the input. The last snapshot of
   * an input is taken regardless (its end, or the stream's).
   *
   * @example
   * if (parser.snapshotDue) ops.push(set('input', parser.snapshot()))
   */
  get snapshotDue(): boolean {
    return this.consumed <= SNAPSHOT_ALWAYS_BELOW || (this.consumed - this.snapshotAt) * 8 >= this.consumed
  }

  private publish(value: unknown, options: JsonSnapshotOptions, depth: number): unknown {
    if (value === null || typeof value !== 'object') return value
    const container = value as Container
    // Frozen when it closed, so it is its own copy; unless the limit cuts somewhere (then copies decide).
    if (Object.isFrozen(container) && (options.maxDepth === undefined || this.deepestSeen <= options.maxDepth)) {
      return depth === 0 ? seal(container) : container
    }
    const known = this.published.get(container)
    if (known && !this.dirty.has(container)) return known
    const deeper = options.maxDepth === undefined || depth < options.maxDepth
    let copy: Container
    if (Array.isArray(container)) {
      // An array only grows at its end, and only its last element can still change: of the
      // elements the previous copy holds, all but its last are final and carry over in one
      // native slice. Without this a long array cost its whole length on every snapshot.
      const previous = deeper && Array.isArray(known) && known.length > 0 && known.length <= container.length ? known : undefined
      const from = previous ? previous.length - 1 : 0
      const array: unknown[] = previous ? previous.slice(0, from) : []
      for (let i = from; i < container.length; i++) {
        const item = container[i]
        if (!deeper && item !== null && typeof item === 'object') continue
        array.push(this.publish(item, options, depth + 1))
      }
      copy = array
    } else {
      const record: Record<string, unknown> = {}
      for (const key of Object.keys(container)) {
        const item = container[key]
        if (!isSafeKey(key) || (!deeper && item !== null && typeof item === 'object')) continue
        record[key] = this.publish(item, options, depth + 1)
      }
      copy = record
    }
    // Only the root is marked as the kit's own: what is stored is found from it, and
    // marking each container cost more than freezing it.
    if (depth === 0) seal(copy)
    else Object.freeze(copy)
    this.published.set(container, copy)
    return copy
  }

  /** The containers on the stack change: mark them, stopping at one already marked (its ancestors are). */
  private touch(): void {
    for (let i = this.stack.length - 1; i >= 0; i--) {
      const container = (this.stack[i] as Frame).container
      if (this.dirty.has(container)) return
      this.dirty.add(container)
    }
  }

  private structural(text: string, i: number): void {
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
  private whole(text: string, start: number): number {
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

  private startValue(char: string, i: number): void {
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

  private close(char: string, i: number): void {
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

  private valueDone(): void {
    this.expect = this.stack.length === 0 ? 'end' : 'comma-or-close'
  }

  /** Put a new value where the parse stands and report it; returns where it lives. */
  private place(value: unknown, fresh: unknown): Holder {
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

  private write(holder: Holder, value: unknown): void {
    // A value in progress lives in the container on top of the stack.
    if (holder.container) {
      this.touch()
      ;(holder.container as Record<string, unknown>)[holder.key as string] = value
    } else {
      this.root = value
    }
  }

  private continueToken(text: string, start: number): number {
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
  private flushToken(): void {
    const token = this.token
    if (!token || this.failure) return
    if (token.kind === 'string') this.flushString(token)
    else if (token.kind === 'number') this.showNumber(token, false)
  }

  private flushString(token: Extract<Token, { kind: 'string' }>): void {
    if (token.pending === '') return
    const { holder } = token
    const current = holder.container ? (holder.container as Record<string, unknown>)[holder.key as string] : this.root
    this.write(holder, (current as string) + token.pending)
    this.onEdit?.({ kind: 'append', path: holder.path, text: token.pending })
    token.pending = ''
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

  private fail(message: string, at: number): void {
    // What a string read before its bad character is its text, shown as a cut there
    // would have shown it, so the value after the failure does not depend on the cuts.
    if (this.token?.kind === 'string') this.flushString(this.token)
    this.failure = { message, offset: this.consumed + at }
    this.token = undefined
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

/** Add a piece to the string being read (a module function: one closure per piece would be garbage). */
function take(token: Extract<Token, { kind: 'key' | 'string' }>, piece: string): void {
  if (token.kind === 'key') token.text += piece
  else token.pending += piece
}

function isNumberChar(code: number): boolean {
  // 0-9 . + - e E
  return (code >= 0x30 && code <= 0x39) || code === 0x2e || code === 0x2b || code === 0x2d || code === 0x65 || code === 0x45
}

/** Set an own property, also for `__proto__`, which plain assignment would treat as the prototype. */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true })
  else target[key] = value
}
