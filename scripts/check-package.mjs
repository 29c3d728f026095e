#!/usr/bin/env node
// Checks the package as a host receives it: packs it with `npm pack`, then
//  1. publint on the tarball: 0 messages (suggestions included);
//  2. @arethetypeswrong/cli on the tarball, profile esm-only (the package ships ESM
//     only, so `require` from CommonJS and node10 resolution are out of scope): 0 problems;
//  3. installs the tarball into a new consumer project and runs `tsc --noEmit` over a
//     file importing every entry, under moduleResolution bundler, node16 and nodenext;
//  4. reads the packed files: the entries whose import graph reaches React start with
//     "use client" and no other entry does; `weft/core`, `weft/protocol-kit`,
//     `weft/protocols` and every `weft/protocols/<name>` never reach React (a
//     protocol's views are `weft/protocols/<name>/react`); every emitted module with code has its source map;
//     `sideEffects` names only stylesheets: no module registers anything on import.
// Builds first when dist/ is older than its inputs (packing skips `prepack`, which would
// only build again). Exits non-zero on the first failed step.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, posix, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildIfStale } from './build-if-stale.mjs'
import { moduleEntries as entriesOf, protocolFolders, protocolHasViews } from './package-entries.mjs'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
const keep = process.argv.includes('--keep')
const work = mkdtempSync(join(tmpdir(), 'weft-package-'))
const failures = []

function step(title) {
  console.log(`\n-- ${title}`)
}
function fail(message) {
  failures.push(message)
  console.error(`FAIL ${message}`)
}
function run(cmd, args, options = {}) {
  return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...options })
}

if (buildIfStale()) console.log('check-package: dist/ was older than its inputs, so it was built')

try {
  step('npm pack')
  const packed = JSON.parse(run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], { cwd: root }))[0]
  const tarball = join(work, packed.filename)
  console.log(`${packed.filename}: ${packed.entryCount} files, ${(packed.size / 1024).toFixed(1)} KiB packed, ${(packed.unpackedSize / 1024).toFixed(1)} KiB unpacked`)
  const unpacked = join(work, 'unpacked')
  mkdirSync(unpacked)
  run('tar', ['-xzf', tarball, '-C', unpacked])
  const packageDir = join(unpacked, 'package')

  step('publint (strict, every level)')
  const { publint } = await import('publint')
  const { formatMessage } = await import('publint/utils')
  const bytes = readFileSync(tarball)
  const lint = await publint({ pack: { tarball: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) }, level: 'suggestion', strict: true })
  for (const message of lint.messages) fail(`publint ${message.type}: ${formatMessage(message, lint.pkg) ?? message.code}`)
  if (lint.messages.length === 0) console.log('publint: 0 messages')

  step('arethetypeswrong (profile esm-only)')
  // styles.css is a stylesheet, not a module: there are no types to find for it.
  try {
    // attw does not expand export patterns by itself: the protocol entries are named.
    const protocols = protocolFolders(root).map((name) => `./protocols/${name}`)
    console.log(run(join(root, 'node_modules', '.bin', 'attw'), [tarball, '--profile', 'esm-only', '--exclude-entrypoints', 'styles.css', '--include-entrypoints', ...protocols, '--format', 'ascii', '--no-color', '--no-emoji']))
  } catch (error) {
    fail(`attw found problems:\n${error.stdout ?? ''}${error.stderr ?? ''}`)
  }

  step('a consumer project: tsc --noEmit under bundler, node16 and nodenext')
  checkConsumer(tarball)

  step('the packed files')
  checkFiles(packageDir)
} finally {
  if (keep) console.log(`\nkept ${work}`)
  else rmSync(work, { recursive: true, force: true })
}

if (failures.length > 0) {
  console.error(`\ncheck-package: ${failures.length} problem(s)`)
  process.exit(1)
}
console.log('\ncheck-package: ok')

/** Every module subpath the package exports, a protocol pattern expanded to its folders. */
function moduleEntries() {
  return entriesOf(pkg, root).map((entry) => entry.key)
}

/** The file an entry's `import` condition names. */
function importOf(key) {
  return entriesOf(pkg, root).find((entry) => entry.key === key).import
}

