/**
 * The protocol entries never load React: `weft/protocols`, each `weft/protocols/<name>`,
 * `weft/protocol-kit` and `weft/core` are imported in a Node process where resolving
 * `react` or `react-dom` throws (test/fixtures/no-react.mjs). A protocol's views are
 * `weft/protocols/<name>/react`, which does load React (checked too, so the hook is
 * known to bite). The sources always; the built files when `dist/` is fresh (the
 * package check walks the packed files' import graphs as well).
 */
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { distIsFresh } from '../../../scripts/build-if-stale.mjs'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..')
const protocols = readdirSync(join(root, 'src/protocols'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(join(root, 'src/protocols', entry.name, 'index.ts')))
  .map((entry) => entry.name)
const withViews = protocols.filter((name) => existsSync(join(root, 'src/protocols', name, 'react/index.ts')))

/** Imports each file in one Node process without React; what each import did, by file. */
function importWithoutReact(files: readonly string[]): Record<string, string> {
  const script = `
    const out = {}
    for (const file of ${JSON.stringify(files.map((f) => pathToFileURL(f).href))}) {
      try { const m = await import(file); out[file] = 'loaded ' + Object.keys(m).length + ' exports' }
      catch (error) { out[file] = String(error && error.message).split('\\n')[0] }
    }
    console.log(JSON.stringify(out))
  `
  const stdout = execFileSync(process.execPath, ['--import', 'tsx', '--import', './test/fixtures/no-react.mjs', '--input-type=module', '-e', script], {
    cwd: root, encoding: 'utf8', env: { ...process.env, NODE_ENV: 'production' },
  })
  const byUrl = JSON.parse(stdout.trim().split('\n').at(-1)!) as Record<string, string>
  return Object.fromEntries(Object.entries(byUrl).map(([url, result]) => [fileURLToPath(url).slice(root.length + 1), result]))
}

const loaded = expect.stringMatching(/^loaded [1-9]\d* exports$/)
const refused = expect.stringMatching(/^React was loaded: react/)

describe('protocol entries without React', () => {
  it('finds the protocols and their views', () => {
    expect(protocols).toEqual(expect.arrayContaining(['ag-ui', 'ui-message', 'vocion', 'yao']))
    expect(withViews).toContain('ag-ui')
  })

  it('the sources of weft/protocols, each weft/protocols/<name>, weft/protocol-kit and weft/core load without React', () => {
    const entries = ['src/protocols/index.ts', ...protocols.map((name) => `src/protocols/${name}/index.ts`), 'src/protocol-kit/index.ts', 'src/core/index.ts']
    const views = withViews.map((name) => `src/protocols/${name}/react/index.ts`)
    const result = importWithoutReact([...entries, ...views].map((file) => join(root, file)))
    expect(result).toEqual({ ...Object.fromEntries(entries.map((file) => [file, loaded])), ...Object.fromEntries(views.map((file) => [file, refused])) })
  }, 60_000)

  it.skipIf(!distIsFresh(['dist/protocols.js', 'dist/protocol-kit.js']))('the built entries load without React, and the views entries need it', () => {
    const entries = ['dist/protocols.js', ...protocols.map((name) => `dist/protocols/${name}.js`), 'dist/protocol-kit.js', 'dist/core.js']
    const views = withViews.map((name) => `dist/protocols/${name}/react.js`)
    const result = importWithoutReact([...entries, ...views].map((file) => join(root, file)))
    expect(result).toEqual({ ...Object.fromEntries(entries.map((file) => [file, loaded])), ...Object.fromEntries(views.map((file) => [file, refused])) })
  }, 60_000)
})
