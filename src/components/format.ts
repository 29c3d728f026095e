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

/**
 * An amount of money with `Intl`: cents (and a tenth of one under a unit),
 * two significant digits below a cent (an answer often costs a fraction of one). A currency
 * `Intl` does not know is written after the number rather than thrown on.
 *
 * @example
 * formatCost(0.0123, 'USD') // '$0.012'
 * formatCost(0.0004, 'USD') // '$0.0004'
 * formatCost(2.5, 'EUR', 'de-DE') // '2,50 €'
 */
export function formatCost(amount: number, currency: string, locale = 'en-US'): string {
  const digits: Intl.NumberFormatOptions = amount > 0 && amount < 0.01
    ? { maximumSignificantDigits: 2 }
    : { minimumFractionDigits: 2, maximumFractionDigits: amount < 1 ? 3 : 2 }
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency, ...digits }).format(amount)
  } catch {
    return `${new Intl.NumberFormat(locale, digits).format(amount)} ${currency}`
  }
}
