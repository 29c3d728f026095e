#!/usr/bin/env node
// Records LangGraph fixtures from a real server: starts LangGraph's in-memory API server with the
// graphs of test/langgraph/graphs (scripts/langgraph-server.mjs), runs each scenario through the
// LangGraph SDK's `Client` (what `useStream` runs on), and writes, per scenario, into
// test/fixtures/langgraph/<scenario>/:
//   NN-<step>.sse    the exact bytes of each streamed response body, as the server sent them;
//   recording.json   each request (method, path, Last-Event-ID, JSON body), the response's status and
//                    headers, the parts `client.runs.stream` / `joinStream` yielded for it, and the
//                    thread's state after the scenario, and for some its history (`POST /threads/{id}/history`).
// Ids (threads, runs, messages, checkpoints) are the server's and differ on every recording.
//
//   node scripts/record-langgraph-fixtures.mjs            all scenarios
//   node scripts/record-langgraph-fixtures.mjs agent long only those
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Client } from '@langchain/langgraph-sdk'
import { startLangGraphServer } from './langgraph-server.mjs'

const root = fileURLToPath(new URL('..', import.meta.url))
const outDir = join(root, 'test/fixtures/langgraph')

/** The stream modes `useStream` asks for when a view reads `values` and `messages`, plus `updates`. */
const UI_MODES = ['values', 'messages-tuple', 'updates']

/**
 * A recording session for one scenario: a `Client` whose fetch keeps a copy of every request and
 * of every event-stream body it reads.
 */
function recorder(url) {
  const exchanges = []
  const recordingFetch = async (input, init = {}) => {
    const target = new URL(typeof input === 'string' ? input : input.url)
    const headers = new Headers(init.headers)
    const exchange = {
      method: init.method ?? 'GET',
      path: target.pathname + target.search,
      ...(headers.get('last-event-id') != null ? { lastEventId: headers.get('last-event-id') } : {}),
      ...(typeof init.body === 'string' ? { body: JSON.parse(init.body) } : {}),
    }
    exchanges.push(exchange)
    const response = await fetch(input, init)
    exchange.status = response.status
    exchange.headers = Object.fromEntries(
      [...response.headers].filter(([name]) => ['content-type', 'content-location', 'location'].includes(name)),
    )
    if (!response.headers.get('content-type')?.startsWith('text/event-stream') || !response.body) {
      const text = await response.text()
      exchange.response = text ? JSON.parse(text) : null
      return new Response(text, { status: response.status, headers: response.headers })
    }
    // Keep the body's exact bytes while the SDK reads the other branch; a dropped stream keeps what came.
    const [mine, theirs] = response.body.tee()
    const bytes = []
    exchange.bodyDone = (async () => {
      const reader = mine.getReader()
      try {
        for (;;) {
          const { done, value } = await reader.read()
          if (done) break
          bytes.push(value)
        }
      } catch {
        exchange.dropped = true
      }
      exchange.bytes = Buffer.concat(bytes)
    })()
    return new Response(theirs, { status: response.status, headers: response.headers })
  }
  const client = new Client({ apiUrl: url, apiKey: null, callerOptions: { fetch: recordingFetch, maxRetries: 0 } })
  return { client, exchanges }
}

/** Collect what an SDK stream yields, optionally stopping (and aborting) after `dropAfter` parts. */
async function collect(stream, { dropAfter, controller } = {}) {
  const parts = []
  try {
    for await (const part of stream) {
      parts.push(part)
      if (dropAfter !== undefined && parts.length >= dropAfter) {
        controller?.abort()
        break
      }
    }
  } catch (error) {
    if (!controller?.signal.aborted) throw error
  }
  return parts
}

