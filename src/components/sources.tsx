import { useSources } from '../react/selectors'
import { safeUrl } from './safe-url'
import { useTurnIdFrom } from './turn-context'

/**
 * Props of `Sources`.
 *
 * @example
 * <Sources turnId={turnId} aria-label="References" />
 */
export interface SourcesProps {
  /** Default: the enclosing turn. */
  turnId?: string
  /** Names the list for assistive technology (default "Sources"). */
  'aria-label'?: string
}

/**
 * The sources a turn's answer rests on: a link when the URL is safe
 * (http, https, mailto or relative), else the title alone; its `[n]` marker and
 * snippet when known. Renders nothing when there are none.
 *
 * @example
 * <Sources turnId={turnId} />
 */
export function Sources({ turnId: explicit, 'aria-label': label = 'Sources' }: SourcesProps) {
  const turnId = useTurnIdFrom(explicit)
  const sources = useSources(turnId)
  if (sources.length === 0) return null
  return (
    <ol data-weft="sources" aria-label={label}>
      {sources.map((source) => {
        const href = safeUrl(source.url)
        const title = source.title || source.filename || source.url || source.id
        return (
          <li key={source.id} data-weft="source" data-kind={source.kind} data-citation={source.citationIndex}>
            {source.citationIndex !== undefined && <span data-weft="source-marker">[{source.citationIndex}] </span>}
            {href ? (
              <a href={href} target="_blank" rel="noopener noreferrer">{title}</a>
            ) : (
              <span data-weft="source-title">{title}</span>
            )}
            {source.snippet && <p data-weft="source-snippet">{source.snippet}</p>}
          </li>
        )
      })}
    </ol>
  )
}
