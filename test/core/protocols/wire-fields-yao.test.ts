/**
 * Keep what the wire carries, for Yao: a chunk's own fields beyond those weft
 * reads (its props are the message's and are kept whole already), and a
 * lifecycle event's beyond its data's, are kept on what the chunk made or
 * opened or closed, as `extra`. The lifecycle table is keyed by the decoder's
 * own list, so an event added without a case fails.
 */
import { describe, expect, it } from 'vitest'
import { foldStream } from '../../../src/umbrella/defaults'
import { fold } from '../../../src/core/fold/fold'
import { historyOps } from '../../../src/core/history/merge'
import { emptyState, type AgentState } from '../../../src/core/model/model'
import { YAO_LIFECYCLE_FIELDS } from '../../../src/protocols/yao/chunk-fields'
import { createYaoDecoder } from '../../../src/protocols/yao/decoder'
import { yaoHistory } from '../../../src/protocols/yao/history'
import { messageIn, messageList } from '../../../src/core/model/message-table'
import { traceRecord } from '../../../src/core/model/trace-table'

type Ev = Record<string, unknown>
const TURN = 'turn-1'
const PROBE = { x_weft_probe: { note: 'kept', nested: { depth: 2, list: [1, 'two', { three: true }] } } }

const yao = (chunks: readonly Ev[]) => foldStream(chunks, { protocol: 'yao' })
const problems = (s: AgentState) => s.turns[TURN]!.problems.map((p) => `${p.code}: ${p.message}`)
let n = 0
/** A chunk as a Yao server sends it: a chunk id and the metadata envelope. */
const chunk = (fields: Ev): Ev => ({ chunk_id: `C${++n}`, metadata: { sequence: n, timestamp: 1_700_000_000_000 + n, trace_id: 'tr' }, ...fields })
/** A lifecycle event, its fields under `props.data` as Yao sends them (`where` says where its extras go). */
const event = (name: string, data: Ev, probe: Ev = {}, on: 'data' | 'chunk' = 'data'): Ev =>
  chunk({ type: 'event', props: { event: name, data: on === 'data' ? { ...data, ...probe } : data }, ...(on === 'chunk' ? probe : {}) })

const START = (p?: Ev) => event('stream_start', { request_id: 'R1', chat_id: 'c1', trace_id: 'tr', assistant: { name: 'A' } }, p)
const END = (p?: Ev) => event('stream_end', { status: 'completed', duration_ms: 5, usage: { total_tokens: 3 } }, p)
const TEXT = (content: string, p: Ev = {}) => chunk({ message_id: 'M1', type: 'text', props: { content }, delta: true, ...p })

type Case = (probe: Ev) => { chunks: Ev[]; where: (s: AgentState) => unknown }
const LIFECYCLE_CASES: Record<string, Case> = {
  stream_start: (p) => ({ chunks: [START(p), TEXT('Hi'), END()], where: (s) => s.turns[TURN]!.metadata.extra }),
  stream_end: (p) => ({ chunks: [START(), TEXT('Hi'), END(p)], where: (s) => s.turns[TURN]!.metadata.extra }),
  block_start: (p) => ({
    chunks: [START(), event('block_start', { block_id: 'B1', type: 'llm', label: 'Answering' }, p), event('block_end', { block_id: 'B1', status: 'completed' }), END()],
    where: (s) => traceRecord(s.trace)[`${TURN}/B1`]?.extra,
  }),
  block_end: (p) => ({
    chunks: [START(), event('block_start', { block_id: 'B1', type: 'llm', label: 'Answering' }), event('block_end', { block_id: 'B1', status: 'completed' }, p), END()],
    where: (s) => traceRecord(s.trace)[`${TURN}/B1`]?.extra,
  }),
  thread_start: (p) => ({
    chunks: [START(), event('thread_start', { thread_id: 'T1', block_id: 'B1', label: 'Lane' }, p), event('thread_end', { thread_id: 'T1', status: 'completed' }), END()],
    where: (s) => s.threads[`${TURN}/T1`]?.extra,
  }),
  thread_end: (p) => ({
    chunks: [START(), event('thread_start', { thread_id: 'T1', block_id: 'B1', label: 'Lane' }), event('thread_end', { thread_id: 'T1', status: 'completed' }, p), END()],
    where: (s) => s.threads[`${TURN}/T1`]?.extra,
  }),
  message_start: (p) => ({
    chunks: [START(), event('message_start', { message_id: 'M1', type: 'text', thread_id: undefined }, p), TEXT('Hi'), event('message_end', { message_id: 'M1', status: 'completed' }), END()],
    where: (s) => messageIn(s.messages, `${TURN}/M1`)?.props.extra,
  }),
  message_end: (p) => ({
    chunks: [START(), event('message_start', { message_id: 'M1', type: 'text' }), TEXT('Hi'), event('message_end', { message_id: 'M1', status: 'completed', extra: { content: 'Hi' } }, p), END()],
    where: (s) => messageIn(s.messages, `${TURN}/M1`)?.props.extra,
  }),
}

