/**
 * A tool's JSON input as it streams in pieces. Pieces are only joined as they
 * come; the incremental parser reads them when someone looks at the value so
 * far (once per batch), and an input nobody looked at before it ended is parsed
 * once, natively. What is wrong with an input (not JSON, a key that could reach a
 * prototype, nested too deep) is told when it ends, from its whole text, so how
 * the stream was cut into reads never changes what is reported, or where.
 */
import { IncrementalJsonParser, type JsonParseFailure } from './partial-json'
import { freezeClean } from './frozen-json'
import { seal } from './record'

/**
 * What an input held once it ended.
 *
 * @example
 * const ended: EndedInput = { complete: true, value: { q: 'x' }, depth: 1 }
 */
export interface EndedInput {
  /** A whole JSON value was read (and nothing after it). */
  complete: boolean
  /**
   * The value, sealed: the whole value when `complete`, else as far as it parsed.
   * Keys that could reach a prototype and containers deeper than the limit are left out.
   */
  value: unknown
  /** The first key left out because it could reach a prototype. */
  unsafeKey?: string
  /** How deep the value nests, in containers. */
  depth: number
  /** Why the text is not JSON. */
  error?: JsonParseFailure
}

/**
 * The pieces of one streamed input.
 *
 * @example
 * const input = new StreamedInput(63)
 * input.append('{"q":"we')
 * input.parsed().snapshot() // { q: 'we' }
 * input.append('ather"}')
 * input.end().value         // { q: 'weather' }
 */
export class StreamedInput {
  private joined = ''
  private parser: IncrementalJsonParser | undefined
  /**
   * The pieces since the parser last read, once there is a parser, joined apart from
   * `joined`: a slice of `joined` would flatten the whole text so far on every read.
   */
  private unread = ''

  /** @param maxDepth containers nested deeper than this are left out of every value. */
  constructor(private readonly maxDepth: number, text = '') {
    this.joined = text
  }

  /** The text so far. */
  get text(): string {
    return this.joined
  }

  /** Add a piece. Nothing is parsed yet. */
  append(piece: string): void {
    this.joined += piece
    if (this.parser) this.unread += piece
  }

  /**
   * The parser, caught up with every piece so far: for the value while the input
   * streams (`snapshot`, `snapshotDue`).
   *
   * @example
   * input.parsed().snapshot({ maxDepth: 63 })
   */
  parsed(): IncrementalJsonParser {
    let parser = this.parser
    if (!parser) {
      parser = this.parser = new IncrementalJsonParser()
      parser.push(this.joined)
    } else if (this.unread !== '') {
      parser.push(this.unread)
      this.unread = ''
    }
    return parser
  }

  /**
   * The input ended: its value and what is wrong with it. An input the parser
   * never read is parsed with `JSON.parse`; only one with something to report
   * (or that `JSON.parse` refuses) is read by the incremental parser, whose
   * report is the one given either way.
   *
   * @example
   * new StreamedInput(63, '{"a":1}').end() // { complete: true, value: { a: 1 }, depth: 1 }
   */
  end(): EndedInput {
    if (this.parser === undefined) {
      const whole = nativeValue(this.joined, this.maxDepth)
      if (whole) return whole
    }
    const parser = this.parsed()
    // A number at the very end of the text is whole only once the text ends, which the
    // parser cannot know: the text is then whole JSON, as `JSON.parse` reads it.
    if (!parser.complete && !parser.error) {
      const whole = nativeValue(this.joined, this.maxDepth)
      if (whole) return whole
    }
    return {
      complete: parser.complete,
      value: parser.snapshot({ maxDepth: this.maxDepth }),
      unsafeKey: parser.unsafeKey,
      depth: parser.depth,
      error: parser.error,
    }
  }
}

/** The text as a clean, whole JSON value, sealed; `undefined` when it is not one. */
function nativeValue(text: string, maxDepth: number): EndedInput | undefined {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return undefined
  }
  const depth = freezeClean(value, maxDepth + 1)
  if (depth < 0) return undefined
  if (value !== null && typeof value === 'object') seal(value)
  return { complete: true, value, depth }
}
