/**
 * What `npm pack` ships from a clone: `prepack` builds, so a fresh clone packs
 * dist/ (writing the build's output to stderr, so `npm pack --json` still
 * prints only JSON); the tarball holds a file for every `exports` target; and `engines`
 * states the Node versions CI tests. Packed with `--dry-run --ignore-scripts`:
 * the global setup has already built, and `prepack` would only build again.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { root, run } from './scaffold'

const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>
  engines?: Record<string, string>
  exports: Record<string, string | Record<string, string>>
}

/** Every file path an `exports` entry points at (conditions flattened). */
function exportTargets(): string[] {
  return Object.values(pkg.exports).flatMap((target) => (typeof target === 'string' ? [target] : Object.values(target)))
    .map((path) => path.replace(/^\.\//, ''))
}

describe('the packed package', () => {
  it('builds before packing and states the Node versions it supports', () => {
    // The build's output goes to stderr: `npm pack --json` prints a prepack's stdout before its JSON,
    // and scripts/check-package.mjs parses that JSON.
    expect(pkg.scripts.prepack).toBe('npm run build 1>&2')
    expect(pkg.engines).toEqual({ node: '>=20' })
  })

  it('npm pack ships dist/ with a file for every exports target', async () => {
    const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, timeoutMs: 120_000 })
    const [packed] = JSON.parse(stdout) as Array<{ files: Array<{ path: string }> }>
    const files = packed!.files.map((file) => file.path)
    expect(files).toContain('dist/index.js')
    // Beside dist/, only what npm always includes.
    expect(files.filter((file) => !file.startsWith('dist/') && !['package.json', 'README.md', 'LICENSE'].includes(file))).toEqual([])
    for (const target of exportTargets()) {
      const pattern = new RegExp(`^${target.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('[^/]+')}$`)
      expect(files.some((file) => pattern.test(file)), `${target} is in the tarball`).toBe(true)
    }
  })
})
