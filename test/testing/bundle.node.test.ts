/**
 * The published build keeps `weft/testing` to itself: no main entry (`weft`,
 * `weft/core`, `weft/react`, `weft/components`) reaches its code, and the testing
 * entries import no test runner, so they load under Jest as well as Vitest.
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { build } from 'vite'

const root = join(dirname(fileURLToPath(import.meta.url)), '../..')
const MAIN = ['index.js', 'core.js', 'react.js', 'components.js', 'protocols.js', 'protocols/yao.js', 'protocols/ui-message.js', 'protocols/vocion.js', 'protocols/ag-ui.js']
/** Strings only the testing code holds: its functions and a fixture's text. */
const TESTING_MARKERS = ['weft/testing:', 'mockFetch has no route', 'the turn did not end within', 'Paragraph 1: the café', 'agentHandlers', 'No event with id']

let outDir: string

/** Every file an entry loads, itself included (static and dynamic imports). */
function closure(entry: string): string[] {
  const seen = new Set<string>()
  const visit = (file: string) => {
    if (seen.has(file)) return
    seen.add(file)
    const code = readFileSync(join(outDir, file), 'utf8')
    for (const m of code.matchAll(/(?:from|import)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g)) visit(join(dirname(file), m[1]!).replace(/\\/g, '/'))
  }
  visit(entry)
  return [...seen]
}

beforeAll(async () => {
  // Inside the project, so the built files resolve react, zustand and the rest from node_modules.
  mkdirSync(join(root, 'node_modules/.cache'), { recursive: true })
  outDir = mkdtempSync(join(root, 'node_modules/.cache/weft-build-'))
  await build({ root, configFile: join(root, 'vite.config.ts'), logLevel: 'silent', build: { outDir, sourcemap: false, emptyOutDir: true } })
}, 120_000)
afterAll(() => rmSync(outDir, { recursive: true, force: true }))

describe('the weft/testing entries', () => {
  it.each(MAIN)('%s never loads testing code', (entry) => {
    const files = closure(entry)
    expect(files.length).toBeGreaterThan(1)
    for (const file of files) {
      expect(file.startsWith('testing')).toBe(false)
      const code = readFileSync(join(outDir, file), 'utf8')
      for (const marker of TESTING_MARKERS) expect(code.includes(marker), `${file} holds ${marker}`).toBe(false)
      expect(code).not.toMatch(/from\s*["'](msw|@testing-library\/react|storybook)/)
    }
  })

  it.each(['testing.js', 'testing/msw.js', 'testing/storybook.js'])('%s imports no test runner and has a size of its own', (entry) => {
    const files = closure(entry)
    const code = files.map((f) => readFileSync(join(outDir, f), 'utf8'))
    expect(code.some((c) => c.includes('weft/testing:'))).toBe(true)
    for (const c of code) expect(c).not.toMatch(/from\s*["'](vitest|@vitest\/[^"']+|jest|@jest\/[^"']+)["']/)
    const own = readFileSync(join(outDir, entry))
    expect(gzipSync(own).length).toBeGreaterThan(300)
  })

  it('scripts/testing-size.mjs --check holds each entry to its limits, and fails an entry over one', () => {
    // This build has no source maps, so its bytes differ a little from `npm run build`'s, which
    // CI checks against the script's own limits (.ci/run); here the limits are the test's.
    const size = (limits: unknown) => {
      const file = join(outDir, 'limits.json')
      writeFileSync(file, JSON.stringify(limits))
      return spawnSync(process.execPath, [join(root, 'scripts/testing-size.mjs'), '--check', '--dist', outDir, '--limits', file], { encoding: 'utf8', timeout: 60_000 })
    }
    const roomy = { own: 100, fixtures: 100 }
    const within = size({ 'testing.js': roomy, 'testing/msw.js': roomy, 'testing/storybook.js': roomy })
    expect(within.status, within.stdout + within.stderr).toBe(0)
    for (const entry of ['weft/testing', 'weft/testing/msw', 'weft/testing/storybook']) {
      expect(within.stdout).toMatch(new RegExp(`^ok   ${entry} own code: `, 'm'))
      expect(within.stdout).toMatch(new RegExp(`^ok   ${entry} fixtures: `, 'm'))
    }
    // A limit under today's size fails, naming the entry; an entry with no limit fails too.
    const over = size({ 'testing.js': { own: 1, fixtures: 100 }, 'testing/msw.js': roomy })
    expect(over.status).toBe(1)
    expect(over.stdout).toMatch(/^OVER weft\/testing own code: /m)
    expect(over.stdout).toMatch(/^ok   weft\/testing\/msw own code: /m)
    expect(over.stderr).toContain('over the limit: weft/testing own code, weft/testing/storybook own code, weft/testing/storybook fixtures')
  })

  it('the built weft/testing runs in plain Node, outside any test runner', () => {
    // What a Jest or Mocha setup does: import the published file and use it.
    const script = join(outDir, 'smoke.mjs')
    writeFileSync(script, `
      import { AgentClient, createAgentStore, messageList, syncScheduler } from './core.js'
      import { vocionProtocol } from './protocols/vocion.js'
      import { fixtures, mockFetch } from './testing.js'
      const fetch = mockFetch({ 'POST /agent': fixtures.vocion.plain })
      const store = createAgentStore()
      await new AgentClient(store, { url: '/agent', fetch, scheduler: syncScheduler, protocols: [vocionProtocol] }).send('Hi')
      const state = store.getState()
      const text = messageList(state.messages).filter((m) => m.role === 'assistant').map((m) => m.props.content).join('')
      console.log(JSON.stringify({ status: state.status, text, calls: fetch.calls.length }))
    `)
    const run = spawnSync(process.execPath, [script], { encoding: 'utf8', timeout: 60_000 })
    expect(run.stderr).toBe('')
    expect(JSON.parse(run.stdout)).toEqual({ status: 'done', text: 'Hello! The build is green and the release is ready.', calls: 1 })
  })

  it('only the MSW entry needs msw, and the Storybook decorator needs no Testing Library', () => {
    const imports = (entry: string) => closure(entry).map((f) => readFileSync(join(outDir, f), 'utf8')).join('\n')
    expect(imports('testing/msw.js')).toMatch(/from\s*["']msw["']/)
    expect(imports('testing.js')).not.toMatch(/from\s*["']msw/)
    expect(imports('testing/storybook.js')).not.toMatch(/from\s*["']msw/)
    expect(imports('testing/storybook.js')).not.toMatch(/@testing-library\/react/)
  })

  it('msw and Testing Library are optional peers: only the testing entries import them, so a host that never tests with weft installs neither', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      peerDependencies: Record<string, string>
      peerDependenciesMeta?: Record<string, { optional?: boolean }>
    }
    for (const peer of ['msw', '@testing-library/react']) {
      expect(pkg.peerDependencies[peer], peer).toBeDefined()
      expect(pkg.peerDependenciesMeta?.[peer]?.optional, peer).toBe(true)
      const importer = new RegExp(`from\\s*["']${peer.replace('/', '\\/')}["']`)
      for (const entry of MAIN) for (const file of closure(entry)) expect(importer.test(readFileSync(join(outDir, file), 'utf8')), `${file} imports ${peer}`).toBe(false)
    }
    // React stays a required peer: the main entries are built on it.
    expect(pkg.peerDependenciesMeta?.react?.optional).not.toBe(true)
  })
})
