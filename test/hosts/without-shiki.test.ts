/**
 * A host app without the optional peers shiki, KaTeX and Mermaid: the README
 * snippets, built from the packed tarball in a `create-vite` react-ts app with
 * Vite's production build, against a stock AI SDK route and a stock AG-UI server.
 * Code blocks stay plain, math stays text, a mermaid fence is code, and nothing
 * asks for any of the three.
 */
import { describeHost } from './suite'

describeHost({ shiki: false })
