// `npm run build`, only when `dist/` is missing or older than what it is built from.
// The host suite, the Jest run of weft/testing, the package check and CI share this rule,
// so one run of `npm test` and `.ci/run` builds the package once.
//
//   node scripts/build-if-stale.mjs
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')

/** What the build is made from: `src/` and the files that say how it is built. */
export const BUILD_INPUTS = ['src', 'package.json', 'vite.config.ts', 'tsconfig.build.json', 'scripts/copy-fixtures.mjs', 'scripts/fix-dts-imports.mjs']

function newest(path) {
  const stat = statSync(path)
  if (!stat.isDirectory()) return stat.mtimeMs
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))))
}

/**
 * Whether every file of `built` (paths from the package root) exists and is newer than every build input.
 *
 * @example
 * if (!distIsFresh(['dist/testing.js'])) buildPackage()
 */
export function distIsFresh(built = ['dist/index.js']) {
  if (!built.every((file) => existsSync(join(root, file)))) return false
  const builtAt = Math.min(...built.map((file) => statSync(join(root, file)).mtimeMs))
  return Math.max(...BUILD_INPUTS.map((input) => newest(join(root, input)))) <= builtAt
}

/**
 * The environment without what a test runner sets: started from Vitest, the build saw
 * `NODE_ENV=test` and emitted a different (larger) bundle than `npm run build` from a shell.
 */
function buildEnv() {
  const env = { ...process.env }
  for (const name of Object.keys(env)) if (name === 'NODE_ENV' || name === 'TEST' || name.startsWith('VITEST')) delete env[name]
  return env
}

/**
 * Runs `npm run build` when `dist/` is not fresh; returns whether it built. Throws with the build's output when it fails.
 *
 * @example
 * const built = buildIfStale()
 */
export function buildIfStale(built) {
  if (distIsFresh(built)) return false
  const run = spawnSync('npm', ['run', 'build'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: buildEnv() })
  if (run.status !== 0) throw new Error(`npm run build failed:\n${run.stdout}\n${run.stderr}`)
  return true
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const start = performance.now()
  const built = buildIfStale()
  console.log(built ? `build-if-stale: built in ${((performance.now() - start) / 1000).toFixed(1)} s` : 'build-if-stale: dist/ is newer than its inputs')
}