describe('Yao: lifecycle events keep their unread fields on what they open or close', () => {
  it('has a case for every lifecycle event the decoder knows', () => {
    expect(Object.keys(LIFECYCLE_CASES).sort()).toEqual([...YAO_LIFECYCLE_FIELDS.keys()].sort())
  })

  it.each([...YAO_LIFECYCLE_FIELDS.keys()])('%s', (name) => {
    const build = LIFECYCLE_CASES[name]
    if (!build) throw new Error(`no case for the Yao lifecycle event ${name}: add one to LIFECYCLE_CASES`)
    const plain = build({})
    const folded = yao(plain.chunks)
    expect(problems(folded)).toEqual([])
    expect(plain.where(folded)).toBeUndefined()
    const probed = build(PROBE)
    const kept = yao(probed.chunks)
    expect(problems(kept)).toEqual([])
    expect(probed.where(kept)).toEqual(PROBE)
  })

  it('a lifecycle event\'s chunk-level fields join its data\'s (the data\'s win)', () => {
    const s = yao([START(), event('block_start', { block_id: 'B1', type: 'llm', label: 'A', shared: 'data' }, { shared: 'chunk', outer: 1 }, 'chunk'), END()])
    expect(traceRecord(s.trace)[`${TURN}/B1`]!.extra).toEqual({ shared: 'data', outer: 1 })
  })

  it('a stream_start and stream_end both keep theirs on the turn, merged', () => {
    const s = yao([START({ region: 'eu', plan: { tier: 1 } }), TEXT('Hi'), END({ plan: { seats: 3 } })])
    expect(s.turns[TURN]!.metadata).toMatchObject({ requestId: 'R1', extra: { region: 'eu', plan: { tier: 1, seats: 3 } } })
  })
})

describe('Yao: content chunks keep their own fields beyond props on their message', () => {
  it('delta chunks merge theirs, a later value winning; the text still merges into one', () => {
    const s = yao([START(), TEXT('Hel', { lang: 'en', stats: { n: 1 } }), TEXT('lo', { stats: { m: 2 } }), TEXT('!'), END()])
    expect(messageIn(s.messages, `${TURN}/M1`)!.props).toEqual({ content: 'Hello!', extra: { lang: 'en', stats: { n: 1, m: 2 } } })
  })

  it('a whole (non-delta) message, a merge at a path and a type change keep them too', () => {
    const s = yao([
      START(),
      chunk({ message_id: 'M2', type: 'text', props: { content: 'Whole' }, delta: false, ...PROBE }),
      chunk({ message_id: 'M3', type: 'card', props: { items: [{ title: 'a' }] }, delta: false }),
      chunk({ message_id: 'M3', type: 'card', props: { items: [{ title: 'b' }] }, delta: true, delta_path: 'items', delta_action: 'replace', source: 'crm' }),
      chunk({ message_id: 'M4', type: 'loading', props: { message: '…' } }),
      chunk({ message_id: 'M4', type: 'text', props: { content: 'Done' }, delta: false, type_change: true, phase: 2 }),
      END(),
    ])
    expect(messageIn(s.messages, `${TURN}/M2`)!.props).toEqual({ content: 'Whole', extra: PROBE })
    expect(messageIn(s.messages, `${TURN}/M3`)!.props).toEqual({ items: [{ title: 'b' }], extra: { source: 'crm' } })
    expect(messageIn(s.messages, `${TURN}/M4`)).toMatchObject({ type: 'text', props: { content: 'Done', extra: { phase: 2 } } })
    expect(problems(s)).toEqual([])
  })

  it('a tool call chunk keeps them on its tool message beside the call', () => {
    const s = yao([START(), chunk({ message_id: 'M5', type: 'tool_call', props: { id: 'call_1', name: 'search', arguments: '{"q":1}' }, delta: false, server: 'mcp-1' }), END()])
    expect(messageIn(s.messages, `${TURN}/M5`)!.props).toMatchObject({ toolCallId: 'call_1', name: 'search', input: { q: 1 }, extra: { server: 'mcp-1' } })
  })

  it('an ordinary chunk (its envelope included) decodes with no extra op', () => {
    const decoder = createYaoDecoder({ turnId: 't1', scope: 't1' })
    // A plain token is held for its batch, then written as one append.
    expect(decoder.decode(TEXT('Hi'), {})).toEqual([])
    expect(decoder.flush!()).toHaveLength(1)
    // A field of its own: the token is written at once, beside its extra.
    expect(decoder.decode(TEXT(' there', { x: 1 }), {}).map((op) => op.op === 'message.delta' && op.path)).toEqual(['content', 'extra'])
  })

  it('a __proto__ field is neither kept nor a prototype; a nested one is refused and reported', () => {
    const s = yao([
      START(),
      JSON.parse('{"chunk_id":"P1","message_id":"M1","type":"text","props":{"content":"Hi"},"delta":true,"__proto__":{"polluted":true},"ok":{"__proto__":{"polluted":true},"v":1}}'),
      END(),
    ])
    const extra = messageIn(s.messages, `${TURN}/M1`)!.props.extra as Record<string, unknown>
    expect(extra).toEqual({ ok: { v: 1 } })
    expect(Object.getPrototypeOf(extra)).toBe(Object.prototype)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(problems(s)).toEqual(['undefined: refused the key "__proto__" sent by the server'])
  })
})

describe('Yao history keeps a stored message\'s own fields', () => {
  it('on a user message and on a replayed assistant message; a field a chunk reads itself (metadata) is the chunk\'s', () => {
    const batch = yaoHistory([
      { message_id: 'U1', role: 'user', type: 'user_input', props: { content: 'Hi' }, sequence: 1, created_at: '2026-03-16', ...PROBE },
      { message_id: 'A1', role: 'assistant', request_id: 'R1', type: 'text', props: { content: 'Hello' }, sequence: 2, created_at: '2026-03-16', metadata: { sequence: 2 } },
    ])
    const s = fold(emptyState(), historyOps(batch, emptyState()))
    const user = messageList(s.messages).find((m) => m.role === 'user')!
    expect(user.props).toEqual({ content: 'Hi', extra: { created_at: '2026-03-16', ...PROBE } })
    const answer = messageList(s.messages).find((m) => m.role === 'assistant')!
    expect(answer.props).toEqual({ content: 'Hello', extra: { created_at: '2026-03-16' } })
    expect(answer.status).toBe('done')
  })
})
