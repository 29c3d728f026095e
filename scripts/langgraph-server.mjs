#!/usr/bin/env node
// A real LangGraph server for tests and fixture recording: `@langchain/langgraph-api`'s
// in-memory server (the one `langgraph dev` runs), in a child process on a free loopback port,
// with the graphs of test/langgraph/graphs registered. No Python, no network, no stdin;
// its files (`.langgraph_api/`) go to a temporary folder removed on stop.
//
//   import { startLangGraphServer } from '../scripts/langgraph-server.mjs'
//   const server = await startLangGraphServer(); fetch(`${server.url}/threads`, ...); await server.stop()
//
// Run directly (`node scripts/langgraph-server.mjs [port]`), it serves until Ctrl-C and prints its URL.
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, isAbsolute, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

// Under a DOM test environment the module's URL is not one `fileURLToPath` takes; tests run from the repository's root.
const root = moduleRoot()

function moduleRoot() {
  try {
    return join(dirname(fileURLToPath(import.meta.url)), '..')
  } catch {
    return process.cwd()
  }
}
const graphsDir = join(root, 'test/langgraph/graphs')

/** Graph id → file:export, as `langgraph.json`'s `graphs` has them (absolute paths). */
export const LANGGRAPH_GRAPHS = {
  agent: `${join(graphsDir, 'agent.ts')}:graph`,
  approval: `${join(graphsDir, 'approval.ts')}:graph`,
  research: `${join(graphsDir, 'research.ts')}:graph`,
  long: `${join(graphsDir, 'long.ts')}:graph`,
  reasoning: `${join(graphsDir, 'reasoning.ts')}:graph`,
}

/**
 * Start the server and wait until it accepts requests (about two seconds).
 * @param {{ port?: number, graphs?: Record<string, string>, timeoutMs?: number, env?: Record<string, string> }} [options]
 * @returns {Promise<{ url: string, stop(): Promise<void> }>}
 */
export async function startLangGraphServer(options = {}) {
  const cwd = mkdtempSync(join(tmpdir(), 'weft-langgraph-'))
  const payload = {
    port: options.port ?? 0,
    host: '127.0.0.1',
    nWorkers: 10,
    cwd,
    // Relative to `cwd`: the server's preload joins (not resolves) `cwd` and the first graph's path.
    graphs: Object.fromEntries(
      Object.entries(options.graphs ?? LANGGRAPH_GRAPHS).map(([id, spec]) => [id, isAbsolute(spec) ? relative(cwd, spec) : spec]),
    ),
  }
  const child = spawn(
    process.execPath,
    [
      '--import', 'tsx',
      // The server's own loader hook: graphs import the same @langchain/langgraph as the server.
      '--import', import.meta.resolve('@langchain/langgraph-api/package.json').replace(/package\.json$/, 'dist/preload.mjs'),
      join(root, 'scripts/langgraph-server-child.mjs'),
      JSON.stringify(payload),
    ],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      env: {
        ...process.env,
        LOG_LEVEL: process.env.LANGGRAPH_LOG_LEVEL ?? 'error',
        // No tracing, so nothing reaches for the network.
        LANGSMITH_TRACING: 'false',
        LANGCHAIN_TRACING_V2: 'false',
        LANGSMITH_TRACING_V2: 'false',
        LANGCHAIN_TRACING: 'false',
        NODE_ENV: 'development',
        ...options.env,
      },
    },
  )
  let output = ''
  const remember = (chunk) => {
    output = (output + chunk.toString()).slice(-8_000)
  }
  child.stderr.on('data', remember)
  const cleanupDir = () => rmSync(cwd, { recursive: true, force: true })

  const host = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`the LangGraph server did not start within ${options.timeoutMs ?? 60_000} ms:\n${output}`))
    }, options.timeoutMs ?? 60_000)
    let line = ''
    child.stdout.on('data', (chunk) => {
      remember(chunk)
      line += chunk.toString()
      const ready = /LANGGRAPH_READY (\S+)/.exec(line)
      if (ready) {
        clearTimeout(timer)
        resolve(ready[1])
      }
    })
    child.once('exit', (code, signal) => {
      clearTimeout(timer)
      reject(new Error(`the LangGraph server exited (${code ?? signal}) before it was ready:\n${output}`))
    })
    child.once('error', (error) => {
      clearTimeout(timer)
      reject(error)
    })
  }).catch((error) => {
    cleanupDir()
    throw error
  })

  return {
    url: `http://${host}`,
    output: () => output,
    stop: () =>
      new Promise((resolve) => {
        const done = () => {
          cleanupDir()
          resolve()
        }
        if (child.exitCode !== null || child.signalCode !== null) return done()
        const force = setTimeout(() => child.kill('SIGKILL'), 3_000)
        child.once('exit', () => {
          clearTimeout(force)
          done()
        })
        child.kill('SIGTERM')
      }),
  }
}

if (process.argv[1] && join(moduleRoot(), 'scripts/langgraph-server.mjs') === process.argv[1]) {
  const port = process.argv[2] ? Number(process.argv[2]) : 2024
  const started = Date.now()
  const server = await startLangGraphServer({ port })
  console.log(`LangGraph server at ${server.url} (ready in ${Date.now() - started} ms); graphs: ${Object.keys(LANGGRAPH_GRAPHS).join(', ')}`)
  const stop = () => server.stop().then(() => process.exit(0))
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}
