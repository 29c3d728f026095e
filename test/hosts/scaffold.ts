/**
 * Host apps made the way a new user makes one: `create-vite`'s react-ts
 * template, the packed weft tarball installed with npm, a README snippet as
 * `src/App.tsx`, and the template's own `npm run build` (`tsc -b && vite
 * build`, Vite's production build). Nothing here bundles weft's sources or
 * aliases its entries: the host resolves `weft/*` through the tarball's
 * `exports`, as it would from the registry.
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildIfStale } from '../../scripts/build-if-stale.mjs'

/** The repository's root. */
export const root = fileURLToPath(new URL('../..', import.meta.url))

/** The output of a finished command. */
export interface RunResult {
  stdout: string
  stderr: string
}

/**
 * Runs a command with no standard input (as CI does) and a time limit, so a
 * prompt or an unreachable registry fails the suite with the command's own
 * output instead of hanging it.
 *
 * @example
 * await run('npm', ['install'], { cwd: host, timeoutMs: 180_000, hint: 'is the npm registry reachable?' })
 */
export function run(command: string, args: string[], options: { cwd: string; timeoutMs: number; env?: NodeJS.ProcessEnv; hint?: string }): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NPM_CONFIG_UPDATE_NOTIFIER: 'false', NPM_CONFIG_FUND: 'false', NPM_CONFIG_AUDIT: 'false', ...options.env },
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs)
    const describe = (why: string) => {
      const tail = `${stdout}\n${stderr}`.trim().split('\n').slice(-40).join('\n')
      return new Error(`${command} ${args.join(' ')} (in ${options.cwd}) ${why}${options.hint ? `: ${options.hint}` : ''}\n${tail}`)
    }
    child.on('error', (error) => {
      clearTimeout(timer)
      reject(describe(`could not start (${error.message})`))
    })
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      if (code === 0) resolve({ stdout, stderr })
      else reject(describe(signal === 'SIGKILL' ? `took over ${options.timeoutMs / 1000} s and was stopped` : `exited with ${code ?? signal}`))
    })
  })
}

/** The time since `start`, in seconds, for the suite's timing report. */
export const seconds = (start: number) => Math.round((performance.now() - start) / 100) / 10

/** The newest modification time under `path`, recursively. */
/**
 * `npm run build` when `dist/` is missing or older than the newest file it is
 * built from; then the tarball, packed with `--ignore-scripts` since the
 * package's `prepack` would only build again. Returns the tarball's path.
 *
 * @example
 * const tarball = await packWeft(tmp)
 */
export async function packWeft(destination: string): Promise<{ tarball: string; built: boolean }> {
  const stale = buildIfStale()
  const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', destination], { cwd: root, timeoutMs: 120_000 })
  const [packed] = JSON.parse(stdout) as Array<{ filename: string }>
  if (!packed) throw new Error(`npm pack printed no package:\n${stdout}`)
  return { tarball: join(destination, packed.filename), built: stale }
}

/** The ```tsx block of a document that contains `marker`, exactly as written. */
export function snippet(doc: string, marker: string): string {
  const blocks = [...readFileSync(join(root, doc), 'utf8').matchAll(/^```tsx\n([\s\S]*?)^```$/gm)].map((m) => m[1]!)
  const found = blocks.filter((code) => code.includes(marker))
  if (found.length !== 1) throw new Error(`${doc}: expected one tsx block with ${marker}, found ${found.length}`)
  return found[0]!
}

/** `text` with `from` replaced by `to`, failing when the snippet no longer says `from`. */
function swap(text: string, from: string, to: string): string {
  if (!text.includes(from)) throw new Error(`the README snippet no longer contains ${JSON.stringify(from)}; update test/hosts/scaffold.ts`)
  return text.split(from).join(to)
}

/** The README snippets a host is built from. */
export type SnippetName = 'first' | 'persisted'
/** The stock servers a host talks to. */
export type ProtocolName = 'ui-message' | 'ag-ui'

/**
 * The README's first chat or persisted chat, as written for the AI SDK, or
 * with only the names an AG-UI server needs swapped in (`protocol: 'ag-ui'`;
 * `agUiProtocol` and `resume: 'sse'`).
 *
 * @example
 * const app = snippetFor('persisted', 'ag-ui')
 */
