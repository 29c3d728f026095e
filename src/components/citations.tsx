/**
 * `[n]` citation markers in answer text, linked to the turn's sources.
 */
import { forwardRef, useMemo, type AnchorHTMLAttributes, type ReactNode } from 'react'
import type { Source } from '../core/model/model'
import { selectCitation } from '../core/store/selectors'
import { asText, sourceTitle } from './format'
import { useAgentList } from './hooks'
import { safeUrl } from './safe-url'
import { drawPart } from './slot'

const MARKER = /\[(\d{1,4})\]/g

/**
 * The distinct `[n]` markers of a text, in order of appearance.
 *
 * @example
 * citationMarkers('A [1], B [2][1]') // [1, 2]
 */
export function citationMarkers(text: string): number[] {
  return [...new Set(Array.from(text.matchAll(MARKER), (match) => Number(match[1])))]
}

/**
 * The sources a text's `[n]` markers point at, by marker.
 *
 * @example
 * const byMarker = useCitationMap(turnId, [1, 2]) // Map { 1 => source, 2 => undefined }
 */
export function useCitationMap(turnId: string, markers: readonly number[]): ReadonlyMap<number, Source | undefined> {
  const sources = useAgentList((s) => markers.map((n) => selectCitation(s, turnId, n)))
  return useMemo(() => new Map(markers.map((n, i) => [n, sources[i]])), [markers, sources])
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
 * Props of `Citation`.
 *
 * @example
 * const props: CitationProps = { marker: '[1]', source, className: 'cite' }
 */
export interface CitationProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href' | 'children'> {
  marker: string
  source: Source
  /** False inside text hidden from assistive technology (a streaming answer): the link takes no focus. */
  focusable?: boolean
  /** Render the host's own element (its only child, e.g. a hover-card trigger) with the link's props; the marker goes inside it unless it has children. */
  asChild?: boolean
  children?: ReactNode
}

/**
 * One `[n]` marker: a link to its source when the URL is safe (a `<span>`
 * otherwise), with the source's title as a tooltip. Not `focusable` inside
 * text hidden from assistive technology (a streaming answer). `className`,
 * `style`, the other DOM props and the ref go to its element; `data-weft`,
 * `href`, `target` and `rel` stay the kit's.
 *
 * @example
 * <Citation marker="[1]" source={source} className="cite" />
 * <Citation marker="[1]" source={source} asChild><HoverCardTrigger /></Citation>
 */
export const Citation = forwardRef<HTMLElement, CitationProps>(function Citation({ marker, source, focusable = true, asChild, children, ...rest }, ref) {
  const href = safeUrl(source.url)
  const own = { title: sourceTitle(source), ...rest, 'data-weft': 'citation', 'data-source-id': asText(source.id) }
  const props = href
    ? { ...own, href, target: '_blank', rel: 'noopener noreferrer', tabIndex: focusable ? rest.tabIndex : -1 }
    : own
  return drawPart(href ? 'a' : 'span', asChild, children, props, ref, marker)
})
