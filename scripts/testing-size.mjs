#!/usr/bin/env node
// The size of weft/testing's entries in the package's own build (run `npm run build` first):
// gzip of each entry plus the chunks only testing code loads (its own code, then the fixtures),
// and of everything the entry loads, the weft core an app already has included.
//
//   node scripts/testing-size.mjs                  the table docs/testing.md and the README show
//   node scripts/testing-size.mjs --check          also fails when own code or fixtures exceed LIMITS
//   --dist <dir>    measure another build of the package (default: dist/)
//   --limits <file> JSON limits in the shape of LIMITS, instead of LIMITS
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'

/**
 * The most each entry may weigh, gzip KiB, set just above the sizes measured on 2026-12-07
 * (own code 12,868 / 10,148 / 12,289 B; fixtures 28,768 B), when LangGraph joined the built-in
 * protocols: its fixtures are the real server's recordings, metadata and all (+7.8 KB), and its
 * rejoin reply and the MSW routes of its run and rejoin paths (+0.7-1.0 KB of own code). The last
 * column, everything an entry loads, is the weft core, protocols and React bindings, whose own
 * limits are in .size-limit.json. Raise a limit in the commit that grows the entry, and say why.
 * Raised later on 2026-12-07 (own code 13,060 / 10,708 / 12,847 B) when the recorder's secret
 * rules and its frame conversion became modules shared with weft/inspector, which the fixture
 * helpers of all three entries reach.
 */
const LIMITS = {
  'testing.js': { own: 12.9, fixtures: 28.1 },
  'testing/msw.js': { own: 10.6, fixtures: 28.1 },
  'testing/storybook.js': { own: 12.7, fixtures: 28.1 },
}

const args = process.argv.slice(2)
const option = (name) => {
  const at = args.indexOf(name)
  return at >= 0 ? args[at + 1] : undefined
}
const check = args.includes('--check')
const dist = resolve(option('--dist') ?? join(dirname(fileURLToPath(import.meta.url)), '..', 'dist'))
const limits = option('--limits') ? JSON.parse(readFileSync(option('--limits'), 'utf8')) : LIMITS

if (!existsSync(join(dist, 'testing.js'))) {
  console.error(`testing-size: no testing.js in ${dist}; run \`npm run build\` first`)
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
const bytes = (files) => files.reduce((n, f) => n + gzipSync(readFileSync(join(dist, f))).length, 0)
const kib = (n) => (n / 1024).toFixed(1)
const shared = new Set(MAIN.flatMap(closure))
const isFixtures = (file) => /(^|\/)fixtures-[^/]*\.js$/.test(file)

const measured = TESTING.map((entry) => {
  const all = closure(entry)
  const own = all.filter((f) => !shared.has(f))
  return { entry, own: bytes(own.filter((f) => !isFixtures(f))), fixtures: bytes(own.filter(isFixtures)), all: bytes(all) }
})

console.log('| entry | own code | fixtures | everything it loads |')
console.log('|---|---|---|---|')
for (const m of measured) console.log(`| \`weft/${m.entry.replace(/\.js$/, '')}\` | ${kib(m.own)} | ${kib(m.fixtures)} | ${kib(m.all)} |`)

if (check) {
  const over = []
  console.log('')
  for (const m of measured) {
    for (const column of ['own', 'fixtures']) {
      const label = `weft/${m.entry.replace(/\.js$/, '')} ${column === 'own' ? 'own code' : 'fixtures'}`
      const limit = limits[m.entry]?.[column]
      if (typeof limit !== 'number') {
        console.log(`OVER ${label}: no limit set`)
        over.push(label)
        continue
      }
      const fits = m[column] <= limit * 1024
      console.log(`${fits ? 'ok  ' : 'OVER'} ${label}: ${m[column].toLocaleString('en')} B of ${limit} KiB (${Math.round(limit * 1024).toLocaleString('en')} B)`)
      if (!fits) over.push(label)
    }
  }
  if (over.length > 0) {
    console.error(`\ntesting-size: over the limit: ${over.join(', ')}`)
    process.exit(1)
  }
  console.log('\ntesting-size: every testing entry is within its limit')
}
