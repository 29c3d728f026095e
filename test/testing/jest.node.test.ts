/**
 * weft/testing under Jest: runs the Jest project in `test/jest` (jsdom through
 * `jest-fixed-jsdom`, native ESM) against the built package, which its test
 * imports by name (`weft/testing`, `weft/react`) through the package's exports.
 * Builds first when `dist` is missing or older than the sources.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const root = join(dirname(fileURLToPath(import.meta.url)), '../..')
/** What the Jest test loads from the build. */
const BUILT = ['dist/testing.js', 'dist/react.js', 'dist/protocols.js']
/** What the build is made from. */
const INPUTS = ['src', 'package.json', 'vite.config.ts', 'tsconfig.build.json', 'scripts/copy-fixtures.mjs']

function newest(path: string): number {
  const full = join(root, path)
  const stat = statSync(full)
  if (!stat.isDirectory()) return stat.mtimeMs
  return Math.max(0, ...readdirSync(full).map((name) => newest(join(path, name))))
}

function buildIsFresh(): boolean {
  if (!BUILT.every((file) => existsSync(join(root, file)))) return false
  const built = Math.min(...BUILT.map((file) => statSync(join(root, file)).mtimeMs))
  return Math.max(...INPUTS.map(newest)) <= built
}

interface JestReport {
  success: boolean
  numTotalTests: number
  numPassedTests: number
  testResults: Array<{ assertionResults: Array<{ title: string; status: string }> }>
}

let outDir: string
let run: ReturnType<typeof spawnSync>
let report: JestReport

beforeAll(() => {
  if (!buildIsFresh()) {
    const build = spawnSync('npm', ['run', 'build'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
    if (build.status !== 0) throw new Error(`npm run build failed:\n${build.stdout}\n${build.stderr}`)
  }
  outDir = mkdtempSync(join(tmpdir(), 'weft-jest-'))
  const outputFile = join(outDir, 'report.json')
  run = spawnSync(
    process.execPath,
    ['--experimental-vm-modules', join(root, 'node_modules/jest/bin/jest.js'), '-c', join(root, 'test/jest/jest.config.mjs'), '--ci', '--json', '--outputFile', outputFile],
    { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_NO_WARNINGS: '1' } },
  )
  report = JSON.parse(readFileSync(outputFile, 'utf8')) as JestReport
}, 240_000)
afterAll(() => rmSync(outDir, { recursive: true, force: true }))

describe('weft/testing under Jest', () => {
  it('the host-style Jest test passes against the built package', () => {
    const titles = report.testResults.flatMap((file) => file.assertionResults.map((a) => `${a.status}: ${a.title}`))
    expect(run.status, String(run.stderr)).toBe(0)
    expect(report.success).toBe(true)
    expect(report.numTotalTests).toBe(3)
    expect(titles).toEqual([
      'passed: renderWithAgent streams a fixture in random byte splits; finished() waits for the exact answer',
      'passed: mockFetch routes answer with streamResponse, one answer per call',
      'passed: an error mid-stream keeps the partial answer and shows the error',
    ])
  })
})
