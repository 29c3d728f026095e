#!/usr/bin/env node
// Gives every relative import in the emitted declarations (dist/**/*.d.ts) its
// file: `./client` becomes `./client.js`, `./resume` becomes `./resume/index.js`.
// The sources import without extensions (moduleResolution bundler); under node16
// and nodenext a consumer's TypeScript resolves only full paths (TS2834), so the
// published declarations must name them. A specifier that matches no emitted file
// fails the build rather than shipping a declaration that cannot resolve.
// A stylesheet imported for its effect (`import 'weft/styles.css'`) is dropped:
// it declares nothing, and a type checker cannot resolve CSS.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const dist = resolve(dirname(fileURLToPath(import.meta.url)), '..', process.argv[2] ?? 'dist')

function declarations(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? declarations(path) : name.endsWith('.d.ts') ? [path] : []
  })
}

// `from './x'`, `import './x'`, `import('./x')`: the three places a declaration names a module.
const SPECIFIER = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])(\.{1,2}\/[^'"]*|\.{1,2})\2/g
const STYLESHEET = /^import\s+(['"])[^'"]+\.css\1;?\n/gm

function withFile(file, specifier) {
  if (/\.(js|mjs|cjs|json)$/.test(specifier)) return specifier
  const base = resolve(dirname(file), specifier)
  if (existsSync(`${base}.d.ts`)) return `${specifier}.js`
  if (existsSync(join(base, 'index.d.ts'))) return `${specifier.replace(/\/$/, '')}/index.js`
  throw new Error(`${relative(dist, file)}: no declaration for "${specifier}"`)
}

let files = 0
let rewritten = 0
for (const file of declarations(dist)) {
  const text = readFileSync(file, 'utf8')
  const next = text.replace(STYLESHEET, '').replace(SPECIFIER, (_, lead, quote, specifier) => {
    const full = withFile(file, specifier)
    if (full !== specifier) rewritten += 1
    return `${lead}${quote}${full}${quote}`
  })
  files += 1
  if (next !== text) writeFileSync(file, next)
}
if (files === 0) throw new Error(`no declarations under ${dist}: run tsc first`)
console.log(`fix-dts-imports: ${rewritten} relative imports given their file in ${files} declarations`)
