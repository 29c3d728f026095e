#!/usr/bin/env node
// The size of weft/testing's entries in the package's own build (run `npm run build` first):
// gzip of each entry plus the chunks only testing code loads (its own code, then the fixtures),
// and of everything the entry loads, the weft core an app already has included.
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist')
if (!existsSync(join(dist, 'testing.js'))) {
  console.error('testing-size: no dist/testing.js; run `npm run build` first')
  process.exit(1)
}
const MAIN = ['index.js', 'core.js', 'react.js', 'components.js', 'protocols.js']
const TESTING = ['testing.js', 'testing/msw.js', 'testing/storybook.js']

/** Every file an entry loads, itself included. */
function closure(entry) {
  const seen = new Set()
  const visit = (file) => {
    if (seen.has(file)) return
    seen.add(file)
    const code = readFileSync(join(dist, file), 'utf8')
    for (const m of code.matchAll(/(?:from|import)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g)) visit(join(dirname(file), m[1]).replace(/\\/g, '/'))
  }
  visit(entry)
  return [...seen]
}
const kib = (files) => (files.reduce((n, f) => n + gzipSync(readFileSync(join(dist, f))).length, 0) / 1024).toFixed(1)
const shared = new Set(MAIN.flatMap(closure))
const isFixtures = (file) => /(^|\/)fixtures-[^/]*\.js$/.test(file)

console.log('| entry | own code | fixtures | everything it loads |')
console.log('|---|---|---|---|')
for (const entry of TESTING) {
  const all = closure(entry)
  const own = all.filter((f) => !shared.has(f))
  console.log(`| \`weft/${entry.replace(/\.js$/, '')}\` | ${kib(own.filter((f) => !isFixtures(f)))} | ${kib(own.filter(isFixtures))} | ${kib(all)} |`)
}
