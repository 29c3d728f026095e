/**
 * The layer rules, checked on the sources' import statements: the core knows
 * no React and no protocol, the generic React binding and components name no
 * protocol, a protocol's modules stay in its own folder, a protocol's core
 * knows no React (its views are its `react/` folder) and reaches the core only
 * through the public entries (`core/index`, `protocol-kit/index`), as a host's protocol does.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const src = resolve(dirname(fileURLToPath(import.meta.url)), '../../../src')

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? files(path) : /\.tsx?$/.test(name) ? [path] : []
  })
}

/** Every import of a module under `dir` (or of the one file `dir`), as the path it resolves to (relative to src) or the bare package name. */
function importsOf(dir: string): Array<{ file: string; target: string }> {
  const out: Array<{ file: string; target: string }> = []
  const root = join(src, dir)
  for (const file of statSync(root).isDirectory() ? files(root) : [root]) {
    const text = readFileSync(file, 'utf8')
    for (const match of text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s+['"]([^'"]+)['"]|(?:^|\n)\s*import\s+['"]([^'"]+)['"]/g)) {
      const spec = (match[1] ?? match[2])!
      const target = spec.startsWith('.') ? relative(src, resolve(dirname(file), spec)) : spec
      out.push({ file: relative(src, file), target })
    }
  }
  return out
}

const protocolModule = (target: string) => target.startsWith('protocols/') || target === 'protocols'

