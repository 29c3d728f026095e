/**
 * A host app with shiki installed and wired the documented way
 * (`MarkdownSettingsProvider highlight={shikiHighlighter}` from `weft/shiki`):
 * the README's first chat against both servers, and code blocks coloured.
 * The persisted chat runs in the host without shiki (`without-shiki.test.ts`);
 * what shiki changes (the bundle, the code blocks) does not depend on persistence.
 */
import { describeHost } from './suite'

describeHost({ shiki: true, snippets: ['first'] })