const scenarios = {
  /** (a) The tool-calling agent, with the modes a chat view uses. */
  async agent({ client, step }) {
    const thread = await client.threads.create()
    await step('run', client.runs.stream(thread.thread_id, 'agent', {
      input: { messages: [{ role: 'user', content: 'What is the weather in Paris?' }] },
      streamMode: UI_MODES,
    }))
    return thread.thread_id
  },

  /** (a) again, with the modes a work timeline reads: tasks, checkpoints and debug. */
  async 'agent-trace'({ client, step }) {
    const thread = await client.threads.create()
    await step('run', client.runs.stream(thread.thread_id, 'agent', {
      input: { messages: [{ role: 'user', content: 'What is the weather in Paris?' }] },
      streamMode: ['tasks', 'checkpoints', 'debug'],
    }))
    return thread.thread_id
  },

  /** (a) with the older `messages` mode: `messages/metadata`, `messages/partial`, `messages/complete`. */
  async 'agent-messages-partial'({ client, step }) {
    const thread = await client.threads.create()
    await step('run', client.runs.stream(thread.thread_id, 'agent', {
      input: { messages: [{ role: 'user', content: 'What is the weather in Paris?' }] },
      streamMode: ['messages'],
    }))
    return thread.thread_id
  },

  /** (a) with LangChain's callback events (`events` mode), one frame per callback. */
  async 'agent-events'({ client, step }) {
    const thread = await client.threads.create()
    await step('run', client.runs.stream(thread.thread_id, 'agent', {
      input: { messages: [{ role: 'user', content: 'What is the weather in Paris?' }] },
      streamMode: ['events'],
    }))
    return thread.thread_id
  },

  /** (b) The approval: the run stops at `interrupt()`, the state says so, a `Command({ resume })` run finishes it. */
  async approval({ client, step, snapshot }) {
    const thread = await client.threads.create()
    await step('interrupt', client.runs.stream(thread.thread_id, 'approval', {
      input: { messages: [{ role: 'user', content: 'Email Ada to say hello.' }] },
      streamMode: UI_MODES,
    }))
    await snapshot('state-at-interrupt', () => client.threads.getState(thread.thread_id))
    await snapshot('thread-at-interrupt', () => client.threads.get(thread.thread_id))
    await step('resume', client.runs.stream(thread.thread_id, 'approval', {
      command: { resume: { approved: true } },
      streamMode: UI_MODES,
    }))
    return thread.thread_id
  },

  /** (b) answered with a refusal. */
  async 'approval-rejected'({ client, step }) {
    const thread = await client.threads.create()
    await step('interrupt', client.runs.stream(thread.thread_id, 'approval', {
      input: { messages: [{ role: 'user', content: 'Email Ada to say hello.' }] },
      streamMode: UI_MODES,
    }))
    await step('resume', client.runs.stream(thread.thread_id, 'approval', {
      command: { resume: { approved: false } },
      streamMode: UI_MODES,
    }))
    return thread.thread_id
  },

  /** (c) Subgraph and parallel branches, with `stream_subgraphs`: namespaced event names. */
  async research({ client, step }) {
    const thread = await client.threads.create()
    await step('run', client.runs.stream(thread.thread_id, 'research', {
      input: { messages: [{ role: 'user', content: 'Research alpha and beta.' }] },
      streamMode: [...UI_MODES, 'custom', 'tasks'],
      streamSubgraphs: true,
    }))
    return thread.thread_id
  },

  /** (c) without `stream_subgraphs`: what a client that does not ask for subgraphs sees. */
  async 'research-flat'({ client, step }) {
    const thread = await client.threads.create()
    await step('run', client.runs.stream(thread.thread_id, 'research', {
      input: { messages: [{ role: 'user', content: 'Research alpha and beta.' }] },
      streamMode: [...UI_MODES, 'custom', 'tasks'],
    }))
    return thread.thread_id
  },

  /** Reasoning content blocks before the text, in one message. */
  async reasoning({ client, step }) {
    const thread = await client.threads.create()
    await step('run', client.runs.stream(thread.thread_id, 'reasoning', {
      input: { messages: [{ role: 'user', content: 'Hi!' }] },
      streamMode: UI_MODES,
    }))
    return thread.thread_id
  },

  /**
   * (d) A long, resumable run dropped after 12 parts and rejoined with `Last-Event-ID`: the
   * rejoin starts right after the last id received, and the run went on while no one listened.
   */
  async 'long-rejoin'({ client, step }) {
    const thread = await client.threads.create()
    const controller = new AbortController()
    let runId
    await step('dropped', client.runs.stream(thread.thread_id, 'long', {
      input: { messages: [{ role: 'user', content: 'Count.' }] },
      config: { configurable: { chunks: 40, delayMs: 20 } },
      streamMode: ['values', 'messages-tuple'],
      streamResumable: true,
      onDisconnect: 'continue',
      signal: controller.signal,
      onRunCreated: (meta) => { runId = meta.run_id },
    }), { dropAfter: 12, controller })
    const lastId = [...steps.get(thread.thread_id)].reverse().find((part) => part.id !== undefined)?.id
    await step('rejoin', client.runs.joinStream(thread.thread_id, runId, { lastEventId: lastId }))
    return thread.thread_id
  },

  /** A node that throws after its model streamed: an `error` event ends the stream; the thread's status is `error`. */
  async error({ client, step, snapshot }) {
    const thread = await client.threads.create()
    await step('run', client.runs.stream(thread.thread_id, 'long', {
      input: { messages: [{ role: 'user', content: 'Count.' }] },
      config: { configurable: { chunks: 3, delayMs: 0, fail: 'The model is unavailable.' } },
      streamMode: UI_MODES,
    }))
    await snapshot('thread', () => client.threads.get(thread.thread_id))
    return thread.thread_id
  },

  /**
   * Checkpoints as branches: run the agent, then fork twice from the checkpoint before the user's
   * message (an edit: a new input) and from the checkpoint before the first model call (a regenerate:
   * no input). History lists every checkpoint of every branch, newest first.
   */
  async fork({ client, step, snapshot }) {
    const thread = await client.threads.create()
    await step('run', client.runs.stream(thread.thread_id, 'agent', {
      input: { messages: [{ role: 'user', content: 'What is the weather in Paris?' }] },
      streamMode: UI_MODES,
    }))
    const history = await snapshot('history-before-fork', () => client.threads.getHistory(thread.thread_id, { limit: 50 }))
    // Oldest first: [0] is the empty input checkpoint (next: __start__), [1] holds the user's message (next: agent).
    const oldestFirst = [...history].reverse()
    const beforeInput = oldestFirst[0]
    const beforeModel = oldestFirst[1]
    await step('edit', client.runs.stream(thread.thread_id, 'agent', {
      input: { messages: [{ role: 'user', content: 'And in Rome?' }] },
      checkpoint: { checkpoint_id: beforeInput.checkpoint.checkpoint_id, checkpoint_ns: '' },
      streamMode: UI_MODES,
    }))
    await step('regenerate', client.runs.stream(thread.thread_id, 'agent', {
      input: null,
      checkpointId: beforeModel.checkpoint.checkpoint_id,
      streamMode: UI_MODES,
    }))
    return thread.thread_id
  },
}

