/**
 * Syntax highlighting as data: lines of coloured tokens that weft draws as
 * text, never as HTML. The default highlighter loads on first use.
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
 * The default highlighter: shiki, imported on first use (a chunk of its own,
 * not in the main bundle). If shiki cannot be loaded the code stays plain.
 *
 * @example
 * <MarkdownSettingsProvider highlight={lazyShiki}>…</MarkdownSettingsProvider>
 */
export const lazyShiki: Highlighter = async (code, lang) => {
  try {
    const { highlightWithShiki } = await import('./shiki')
    return await highlightWithShiki(code, lang)
  } catch {
    return undefined
  }
}

/**
 * How markdown is drawn below a `MarkdownSettingsProvider`.
 *
 * @example
 * const settings: MarkdownSettings = { highlight: false, dataImages: true }
 */
export interface MarkdownSettings {
  /** The highlighter, or `false` for plain code (default: shiki, loaded lazily). */
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
export const MarkdownSettingsContext = createContext<MarkdownSettings>({ highlight: lazyShiki, dataImages: false })

/**
 * The markdown settings in force.
 *
 * @example
 * const { highlight } = useMarkdownSettings()
 */
export function useMarkdownSettings(): MarkdownSettings {
  return useContext(MarkdownSettingsContext)
}