export function snippetFor(name: SnippetName, protocol: ProtocolName): string {
  const text = name === 'first' ? snippet('README.md', 'AgentProvider><Assistant') : snippet('README.md', 'createConversations')
  if (protocol === 'ui-message') return text
  if (name === 'first') return swap(text, "protocol: 'ui-message'", "protocol: 'ag-ui'")
  let swapped = swap(text, "import { uiMessageProtocol } from 'weft/protocols/ui-message'", "import { agUiProtocol } from 'weft/protocols/ag-ui'")
  swapped = swap(swapped, 'protocol: uiMessageProtocol', 'protocol: agUiProtocol')
  return swap(swapped, "resume: 'ai-sdk'", "resume: 'sse'")
}

/**
 * The LangGraph page's host (docs/langgraph.md), as written, pointed at `apiUrl`.
 *
 * @example
 * const app = langGraphSnippet('http://127.0.0.1:4321')
 */
export function langGraphSnippet(apiUrl: string): string {
  return swap(snippet('docs/langgraph.md', 'langGraphThreads({ apiUrl'), "const apiUrl = 'http://localhost:2024'", `const apiUrl = '${apiUrl}'`)
}

/**
 * Builds the LangGraph page's host into `dist-langgraph`, as `buildApp` builds the README's.
 *
 * @example
 * const outDir = await buildLangGraphApp(host, server.url)
 */
export async function buildLangGraphApp(host: Host, apiUrl: string): Promise<string> {
  const outDir = 'dist-langgraph'
  const tail = host.shiki ? "export { default } from './Highlighted.tsx'\n" : 'export default App\n'
  writeFileSync(join(host.dir, 'src', 'App.tsx'), `${langGraphSnippet(apiUrl)}\n${tail}`)
  await run('npm', ['run', 'build', '--', '--outDir', outDir], { cwd: host.dir, timeoutMs: 180_000, hint: 'the LangGraph page\'s host does not build' })
  return join(host.dir, outDir)
}

/**
 * Builds `app` (a module that exports `App`) into `dist-<name>`, as `buildApp` builds the README's.
 *
 * @example
 * const outDir = await buildCustomApp(host, 'devtools', DEVTOOLS_APP)
 */
export async function buildCustomApp(host: Host, name: string, app: string): Promise<string> {
  const outDir = `dist-${name}`
  const tail = host.shiki ? "export { default } from './Highlighted.tsx'\n" : 'export default App\n'
  writeFileSync(join(host.dir, 'src', 'App.tsx'), `${app}\n${tail}`)
  await run('npm', ['run', 'build', '--', '--outDir', outDir], { cwd: host.dir, timeoutMs: 180_000, hint: `the ${name} page does not build as a host` })
  return join(host.dir, outDir)
}

/** The versions this repository locks, so the host's install is served from npm's cache where they overlap. */
function lockedVersions(names: string[]): Record<string, string> {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version?: string }> }
  return Object.fromEntries(names.map((name) => {
    const version = lock.packages[`node_modules/${name}`]?.version
    if (!version) throw new Error(`package-lock.json has no ${name}`)
    return [name, version]
  }))
}

/** The optional peers a host "with shiki" installs and wires: code colours, math and diagrams. */
const PEERS = ['shiki', 'katex', 'mermaid']

/** A scaffolded and installed host app. */
export interface Host {
  dir: string
  shiki: boolean
}

/**
 * A new app from `create-vite`'s react-ts template (the CLI, non-interactive,
 * with no install), with weft installed from `tarball`. What changes from the
 * template: the linter goes (not needed to build), the versions it shares with
 * this repository are this repository's, `vite.config.ts` proxies `/api` to
 * the chat server named by `CHAT_SERVER` when previewed, and with `shiki` the
 * optional peers (shiki, KaTeX, Mermaid) are installed and `src/Highlighted.tsx`
 * wraps the app in weft's documented `MarkdownSettingsProvider highlight={shikiHighlighter}
 * math={katexMath} diagrams={mermaidDiagrams}`.
 * `src/main.tsx` and `src/index.css` stay the template's.
 *
 * @example
 * const host = await scaffoldHost(tmp, 'host-plain', tarball, { shiki: false })
 */
