#!/usr/bin/env node
// Checks the build keeps the virtual list out of the first load and the optional
// peers (shiki, KaTeX, Mermaid, and DOMPurify, which only the diagrams use) out of
// every entry but their own: the static import graph of dist/components.js (and of
// dist/index.js, which re-exports it) never imports virtua, which a dynamic
// import() still reaches; nothing they reach, statically or dynamically, names
// a peer (a bundler resolves dynamic imports too, so one would break the build of
// a host without the optional peer); and dist/shiki.js, dist/katex.js and
// dist/mermaid.js reach their library only through a dynamic import() (KaTeX's
// stylesheet with it). size-limit ignores these libraries, so a static import would
// pass the size check and this one catches it.
// Needs `npm run build` first.
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const dist = join(root, 'dist')
const LAZY = [/^virtua(\/|$)/]
const PEERS = /^(shiki|katex|mermaid|dompurify)(\/|$)/
/** Each opt-in entry, the libraries it may reach only through a dynamic import(), and what that chunk must import. */
const OPT_IN = [
  { entry: 'shiki.js', library: /^shiki(\/|$)/, needs: [] },
  { entry: 'katex.js', library: /^katex(\/|$)/, needs: ['katex', 'katex/dist/katex.min.css'] },
  { entry: 'mermaid.js', library: /^(mermaid|dompurify)(\/|$)/, needs: ['mermaid', 'dompurify'] },
]

/** The specifiers a module imports statically (import/export … from, bare import) and dynamically (import()). */
function importsOf(text) {
  const statics = [...text.matchAll(/^\s*(?:import|export)\b[^'";]*?(?:from\s*)?["']([^"']+)["']/gm)].map((m) => m[1])
  const dynamics = [...text.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1])
  return { statics, dynamics }
}

/** Walks the static graph from `start`: the files reached and the bare specifiers they import. */
function staticGraph(start) {
  const files = new Set()
  const bare = new Map()
  const dynamic = new Set()
  const stack = [start]
  while (stack.length > 0) {
    const file = stack.pop()
    if (files.has(file)) continue
    files.add(file)
    const { statics, dynamics } = importsOf(readFileSync(file, 'utf8'))
    for (const spec of statics) {
      if (spec.startsWith('.')) stack.push(resolve(dirname(file), spec))
      else bare.set(spec, file)
    }
    for (const spec of dynamics) if (spec.startsWith('.')) dynamic.add(resolve(dirname(file), spec))
  }
  return { files, bare, dynamic }
}

if (!existsSync(join(dist, 'components.js'))) {
  console.error('check-lazy-chunks: no dist/components.js; run `npm run build` first')
  process.exit(1)
}

const failures = []
for (const entry of ['components.js', 'index.js']) {
  const { files, bare, dynamic } = staticGraph(join(dist, entry))
  const before = failures.length
  if (![...bare.keys()].some((spec) => spec === 'react' || spec.startsWith('react/'))) {
    failures.push(`${entry}: the walk found no import of react, so it cannot be trusted`)
  }
  for (const [spec, file] of bare) {
    if (LAZY.some((pattern) => pattern.test(spec))) failures.push(`${entry} imports ${spec} statically (in ${relative(dist, file)})`)
  }
  // What the dynamic imports reach, outside the first load.
  const later = new Set()
  for (const chunk of dynamic) {
    if (files.has(chunk)) continue
    for (const spec of staticGraph(chunk).bare.keys()) later.add(spec)
  }
  for (const pattern of LAZY) {
    if (![...later].some((spec) => pattern.test(spec))) failures.push(`${entry}: no dynamic import reaches ${pattern.source}; was the lazy chunk removed?`)
  }
  const named = [...bare.keys(), ...later, ...[...files, ...dynamic].flatMap((file) => importsOf(readFileSync(file, 'utf8')).dynamics)]
  for (const spec of named) if (PEERS.test(spec)) failures.push(`${entry} reaches ${spec}: a host without that optional peer could not build`)
  if (failures.length === before) console.log(`${entry}: ${files.size} modules load first, none imports virtua; ${dynamic.size} chunk(s) load on first use; shiki, katex, mermaid and dompurify are never named`)
}

for (const { entry, library, needs } of OPT_IN) {
  if (!existsSync(join(dist, entry))) {
    failures.push(`${entry}: missing from the build`)
    continue
  }
  const { bare, dynamic, files } = staticGraph(join(dist, entry))
  const before = failures.length
  for (const spec of bare.keys()) if (library.test(spec)) failures.push(`${entry} imports ${spec} statically: importing the entry would load it before an answer needs it`)
  const later = [...dynamic].filter((chunk) => !files.has(chunk)).flatMap((chunk) => [...staticGraph(chunk).bare.keys()])
  if (!later.some((spec) => library.test(spec))) failures.push(`${entry}: no dynamic import reaches ${library.source}; was the lazy chunk removed?`)
  for (const spec of needs) if (!later.includes(spec)) failures.push(`${entry}: its lazy chunk does not import ${spec}`)
  if (failures.length === before) console.log(`${entry}: ${[...new Set(later.filter((spec) => library.test(spec)))].join(', ')} reached only through a dynamic import`)
}

for (const failure of failures) console.error(`FAIL ${failure}`)
process.exit(failures.length > 0 ? 1 : 0)
