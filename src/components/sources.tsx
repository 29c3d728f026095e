import { forwardRef, type OlHTMLAttributes } from 'react'
import { useSources } from '../react/selectors'
import { asText, sourceTitle } from './format'
import { useLabels } from './labels'
import { safeUrl } from './safe-url'
import { useTurnIdFrom } from './turn-context'

/**
 * Props of `Sources`.
 *
 * @example
 * <Sources turnId={turnId} aria-label="References" />
 */
export interface SourcesProps extends OlHTMLAttributes<HTMLOListElement> {
  /** Default: the enclosing turn. */
  turnId?: string
}

/**
 * The sources a turn's answer rests on, as chips: a link when the URL is safe
 * (http, https, mailto or relative), else the title alone; its `[n]` marker
 * and the snippet as a tooltip when known. Renders nothing when there are none.
 *
 * @example
 * <Sources turnId={turnId} />
 */
export const Sources = forwardRef<HTMLOListElement, SourcesProps>(function Sources({ turnId: explicit, ...rest }, ref) {
  const labels = useLabels()
  const turnId = useTurnIdFrom(explicit)
  const sources = useSources(turnId)
  if (sources.length === 0) return null
  return (
    <ol aria-label={labels.sources} {...rest} ref={ref} data-weft="sources">
      {sources.map((source, i) => {
        const href = safeUrl(source.url)
        const title = sourceTitle(source) || asText(source.id)
        const snippet = asText(source.snippet)
        const marker = typeof source.citationIndex === 'number' ? source.citationIndex : undefined
        return (
          <li key={asText(source.id) || i} data-weft="source" data-kind={asText(source.kind)} data-citation={marker} title={snippet || undefined}>
            {marker !== undefined && <span data-weft="source-marker">[{marker}] </span>}
            {href ? (
              <a href={href} target="_blank" rel="noopener noreferrer">{title}</a>
            ) : (
              <span data-weft="source-title">{title}</span>
            )}
            {snippet && <p data-weft="source-snippet">{snippet}</p>}
          </li>
        )
      })}
    </ol>
  )
})
