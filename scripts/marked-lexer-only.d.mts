/** A Vite plugin (build only) that reduces marked's ESM module to its `Lexer` (see the module). */
export function markedLexerOnly(): {
  name: string
  apply: 'build'
  transform(code: string, id: string): { code: string; map: null } | null
}
