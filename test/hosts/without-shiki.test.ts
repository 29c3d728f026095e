/**
 * A host app without the optional peer shiki: the README snippets, built from
 * the packed tarball in a `create-vite` react-ts app with Vite's production
 * build, against a stock AI SDK route and a stock AG-UI server. Code blocks
 * stay plain and nothing asks for shiki.
 */
import { describeHost } from './suite'

describeHost({ shiki: false })
