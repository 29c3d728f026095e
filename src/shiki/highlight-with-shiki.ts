/**
 * shiki's core with its JavaScript regex engine (no WebAssembly), a small set
 * of languages and GitHub's light and dark themes. Only ever reached through
 * the dynamic import in `./index`, so it is a chunk of its own that loads when
 * the first code block is drawn.
 */
import { createHighlighterCore, type HighlighterCore } from 'shiki/core'
import { createJavaScriptRegexEngine } from 'shiki/engine/javascript'
import type { HighlightedLine } from '../components/markdown/highlight'

const LANGUAGES = {
  typescript: () => import('shiki/langs/typescript.mjs'),
  tsx: () => import('shiki/langs/tsx.mjs'),
  javascript: () => import('shiki/langs/javascript.mjs'),
  json: () => import('shiki/langs/json.mjs'),
  shellscript: () => import('shiki/langs/shellscript.mjs'),
  python: () => import('shiki/langs/python.mjs'),
  html: () => import('shiki/langs/html.mjs'),
  css: () => import('shiki/langs/css.mjs'),
  yaml: () => import('shiki/langs/yaml.mjs'),
  sql: () => import('shiki/langs/sql.mjs'),
  diff: () => import('shiki/langs/diff.mjs'),
} as const

type Language = keyof typeof LANGUAGES

const ALIASES: Readonly<Record<string, Language>> = {
  ts: 'typescript', typescript: 'typescript', mts: 'typescript', cts: 'typescript',
  tsx: 'tsx', jsx: 'tsx',
  js: 'javascript', javascript: 'javascript', mjs: 'javascript', cjs: 'javascript',
  json: 'json', jsonc: 'json',
  sh: 'shellscript', bash: 'shellscript', shell: 'shellscript', zsh: 'shellscript', shellscript: 'shellscript', console: 'shellscript',
  py: 'python', python: 'python',
  html: 'html', xml: 'html', svg: 'html',
  css: 'css',
  yml: 'yaml', yaml: 'yaml',
  sql: 'sql',
  diff: 'diff', patch: 'diff',
}

let highlighter: Promise<HighlighterCore> | undefined
const loaded = new Map<Language, Promise<void>>()

function core(): Promise<HighlighterCore> {
  highlighter ??= createHighlighterCore({
    themes: [import('shiki/themes/github-light.mjs'), import('shiki/themes/github-dark.mjs')],
    langs: [],
    engine: createJavaScriptRegexEngine(),
  })
  return highlighter
}

/**
 * Coloured lines for `code` in `lang`, or `undefined` for a language outside the set.
 * Each token carries its light colour and its dark colour.
 *
 * @example
 * const lines = await highlightWithShiki('const a = 1', 'ts')
 */
export async function highlightWithShiki(code: string, lang: string): Promise<HighlightedLine[] | undefined> {
  const language = Object.prototype.hasOwnProperty.call(ALIASES, lang.toLowerCase()) ? ALIASES[lang.toLowerCase()] : undefined
  if (!language) return undefined
  const shiki = await core()
  let loading = loaded.get(language)
  if (!loading) {
    loading = LANGUAGES[language]().then((mod) => shiki.loadLanguage(mod.default))
    loaded.set(language, loading)
  }
  await loading
  const { tokens } = shiki.codeToTokens(code, { lang: language, themes: { light: 'github-light', dark: 'github-dark' }, defaultColor: false })
  return tokens.map((line) =>
    line.map((token) => ({
      content: token.content,
      light: token.htmlStyle?.['--shiki-light'],
      dark: token.htmlStyle?.['--shiki-dark'],
    })),
  )
}
