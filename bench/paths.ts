/**
 * The paths the bench times, each reading the same bytes: the parse floor,
 * weft's `foldStream`, weft's live client, and the peers' own clients.
 */
import { HttpAgent } from '@ag-ui/client'
import { DefaultChatTransport, readUIMessageStream } from 'ai'
import { createParser } from 'eventsource-parser'
import type { Scheduler } from '../src/core/store/batcher'
import { AgentClient } from '../src/core/client'
import { builtInProtocols } from '../src/protocols/index'
import type { AgentClientOptions } from '../src/core/client/options'
import { foldStream } from '../src/umbrella/defaults'
import type { AgentState } from '../src/core/model/model'
import type { HydratedTurn } from '../src/core/model/ops'
import { createAgentStore, type AgentStore } from '../src/core/store/store'
import { chunkBytes, networkResponse } from './harness'
import type { Scenario } from './scenarios'

/** One flush per 60 Hz frame, as `frameScheduler` does in a browser. */
export const perFrame: Scheduler = (flush) => {
  const handle = setTimeout(flush, 1000 / 60)
  return () => clearTimeout(handle)
}

/** Streaming `TextDecoder` + `eventsource-parser` + `JSON.parse`: the least any reader does. */
export async function parseFloor(chunks: readonly Uint8Array[], headers: Record<string, string>): Promise<number> {
  let events = 0
  const parser = createParser({
    onEvent(event) {
      if (event.data === '[DONE]') return
      JSON.parse(event.data)
      events += 1
    },
  })
  const reader = networkResponse(chunks, headers['content-type']).body!.getReader()
  const decoder = new TextDecoder()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    parser.feed(decoder.decode(value, { stream: true }))
  }
  parser.feed(decoder.decode())
  return events
}

/** `foldStream` over the SSE text (framing, decoder, ops and fold in one batch). */
export function weftFold(text: string, scenario: Scenario): AgentState {
  return foldStream(text, { protocol: scenario.protocol })
}

/** The live client: fetch, transport, decoder, batcher and fold into a store. Returns the store commits. */
export async function weftClient(
  chunks: readonly Uint8Array[], scenario: Scenario, store: AgentStore, scheduler?: Scheduler, timing?: { requestMs: number }, extra: Partial<AgentClientOptions> = {},
): Promise<number> {
  const started = performance.now()
  let commits = 0
  const unsubscribe = store.subscribe(() => {
    commits += 1
  })
  const client = new AgentClient(store, {
    url: 'http://bench.invalid/stream',
    protocol: scenario.protocol,
    protocols: builtInProtocols,
    scheduler,
    ...extra,
    fetch: async () => {
      // Up to here the send built its request (the whole history, for some protocols).
      if (timing) timing.requestMs = performance.now() - started
      const response = networkResponse(chunks)
      return new Response(response.body, { headers: scenario.headers })
    },
  })
  await client.send()
  unsubscribe()
  return commits
}

/** What `useResumableStream` adds: resume on, its handle kept in memory (a page would use `sessionStorage`). */
export function resumable(): Partial<AgentClientOptions> {
  const kept = new Map<string, string>()
  return {
    resume: {
      conversationKey: 'bench',
      storage: { getItem: (key) => kept.get(key) ?? null, setItem: (key, value) => void kept.set(key, value), removeItem: (key) => void kept.delete(key) },
    },
  }
}

/** A store already holding `messages` finished messages (10 per turn). */
export function crowdedStore(messages: number): AgentStore {
  const store = createAgentStore()
  const turns: HydratedTurn[] = []
  for (let t = 0; t < messages / 10; t++) {
    turns.push({
      turn: { id: `old-${t}`, role: t % 2 ? 'assistant' : 'user' },
      messages: Array.from({ length: 10 }, (_, m) => ({ id: `old-${t}-${m}`, type: 'text', props: { content: `message ${t}.${m} `.repeat(8) } })),
    })
  }
  store.getState().dispatch([{ op: 'hydrate', turns, at: 'start' }])
  return store
}

/**
 * `crowdedStore(messages)` after one short exchange over `scenario`: a live
 * conversation has sent requests before the one measured, and a protocol reuses
 * what it built for the turns that did not change since.
 */
export async function crowdedConversation(messages: number, scenario: Scenario): Promise<AgentStore> {
  const store = crowdedStore(messages)
  await weftClient(chunkBytes(new TextEncoder().encode(scenario.sse(10)), 16 * 1024), scenario, store, perFrame)
  return store
}

/** The AI SDK's client path: its transport parses and validates the bytes, `readUIMessageStream` folds them. */
export async function aiSdk(chunks: readonly Uint8Array[], scenario: Scenario): Promise<number> {
  const transport = new DefaultChatTransport({
    api: 'http://bench.invalid/chat',
    fetch: async () => new Response(networkResponse(chunks).body, { headers: scenario.headers }),
  })
  const stream = await transport.sendMessages({
    trigger: 'submit-message', chatId: 'bench', messageId: undefined, messages: [], abortSignal: undefined,
  })
  let snapshots = 0
  for await (const _ of readUIMessageStream({ stream })) snapshots += 1
  return snapshots
}

/** `@ag-ui/client`'s `HttpAgent.runAgent`: its SSE parser, event verification and message fold. */
export async function agUiClient(chunks: readonly Uint8Array[], scenario: Scenario): Promise<number> {
  const agent = new HttpAgent({
    url: 'http://bench.invalid/agent',
    threadId: 'th1',
    fetch: async () => new Response(networkResponse(chunks).body, { headers: scenario.headers }),
  })
  await agent.runAgent({ runId: 'r1' })
  return agent.messages.length
}
