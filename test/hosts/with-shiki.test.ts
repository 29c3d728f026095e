/**
 * A host app with shiki installed and wired the documented way
 * (`MarkdownSettingsProvider highlight={shikiHighlighter}` from `weft/shiki`):
 * the same README snippets and servers, and code blocks coloured.
 */
import { describeHost } from './suite'

describeHost({ shiki: true })
