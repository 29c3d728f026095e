/**
 * Markdown while it streams: bytes each candidate adds to a bundle, and what
 * each costs per token when the answer so far is drawn again on every token.
 * weft re-lexes only the open block; the others parse the whole text each time,
 * which is how they are used for a streaming answer.
 */
import { build, type Plugin } from 'esbuild'
import { readFileSync } from 'node:fs'
import { performance } from 'node:perf_hooks'
import { gzipSync } from 'node:zlib'
import { fileURLToPath } from 'node:url'
import { Lexer } from 'marked'
import MarkdownIt from 'markdown-it'
import remarkGfm from 'remark-gfm'
import remarkParse from 'remark-parse'
import remend from 'remend'
import { unified } from 'unified'
import { markedLexerOnly } from '../scripts/marked-lexer-only.mjs'
import { MarkdownBlocks } from '../src/components/markdown/blocks'
import { markdownAnswer } from '../test/fixtures/markdown-answer'
import { n, table } from './harness'

const root = fileURLToPath(new URL('..', import.meta.url))

const bundles: Array<[string, string]> = [
  ['weft Markdown (marked lexer + weft renderer + tail repair)', `export { Markdown } from './src/components/markdown/markdown.tsx'`],
  ['weft/components, all of it (markdown included)', `export * from './src/components/index.ts'`],
  ['marked (lexer, parser, HTML renderer)', `export { marked } from 'marked'`],
  ['markdown-it', `export { default } from 'markdown-it'`],
  ['react-markdown + remark-gfm', `export { default } from 'react-markdown'; export { default as gfm } from 'remark-gfm'`],
  ['react-markdown + remark-gfm + remend', `export { default } from 'react-markdown'; export { default as gfm } from 'remark-gfm'; export { default as remend } from 'remend'`],
]

/** The library build's cut of marked (scripts/marked-lexer-only.mjs), as an esbuild plugin. */
const lexerOnly: Plugin = {
  name: 'marked-lexer-only',
  setup(b) {
    const cut = markedLexerOnly()
    b.onLoad({ filter: /marked\.esm\.js$/ }, ({ path }) => ({ contents: cut.transform(readFileSync(path, 'utf8'), path)!.code, loader: 'js' }))
  },
}

async function gzipSize(contents: string): Promise<number> {
  const result = await build({
    stdin: { contents, resolveDir: root, loader: 'ts', sourcefile: 'entry.ts' },
    bundle: true, minify: true, format: 'esm', platform: 'browser', write: false, logLevel: 'silent',
    // The highlighter is a dynamic import that a host's bundler splits off; it is not counted.
    external: ['react', 'react-dom', 'react/jsx-runtime', 'shiki', 'shiki/*'],
    define: { 'process.env.NODE_ENV': '"production"' },
    jsx: 'automatic',
    // weft's own rows are bundled as its build ships them: marked reduced to its lexer.
    plugins: contents.includes('./src/') ? [lexerOnly] : [],
  })
  return gzipSync(result.outputFiles[0]!.contents, { level: 9 }).length
}

/** An answer of about `size` characters: the fixture's constructs, repeated with numbered headings. */
function answerOf(size: number): string {
  let text = ''
  for (let i = 1; text.length < size; i++) text += markdownAnswer.replace('## Weather in Paris', `## Part ${i}`) + '\n'
  return text.slice(0, size)
}

/** The text cut into `count` tokens of about equal size. */
function tokensOf(text: string, count: number): string[] {
  const out: string[] = []
  const step = Math.ceil(text.length / count)
  for (let at = step; at < text.length + step; at += step) out.push(text.slice(0, Math.min(at, text.length)))
  return out
}

interface Candidate {
  name: string
  /** A parser for one streamed answer: called with each version of the text. */
  start: () => (text: string, last: boolean) => void
}

const md = new MarkdownIt({ html: false })
const remark = unified().use(remarkParse).use(remarkGfm)

const candidates: Candidate[] = [
  { name: 'weft MarkdownBlocks (open block only)', start: () => { const blocks = new MarkdownBlocks(); return (text, last) => void blocks.update(text, !last) } },
  { name: 'marked Lexer, whole text', start: () => (text) => void new Lexer({ gfm: true }).lex(text) },
  { name: 'markdown-it parse, whole text', start: () => (text) => void md.parse(text, {}) },
  { name: 'remark-parse + gfm, whole text (react-markdown)', start: () => (text) => void remark.parse(text) },
  { name: 'remend + remark-parse + gfm, whole text', start: () => (text) => void remark.parse(remend(text)) },
]

function timeStream(candidate: Candidate, versions: readonly string[]): { total: number; lastTokens: number } {
  const feed = candidate.start()
  const started = performance.now()
  let tailStart = 0
  for (let i = 0; i < versions.length; i++) {
    if (i === versions.length - 10) tailStart = performance.now()
    feed(versions[i]!, i === versions.length - 1)
  }
  const end = performance.now()
  return { total: end - started, lastTokens: (end - tailStart) / 10 }
}

function timeOnce(candidate: Candidate, text: string): number {
  const rounds = 5
  let best = Infinity
  for (let r = 0; r < rounds; r++) {
    const feed = candidate.start()
    const started = performance.now()
    feed(text, true)
    best = Math.min(best, performance.now() - started)
  }
  return best
}

/** Print the markdown figures. */
export async function benchMarkdown(): Promise<void> {
  console.log('Markdown bundles: minified + gzip, React external, highlighter excluded (it loads on first code block)')
  const sizeRows: Array<Record<string, string>> = []
  for (const [name, contents] of bundles) sizeRows.push({ bundle: name, 'gzip KiB': n((await gzipSize(contents)) / 1024, 1) })
  table(sizeRows)

  // The peers re-parse the whole answer per token, so their runs are kept short; weft also runs the long answer.
  for (const [size, count, who] of [[10_000, 250, candidates], [50_000, 5_000, candidates.slice(0, 1)]] as const) {
    const text = answerOf(size)
    const versions = tokensOf(text, count)
    console.log(`\nMarkdown while it streams: ${n(size)} characters in ${n(count)} tokens, every version parsed (lower is better)`)
    const rows: Array<Record<string, string>> = []
    for (const candidate of who) {
      timeStream(candidate, versions.slice(0, 50))
      const once = timeOnce(candidate, text)
      const { total, lastTokens } = timeStream(candidate, versions)
      rows.push({
        parser: candidate.name,
        'one parse ms': n(once, 2),
        'stream total ms': n(total, 1),
        'total / one parse': `${n(total / once, 1)}x`,
        'µs per token at the end': n(lastTokens * 1000, 1),
      })
    }
    table(rows)
  }
}
