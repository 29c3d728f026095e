/**
 * weft/testing under Jest: runs the Jest project in `test/jest` (jsdom through
 * `jest-fixed-jsdom`, native ESM) against the built package, which its test
 * imports by name (`weft/testing`, `weft/react`) through the package's exports.
 * Builds first when `dist` is missing or older than the sources.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildIfStale } from '../../scripts/build-if-stale.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '../..')
/** What the Jest test loads from the build. */
const BUILT = ['dist/testing.js', 'dist/react.js', 'dist/protocols.js']
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
  buildIfStale(BUILT)
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
