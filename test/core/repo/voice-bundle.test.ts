/**
 * Voice costs a host nothing until it imports `weft/voice`: a bundle of all of
 * `weft/components` (tree-shaken by esbuild, as a host's bundler does) holds the
 * dictation button and the read-aloud action but none of the Web Speech
 * implementations, and `weft/voice` itself reaches no React. When `dist/` is
 * fresh the built files are checked too (their static import graph). The voice
 * entry is checked to hold the implementations, so the search is known to find them.
 */
import { readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { describe, expect, it } from 'vitest'
import { distIsFresh } from '../../../scripts/build-if-stale.mjs'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..')
const EXTERNAL = ['react', 'react-dom', 'react/*', 'zustand', 'zustand/*', 'immer', 'eventsource-parser', 'idb', 'marked', 'virtua', 'dompurify', 'fast-json-patch']

/** The inputs that put code in a host's bundle of `source`, its text and the packages it imports. */
async function bundle(source: string): Promise<{ inputs: string[]; text: string }> {
  const result = await build({
    stdin: { contents: source, resolveDir: root, loader: 'ts' },
    bundle: true, write: false, format: 'esm', platform: 'browser', treeShaking: true, metafile: true,
    external: EXTERNAL, loader: { '.css': 'empty' }, jsx: 'automatic', logLevel: 'silent',
  })
  const [output] = Object.values(result.metafile.outputs)
  const inputs = Object.entries(output!.inputs).filter(([, input]) => input.bytesInOutput > 0).map(([name]) => name)
  return { inputs, text: result.outputFiles[0]!.text }
}

/** The Web Speech implementations, by what only they name. */
const hasWebSpeech = (text: string) => /webkitSpeechRecognition|SpeechSynthesisUtterance|speechSynthesis\b/.test(text)

describe('voice in a bundle', () => {
  it('all of weft/components holds the voice parts but no Web Speech implementation; weft/voice holds them and no React', async () => {
    const components = await bundle(`export * from './src/components/index.ts'`)
    expect(components.inputs.filter((input) => /src\/voice\/web-speech/.test(input))).toEqual([])
    expect(hasWebSpeech(components.text)).toBe(false)
    expect(components.text).toContain('composer-dictate')
    expect(components.text).toContain('read-aloud')

    const voice = await bundle(`export * from './src/voice/index.ts'`)
    expect(hasWebSpeech(voice.text)).toBe(true)
    expect(voice.text).not.toMatch(/from\s*["']react/)
    expect(voice.inputs.filter((input) => !input.startsWith('src/voice/'))).toEqual([])
  }, 60_000)

  it.skipIf(!distIsFresh(['dist/components.js', 'dist/voice.js']))('the built weft/components loads no Web Speech code; the built weft/voice imports nothing', () => {
    const files = new Set<string>()
    const stack = [join(root, 'dist/components.js')]
    while (stack.length > 0) {
      const file = stack.pop()!
      if (files.has(file)) continue
      files.add(file)
      for (const match of readFileSync(file, 'utf8').matchAll(/^\s*(?:import|export)\b[^'";]*?(?:from\s*)?["']([^"']+)["']/gm)) {
        if (match[1]!.startsWith('.')) stack.push(resolve(dirname(file), match[1]!))
      }
    }
    expect([...files].filter((file) => hasWebSpeech(readFileSync(file, 'utf8'))).map((file) => file.slice(root.length + 1))).toEqual([])
    const voice = readFileSync(join(root, 'dist/voice.js'), 'utf8')
    expect(hasWebSpeech(voice)).toBe(true)
    expect(voice).not.toMatch(/^\s*import\b/m)
  })
})
