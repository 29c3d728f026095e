/**
 * Memory: what a long conversation keeps alive. 1M tokens over 100 turns are
 * folded into one store through the live client (one commit per network read,
 * so each message's text is built from many appends); the heap is measured after
 * a full collection with the store still referenced.
 */
import { chunkBytes, n, table } from './harness'
import { weftClient } from './paths'
import { scenarios } from './scenarios'
import { createAgentStore } from '../src/core/store/store'
import { messageList, messageRecord } from '../src/core/model/message-table'

const TURNS = 100
const TOKENS_PER_TURN = 10_000

function collect(): number {
  const gc = (globalThis as { gc?: () => void }).gc
  if (!gc) throw new Error('run with node --expose-gc')
  gc()
  gc()
  return process.memoryUsage().heapUsed
}

/** Print retained heap over text size. */
export async function benchMemory(): Promise<void> {
  const scenario = scenarios.find((s) => s.name === 'UI stream, long text')!
  const chunks = chunkBytes(new TextEncoder().encode(scenario.sse(TOKENS_PER_TURN)), 16 * 1024)
  const before = collect()
  const store = createAgentStore()
  for (let t = 0; t < TURNS; t++) await weftClient(chunks, scenario, store)
  const after = collect()
  const state = store.getState()
  const text = messageList(state.messages).reduce((sum, m) => sum + (typeof m.props.content === 'string' ? m.props.content.length : 0), 0)
  const retained = after - before
  console.log(`Memory: ${n(TURNS * TOKENS_PER_TURN)} tokens over ${TURNS} turns through the live client (one commit per network read), heap after GC with the store alive`)
  table([{
    turns: n(state.turnIds.length), messages: n(Object.keys(messageRecord(state.messages)).length),
    'text (MB)': n(text / 1e6, 2), 'retained heap (MB)': n(retained / 1e6, 2), 'retained / text': `${n(retained / text, 2)}x`,
  }])
}
