/**
 * A host app with the optional peers installed and wired the documented way
 * (`MarkdownSettingsProvider highlight={shikiHighlighter} math={katexMath}
 * diagrams={mermaidDiagrams}` from `weft/shiki`, `weft/katex`, `weft/mermaid`):
 * the README's first chat against the AI SDK route, code blocks coloured, math
 * drawn by KaTeX in its fonts and a Mermaid diagram.
 * The first chat against the AG-UI server, and the persisted chat against both,
 * run in the host without shiki (`without-shiki.test.ts`): what the optional
 * peers change (the bundle, how an answer draws) depends on neither the
 * protocol nor persistence.
 * This host also builds the LangGraph page's host and runs it against the real
 * LangGraph server (here rather than beside the persisted chat, which keeps the
 * two host files about as long as each other), and a developer's page: the first
 * chat with voice (`weft/voice`) and the inspector (`weft/inspector`) beside it.
 */
import { describeHost } from './suite'

describeHost({ shiki: true, snippets: ['first'], protocols: ['ui-message'], langgraph: true, devtools: true })
