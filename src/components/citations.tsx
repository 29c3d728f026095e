/**
 * `[n]` citation markers in answer text, linked to the turn's sources.
 */
import type { Source } from '../core/model'
import { asText } from './format'
import { safeUrl } from './safe-url'

const MARKER = /\[(\d{1,4})\]/g

/**
 * The distinct `[n]` markers of a text, in order of appearance.
 *
 * @example
 * citationMarkers('A [1], B [2][1]') // [1, 2]
 */
export function citationMarkers(text: string): number[] {
  const seen: number[] = []
  for (const match of text.matchAll(MARKER)) {
    const n = Number(match[1])
    if (!seen.includes(n)) seen.push(n)
  }
  return seen
}

/**
 * A text cut at its `[n]` markers that have a source: plain strings, and
 * `{ marker, source }` where a citation stands.
 *
 * @example
 * splitCitations('Rain [1].', new Map([[1, source]])) // ['Rain ', { marker: '[1]', source }, '.']
 */
export function splitCitations(text: string, sources: ReadonlyMap<number, Source | undefined>): Array<string | { marker: string; source: Source }> {
  const out: Array<string | { marker: string; source: Source }> = []
  let last = 0
  for (const match of text.matchAll(MARKER)) {
    const at = match.index ?? 0
    const source = sources.get(Number(match[1]))
    if (!source) continue
    if (at > last) out.push(text.slice(last, at))
    out.push({ marker: match[0], source })
    last = at + match[0].length
  }
  if (last < text.length) out.push(text.slice(last))
  return out
}

/**
 * One `[n]` marker: a link to its source when the URL is safe, with the
 * source's title as a tooltip. Not `focusable` inside text hidden from
 * assistive technology (a streaming answer).
 *
 * @example
 * <Citation marker="[1]" source={source} />
 */
export function Citation({ marker, source, focusable = true }: { marker: string; source: Source; focusable?: boolean }) {
  const href = safeUrl(source.url)
  const title = asText(source.title) || asText(source.filename) || asText(source.url)
  if (!href) {
    return <span data-weft="citation" data-source-id={asText(source.id)} title={title}>{marker}</span>
  }
  return (
    <a data-weft="citation" data-source-id={asText(source.id)} href={href} title={title} target="_blank" rel="noopener noreferrer" tabIndex={focusable ? undefined : -1}>
      {marker}
    </a>
  )
}
