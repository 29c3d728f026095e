/**
 * Every ```tsx sample in README.md and CONTRIBUTING.md typechecks against the
 * public entries, as a host would write it. Each sample is its own module; the
 * only thing supplied beside them is the host component a sample imports from
 * `./support-chat`.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const samplesDir = join(root, 'test', '.samples')

/** The ```tsx blocks of a markdown file, with the line each starts on. */
function tsxBlocks(file: string): Array<{ line: number; code: string }> {
  const text = readFileSync(join(root, file), 'utf8')
  const blocks: Array<{ line: number; code: string }> = []
  for (const match of text.matchAll(/^```tsx\n([\s\S]*?)^```$/gm)) {
    blocks.push({ line: text.slice(0, match.index).split('\n').length, code: match[1]! })
  }
  return blocks
}

/** Host code a sample imports: what the reader already has in their app. */
const hostModules: Record<string, string> = {
  [join(samplesDir, 'support-chat.tsx')]: 'export function SupportChat() { return <button>Ask</button> }\n',
}

function diagnose(files: Record<string, string>): string[] {
  const config = ts.readConfigFile(join(root, 'tsconfig.json'), ts.sys.readFile)
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root)
  const options: ts.CompilerOptions = { ...parsed.options, noEmit: true, noUnusedLocals: false }
  const all = { ...hostModules, ...files }
  const host = ts.createCompilerHost(options)
  const readFile = host.readFile.bind(host)
  const fileExists = host.fileExists.bind(host)
  host.readFile = (name) => all[name] ?? readFile(name)
  host.fileExists = (name) => name in all || fileExists(name)
  const directoryExists = host.directoryExists?.bind(host)
  host.directoryExists = (name) => name === samplesDir || (directoryExists ? directoryExists(name) : ts.sys.directoryExists(name))
  const getSourceFile = host.getSourceFile.bind(host)
  host.getSourceFile = (name, language, onError, create) =>
    name in all ? ts.createSourceFile(name, all[name]!, language, true, ts.ScriptKind.TSX) : getSourceFile(name, language, onError, create)
  const program = ts.createProgram(Object.keys(files), options, host)
  return Object.keys(files).flatMap((name) =>
    [...program.getSyntacticDiagnostics(program.getSourceFile(name)), ...program.getSemanticDiagnostics(program.getSourceFile(name))].map((d) => {
      const at = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0
      return `${name.slice(samplesDir.length + 1)}:${at}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`
    }),
  )
}

describe('documentation samples', () => {
  for (const doc of ['README.md', 'CONTRIBUTING.md']) {
    it(`${doc}: every tsx sample typechecks`, () => {
      const blocks = tsxBlocks(doc)
      expect(blocks.length).toBeGreaterThan(doc === 'README.md' ? 5 : 0)
      const files = Object.fromEntries(
        blocks.map((b) => [join(samplesDir, `${doc.replace('.md', '')}-line-${b.line}.tsx`), `export {}\n${b.code}`]),
      )
      expect(diagnose(files)).toEqual([])
    }, 120_000)
  }

  it('reports a sample that does not typecheck', () => {
    const file = join(samplesDir, 'broken.tsx')
    const errors = diagnose({ [file]: "import { useAgentStream } from 'weft/react'\nuseAgentStream({ url: 1 })\n" })
    expect(errors.join('\n')).toMatch(/broken\.tsx:2: .*number/)
  }, 120_000)
})

/** GitHub's anchor for a heading. */
const slug = (heading: string) => heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s-]/gu, '').replace(/\s/g, '-')

describe('documentation links', () => {
  it('every relative link in README, CONTRIBUTING and docs/ reaches a file, and its heading when it names one', () => {
    const docs = ['README.md', 'CONTRIBUTING.md', ...readdirSync(join(root, 'docs')).map((f) => `docs/${f}`)]
    const broken: string[] = []
    let checked = 0
    for (const doc of docs) {
      const text = readFileSync(join(root, doc), 'utf8').replace(/^```[\s\S]*?^```$/gm, '')
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue
        const [path, anchor] = target!.split('#')
        const file = path ? join(dirname(join(root, doc)), path) : join(root, doc)
        checked += 1
        if (!existsSync(file)) broken.push(`${doc}: ${target}`)
        else if (anchor && !readFileSync(file, 'utf8').split('\n').some((l) => /^#+ /.test(l) && slug(l.replace(/^#+ /, '')) === anchor)) {
          broken.push(`${doc}: ${target} (no such heading)`)
        }
      }
    }
    expect(checked).toBeGreaterThan(20)
    expect(broken).toEqual([])
  })
})