describe('layers', () => {
  it('finds the imports it checks', () => {
    expect(importsOf('core').length).toBeGreaterThan(50)
  })

  it('core imports no React and no protocol', () => {
    const bad = importsOf('core').filter(({ target }) => /^react(-dom)?(\/|$)/.test(target) || protocolModule(target))
    expect(bad).toEqual([])
  })

  it('the React binding and the generic components import no protocol', () => {
    const bad = [...importsOf('react'), ...importsOf('components')].filter(({ target }) => protocolModule(target))
    expect(bad).toEqual([])
  })

  it('the fold imports no transport and no protocol', () => {
    const bad = importsOf('core/fold').filter(({ target }) => target.startsWith('core/transport') || protocolModule(target))
    expect(bad).toEqual([])
  })

  it('outside the protocol folders no code names a built-in protocol (examples in doc comments aside)', () => {
    const named = /['"`](yao|ui-message|ag-ui|vocion)['"`]/
    const bad = ['core', 'react', 'components'].flatMap((dir) => files(join(src, dir)).flatMap((file) =>
      readFileSync(file, 'utf8').split('\n')
        .filter((line) => !/^\s*(\*|\/\/|\/\*)/.test(line) && named.test(line))
        .map((line) => `${relative(src, file)}: ${line.trim()}`)))
    expect(bad).toEqual([])
  })

  it('only the store and foldStream reach into the fold', () => {
    const bad = files(src)
      .map((file) => relative(src, file))
      .filter((file) => !file.startsWith('core/fold/'))
      .flatMap((file) => importsOf(file).filter(({ target }) => target.startsWith('core/fold/')))
      .filter(({ file }) => !['core/store/store.ts', 'core/protocol/fold-stream.ts', 'core/index.ts'].includes(file))
    expect(bad).toEqual([])
  })

  it('the shared value helpers are written once, in core/util', () => {
    const helper = /\bfunction\s+(isRecord|recordOf|safeJson|safeStringify|str|num|bool|stringOf|idOf|nonEmpty|defined|asRecord)\s*[<(]/g
    const copies = files(src)
      .filter((file) => !relative(src, file).startsWith('core/util/'))
      .flatMap((file) => [...readFileSync(file, 'utf8').matchAll(helper)].map((m) => `${relative(src, file)}: ${m[1]}`))
    expect(copies).toEqual([])
  })

  it('the protocol kit and the protocols outside their react/ folders import no React, no binding and no components', () => {
    const uiModule = (target: string) => /^react(-dom)?(\/|$)/.test(target) || /^(react|components)(\/|$)/.test(target)
    const bad = [...importsOf('protocol-kit'), ...importsOf('protocols')]
      .filter(({ file }) => !/^protocols\/[^/]+\/react\//.test(file))
      .filter(({ target }) => uiModule(target))
    expect(bad).toEqual([])
  })

  it("a protocol's views reach the kit through the public entries of the binding and the components", () => {
    const bad = importsOf('protocols')
      .filter(({ file }) => /^protocols\/[^/]+\/react\//.test(file))
      .filter(({ target }) => /^(react|components|core)\//.test(target) && !['react/index', 'components/index', 'core/index', 'core/protocol/entry-types'].includes(target))
    expect(bad).toEqual([])
  })

  it('a built-in protocol reaches the core through its public entries, as a host protocol does', () => {
    // Type-only: the core's types each protocol entry re-exports, so a host can name them from there too.
    const allowed = new Set(['core/protocol/entry-types'])
    const bad = importsOf('protocols')
      .filter(({ target }) => /^(core|protocol-kit)\//.test(target) && !['core/index', 'protocol-kit/index'].includes(target) && !allowed.has(target))
    expect(bad).toEqual([])
  })

  it("a protocol imports no other protocol's modules", () => {
    for (const name of readdirSync(join(src, 'protocols')).filter((n) => statSync(join(src, 'protocols', n)).isDirectory())) {
      const bad = importsOf(`protocols/${name}`).filter(({ target }) => protocolModule(target) && !target.startsWith(`protocols/${name}/`))
      expect(bad, name).toEqual([])
    }
  })

  it('no source file is longer than 400 lines', () => {
    const long = files(src).map((file) => relative(src, file)).filter((file) => readFileSync(join(src, file), 'utf8').split('\n').length > MAX_LINES)
    expect(long).toEqual([])
  })

  it('no module keeps a mutable registry: a module-level Map or Set is a read-only table, and a WeakMap only a cache of derived values', () => {
    const found: string[] = []
    const seen = new Set<string>()
    for (const file of files(src)) {
      const text = readFileSync(file, 'utf8')
      for (const m of text.matchAll(/^(?:export )?(?:const|let) (\w+)(?:[ \t]*:[ \t]*([^=\n]+?))?[ \t]*=[ \t]*new (Map|Set|WeakMap|WeakSet)\b/gm)) {
        const [, name, type = '', kind] = m
        const readOnly = /^Readonly(Map|Set)\b/.test(type.trim())
        const key = `${relative(src, file)}:${name}`
        seen.add(key)
        if (!readOnly && !DERIVED_CACHES.has(key)) found.push(`${key} (${kind})`)
      }
      // A function that adds to module state from the outside is a registry whatever it stores in.
      if (/^export function register[A-Z]/m.test(text)) found.push(`${relative(src, file)}: exports a register function`)
    }
    expect(found).toEqual([])
    expect([...DERIVED_CACHES].filter((key) => !seen.has(key))).toEqual([])
  })
})

const MAX_LINES = 400

/**
 * Module-level caches that only memoize what their keys already determine
 * (dropping them changes nothing but speed), or what a lazily loaded module
 * resolved to. Nothing outside the module writes them.
 */
const DERIVED_CACHES: ReadonlySet<string> = new Set([
  'core/model/trace-table.ts:listed',
  'core/model/trace-table.ts:flattened',
  'components/markdown/markdown.tsx:markersOf',
  'components/markdown/markdown.tsx:doneMarkers',
  'components/hooks.ts:turnOutlines',
  'components/hooks.ts:blockOutlines',
  'shiki/highlight-with-shiki.ts:loaded',
  // Math and diagrams drawn, per renderer and source, so a view drawn again shows them at once.
  'components/markdown/rich-views.tsx:results',
  'core/store/branches.ts:infos',
  'core/store/branches.ts:alone',
  'core/fold/waiting-roots.ts:waitingByState',
  'core/model/message-table.ts:listed',
  'core/model/message-table.ts:flattened',
  'core/store/selectors.ts:turnMessages',
  'core/store/selectors.ts:turnBlocks',
  'core/store/selectors.ts:turnGates',
  'core/store/selectors.ts:treeItems',
  'core/store/selectors.ts:traceTrees',
  'core/store/selectors.ts:traceLists',
  'core/store/selectors.ts:summaries',
  'core/util/paths.ts:parsedPaths',
  'core/util/record.ts:sealedValues',
  'protocols/yao/decoder.ts:plainKeys',
  // Test helpers: which turn ends a page has already reported, keyed by the page's element.
  'testing/storybook.tsx:reportedEnds',
  'testing/turn-end.ts:reported',
])
