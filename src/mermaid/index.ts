/**
 * Diagrams from Mermaid, for hosts that install it. As with `weft/shiki`, the
 * components never import Mermaid: a host opts in by importing this entry and
 * handing `mermaidDiagrams` to `MarkdownSettingsProvider`. Mermaid and the
 * sanitizer load as a chunk of their own when the first closed
 * ```` ```mermaid ```` fence is drawn.
 *
 * @example
 * import { mermaidDiagrams } from 'weft/mermaid'
 * import { MarkdownSettingsProvider } from 'weft/components'
 *
 * <MarkdownSettingsProvider diagrams={mermaidDiagrams}><Chat /></MarkdownSettingsProvider>
 */
import type { DiagramRenderer } from '../components/markdown/highlight'

export type { DiagramRenderer, DiagramTheme } from '../components/markdown/highlight'

/**
 * Renders a Mermaid diagram to SVG, loaded on first use: Mermaid's
 * `securityLevel: 'strict'` (labels are text, `click` callbacks and links are
 * refused, a diagram's own directives cannot lower it), then the SVG sanitized
 * with DOMPurify (no script, no event handler attribute, no `javascript:` URL,
 * no `foreignObject`) before it reaches the page. Diagrams are drawn one at a
 * time, in Mermaid's default theme or its dark one. Rejects with Mermaid's
 * message on an invalid diagram, and when Mermaid cannot be loaded.
 *
 * @example
 * <MarkdownSettingsProvider diagrams={mermaidDiagrams}>…</MarkdownSettingsProvider>
 */
export const mermaidDiagrams: DiagramRenderer = async (source, theme) => {
  let render: typeof import('./render-with-mermaid').renderWithMermaid
  try {
    render = (await import('./render-with-mermaid')).renderWithMermaid
  } catch {
    throw new Error('The diagram renderer could not be loaded.')
  }
  return render(source, theme)
}
