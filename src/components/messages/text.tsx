import { Fragment, useMemo, type ReactNode } from 'react'
import type { Source } from '../../core/model'
import { asText } from '../format'
import { useCitations } from '../../react/selectors'
import type { MessageRendererProps } from '../renderers'
import { safeUrl } from '../safe-url'

const MARKER = /\[(\d{1,4})\]/g

/**
 * Plain text (never markup), with `[n]` markers linked to the turn's sources.
 * Paragraphs split on blank lines, lines on newlines. While the text streams it
 * is hidden from assistive technology; the finished text replaces it as a new
 * node, which a live region announces once.
 *
 * @example
 * <RendererProvider renderers={{ text: TextMessage }} />
 */
export function TextMessage({ message }: MessageRendererProps) {
  const content = asText(message.props.content)
  const streaming = message.status === 'streaming'
  const markers = useMemo(() => citationMarkers(content), [content])
  const sources = useCitations(message.turnId, markers)
  const byMarker = new Map<number, Source | undefined>(markers.map((n, i) => [n, sources[i]]))
  return (
    <div data-weft="text" key={streaming ? 'streaming' : 'final'} aria-hidden={streaming || undefined}>
      {content.split(/\n{2,}/).map((paragraph, p) => (
        <p key={p}>
          {paragraph.split('\n').map((line, l) => (
            <Fragment key={l}>
              {l > 0 && <br />}
              {withCitations(line, byMarker)}
            </Fragment>
          ))}
        </p>
      ))}
    </div>
  )
}

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

function withCitations(line: string, sources: ReadonlyMap<number, Source | undefined>): ReactNode[] {
  const out: ReactNode[] = []
  let last = 0
  for (const match of line.matchAll(MARKER)) {
    const at = match.index ?? 0
    const source = sources.get(Number(match[1]))
    if (!source) continue
    if (at > last) out.push(line.slice(last, at))
    out.push(<Citation key={at} marker={match[0]} source={source} />)
    last = at + match[0].length
  }
  if (last < line.length) out.push(line.slice(last))
  return out
}

function Citation({ marker, source }: { marker: string; source: Source }) {
  const href = safeUrl(source.url)
  const title = source.title ?? source.filename ?? source.url
  if (!href) {
    return <span data-weft="citation" data-source-id={source.id} title={title}>{marker}</span>
  }
  return (
    <a data-weft="citation" data-source-id={source.id} href={href} title={title} target="_blank" rel="noopener noreferrer">
      {marker}
    </a>
  )
}
