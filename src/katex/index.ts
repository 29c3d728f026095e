/**
 * Math from KaTeX, for hosts that install it. As with `weft/shiki`, the
 * components never import KaTeX: a host opts in by importing this entry and
 * handing `katexMath` to `MarkdownSettingsProvider`. KaTeX and its stylesheet
 * (with its fonts) load as a chunk of their own when the first math is drawn.
 *
 * @example
 * import { katexMath } from 'weft/katex'
 * import { MarkdownSettingsProvider } from 'weft/components'
 *
 * <MarkdownSettingsProvider math={katexMath}><Chat /></MarkdownSettingsProvider>
 */
import type { MathRenderer } from '../components/markdown/highlight'

export type { MathRenderer } from '../components/markdown/highlight'

/**
 * Renders TeX with KaTeX, loaded on first use: `trust: false` (no `\href`,
 * `\url`, `\includegraphics` or `\html…` command takes effect, so nothing in
 * the source becomes a link, an image or an attribute), errors thrown rather
 * than drawn in red, MathML beside the HTML for screen readers. Rejects with
 * KaTeX's message on invalid TeX, and when KaTeX cannot be loaded.
 *
 * @example
 * <MarkdownSettingsProvider math={katexMath}>…</MarkdownSettingsProvider>
 */
export const katexMath: MathRenderer = async (tex, display) => {
  let render: typeof import('./render-with-katex').renderWithKatex
  try {
    render = (await import('./render-with-katex')).renderWithKatex
  } catch {
    throw new Error('The math renderer could not be loaded.')
  }
  return render(tex, display)
}