function checkConsumer(tarball) {
  const consumer = join(work, 'consumer')
  mkdirSync(consumer)
  writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }, null, 2))
  // The host's own dependencies at the versions this repository tests with.
  const version = (name) => JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')).version
  const peers = ['react', 'react-dom', '@types/react', '@types/react-dom', 'msw', '@testing-library/react', '@testing-library/dom']
  run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', tarball, ...peers.map((p) => `${p}@${version(p)}`)], { cwd: consumer })

  const specifiers = moduleEntries().map((key) => (key === '.' ? pkg.name : `${pkg.name}/${key.slice(2)}`))
  const expected = ['weft', 'weft/core', 'weft/react', 'weft/components', 'weft/protocols', 'weft/protocol-kit', 'weft/testing', 'weft/testing/msw', 'weft/testing/storybook']
  for (const name of expected) if (!specifiers.includes(name)) fail(`package.json exports no ${name}`)
  for (const name of protocolFolders(root)) if (!specifiers.includes(`weft/protocols/${name}`)) fail(`src/protocols/${name}/ has no weft/protocols/${name} export`)
  for (const name of protocolFolders(root).filter((n) => protocolHasViews(root, n))) {
    if (!specifiers.includes(`weft/protocols/${name}/react`)) fail(`src/protocols/${name}/react/ has no weft/protocols/${name}/react export`)
  }

  // Every entry as a namespace, plus a few names used the way a host uses them, so a
  // type that resolved to `any` or to nothing is an error too.
  const lines = specifiers.map((specifier, i) => `import * as entry${i} from '${specifier}'`)
  lines.push(
    `import { foldStream, createAgentStore, type AgentState } from 'weft/core'`,
    `import { useAgentStream } from 'weft/react'`,
    `import { Transcript } from 'weft/components'`,
    `import { yaoProtocol } from 'weft/protocols/yao'`,
    `import { fixtures } from 'weft/testing'`,
    `const state: AgentState = foldStream('', { protocol: yaoProtocol })`,
    `const ids: string[] = state.turnIds`,
    `const store = createAgentStore()`,
    `const stream: typeof useAgentStream = useAgentStream`,
    `const view: typeof Transcript.Root = Transcript.Root`,
    `const fixture: unknown = fixtures`,
    `export const used = [${specifiers.map((_, i) => `entry${i}`).join(', ')}, ids, store, stream, view, fixture]`,
  )
  writeFileSync(join(consumer, 'index.ts'), `${lines.join('\n')}\n`)

  const settings = {
    bundler: { module: 'esnext', moduleResolution: 'bundler' },
    node16: { module: 'node16', moduleResolution: 'node16' },
    nodenext: { module: 'nodenext', moduleResolution: 'nodenext' },
  }
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc')
  for (const [name, resolution] of Object.entries(settings)) {
    const config = {
      compilerOptions: {
        ...resolution, target: 'es2022', lib: ['es2023', 'dom', 'dom.iterable'], jsx: 'react-jsx',
        strict: true, noEmit: true, skipLibCheck: false, types: [],
      },
      files: ['index.ts'],
    }
    writeFileSync(join(consumer, `tsconfig.${name}.json`), JSON.stringify(config, null, 2))
    try {
      run('node', [tsc, '-p', `tsconfig.${name}.json`], { cwd: consumer })
      console.log(`${name}: ${specifiers.length} entries typecheck`)
    } catch (error) {
      fail(`tsc under ${name}:\n${(error.stdout ?? '').split('\n').slice(0, 40).join('\n')}`)
    }
  }
}

/** The static imports of an emitted module. */
function importsOf(file) {
  const text = readFileSync(file, 'utf8')
  return [...text.matchAll(/^\s*(?:import|export)\b[^'";]*?(?:from\s*)?["']([^"']+)["']/gm)].map((m) => m[1])
}

function checkFiles(packageDir) {
  const dist = join(packageDir, 'dist')
  // Which module files each entry's static graph reaches, and whether React is among them.
  const reachesReact = (start) => {
    const seen = new Set()
    const stack = [start]
    while (stack.length > 0) {
      const file = stack.pop()
      if (seen.has(file)) continue
      seen.add(file)
      for (const spec of importsOf(file)) {
        if (spec.startsWith('.')) stack.push(resolve(dirname(file), spec))
        else if (spec === 'react' || spec.startsWith('react/') || spec === 'react-dom' || spec.startsWith('react-dom/')) return true
      }
    }
    return false
  }
  // The core, the protocol kit, every protocol entry and the voice adapters must not reach React: a protocol's views are its `/react` entry.
  const reactFree = ['./core', './protocol-kit', './protocols', './voice', ...protocolFolders(root).map((name) => `./protocols/${name}`)]
  let client = 0
  for (const key of moduleEntries()) {
    const file = join(packageDir, importOf(key))
    const text = readFileSync(file, 'utf8')
    const directive = /^(?:\/\/[^\n]*\n|\/\*[\s\S]*?\*\/\s*)*\s*["']use client["'];?/.test(text)
    const react = reachesReact(file)
    if (react && !directive) fail(`${key} imports React but ${importOf(key)} does not start with "use client"`)
    if (!react && directive) fail(`${key} does not import React but is marked "use client"`)
    if (reactFree.includes(key) && react) fail(`${key} reaches React through its imports`)
    if (directive) client += 1
  }
  console.log(`"use client": on the ${client} entries that import React; ${reactFree.join(', ')} reach no React`)

  // Source maps: every emitted module with code of its own names its map, and the map ships.
  const files = (dir) => readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? files(join(dir, name)) : [join(dir, name)]))
  let mapped = 0
  for (const file of files(dist).filter((f) => f.endsWith('.js'))) {
    const text = readFileSync(file, 'utf8')
    const ownCode = text.split('\n').some((line) => line.trim() !== '' && !/^\s*(import|export|"use client"|\/\/)/.test(line))
    const url = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(text)?.[1]
    if (!ownCode) continue
    if (!url) fail(`${posix.relative(packageDir, file)} has no source map`)
    else if (!existsSync(join(dirname(file), url))) fail(`${posix.relative(packageDir, file)}: ${url} is not in the package`)
    else mapped += 1
  }
  console.log(`source maps: ${mapped} modules with code, each with its map`)

  // sideEffects: the stylesheets only. Protocols are given to a client or a provider, never
  // registered on import, so a bundler may drop any module a host does not use.
  const declared = pkg.sideEffects
  if (!Array.isArray(declared)) fail('sideEffects is not a list')
  else {
    const notStyles = declared.filter((entry) => !entry.endsWith('.css'))
    if (notStyles.length > 0) fail(`sideEffects names modules that are not stylesheets: ${notStyles.join(', ')}`)
    const registering = files(dist).filter((f) => f.endsWith('.js') && /\bregisterProtocol\b/.test(readFileSync(f, 'utf8')))
    for (const file of registering) fail(`${posix.relative(packageDir, file)} names registerProtocol: nothing may register protocols on import`)
    console.log(`sideEffects: ${declared.join(', ')} (stylesheets only)`)
  }
}
