/**
 * KaTeX and its stylesheet. Only ever reached through the dynamic import in
 * `./index`, so KaTeX, its CSS and the fonts the CSS names are fetched when the
 * first math is drawn, never with the first load.
 */
import katex from 'katex'
import 'katex/dist/katex.min.css'

/**
 * TeX as KaTeX markup (HTML and MathML); throws KaTeX's `ParseError` on invalid TeX.
 *
 * @example
 * const html = renderWithKatex('x^2', false)
 */
export function renderWithKatex(tex: string, display: boolean): string {
  return katex.renderToString(tex, {
    displayMode: display,
    output: 'htmlAndMathml',
    throwOnError: true,
    // Commands that could make links, images, classes or attributes from the source stay inert.
    trust: false,
    strict: 'ignore',
    // Bounds on what one formula may cost: macro expansion and the size of a box.
    maxExpand: 1000,
    maxSize: 50,
  })
}
