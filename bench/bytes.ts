/**
 * Bytes shipped: what a host's bundle gains for a streaming chat, minified and
 * gzipped with the same bundler settings for weft and its peers (React external).
 */
import { build } from 'esbuild'
import { gzipSync } from 'node:zlib'
import { fileURLToPath } from 'node:url'
import { n, table } from './harness'

const root = fileURLToPath(new URL('..', import.meta.url))

const entries: Array<[string, string]> = [
  ['weft hooks (useAgentStream + selector hooks, 4 protocols)', `export { builtInProtocols } from './src/protocols/index.ts'; export { AgentProvider, useAgentStream, useTurnIds, useTurn, useMessage } from './src/react/index.ts'`],
  ['weft hooks, 1 protocol (UI message stream)', `export { uiMessageProtocol } from './src/protocols/ui-message/index.ts'; export { AgentProvider, useAgentStream, useTurnIds, useTurn, useMessage } from './src/react/index.ts'`],
  ['weft hooks + resume, 4 protocols', `export { builtInProtocols } from './src/protocols/index.ts'; export { AgentProvider, useAgentStream, useResumableStream, useTurnIds, useTurn, useMessage } from './src/react/index.ts'`],
  ['weft hooks + components, 4 protocols', `export { builtInProtocols } from './src/protocols/index.ts'; export { AgentProvider, useAgentStream } from './src/react/index.ts'; export { Transcript, Composer, StatusBar } from './src/components/index.ts'`],
  ['weft core only (foldStream + Yao, no React)', `export { foldStream } from './src/core/index.ts'; export { yaoProtocol } from './src/protocols/yao/index.ts'`],
  ['@ai-sdk/react useChat (1 protocol)', `export { useChat } from '@ai-sdk/react'`],
  ['@ag-ui/client HttpAgent (1 protocol, no React binding)', `export { HttpAgent } from '@ag-ui/client'`],
]

/** The test helpers, which a host installs as a dev dependency; their peers (Testing Library, msw) stay external. */
const testingEntries: Array<[string, string]> = [
  ['weft/testing without fixtures (streamResponse, mockFetch, renderWithAgent, recordStream)', `export { streamResponse, mockFetch, renderWithAgent, recordStream } from './src/testing/index.ts'`],
  ['weft/testing, everything (29 fixtures included)', `export * from './src/testing/index.ts'`],
  ['weft/testing/msw (agentHandlers, fixtureHandlers, fixtures included)', `export * from './src/testing/msw.ts'`],
  ['weft/testing/storybook (withAgent, fixtures included)', `export * from './src/testing/storybook.tsx'`],
]

async function size(contents: string, external: readonly string[] = []): Promise<{ min: number; gzip: number }> {
  const result = await build({
    stdin: { contents, resolveDir: root, loader: 'ts', sourcefile: 'entry.ts' },
    bundle: true, minify: true, format: 'esm', platform: 'browser', write: false, logLevel: 'silent',
    external: ['react', 'react-dom', 'react/jsx-runtime', ...external],
    define: { 'process.env.NODE_ENV': '"production"' },
    jsx: 'automatic',
  })
  const code = result.outputFiles[0]!.contents
  return { min: code.length, gzip: gzipSync(code, { level: 9 }).length }
}

/** Print bundle sizes. */
export async function benchBytes(): Promise<void> {
  console.log('Bytes shipped: minified + gzip, React external, same esbuild settings for all')
  const rows: Array<Record<string, string>> = []
  for (const [name, contents] of entries) {
    try {
      const { min, gzip } = await size(contents)
      rows.push({ bundle: name, 'min KiB': n(min / 1024, 1), 'gzip KiB': n(gzip / 1024, 1) })
    } catch (thrown) {
      rows.push({ bundle: name, 'min KiB': 'n/a', 'gzip KiB': `failed: ${thrown instanceof Error ? thrown.message.split('\n')[0] : String(thrown)}` })
    }
  }
  table(rows)
  console.log('')
  console.log('Test helpers (a separate entry, never in the bundles above): minified + gzip, React, Testing Library and msw external')
  const testingRows: Array<Record<string, string>> = []
  for (const [name, contents] of testingEntries) {
    const { min, gzip } = await size(contents, ['@testing-library/react', 'msw', 'msw/*'])
    testingRows.push({ bundle: name, 'min KiB': n(min / 1024, 1), 'gzip KiB': n(gzip / 1024, 1) })
  }
  table(testingRows)
}
