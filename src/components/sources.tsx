import { forwardRef, useId, useState, type OlHTMLAttributes } from 'react'
import type { Source } from '../core/model/model'
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
  /**
   * Where a chip's icon comes from: the site's `/favicon.ico` by default (for an
   * http or https URL only); a function returns another address (a host's icon
   * service or proxy) or `undefined` for none; `false` loads no icon at all.
   */
  favicon?: false | ((source: Source, url: URL) => string | undefined)
}

/** The page's own address for an absolute http or https URL, else nothing: no request for any other scheme. */
function webUrl(href: string | undefined): URL | undefined {
  if (!href) return undefined
  try {
    const url = new URL(href)
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined
  } catch {
    return undefined
  }
}

const siteIcon = (_source: Source, url: URL) => `${url.origin}/favicon.ico`

/**
 * The sources a turn's answer rests on, as chips: the site's icon (its first
 * letter until the icon has loaded, and when it fails), a link when the URL is
 * safe (http, https, mailto or relative), else the title alone, and its `[n]`
 * marker. Hovering or focusing a chip shows a card (`data-weft="source-card"`,
 * the link's description) with the whole title, the URL and the snippet when
 * known; Escape hides it. The icon loads lazily, without a referrer, and only
 * for an http or https URL. Renders nothing when there are none.
 *
 * @example
 * <Sources turnId={turnId} />
 * <Sources favicon={(source, url) => `/icons?domain=${url.hostname}`} />
 */
export const Sources = forwardRef<HTMLOListElement, SourcesProps>(function Sources({ turnId: explicit, favicon = siteIcon, ...rest }, ref) {
  const labels = useLabels()
  const turnId = useTurnIdFrom(explicit)
  const sources = useSources(turnId)
  if (sources.length === 0) return null
  return (
    <ol aria-label={labels.sources} {...rest} ref={ref} data-weft="sources">
      {sources.map((source, i) => <SourceChip key={asText(source.id) || i} source={source} favicon={favicon} />)}
    </ol>
  )
})

function SourceChip({ source, favicon }: { source: Source; favicon: SourcesProps['favicon'] }) {
  const cardId = useId()
  const [icon, setIcon] = useState<'loading' | 'loaded' | 'error'>('loading')
  const [dismissed, setDismissed] = useState(false)
  const href = safeUrl(source.url)
  const title = sourceTitle(source) || asText(source.id)
  const snippet = asText(source.snippet)
  const marker = typeof source.citationIndex === 'number' ? source.citationIndex : undefined
  const web = webUrl(href)
  const iconUrl = web && favicon ? webUrl(safeUrl(favicon(source, web)))?.href : undefined
  const initial = (web?.hostname.replace(/^www\./, '') || title).charAt(0).toUpperCase()
  return (
    <li
      data-weft="source"
      data-kind={asText(source.kind)}
      data-citation={marker}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && !dismissed) {
          event.stopPropagation()
          setDismissed(true)
        }
      }}
      onMouseLeave={() => setDismissed(false)}
      onBlur={() => setDismissed(false)}
    >
      <span data-weft="source-icon" data-state={iconUrl ? icon : 'none'} aria-hidden="true">
        {initial}
        {iconUrl && icon !== 'error' && (
          <img src={iconUrl} alt="" width={16} height={16} loading="lazy" decoding="async" referrerPolicy="no-referrer" onLoad={() => setIcon('loaded')} onError={() => setIcon('error')} />
        )}
      </span>
      {marker !== undefined && <span data-weft="source-marker">[{marker}] </span>}
      {href ? (
        <a href={href} target="_blank" rel="noopener noreferrer" aria-describedby={cardId}>{title}</a>
      ) : (
        <span data-weft="source-title" tabIndex={0} aria-describedby={cardId}>{title}</span>
      )}
      <span id={cardId} role="tooltip" data-weft="source-card" data-state={dismissed ? 'dismissed' : undefined}>
        <span data-weft="source-card-title">{title}</span>
        {href && <span data-weft="source-card-url">{href}</span>}
        {snippet && <span data-weft="source-snippet">{snippet}</span>}
      </span>
    </li>
  )
}
