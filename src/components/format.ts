/**
 * Turning wire values into text. Everything a server sends is rendered as text,
 * never as markup.
 */
import type { Source } from '../core/model/model'

/**
 * A value as display text: strings as they are, numbers and booleans spelled out,
 * anything else empty.
 *
 * @example
 * asText('Hello') // 'Hello'
 * asText({ a: 1 }) // ''
 */
export function asText(value: unknown): string {
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  return ''
}

/**
 * A value as readable JSON text (a string stays as it is).
 *
 * @example
 * formatJson({ city: 'Paris' }) // '{\n  "city": "Paris"\n}'
 */
export function formatJson(value: unknown): string {
  if (typeof value === 'string') return value
  if (value === undefined) return ''
  try {
    return JSON.stringify(value, null, 2) ?? String(value)
  } catch {
    return String(value)
  }
}

/**
 * What a source is called: its title, else its file name, else its URL.
 *
 * @example
 * sourceTitle({ id: 's1', kind: 'url', url: 'https://example.com' }) // 'https://example.com'
 */
export function sourceTitle(source: Source): string {
  return asText(source.title) || asText(source.filename) || asText(source.url)
}

/**
 * The empty list a selector returns for "none", the same one each time, so a
 * shallow compare sees no change.
 *
 * @example
 * useAgentSelector((s) => own(s.turns, id)?.gateIds ?? NONE)
 */
export const NONE: readonly never[] = Object.freeze([])

export { own, recordOf } from '../core/util/record'
