import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { Lexer } from 'marked'
import { afterAll, describe, expect, it } from 'vitest'
import { markedLexerOnly } from '../../../scripts/marked-lexer-only.mjs'
import { markdownAnswer } from '../../fixtures/markdown-answer'

const id = join(process.cwd(), 'node_modules/marked/lib/marked.esm.js')
const work = mkdtempSync(join(tmpdir(), 'weft-marked-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

function cut(code: string, at = id): string {
  const result = markedLexerOnly().transform(code, at) as { code: string } | null
  if (!result) throw new Error('not transformed')
  return result.code
}

describe('the build keeps marked\'s lexer only', () => {
  it('exports the lexer alone, which lexes as marked does, with marked\'s licence kept', async () => {
    const code = cut(readFileSync(id, 'utf8'))
    expect(code.startsWith('/*! marked v')).toBe(true)
    expect(code).toContain('MIT License')
    const file = join(work, 'lexer.mjs')
    writeFileSync(file, code)
    const lexerOnly = (await import(pathToFileURL(file).href)) as Record<string, unknown>
    expect(Object.keys(lexerOnly)).toEqual(['Lexer'])
    const Cut = lexerOnly.Lexer as typeof Lexer
    for (const text of [markdownAnswer, '| a | b |\n|---|:-:|\n| 1 | 2 |\n\n- [x] done\n- [ ] open\n\n> quote *em* ~~del~~', '```ts\nconst a = 1\n```\n\n# Title\n\nText [link](https://example.com)']) {
      expect(new Cut({ gfm: true, breaks: false }).lex(text)).toEqual(new Lexer({ gfm: true, breaks: false }).lex(text))
    }
  })

  it('leaves every other module alone', () => {
    expect(markedLexerOnly().transform('export const a = 1', join(process.cwd(), 'src/index.ts'))).toBeNull()
  })

  it('fails the build, naming the file to update, when marked no longer has the shape it cuts', () => {
    expect(() => cut('class L {}\nexport { L as Lexer };')).toThrow(/marked-lexer-only\.mjs/)
    expect(() => cut('class M {}\nvar m = new M;\nexport { M as Marked };')).toThrow(/no longer has the shape/)
  })
})
