/**
 * Mermaid and DOMPurify. Only ever reached through the dynamic import in
 * `./index`, so they are fetched when the first diagram is drawn.
 */
import DOMPurify from 'dompurify'
import mermaid from 'mermaid'
import type { DiagramTheme } from '../components/markdown/highlight'

let queue: Promise<unknown> = Promise.resolve()
let count = 0

/**
 * The SVG of a Mermaid diagram, sanitized; throws Mermaid's error on an invalid one.
 * Mermaid's settings are global, so renders wait for each other.
 *
 * @example
 * const svg = await renderWithMermaid('graph LR\n  A --> B', 'light')
 */
export function renderWithMermaid(source: string, theme: DiagramTheme): Promise<string> {
  const run = queue.then(async () => {
    mermaid.initialize({
      startOnLoad: false,
      securityLevel: 'strict',
      theme: theme === 'dark' ? 'dark' : 'default',
      // Labels as SVG text, not HTML in a foreignObject: nothing HTML in the picture.
      htmlLabels: false,
      flowchart: { htmlLabels: false },
      // An invalid diagram throws; Mermaid draws no error picture into the page.
      suppressErrorRendering: true,
    })
    count += 1
    const { svg } = await mermaid.render(`weft-mermaid-${count}`, source)
    return sanitizeSvg(svg)
  })
  queue = run.catch(() => undefined)
  return run
}

/**
 * SVG markup with nothing that could run: DOMPurify's SVG profile (no script, no
 * event handler attribute, no `javascript:` URL), no `foreignObject` (HTML inside
 * the picture) and no links at all; the diagram's own `<style>` is kept.
 *
 * @example
 * sanitizeSvg('<svg><script>alert(1)</script></svg>') // '<svg></svg>'
 */
export function sanitizeSvg(svg: string): string {
  return DOMPurify.sanitize(svg, {
    USE_PROFILES: { svg: true, svgFilters: true },
    // The diagram's own stylesheet, scoped to its id by Mermaid.
    ADD_TAGS: ['style'],
    FORBID_TAGS: ['foreignObject', 'script'],
    FORBID_ATTR: ['xlink:href', 'href'],
  })
}