/** Scenarios whose recording keeps the thread's history. */
const WITH_HISTORY = new Set(['agent', 'approval', 'research', 'fork'])

// The SDK parts of the scenario being recorded, by thread (the long scenario reads its last id here).
const steps = new Map()

async function record(name, url) {
  const { client, exchanges } = recorder(url)
  const dir = join(outDir, name)
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  const recording = { scenario: name, steps: [], snapshots: {} }
  let currentThread
  let n = 0
  const step = async (label, stream, options) => {
    const from = exchanges.length
    const parts = await collect(stream, options)
    if (currentThread === undefined) currentThread = exchanges[from]?.path.split('/')[2]
    const mine = steps.get(currentThread) ?? []
    mine.push(...parts)
    steps.set(currentThread, mine)
    const streamed = exchanges.slice(from).filter((exchange) => exchange.bodyDone)
    await Promise.all(streamed.map((exchange) => exchange.bodyDone))
    n += 1
    const file = `${String(n).padStart(2, '0')}-${label}.sse`
    const [exchange] = streamed
    writeFileSync(join(dir, file), exchange.bytes)
    recording.steps.push({
      step: label,
      request: { method: exchange.method, path: exchange.path, ...(exchange.lastEventId ? { lastEventId: exchange.lastEventId } : {}), ...(exchange.body ? { body: exchange.body } : {}) },
      response: { status: exchange.status, headers: exchange.headers, body: file, ...(exchange.dropped || options?.dropAfter ? { droppedByClient: true } : {}) },
      sdkParts: parts,
    })
  }
  const snapshot = async (label, read) => {
    const value = await read()
    recording.snapshots[label] = value
    return value
  }
  const threadId = await scenarios[name]({ client, step, snapshot })
  // Let a run that went on without a reader finish before reading the thread.
  await client.runs.join(threadId, (await client.runs.list(threadId, { limit: 1 }))[0].run_id).catch(() => {})
  recording.snapshots.finalState = await client.threads.getState(threadId)
  // History (every checkpoint's whole state) only where branches or steps are the point, to keep the files small.
  if (WITH_HISTORY.has(name)) recording.snapshots.history = await client.threads.getHistory(threadId, { limit: 50 })
  writeFileSync(join(dir, 'recording.json'), `${JSON.stringify(recording, null, 2)}\n`)
  return recording
}

const wanted = process.argv.slice(2)
const names = wanted.length ? wanted : Object.keys(scenarios)
const unknown = names.filter((name) => !(name in scenarios))
if (unknown.length) {
  console.error(`unknown scenario(s): ${unknown.join(', ')}; known: ${Object.keys(scenarios).join(', ')}`)
  process.exit(1)
}
const server = await startLangGraphServer()
try {
  for (const name of names) {
    const recording = await record(name, server.url)
    console.log(`${name}: ${recording.steps.map((s) => `${s.step} (${s.sdkParts.length} parts)`).join(', ')}`)
  }
} finally {
  await server.stop()
}
