// marked's module ends by building its default `marked()` instance and hanging its
// helpers on it: top-level side effects that no bundler can drop, which keep the parser,
// the HTML renderer and the hooks alive beside the lexer, about 3 KB gzip that weft never
// runs (it draws React elements from the lexer's tokens). The library build cuts the
// module at that instance and exports the lexer alone; the rest is then tree-shaken.
// The cut is found from the module's own export list, and the build fails, naming what
// it missed, if a new marked no longer has that shape.
import { readFileSync } from 'node:fs'

// Only weft's own marked: a library that bundles another copy (Mermaid has its own, nested
// under its node_modules) imports more of it than the lexer.
const MODULE = /(?:^|[\\/])node_modules[\\/]marked[\\/]lib[\\/]marked\.esm\.js$/
const NESTED = /[\\/]node_modules[\\/](?:@[^\\/]+[\\/])?[^\\/]+[\\/]node_modules[\\/]marked[\\/]/

/**
 * A Vite plugin (build only) that reduces marked's ESM module to its `Lexer`.
 *
 * @example
 * export default defineConfig({ plugins: [markedLexerOnly()] })
 */
export function markedLexerOnly() {
  return {
    name: 'weft:marked-lexer-only',
    apply: 'build',
    transform(code, id) {
      if (!MODULE.test(id) || NESTED.test(id)) return null
      const list = /export\s*\{([^}]*)\}\s*;?\s*(?:\/\/# sourceMappingURL=\S*\s*)?$/.exec(code)
      const locals = new Map((list?.[1] ?? '').split(',').map((spec) => {
        const [local, name = local] = spec.trim().split(/\s+as\s+/)
        return [name, local]
      }))
      const lexer = locals.get('Lexer')
      const marked = locals.get('Marked')
      const instance = marked && new RegExp(`(?:var|let|const) [\\w$]+\\s*=\\s*new ${marked.replace(/\$/g, '\\$')}\\s*(?:\\(\\))?;`).exec(code)
      if (!lexer || !instance) {
        throw new Error(`weft:marked-lexer-only: ${id} no longer has the shape this build cuts (its export list, and the default instance of Marked); update scripts/marked-lexer-only.mjs`)
      }
      const { version } = JSON.parse(readFileSync(new URL('../node_modules/marked/package.json', import.meta.url), 'utf8'))
      const notice = `/*! marked v${version}, its lexer only. Copyright (c) 2018-2026, MarkedJS; (c) 2011-2018, Christopher Jeffrey. MIT License. https://github.com/markedjs/marked */\n`
      return { code: `${notice}${code.slice(0, instance.index)}\nexport { ${lexer} as Lexer };\n`, map: null }
    },
  }
}
