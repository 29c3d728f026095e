/**
 * Reading single wire values: text, ids, numbers, JSON for display. Every
 * decoder and the transport read server data through these, so a value means
 * the same thing wherever it arrives.
 */

/**
 * A string field, or `undefined` for anything else (the empty string counts).
 *
 * @example
 * stringOf('hi') // 'hi'
 * stringOf(3)    // undefined
 */
export function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined
}

/**
 * A non-empty string, or `undefined`.
 *
 * @example
 * nonEmpty('m1') // 'm1'
 * nonEmpty('')   // undefined
 */
export function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined
}

/**
 * An id from the wire: a non-empty string, or a finite number as text.
 *
 * @example
 * idOf('a') // 'a'
 * idOf(3)   // '3'
 * idOf('')  // undefined
 */
export function idOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value === '' ? undefined : value
  if (typeof value === 'number' && Number.isFinite(value)) return String(value)
  return undefined
}

/**
 * A finite number, or `undefined`.
 *
 * @example
 * finiteNumber(2)   // 2
 * finiteNumber('2') // undefined
 */
export function finiteNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined
}

/**
 * A boolean, or `undefined`.
 *
 * @example
 * booleanOf(false)   // false
 * booleanOf('false') // undefined
 */
export function booleanOf(value: unknown): boolean | undefined {
  return typeof value === 'boolean' ? value : undefined
}

/**
 * Any value as one line of JSON for a message or a problem's detail; what JSON
 * cannot spell (a cycle, a BigInt) falls back to `String`.
 *
 * @example
 * safeJson({ a: 1 }) // '{"a":1}'
 * safeJson(10n)      // '10'
 */
export function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value)
  } catch {
    return String(value)
  }
}

/**
 * `T` with every field that may be `undefined` made optional instead.
 *
 * @example
 * type D = Defined<{ a: number; b: string | undefined }> // { a: number; b?: string }
 */
export type Defined<T> = { [K in keyof T as undefined extends T[K] ? never : K]: T[K] } & {
  [K in keyof T as undefined extends T[K] ? K : never]?: Exclude<T[K], undefined>
}

/**
 * A copy without the `undefined` fields, so a shallow merge never blanks a field.
 *
 * @example
 * defined({ a: 1, b: undefined }) // { a: 1 }
 */
export function defined<T extends Record<string, unknown>>(fields: T): Defined<T> {
  const out: Record<string, unknown> = {}
  // `for…in` allocates no key list; the fields are an object literal's, so all of them are own.
  for (const key in fields) if (fields[key] !== undefined) out[key] = fields[key]
  return out as Defined<T>
}
