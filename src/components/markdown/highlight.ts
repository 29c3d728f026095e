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
