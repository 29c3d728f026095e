/**
 * The public types of the incremental JSON parser: paths into the value, the edits
 * it reports, its options and its failures.
 */

/**
 * One step of a path into a JSON value: an object key or an array index.
 *
 * @example
 * const path: JsonPathSegment[] = ['filters', 'year', 0]
 */
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
