/**
 * JSON Patch ships only with the protocols that patch (AG-UI's `STATE_DELTA` and
 * `ACTIVITY_DELTA`): the fold has none of its own. A host that speaks only the UI
 * message stream (hooks, core and `weft/protocols/ui-message`) bundles no
 * `fast-json-patch` and no `patchJsonData`, from the sources (an esbuild bundle,
 * tree-shaken as a host's bundler does) and from the built files when `dist/` is
 * fresh (their static import graph). AG-UI is checked to reach it, so the walk is
 * known to find it.
 */
import { readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { describe, expect, it } from 'vitest'
import { distIsFresh } from '../../../scripts/build-if-stale.mjs'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..')
const EXTERNAL = ['react', 'react-dom', 'react/jsx-runtime', 'zustand', 'zustand/*', 'immer', 'eventsource-parser', 'idb']

/** The inputs that put code in a host's bundle of `source` (what tree-shaking kept), and its text. */
async function bundle(source: string): Promise<{ inputs: string[]; text: string }> {
  const result = await build({
    stdin: { contents: source, resolveDir: root, loader: 'ts' },
    bundle: true, write: false, format: 'esm', platform: 'browser', treeShaking: true, metafile: true,
    external: EXTERNAL, logLevel: 'silent',
  })
  const [output] = Object.values(result.metafile.outputs)
  const inputs = Object.entries(output!.inputs).filter(([, input]) => input.bytesInOutput > 0).map(([name]) => name)
  return { inputs, text: result.outputFiles[0]!.text }
}

/** The files a built entry loads statically, and the packages they import. */
function staticGraph(entries: readonly string[]): { files: Set<string>; bare: Set<string> } {
  const files = new Set<string>()
  const bare = new Set<string>()
  const stack = entries.map((entry) => join(root, entry))
  while (stack.length > 0) {
    const file = stack.pop()!
    if (files.has(file)) continue
    files.add(file)
    for (const match of readFileSync(file, 'utf8').matchAll(/^\s*(?:import|export)\b[^'";]*?(?:from\s*)?["']([^"']+)["']/gm)) {
      const spec = match[1]!
      if (spec.startsWith('.')) stack.push(resolve(dirname(file), spec))
      else bare.add(spec)
    }
  }
  return { files, bare }
}

const hasPatchCode = (text: string) => /patchJsonData|applyOperation|JsonPatchRefused/.test(text)

describe('JSON Patch in a bundle', () => {
  it('a UI-message-only host (hooks, core, the protocol) bundles none; an AG-UI host does', async () => {
    const ui = await bundle(`
      export { AgentProvider, useAgentStream, useTurnIds, useTurn, useMessage } from './src/react/index.ts'
      export { AgentClient, createAgentStore, foldStream } from './src/core/index.ts'
      export { uiMessageProtocol } from './src/protocols/ui-message/index.ts'
    `)
    expect(ui.inputs.filter((input) => /\/json-data\.ts$|fast-json-patch/.test(input))).toEqual([])
    expect(hasPatchCode(ui.text)).toBe(false)

    const agUi = await bundle(`
      export { AgentClient, createAgentStore } from './src/core/index.ts'
      export { agUiProtocol } from './src/protocols/ag-ui/index.ts'
    `)
    expect(agUi.inputs.some((input) => input.includes('fast-json-patch'))).toBe(true)
    expect(hasPatchCode(agUi.text)).toBe(true)
  }, 60_000)

  it.skipIf(!distIsFresh(['dist/core.js', 'dist/react.js', 'dist/protocols/ui-message.js', 'dist/protocols/ag-ui.js']))(
    'the built core, hooks and UI message entries load no JSON Patch code; the AG-UI entry does',
    () => {
      const ui = staticGraph(['dist/core.js', 'dist/react.js', 'dist/protocols/ui-message.js'])
      expect([...ui.bare].filter((spec) => spec.startsWith('fast-json-patch'))).toEqual([])
      expect([...ui.files].filter((file) => hasPatchCode(readFileSync(file, 'utf8'))).map((file) => file.slice(root.length + 1))).toEqual([])

      const agUi = staticGraph(['dist/protocols/ag-ui.js'])
      expect(agUi.bare.has('fast-json-patch')).toBe(true)
    },
  )
})
