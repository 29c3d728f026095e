/**
 * An incremental JSON parser for tool input that streams in pieces. It keeps a
 * parse stack and the token in progress between pieces, so each `push` costs
 * the length of the new text only, never the length of what came before.
 */
import { isSafeKey, seal } from './record'
import type { Container } from './partial-json-stack'
import type { IncrementalJsonParserOptions, JsonParseFailure, JsonPathSegment, JsonSnapshotOptions } from './partial-json-types'
import { JsonWholeReader, WHOLE_BELOW_DEPTH } from './partial-json-whole'

export type {
  IncrementalJsonParserOptions, JsonEdit, JsonParseFailure, JsonPathSegment, JsonSnapshotOptions,
} from './partial-json-types'

/** Below this many characters of input every flush takes a snapshot (a copy that small is cheap). */
const SNAPSHOT_ALWAYS_BELOW = 16_384

/** The parser itself: the layers (stack, tokens, whole containers) and what reads them; `IncrementalJsonParser` is its public face. */
class LayeredJsonParser extends JsonWholeReader {
  /** `consumed` when the last snapshot was taken. */
  private snapshotAt = 0
  /** The frozen copy of each container the last snapshot that reached it made. */
  private readonly published = new WeakMap<Container, Container>()

  constructor(options: IncrementalJsonParserOptions = {}) {
    super(options)
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
}

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
  private readonly parser: LayeredJsonParser

  constructor(options: IncrementalJsonParserOptions = {}) {
    this.parser = new LayeredJsonParser(options)
  }

  /** The best value so far (`undefined` before any value began). Live: see the class notes. */
  get value(): unknown {
    return this.parser.value
  }

  /** How deep the value nests, in containers (`{}` is 1, `{"a":[]}` is 2), so far. */
  get depth(): number {
    return this.parser.depth
  }

  /** The first key that could reach a prototype (`__proto__`, `constructor`, `prototype`), which snapshots leave out. */
  get unsafeKey(): string | undefined {
    return this.parser.unsafeKey
  }

  /** True once a whole JSON value has been read. */
  get complete(): boolean {
    return this.parser.complete
  }

  /** Set once the text stopped being JSON; later pushes are ignored. */
  get error(): JsonParseFailure | undefined {
    return this.parser.error
  }

  /**
   * Feed the next piece of text and get the best value so far.
   *
   * @example
   * const p = new IncrementalJsonParser()
   * p.push('[1, 2') // [1, 2]
   */
  push(text: string): unknown {
    return this.parser.push(text)
  }

  /**
   * The value at a path inside the tree (live, like `value`).
   *
   * @example
   * const p = new IncrementalJsonParser(); p.push('{"a":[{"b":1}]}')
   * p.valueAt(['a', 0, 'b']) // 1
   */
  valueAt(path: readonly JsonPathSegment[]): unknown {
    return this.parser.valueAt(path)
  }

  /**
   * A frozen copy of the value so far that shares every container unchanged since the last one.
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
    return this.parser.snapshot(options)
  }

  /** True when a snapshot is worth taking now: snapshots are spaced by the input's growth, so a long input is not copied per read. */
  get snapshotDue(): boolean {
    return this.parser.snapshotDue
  }
}
