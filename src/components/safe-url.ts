/**
 * URLs come from the server. Only schemes that cannot run script reach an
 * `href` or a `src`: `http:`, `https:`, `mailto:` and relative URLs, plus
 * `data:image/…` (raster formats only) for images when asked.
 */

/**
 * Options of `safeUrl`.
 *
 * @example
 * safeUrl(props.url, { image: true })
 */
export interface SafeUrlOptions {
  /** Also accept `data:image/png|jpeg|gif|webp|avif` (for an `<img src>`, never for a link). */
  image?: boolean
}

const LINK_SCHEMES: ReadonlySet<string> = new Set(['http:', 'https:', 'mailto:'])

// SVG is left out on purpose: opened on its own, an SVG document can run script.
const DATA_IMAGE = /^data:image\/(?:png|jpeg|jpg|gif|webp|avif)[;,]/i

// The browser drops tabs and newlines anywhere in a URL and control characters or
// spaces at its ends (`java\tscript:` is `javascript:`), so the check must see what it sees.
const INNER_NOISE = /[\t\n\r]/g
const EDGE_NOISE = /^[\u0000-\u0020]+|[\u0000-\u0020]+$/g

/**
 * The URL as given when it is safe to render as a link (or image), else `undefined`.
 * The scheme is read by the same URL parser the browser uses, so obfuscations
 * such as `JaVaScRiPt:`, `java\tscript:` or leading control characters are caught.
 *
 * @example
 * safeUrl('https://example.com/a')    // 'https://example.com/a'
 * safeUrl('/docs/intro')              // '/docs/intro'
 * safeUrl('javascript:alert(1)')      // undefined
 * safeUrl('data:image/png;base64,AA', { image: true }) // 'data:image/png;base64,AA'
 */
export function safeUrl(raw: unknown, options: SafeUrlOptions = {}): string | undefined {
  if (typeof raw !== 'string') return undefined
  const url = raw.replace(INNER_NOISE, '').replace(EDGE_NOISE, '')
  if (url === '') return undefined
  let parsed: URL
  try {
    // A relative URL takes the base's scheme, which is safe.
    parsed = new URL(url, 'https://relative.invalid/')
  } catch {
    return undefined
  }
  if (LINK_SCHEMES.has(parsed.protocol)) return url
  if (options.image && parsed.protocol === 'data:' && DATA_IMAGE.test(url)) return url
  return undefined
}