export async function scaffoldHost(parent: string, name: string, tarball: string, { shiki }: { shiki: boolean }): Promise<Host> {
  const dir = join(parent, name)
  const createVite = join(root, 'node_modules', 'create-vite', 'index.js')
  // create-vite reports a failure without an exit code, so its output is checked below.
  await run(process.execPath, [createVite, name, '--template', 'react-ts', '--no-interactive', '--no-immediate'], { cwd: parent, timeoutMs: 60_000 })
  for (const file of ['package.json', 'src/main.tsx', 'src/App.tsx', 'src/index.css', 'vite.config.ts', 'tsconfig.app.json']) {
    if (!existsSync(join(dir, file))) throw new Error(`create-vite did not write ${file} in ${dir}`)
  }

  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>; dependencies: Record<string, string>; devDependencies: Record<string, string>
  }
  // The linter is dev tooling that `tsc -b && vite build` does not use.
  for (const linter of ['oxlint', 'eslint']) delete pkg.devDependencies[linter]
  for (const dep of Object.keys(pkg.devDependencies)) if (/eslint/.test(dep)) delete pkg.devDependencies[dep]
  delete pkg.scripts.lint
  rmSync(join(dir, '.oxlintrc.json'), { force: true })
  rmSync(join(dir, 'eslint.config.js'), { force: true })
  const shared = lockedVersions(['react', 'react-dom', 'vite', '@vitejs/plugin-react', 'typescript', '@types/react', '@types/react-dom', '@types/node', ...(shiki ? PEERS : [])])
  for (const [dep, version] of Object.entries(shared)) {
    if (dep in pkg.dependencies || PEERS.includes(dep)) pkg.dependencies[dep] = version
    else pkg.devDependencies[dep] = version
  }
  pkg.dependencies.weft = `file:${tarball}`
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`)

  // The snippets fetch same-origin /api/chat; the previewed app forwards it to the chat server.
  const config = readFileSync(join(dir, 'vite.config.ts'), 'utf8')
  const proxied = config.replace(
    '  plugins: [react()],\n',
    "  plugins: [react()],\n  // The chat server behind `vite preview`: the app calls same-origin /api/chat.\n  preview: { proxy: { '/api': process.env.CHAT_SERVER ?? 'http://127.0.0.1:8787' } },\n",
  )
  if (proxied === config) throw new Error(`create-vite's vite.config.ts changed shape; update test/hosts/scaffold.ts:\n${config}`)
  writeFileSync(join(dir, 'vite.config.ts'), proxied)

  if (shiki) {
    writeFileSync(join(dir, 'src', 'Highlighted.tsx'), [
      "import { MarkdownSettingsProvider } from 'weft/components'",
      "import { shikiHighlighter } from 'weft/shiki'",
      "import { katexMath } from 'weft/katex'",
      "import { mermaidDiagrams } from 'weft/mermaid'",
      "import { App } from './App.tsx'",
      '',
      '// Code blocks coloured by shiki, math drawn by KaTeX and diagrams by Mermaid, the way weft documents them.',
      'export default function Highlighted() {',
      '  return <MarkdownSettingsProvider highlight={shikiHighlighter} math={katexMath} diagrams={mermaidDiagrams}><App /></MarkdownSettingsProvider>',
      '}',
      '',
    ].join('\n'))
  }

  try {
    await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--fetch-timeout=30000', '--fetch-retries=1'], { cwd: dir, timeoutMs: 240_000 })
  } catch (error) {
    // npm's own message for a registry it cannot reach is often a resolution error; say which it is.
    const reachable = await run('npm', ['ping', '--fetch-timeout=10000', '--fetch-retries=0'], { cwd: dir, timeoutMs: 30_000 }).then(() => true, () => false)
    throw new Error(`${reachable ? 'the host app\'s npm install failed' : 'the npm registry is unreachable (npm ping failed), so the host app cannot be installed'}\n${(error as Error).message}`)
  }
  return { dir, shiki }
}

/**
 * Writes the snippet as `src/App.tsx` and runs the template's `npm run build`
 * into `dist-<id>`. The snippets export `App` by name and the template's
 * `main.tsx` imports a default, so one line is appended: `export default App`,
 * or with shiki the wrapper, which imports `App` back.
 *
 * @example
 * const outDir = await buildApp(host, 'first', 'ui-message')
 */
export async function buildApp(host: Host, name: SnippetName, protocol: ProtocolName): Promise<string> {
  const outDir = `dist-${name}-${protocol}`
  const tail = host.shiki ? "export { default } from './Highlighted.tsx'\n" : 'export default App\n'
  writeFileSync(join(host.dir, 'src', 'App.tsx'), `${snippetFor(name, protocol)}\n${tail}`)
  await run('npm', ['run', 'build', '--', '--outDir', outDir], { cwd: host.dir, timeoutMs: 180_000, hint: `the ${name} snippet (${protocol}) does not build as a host` })
  return join(host.dir, outDir)
}

/**
 * A temporary folder for the suite's hosts, removed by the returned function.
 *
 * @example
 * const { dir, remove } = tempDir('plain')
 */
export function tempDir(label: string): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), `weft-hosts-${label}-`))
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) }
}
