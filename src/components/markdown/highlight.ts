/**
 * Syntax highlighting as data: lines of coloured tokens that weft draws as
 * text, never as HTML. Code is plain unless a host hands in a highlighter
 * (`weft/shiki`'s, or its own).
 */
import { createContext, useContext } from 'react'

/**
 * One coloured run of code: its text and its colour in the light and dark themes.
 *
 * @example
 * const token: HighlightedToken = { content: 'const', light: '#cf222e', dark: '#ff7b72' }
 */
export interface HighlightedToken {
  content: string
  light?: string
  dark?: string
}

/**
 * One line of highlighted code.
 *
 * @example
 * const line: HighlightedLine = [{ content: 'let' }, { content: ' a' }]
 */
export type HighlightedLine = HighlightedToken[]

/**
 * Highlights code: resolves to coloured lines, or `undefined` when it cannot
 * (the code then stays plain).
 *
 * @example
 * const none: Highlighter = async () => undefined
 */
export type Highlighter = (code: string, lang: string) => Promise<HighlightedLine[] | undefined>

/**
 * Draws TeX: resolves to the markup of the math (which weft puts in the page as
 * it is, so it must be safe: `weft/katex`'s renders with KaTeX's `trust: false`),
 * or rejects, with an error whose message is shown beside the source.
 *
 * @example
 * const none: MathRenderer = async () => { throw new Error('no math here') }
 */
export type MathRenderer = (tex: string, display: boolean) => Promise<string>

/**
 * The colour scheme a diagram is drawn for: the one of the page around it.
 *
 * @example
 * const theme: DiagramTheme = 'dark'
 */
export type DiagramTheme = 'light' | 'dark'

/**
 * Draws a diagram fence (```` ```mermaid ````): resolves to sanitized SVG markup
 * (weft puts it in the page as it is), or rejects with an error whose message
 * is shown beside the source.
 *
 * @example
 * const none: DiagramRenderer = async () => { throw new Error('no diagrams here') }
 */
export type DiagramRenderer = (source: string, theme: DiagramTheme) => Promise<string>

/**
 * How markdown is drawn below a `MarkdownSettingsProvider`.
 *
 * @example
 * const settings: MarkdownSettings = { highlight: false, dataImages: true }
 */
export interface MarkdownSettings {
  /** The highlighter, or `false` for plain code (the default; `shikiHighlighter` from `weft/shiki` colours it). */
  highlight: Highlighter | false
  /** Accept `data:image/…` image sources in markdown (default false: http(s) only). */
  dataImages: boolean
  /** Draws `$…$`, `$$…$$`, `\\(…\\)` and `\\[…\\]` (`katexMath` from `weft/katex`); absent or `false`, a `$` is text (the default). */
  math?: MathRenderer | false
  /** Draws ```` ```mermaid ```` fences (`mermaidDiagrams` from `weft/mermaid`); absent or `false`, they are code (the default). */
  diagrams?: DiagramRenderer | false
}

/**
 * The settings markdown reads.
 *
 * @example
 * <MarkdownSettingsContext.Provider value={{ highlight: false, dataImages: false }} />
 */
export const MarkdownSettingsContext = createContext<MarkdownSettings>({ highlight: false, dataImages: false })

/**
 * The markdown settings in force.
 *
 * @example
 * const { highlight } = useMarkdownSettings()
 */
export function useMarkdownSettings(): MarkdownSettings {
  return useContext(MarkdownSettingsContext)
}
