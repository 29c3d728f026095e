/**
 * The `@example` blocks of the sources, and one TypeScript program that compiles
 * them all as modules a host could have written (see examples-compile.test.ts for
 * what counts as a failure and why).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const examplesDir = join(root, 'test', '.examples')

export interface Example {
  /** The source file, relative to the repository (`src/core/model/model.ts`). */
  file: string
  /** Which `@example` of the file it is, counting from 1. */
  index: number
  /** The line of the file the example's code starts on. */
  line: number
  code: string
}

/** Every `@example` in `src/**\/*.ts(x)`, in file order. */
export function examples(dir = join(root, 'src')): Example[] {
  return sourceFiles(dir).flatMap((path) => examplesIn(relative(root, path), readFileSync(path, 'utf8')))
}

/** The TypeScript files of a folder, recursively. */
function sourceFiles(dir: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[])
    .filter((f) => /\.tsx?$/.test(f) && !f.endsWith('.d.ts'))
    .map((f) => join(dir, f))
    .sort()
}

/** The `@example` blocks of one file's doc comments: each runs to the comment's next tag or its end. */
export function examplesIn(file: string, text: string): Example[] {
  const found: Example[] = []
  for (const comment of text.matchAll(/\/\*\*[\s\S]*?\*\//g)) {
    const startLine = text.slice(0, comment.index).split('\n').length
    const lines = comment[0].replace(/\*\/$/, '').split('\n').map((l) => l.replace(/^\s*\/?\*\*? ?/, ''))
    for (let i = 0; i < lines.length; i++) {
      const tag = /^\s*@example\b(.*)$/.exec(lines[i]!)
      if (!tag) continue
      const body: string[] = tag[1]!.trim() ? [tag[1]!.trim()] : []
      let j = i + 1
      for (; j < lines.length && !/^\s*@\w/.test(lines[j]!); j++) body.push(lines[j]!)
      const code = body.join('\n').replace(/^\s*```\w*\s*$/gm, '').trim()
      found.push({ file, index: found.length + 1, line: startLine + i + (tag[1]!.trim() ? 0 : 1), code })
      i = j - 1
    }
  }
  return found
}

/** The public entries: the sources of the type files package.json exports (`./dist/core/index.d.ts` is `src/core/index.ts`). */
const ENTRIES: string[] = (() => {
  const exports = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: Record<string, string | { types?: string }> }).exports
  const found: string[] = []
  for (const value of Object.values(exports)) {
    const types = typeof value === 'object' ? value.types : undefined
    if (!types) continue
    const stem = types.replace(/^\.\/dist\//, 'src/').replace(/\.d\.ts$/, '')
    const [before, after] = stem.split('*')
    const stems = after === undefined
      ? [stem]
      : readdirSync(join(root, before!), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => `${before}${d.name}${after}`)
    for (const s of stems) {
      const file = [`${s}.ts`, `${s}.tsx`].find((f) => existsSync(join(root, f)))
      if (file) found.push(file)
    }
  }
  return [...new Set(found)]
})()

/** Where an example's names are looked up: its entry first, then the umbrella, then every other entry. */
function entriesFor(file: string): string[] {
  const own = ENTRIES.filter((entry) => entry !== 'src/index.ts' && file.startsWith(dirname(entry) + '/'))
    .sort((a, b) => dirname(b).length - dirname(a).length || Number(/\/index\.tsx?$/.test(b)) - Number(/\/index\.tsx?$/.test(a)))
  return [...new Set([...own, 'src/index.ts', ...ENTRIES])]
}

export interface Problem {
  example: Example
  /** The example's line the diagnostic is on (1: its first line). */
  at: number
  code: number
  text: string
}

/** An example as a module: its text, and how many lines come before the example's first. */
interface Wrapped {
  /** The module's text. */
  text: string
  /** Lines before the example's first. */
  offset: number
}

/**
 * The diagnostics of a name nothing declares: cannot find a name (2304; 2552 with a
 * suggestion; 2580-2593 for the globals of Node, jQuery and test runners), a namespace
 * (2503), a value used as a namespace (2749), a shorthand property without a value (18004).
 */
const FREE_NAME = new Set([2304, 2552, 2582, 2580, 2583, 2584, 2591, 2593, 2503, 2749, 18004])

/** The names weft defines: what its entries export, and every top-level name of src. */
export interface WeftNames { public: ReadonlySet<string>; all: ReadonlySet<string> }

/** How a name the example does not define is used: decides how it is declared, and whether it is suspect. */
export interface Use { value: boolean; typeArguments?: boolean; type: boolean; generic: number; namespace: boolean; called: boolean; jsx: boolean; constructed: boolean; suggestion?: string }

function useOf(node: ts.Node, use: Use): void {
  const parent = node.parent
  if (ts.isTypeReferenceNode(parent) || ts.isExpressionWithTypeArguments(parent) && ts.isHeritageClause(parent.parent) && parent.parent.token === ts.SyntaxKind.ImplementsKeyword) {
    use.type = true
    use.generic = Math.max(use.generic, parent.typeArguments?.length ?? 0)
  } else if (ts.isQualifiedName(parent) && parent.left === node) {
    use.namespace = true
  } else if (ts.isTypeQueryNode(parent)) {
    use.value = true
  } else {
    use.value = true
    if (ts.isCallExpression(parent) && parent.expression === node) {
      use.called = true
      if (parent.typeArguments) use.typeArguments = true
    }
    if (ts.isNewExpression(parent) && parent.expression === node) use.constructed = true
    if ((ts.isJsxOpeningElement(parent) || ts.isJsxSelfClosingElement(parent) || ts.isJsxClosingElement(parent)) && parent.tagName === node) use.jsx = true
  }
}

function identifierAt(file: ts.SourceFile, start: number): ts.Identifier | undefined {
  let found: ts.Identifier | undefined
  const visit = (node: ts.Node): void => {
    if (start < node.getStart(file) || start >= node.getEnd()) return
    if (ts.isIdentifier(node) && node.getStart(file) === start) found = node
    else node.forEachChild(visit)
  }
  file.forEachChild(visit)
  return found
}

/**
 * The module text of an example. A doc example is often a fragment, so, keeping
 * its lines where they are: `...` standing for elided code is dropped (`{ ... }`,
 * `{ ..., storage }`); a line at the left margin that starts with `<`, `(`, `[` or
 * a backtick starts a statement of its own (the example shows one result after
 * another, not a comparison or a call); an example that returns is a function
 * body; one that does not parse as statements is an expression (an object
 * literal), or alternatives side by side (JSX siblings, made one fragment).
 */
function asModule(code: string): Wrapped {
  const lines = code
    .replace(/\{\s*\.\.\.\s*\}/g, '{}')
    .replace(/(^|[^\w$.])\.\.\.\s*,\s*/g, '$1')
    .split('\n')
  for (let i = 1; i < lines.length; i++) {
    const previous = lines.slice(0, i).reverse().find((l) => l.trim() !== '' && !/^\s*\/\//.test(l))
    if (!previous || /^\s/.test(previous) || /[([{,=+\-*/?:&|]\s*$|=>\s*$/.test(previous)) continue
    // Inside an element opened on the line before.
    if (/^<[A-Za-z]/.test(previous) && /[^/]>\s*$/.test(previous) && !previous.includes('</')) continue
    if (/^(<[A-Za-z>]|[([`])/.test(lines[i]!)) lines[i] = `;${lines[i]}`
  }
  const body = lines.join('\n')
  const plain = `export {}\n${body}\n`
  if (parses(plain)) {
    if (!returns(plain)) return { text: plain, offset: 1 }
    return { text: `export {}\nasync function example() {\n${body}\n}\n`, offset: 2 }
  }
  // Only what starts as one: the parentheses must not close a call the example left open.
  const expression = `export {}\nvoid (\n${body}\n)\n`
  if (/^\s*\{/.test(body) && parses(expression)) return { text: expression, offset: 2 }
  const siblings = `export {}\nvoid (<>\n${body}\n</>)\n`
  if (/^\s*</.test(body) && parses(siblings)) return { text: siblings, offset: 2 }
  return { text: plain, offset: 1 }
}

function returns(text: string): boolean {
  return ts.createSourceFile('x.tsx', text, ts.ScriptTarget.ES2022, false, ts.ScriptKind.TSX).statements.some(ts.isReturnStatement)
}

function parses(text: string): boolean {
  const file = ts.createSourceFile('x.tsx', text, ts.ScriptTarget.ES2022, false, ts.ScriptKind.TSX)
  return (file as unknown as { parseDiagnostics: unknown[] }).parseDiagnostics.length === 0
}

export interface Compiled {
  problems: Problem[]
  /** Names each example took from weft, by example (`file#index`): for the test's own checks. */
  imported: Map<string, string[]>
  /** Names each example took from a module of src that no entry exports (`name (file)`). */
  internals: Map<string, string[]>
  /** Names each example uses without defining them, declared `any`. */
  free: Map<string, Array<{ name: string; use: Use }>>
}

export const keyOf = (example: Example) => `${example.file}#${example.index}`

/**
 * Compiles every example against the sources in one program (twice: once to learn
 * which names each leaves undefined, once with those names imported or declared).
 */
export function compile(list: Example[], isSuspect: (name: string, use: Use, weft: WeftNames) => string | undefined): Compiled {
  const config = ts.readConfigFile(join(root, 'tsconfig.json'), ts.sys.readFile)
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root)
  // The repository's options, less the ones a host may not have that no example should need:
  // noImplicitAny (a callback given to a host's `any` has untyped parameters), noUncheckedIndexedAccess,
  // noImplicitOverride; and import elision, since an example imports nothing itself.
  const options: ts.CompilerOptions = {
    ...parsed.options, noEmit: true, noUnusedLocals: false, noUnusedParameters: false,
    // An entry the tsconfig does not name yet resolves as the package's exports would.
    paths: { ...parsed.options.paths, 'weft/*': ['./src/*/index.ts', './src/*.ts', './src/*.tsx'] },
    verbatimModuleSyntax: false, isolatedModules: false, noImplicitAny: false, noUncheckedIndexedAccess: false, noImplicitOverride: false, allowUnusedLabels: true, allowUnreachableCode: true,
  }
  const names = list.map((example) => join(examplesDir, `${example.file.replace(/[/.]/g, '_')}_${example.index}.tsx`))
  const modules = list.map((example) => asModule(example.code))
  const texts = new Map(names.map((name, i) => [name, modules[i]!.text]))
  const host = ts.createCompilerHost(options)
  const readFile = host.readFile.bind(host)
  const fileExists = host.fileExists.bind(host)
  host.readFile = (name) => texts.get(name) ?? readFile(name)
  host.fileExists = (name) => texts.has(name) || fileExists(name)
  const getSourceFile = host.getSourceFile.bind(host)
  host.getSourceFile = (name, language, onError, create) =>
    texts.has(name) ? ts.createSourceFile(name, texts.get(name)!, language, true, ts.ScriptKind.TSX) : getSourceFile(name, language, onError, create)

  const entryFiles = ENTRIES.map((entry) => join(root, entry))
  // Every module of src, so an internal module's exports are known even when no entry reaches it.
  const roots = [...new Set([...entryFiles, ...sourceFiles(join(root, 'src'))]), ...names]
  const first = ts.createProgram(roots, options, host)
  const checker = first.getTypeChecker()
  /** A module's exports, each with whether a host can use it as a value (not a type, nor exported with `export type`). */
  const exportsOf = new Map<string, Map<string, boolean>>()
  const exportNames = (file: string): Map<string, boolean> => {
    let found = exportsOf.get(file)
    if (!found) {
      const path = file === 'react' ? ts.resolveModuleName('react', entryFiles[0]!, options, host).resolvedModule?.resolvedFileName : join(root, file)
      const source = path ? first.getSourceFile(path) : undefined
      const symbol = source && checker.getSymbolAtLocation(source)
      found = new Map(symbol ? checker.getExportsOfModule(symbol).map((s) => [s.name, isValue(s)]) : [])
      exportsOf.set(file, found)
    }
    return found
  }
  const isValue = (symbol: ts.Symbol): boolean => {
    const typeOnly = symbol.declarations?.some((d) => ts.isExportSpecifier(d) && (d.isTypeOnly || d.parent.parent.isTypeOnly))
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol
    return !typeOnly && (target.flags & ts.SymbolFlags.Value) !== 0
  }
  /** A file's own top-level names that it does not export: an example may use what the file it documents defines. */
  const localNames = (file: string): Set<string> => {
    const source = first.getSourceFile(join(root, file))
    const exported = exportNames(file)
    const local = new Set<string>()
    for (const statement of source?.statements ?? []) {
      const named = (statement as { name?: ts.Node }).name
      if (named && ts.isIdentifier(named)) local.add(named.text)
      if (ts.isVariableStatement(statement)) for (const d of statement.declarationList.declarations) if (ts.isIdentifier(d.name)) local.add(d.name.text)
    }
    for (const name of exported.keys()) local.delete(name)
    return local
  }
  /** Globals of the DOM library that examples use as the host's own variables (`screen` of Testing Library, an `event`, a `history`, a list of `frames`). */
  const shadowed = new Set(['screen', 'event', 'history', 'frames', 'name', 'status', 'parent', 'origin', 'length', 'top', 'self', 'close', 'open', 'stop', 'find', 'print', 'scroll', 'closed', 'external'])
  const isDomGlobal = (id: ts.Identifier): boolean => {
    if (!shadowed.has(id.text) || ts.isPropertyAccessExpression(id.parent) && id.parent.name === id || ts.isPropertyAssignment(id.parent) && id.parent.name === id) return false
    const declarations = checker.getSymbolAtLocation(id)?.declarations ?? []
    return declarations.length > 0 && declarations.every((d) => first.isSourceFileDefaultLibrary(d.getSourceFile()))
  }
  const allPublic = new Set(ENTRIES.flatMap((entry) => [...exportNames(entry).keys()]))
  /** Every module of src by the names it exports, and the names src declares without exporting. */
  const srcFiles = first.getSourceFiles().filter((f) => f.fileName.startsWith(join(root, 'src') + '/')).map((f) => relative(root, f.fileName))
  const exportedBy = new Map<string, string[]>()
  const privateNames = new Set<string>()
  for (const file of srcFiles) {
    for (const name of exportNames(file).keys()) exportedBy.set(name, [...(exportedBy.get(name) ?? []), file])
    for (const name of localNames(file)) privateNames.add(name)
  }
  const weftNames = new Set([...allPublic, ...exportedBy.keys(), ...privateNames])
  /** The module of src that exports a name, nearest the example's file first (most of the path in common). */
  const nearest = (name: string, file: string): string | undefined => {
    const common = (a: string) => { let n = 0; while (n < a.length && a[n] === file[n]) n++; return n }
    return exportedBy.get(name)?.slice().sort((a, b) => common(b) - common(a))[0]
  }

  const imported = new Map<string, string[]>()
  const internals = new Map<string, string[]>()
  const free = new Map<string, Array<{ name: string; use: Use }>>()
  const suspects = new Map<string, Problem[]>()
  list.forEach((example, i) => {
    const name = names[i]!
    const source = first.getSourceFile(name)!
    const uses = new Map<string, Use>()
    for (const d of first.getSemanticDiagnostics(source)) {
      if (!FREE_NAME.has(d.code) || d.start === undefined) continue
      const id = identifierAt(source, d.start)
      if (!id) continue
      const use = uses.get(id.text) ?? { value: false, type: false, generic: 0, namespace: false, called: false, jsx: false, constructed: false }
      const suggestion = /Did you mean '([^']+)'/.exec(ts.flattenDiagnosticMessageText(d.messageText, '\n'))?.[1]
      if (suggestion) use.suggestion = suggestion
      useOf(id, use)
      uses.set(id.text, use)
    }
    const visit = (node: ts.Node): void => {
      if (ts.isIdentifier(node) && isDomGlobal(node)) {
        const use = uses.get(node.text) ?? { value: false, type: false, generic: 0, namespace: false, called: false, jsx: false, constructed: false }
        useOf(node, use)
        uses.set(node.text, use)
      }
      node.forEachChild(visit)
    }
    source.forEachChild(visit)
    const local = localNames(example.file)
    const sources = [example.file, ...entriesFor(example.file), 'react']
    const imports = new Map<string, string[]>()
    const declared: string[] = []
    const freeNames: Array<{ name: string; use: Use }> = []
    const internal: string[] = []
    for (const [id, use] of uses) {
      // A value from an entry that exports it as one (the testing entry exports `AgentClient` as a type only).
      const from = sources.find((file) => exportNames(file).get(id) === true) ?? (use.value ? undefined : sources.find((file) => exportNames(file).has(id)))
      // A name of another module of src that no entry exports: an internal module's example may use its
      // neighbours. Only a name of two words or more (`createAgUiStream`): a one-word name (`fold`, `retry`)
      // is as likely the host's own.
      const module = from ?? (/[A-Z]/.test(id) ? nearest(id, example.file) : undefined)
      if (module) {
        imports.set(module, [...(imports.get(module) ?? []), id])
        if (!from) internal.push(`${id} (${module})`)
        continue
      }
      if (local.has(id) || privateNames.has(id)) {
        // The file's private helpers and constants: they exist, but a host cannot reach their types.
        declared.push(declaration(id, use))
        continue
      }
      freeNames.push({ name: id, use })
      declared.push(declaration(id, use))
      const why = isSuspect(id, use, { public: allPublic, all: weftNames })
      if (why) {
        const at = lineOf(source, id, modules[i]!.offset)
        suspects.set(keyOf(example), [...(suspects.get(keyOf(example)) ?? []), {
          example, at, code: 0,
          text: `'${id}' is used as weft's (${use.jsx ? 'a JSX tag' : use.constructed ? 'constructed' : use.called ? 'called' : use.type ? 'a type' : 'a value'}) but nothing in weft defines it: ${why}`,
        }])
      }
    }
    imported.set(keyOf(example), [...imports.values()].flat())
    internals.set(keyOf(example), internal)
    free.set(keyOf(example), freeNames)
    const header = [
      ...[...imports].map(([from, ids]) => `import { ${ids.join(', ')} } from '${from === 'react' ? from : join(root, from).replace(/\.tsx?$/, '')}'`),
      ...declared,
    ]
    // The declarations go on the module's first line, so the example's lines keep their numbers.
    texts.set(name, `${header.join('; ')}${header.length ? '; ' : ''}${modules[i]!.text}`)
  })

  const second = ts.createProgram(roots, options, host, first)
  const problems: Problem[] = []
  list.forEach((example, i) => {
    const source = second.getSourceFile(names[i]!)!
    problems.push(...(suspects.get(keyOf(example)) ?? []))
    for (const d of [...second.getSyntacticDiagnostics(source), ...second.getSemanticDiagnostics(source)]) {
      const line = d.start === undefined ? 0 : source.getLineAndCharacterOfPosition(d.start).line
      problems.push({ example, at: line - modules[i]!.offset + 1, code: d.code, text: ts.flattenDiagnosticMessageText(d.messageText, ' ') })
    }
  })
  return { problems, imported, internals, free }
}

function lineOf(source: ts.SourceFile, id: string, offset: number): number {
  const at = source.text.search(new RegExp(`\\b${id}\\b`))
  return at < 0 ? 0 : source.getLineAndCharacterOfPosition(at).line - offset + 1
}

/** `any` in every meaning the example uses the name in: a value, a type (generic as often as used), a namespace. */
function declaration(name: string, use: Use): string {
  const parts: string[] = []
  // A function when the example passes it type arguments (`useRef<HTMLDivElement>(null)`); `let`, as examples assign to the host's variables.
  if (use.typeArguments) parts.push(`declare function ${name}<_0 = any, _1 = any, _2 = any>(...args: any[]): any`)
  else if (use.value || (!use.type && !use.namespace)) parts.push(`declare let ${name}: any`)
  if (use.type) parts.push(`type ${name}${use.generic ? `<${Array.from({ length: use.generic }, (_, k) => `_${k} = any`).join(', ')}>` : ''} = any`)
  if (use.namespace) parts.push(`declare namespace ${name} { type _ = any }`)
  return parts.join('; ')
}
