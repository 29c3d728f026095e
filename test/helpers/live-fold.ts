/**
 * Feed one recorded body through the live `AgentClient` (an injected fetch whose
 * body arrives in the given pieces) and through `foldStream`, so a test can hold
 * the two paths to the same state.
 */
import { syncScheduler, type Scheduler } from '../../src/core/store/batcher'
import { AgentClient } from './built-in-client'
import { foldStream } from '../../src/umbrella/defaults'
import type { AgentState, ProtocolName } from '../../src/core/model/model'
import { createAgentStore } from '../../src/core/store/store'

/** A fetch answering every request with `pieces`, one read each (empty pieces are empty reads). */
export function piecesFetch(pieces: readonly Uint8Array[], headers: Record<string, string> = {}): typeof fetch {
  return async () => {
    let at = 0
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (at >= pieces.length) controller.close()
        else controller.enqueue(pieces[at++] as Uint8Array)
      },
    })
    return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream', ...headers } })
  }
}

/** Cut `bytes` at the given offsets (sorted, repeats give empty reads). */
export function cutAt(bytes: Uint8Array, cuts: readonly number[]): Uint8Array[] {
  const points = [...cuts].map((c) => Math.max(0, Math.min(bytes.length, c))).sort((a, b) => a - b)
  const pieces: Uint8Array[] = []
  let from = 0
  for (const point of points) {
    pieces.push(bytes.slice(from, point))
    from = point
  }
  pieces.push(bytes.slice(from))
  return pieces
}

/** One piece per SSE frame: each read ends exactly at a frame's blank line. */
export function perFrame(text: string): Uint8Array[] {
  const encoder = new TextEncoder()
  return text.split(/(?<=\n\n)/).map((part) => encoder.encode(part))
}

export interface LiveRun {
  state: AgentState
  turnId: string
}

/** Run one `send()` over the pieces and return the store's state and the assistant turn's id. */
export async function liveFold(
  pieces: readonly Uint8Array[],
  options: { protocol?: ProtocolName; scheduler?: Scheduler; headers?: Record<string, string> } = {},
): Promise<LiveRun> {
  const store = createAgentStore()
  const client = new AgentClient(store, {
    url: '/agent', fetch: piecesFetch(pieces, options.headers), protocol: options.protocol,
    scheduler: options.scheduler ?? syncScheduler, idleTimeoutMs: 0,
  })
  await client.send()
  const state = store.getState()
  const turnId = state.turnIds.find((id) => state.turns[id]?.role === 'assistant')
  if (!turnId) throw new Error('the client opened no assistant turn')
  return { state: snapshot(state), turnId }
}

/** The same body folded by `foldStream` under the live turn's id. */
export function recordedFold(text: string, turnId: string, protocol?: ProtocolName): AgentState {
  return snapshot(foldStream(text, { turnId, protocol }))
}

/**
 * What both paths must agree on: the conversation itself. The stream status,
 * the cursor and the turns' timing belong to the connection (the live path has
 * one, a recording not).
 */
export function comparable(state: AgentState): Omit<AgentState, 'status' | 'error' | 'cursor' | 'activeTurnId'> {
  const { status: _s, error: _e, cursor: _c, activeTurnId: _a, ...rest } = state
  const copy = JSON.parse(JSON.stringify(rest)) as Omit<AgentState, 'status' | 'error' | 'cursor' | 'activeTurnId'>
  for (const turn of Object.values(copy.turns)) delete turn.timing
  return copy
}

function snapshot(state: AgentState): AgentState {
  const { dispatch: _d, reset: _r, ...data } = state as AgentState & { dispatch?: unknown; reset?: unknown }
  return data as AgentState
}
