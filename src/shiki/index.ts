/**
 * Code colours from shiki, for hosts that install it. The components never
 * import shiki themselves: a bundler resolves every import it sees, dynamic ones
 * included, so a reference from the components would break the build of every
 * host without the optional peer. A host opts in by importing this entry.
 *
 * @example
 * import { shikiHighlighter } from 'weft/shiki'
 * import { MarkdownSettingsProvider } from 'weft/components'
 *
 * <MarkdownSettingsProvider highlight={shikiHighlighter}><Chat /></MarkdownSettingsProvider>
 */
import type { Highlighter } from '../components/markdown/highlight'

export type { Highlighter, HighlightedLine, HighlightedToken } from '../components/markdown/highlight'

/**
 * Highlights with shiki, loaded on first use as a chunk of its own (shiki's
 * core, the JavaScript regex engine, and each language when it first appears).
 * A language outside its set, or shiki failing to load, leaves the code plain.
 *
 * @example
 * <MarkdownSettingsProvider highlight={shikiHighlighter}>…</MarkdownSettingsProvider>
 */
export const shikiHighlighter: Highlighter = async (code, lang) => {
  try {
    const { highlightWithShiki } = await import('./highlight-with-shiki')
    return await highlightWithShiki(code, lang)
  } catch {
    return undefined
  }
}
