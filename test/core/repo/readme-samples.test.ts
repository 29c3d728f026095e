/**
 * Every ```tsx sample in README.md and CONTRIBUTING.md typechecks against the
 * public entries, as a host would write it. Each sample is its own module; the
 * only thing supplied beside them is the host component a sample imports from
 * `./support-chat`. The samples in docs/ lean on the host's own names (`router`,
 * `api`), so there only what they import from weft is checked: every entry and
 * every name they import exist.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..')
const samplesDir = join(root, 'test', '.samples')

/** The ```tsx (or ```ts) blocks of a markdown file, with the line each starts on. */
function tsxBlocks(file: string, fence = /^```tsx\n([\s\S]*?)^```$/gm): Array<{ line: number; code: string }> {
  const text = readFileSync(join(root, file), 'utf8')
  const blocks: Array<{ line: number; code: string }> = []
  for (const match of text.matchAll(fence)) {
    blocks.push({ line: text.slice(0, match.index).split('\n').length, code: match[1]! })
  }
  return blocks
}

/** Host code a sample imports: what the reader already has in their app. */
const hostModules: Record<string, string> = {
  [join(samplesDir, 'support-chat.tsx')]: 'export function SupportChat() { return <button>Ask</button> }\n',
}

/** Diagnostics about what a module imports: an entry that does not exist, a name it does not export. */
const IMPORT_ERRORS = new Set([2305, 2307, 2614, 2724, 2459, 2460, 1192])

/** Every diagnostic of the given modules, compiled together against the sources. */
function diagnose(files: Record<string, string>): Array<{ file: string; code: number; text: string }> {
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
    [...program.getSyntacticDiagnostics(program.getSourceFile(name)), ...program.getSemanticDiagnostics(program.getSourceFile(name))]
      .map((d) => {
        const at = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0
        return { file: name, code: d.code, text: `${name.slice(samplesDir.length + 1)}:${at}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}` }
      }),
  )
}

/** Each document's samples as modules of their own, with the line each starts on in its name. */
function samples(doc: string, fence?: RegExp, only?: (code: string) => boolean): Record<string, string> {
  return Object.fromEntries(
    tsxBlocks(doc, fence)
      .filter((b) => !only || only(b.code))
      .map((b) => [join(samplesDir, `${doc.replace(/\//g, '-').replace('.md', '')}-line-${b.line}.tsx`), `export {}\n${b.code}`]),
  )
}

const BROKEN = join(samplesDir, 'broken.tsx')
const UNKNOWN_NAMES = join(samplesDir, 'unknown-names.tsx')

describe('documentation samples', () => {
  const readme = samples('README.md')
  const contributing = samples('CONTRIBUTING.md')
  const docs = Object.assign({}, ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md'))
    .map((f) => samples(`docs/${f}`, /^```tsx?\n([\s\S]*?)^```$/gm, (code) => /from 'weft(\/[^']*)?'/.test(code)))) as Record<string, string>
  // One program for every sample (and two that must fail): type checking the sources once.
  const all = diagnose({
    ...readme, ...contributing, ...docs,
    [BROKEN]: "import { useAgentStream } from 'weft/react'\nuseAgentStream({ url: 1 })\n",
    [UNKNOWN_NAMES]: "import { newId } from 'weft/core'\nimport { x } from 'weft/nowhere'\n",
  })
  const errorsIn = (files: Record<string, string>, codes?: ReadonlySet<number>) =>
    all.filter((d) => d.file in files && (!codes || codes.has(d.code))).map((d) => d.text)

  it('README.md: every tsx sample typechecks', () => {
    expect(Object.keys(readme).length).toBeGreaterThan(5)
    expect(errorsIn(readme)).toEqual([])
  })

  it('CONTRIBUTING.md: every tsx sample typechecks', () => {
    expect(Object.keys(contributing).length).toBeGreaterThan(0)
    expect(errorsIn(contributing)).toEqual([])
  })

  it('docs/: every sample that imports from weft imports names its entries export', () => {
    expect(Object.keys(docs).length).toBeGreaterThan(10)
    // The host's own modules (`./SupportChat`) are not weft's to check.
    expect(errorsIn(docs, IMPORT_ERRORS).filter((e) => !/module '\.\.?\//.test(e))).toEqual([])
  })

  it('reports a sample that does not typecheck, and names that an entry does not export', () => {
    expect(errorsIn({ [BROKEN]: '' }).join('\n')).toMatch(/broken\.tsx:2: .*number/)
    expect(errorsIn({ [UNKNOWN_NAMES]: '' }, IMPORT_ERRORS)).toHaveLength(2)
  })
})

/** GitHub's anchor for a heading. */
const slug = (heading: string) => heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s-]/gu, '').replace(/\s/g, '-')

describe('documentation links', () => {
  it('every relative link in README, CONTRIBUTING and docs/ reaches a file, and its heading when it names one', () => {
    const docs = ['README.md', 'CONTRIBUTING.md', ...readdirSync(join(root, 'docs'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)]
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
