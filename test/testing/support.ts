/** Helpers the weft/testing tests share: run a client to its end and compare states across runs. */
// A host testing with weft/testing and the `weft` entry: its fold speaks the built-in protocols, and a client made by hand is given them.
import { AgentClient, builtInProtocols, createAgentStore, foldStream, snapshot, syncScheduler, type AgentClientOptions, type AgentState } from 'weft'
import { encodeFrame, type AgentFixture } from 'weft/testing'
import { messageRecord } from '../../src/core/model/message-table'
import { traceRecord } from '../../src/core/model/trace-table'

/** Sends once through a fresh client and store; resolves with the model when the turn ended. */
export async function runClient(options: AgentClientOptions, input?: string): Promise<AgentState> {
  const store = createAgentStore()
  const client = new AgentClient(store, { protocols: builtInProtocols, scheduler: syncScheduler, ...options })
  await client.send(input)
  return snapshot(store.getState())
}

/** The fixture's frames as one SSE text. */
export function sseText(fixture: AgentFixture): string {
  return fixture.frames.map((frame) => encodeFrame(frame)).join('')
}

/** The reference fold of a fixture (what `foldStream` makes of its whole text). */
export function referenceFold(fixture: AgentFixture): AgentState {
  return foldStream(sseText(fixture), { protocol: fixture.protocol, turnId: 'turn-1' })
}

/**
 * What a turn's content folded to, with the client's generated turn ids renamed
 * (the assistant's `turn-1`, the others by position): messages, blocks, threads,
 * trace, gates, shared state and the turn itself (its status and error included;
 * its timing left out).
 */
export function content(state: AgentState, turnId = assistantTurnId(state)): unknown {
  // Timing is the live client's clock, which a fold and a replay do not share.
  const { timing: _timing, ...turn } = state.turns[turnId] ?? {}
  const text = JSON.stringify({
    turn,
    messages: messageRecord(state.messages),
    blocks: state.blocks,
    threads: state.threads,
    trace: traceRecord(state.trace),
    gates: state.gates,
    agentState: state.agentState,
  })
  let renamed = text.split(turnId).join('turn-1')
  state.turnIds.filter((id) => id !== turnId).forEach((id, i) => {
    renamed = renamed.split(id).join(`other-turn-${i + 1}`)
  })
  return JSON.parse(renamed)
}

/** The id of the (last) assistant turn. */
export function assistantTurnId(state: AgentState): string {
  const id = [...state.turnIds].reverse().find((t) => state.turns[t]?.role === 'assistant')
  if (!id) throw new Error('no assistant turn')
  return id
}
