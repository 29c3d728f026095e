/**
 * LangGraph's rules one at a time: the run request for each trigger (exact bodies), the rejoin
 * strategy, detection, history edge cases, and what bad input becomes (a typed problem, never a
 * throw, nothing reaching a prototype).
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { Op } from '../../../src/core/model/ops'
import type { RequestContext } from '../../../src/core/protocol/request'
import { foldStream } from '../../../src/core/protocol/fold-stream'
import { createAgentStore } from '../../../src/core/store/store'
import { TurnLedger } from '../../../src/core/resume/ledger'
import {
  createLangGraphDecoder, joinUrlOf, langGraphProtocol, langGraphRequest, langGraphResume, LANGGRAPH_STREAM_MODES, readLangGraphHistory, sniffLangGraph,
} from '../../../src/protocols/langgraph/index'

const MODES = ['values', 'messages-tuple', 'updates', 'custom']

/** A conversation: question q1 (message u1), answer a1 with its checkpoints, as a stream leaves them. */
function conversation(extra: Op[] = []) {
  const store = createAgentStore()
  store.getState().dispatch([
    { op: 'turn.open', turnId: 'q1', role: 'user', parentId: null },
    { op: 'message.put', turnId: 'q1', messageId: 'u1', role: 'user', type: 'text', props: { content: 'Weather?' } },
    { op: 'turn.finish', turnId: 'q1', status: 'done' },
    { op: 'turn.open', turnId: 'a1', role: 'assistant' },
    { op: 'turn.update', turnId: 'a1', metadata: { checkpointId: 'cp-end-1', forkCheckpointId: 'cp-asked-1', inputCheckpointId: 'cp-input-1' } },
    { op: 'message.put', turnId: 'a1', messageId: 'm1', role: 'assistant', type: 'text', props: { content: 'Sunny.' } },
    { op: 'turn.finish', turnId: 'a1', status: 'done' },
    ...extra,
  ])
  return store
}

function context(state: ReturnType<ReturnType<typeof conversation>['getState']>, over: Partial<RequestContext>): RequestContext {
  return { state, path: state.turnIds, turnId: 'next', trigger: 'submit', conversationId: 'th1', runId: 'r1', tools: [], answers: [], ...over }
}

describe('the run request', () => {
  it('a first message: the user message with its id, nothing to fork from', () => {
    const store = createAgentStore()
    store.getState().dispatch([
      { op: 'turn.open', turnId: 'q1', role: 'user', parentId: null },
      { op: 'message.put', turnId: 'q1', messageId: 'u1', role: 'user', type: 'text', props: { content: 'Hi' } },
    ])
    const state = store.getState()
    expect(langGraphRequest(context(state, { path: ['q1'] }))).toEqual({
      input: { messages: [{ id: 'u1', role: 'user', content: 'Hi' }] }, stream_mode: MODES, stream_subgraphs: true,
    })
    expect(LANGGRAPH_STREAM_MODES).toEqual(MODES)
  })

  it('a follow-up goes on from the checkpoint the answer before it ended at', () => {
    const store = conversation([
      { op: 'turn.open', turnId: 'q2', role: 'user' },
      { op: 'message.put', turnId: 'q2', messageId: 'u2', role: 'user', type: 'text', props: { content: 'And tomorrow?' } },
    ])
    const state = store.getState()
    expect(langGraphRequest(context(state, { path: ['q1', 'a1', 'q2'] }))).toEqual({
      input: { messages: [{ id: 'u2', role: 'user', content: 'And tomorrow?' }] },
      checkpoint: { checkpoint_id: 'cp-end-1', checkpoint_ns: '' }, stream_mode: MODES, stream_subgraphs: true,
    })
  })

  it('an edit of the first message forks from the checkpoint before the first one was taken in', () => {
    const store = conversation([
      { op: 'turn.open', turnId: 'q1b', role: 'user', parentId: null },
      { op: 'message.put', turnId: 'q1b', messageId: 'u1b', role: 'user', type: 'text', props: { content: 'And in Rome?' } },
    ])
    const state = store.getState()
    expect(langGraphRequest(context(state, { path: ['q1b'] }))).toEqual({
      input: { messages: [{ id: 'u1b', role: 'user', content: 'And in Rome?' }] },
      checkpoint: { checkpoint_id: 'cp-input-1', checkpoint_ns: '' }, stream_mode: MODES, stream_subgraphs: true,
    })
  })

  it('a regenerate asks again from where the question was asked, with no input', () => {
    const state = conversation().getState()
    expect(langGraphRequest(context(state, { path: ['q1'], trigger: 'regenerate', replacing: 'a1' }))).toEqual({
      input: null, checkpoint: { checkpoint_id: 'cp-asked-1', checkpoint_ns: '' }, stream_mode: MODES, stream_subgraphs: true,
    })
  })

  it('one answer resumes with its value; several go by interrupt id', () => {
    const state = conversation([
      { op: 'gate.open', gate: { id: 'g1', turnId: 'a1', kind: 'interrupt', question: 'Send?', payload: {}, extra: { interruptId: 'i1' } } },
      { op: 'gate.open', gate: { id: 'g2', turnId: 'a1', kind: 'interrupt', question: 'Also?', payload: {}, extra: { interruptId: 'i2' } } },
    ]).getState()
    const one = langGraphRequest(context(state, { turnId: 'a1', trigger: 'continue', answers: [{ gateId: 'g1', kind: 'interrupt', response: { approved: true } }] }))
    expect(one).toEqual({ command: { resume: { approved: true } }, stream_mode: MODES, stream_subgraphs: true })
    const two = langGraphRequest(context(state, {
      turnId: 'a1', trigger: 'continue',
      answers: [{ gateId: 'g1', kind: 'interrupt', response: 'yes' }, { gateId: 'g2', kind: 'interrupt', response: 'no' }],
    }))
    expect(two).toEqual({ command: { resume: { i1: 'yes', i2: 'no' } }, stream_mode: MODES, stream_subgraphs: true })
  })

  it("client tools' results go back as tool messages", () => {
    const state = conversation([
      { op: 'message.put', turnId: 'a1', messageId: 't1', role: 'assistant', type: 'tool', props: { toolCallId: 'c1', name: 'where', state: 'output-available', output: { city: 'Lyon' } } },
      { op: 'message.put', turnId: 'a1', messageId: 't2', role: 'assistant', type: 'tool', props: { toolCallId: 'c2', name: 'when', state: 'output-error', errorText: 'no clock' } },
      { op: 'message.put', turnId: 'a1', messageId: 't3', role: 'assistant', type: 'tool', props: { toolCallId: 'c3', name: 'done', state: 'output-available', output: 'x', resultMessageId: 'from-server' } },
    ]).getState()
    expect(langGraphRequest(context(state, { turnId: 'a1', trigger: 'continue' }))).toEqual({
      input: { messages: [{ role: 'tool', tool_call_id: 'c1', content: '{"city":"Lyon"}' }, { role: 'tool', tool_call_id: 'c2', content: 'no clock', status: 'error' }] },
      stream_mode: MODES, stream_subgraphs: true,
    })
  })
})

describe('rejoining a run', () => {
  it('the join URL of a run', () => {
    expect(joinUrlOf('http://h/threads/t1/runs/r1/stream', undefined)).toBe('http://h/threads/t1/runs/r1/stream')
    expect(joinUrlOf('http://h/threads/t1/runs/stream', 'r 1')).toBe('http://h/threads/t1/runs/r%201/stream')
    expect(joinUrlOf('http://h/threads/t1/runs/stream?x=1', 'r1')).toBe('http://h/threads/t1/runs/r1/stream?x=1')
    expect(joinUrlOf('http://h/threads/t1/runs/stream', undefined)).toBeUndefined()
    expect(joinUrlOf('http://h/chat', 'r1')).toBeUndefined()
  })

  it('the handle names the run, and a reconnect asks after the last id (from -1 after a reload)', () => {
    const strategy = langGraphResume()
    const ledger = new TurnLedger()
    ledger.record({ frame: { data: '{}', id: '0' }, event: {}, json: true, fingerprint: 'a', counted: true, key: '0' })
    ledger.record({ frame: { data: '{}', id: '1' }, event: {}, json: true, fingerprint: 'b', counted: true, key: '1' })
    const handle = strategy.handle({ turnId: 't', conversationKey: 'k', cursor: { eventCount: 2, streamId: 'r1' }, ledger, streamUrl: '/api/threads/th/runs/stream' })!
    expect(handle).toEqual({ strategy: 'langgraph', turnId: 't', protocol: undefined, count: 2, url: '/api/threads/th/runs/r1/stream', lastEventId: '1' })
    expect(strategy.request(handle, { conversationKey: 'k', fromStart: false })).toEqual({ url: '/api/threads/th/runs/r1/stream', lastEventId: '1' })
    expect(strategy.request(handle, { conversationKey: 'k', fromStart: true })).toEqual({ url: '/api/threads/th/runs/r1/stream', lastEventId: '-1' })
    expect(strategy.identify({ data: '{}', id: '7' }, {})).toEqual({ counted: true, key: '7' })
    expect(strategy.revive({ url: '/x', lastEventId: 3 })).toBeUndefined()
    expect(strategy.revive({ url: '/x', lastEventId: '3' })).toEqual({ url: '/x', lastEventId: '3' })
    expect(langGraphProtocol.resume!().name).toBe('langgraph')
  })
})

describe('detection', () => {
  it('is certain of a run stream, fairly sure of its modes, and never claims another protocol', () => {
    expect(sniffLangGraph({ first: { run_id: 'r1', attempt: 1 }, meta: { event: 'metadata' } })).toBe(1)
    expect(sniffLangGraph({ headers: new Headers({ 'content-location': '/threads/t/runs/r' }) })).toBe(0.9)
    expect(sniffLangGraph({ first: [{ type: 'ai' }, {}], meta: { event: 'messages|sub:1' } })).toBe(0.6)
    expect(sniffLangGraph({ first: { type: 'RUN_STARTED' }, meta: { event: 'values' } })).toBe(0)
    expect(sniffLangGraph({ first: { type: 'text-delta', delta: 'x' } })).toBe(0)
    expect(sniffLangGraph({ first: { run_id: 'r1' } })).toBe(0)
  })

  it('a stream is folded as LangGraph when detected among the built-ins', () => {
    const text = 'event: metadata\ndata: {"run_id":"r1","attempt":1}\nid: 0\n\nevent: messages\ndata: [{"type":"ai","id":"m1","content":"Hi"},{"langgraph_node":"agent"}]\nid: 1\n\n'
    const state = foldStream(text, { protocols: [langGraphProtocol] })
    expect(state.turns['turn-1']).toMatchObject({ protocol: 'langgraph', runId: 'r1', status: 'done' })
  })
})

describe('bad input', () => {
  const decode = (frames: Array<[string, unknown]>) => {
    const decoder = createLangGraphDecoder({ turnId: 't', scope: 't' })
    const ops: Op[] = []
    for (const [event, data] of frames) ops.push(...decoder.decode(data, { event }))
    ops.push(...decoder.end('eof'))
    return ops
  }
  const problems = (ops: Op[]) => ops.filter((op) => op.op === 'problem').map((op) => (op as Extract<Op, { op: 'problem' }>).error.code)

  it('each malformed frame is a typed problem, and the turn still ends', () => {
    const ops = decode([
      ['metadata', {}], ['messages', { not: 'a pair' }], ['updates', [1]], ['values', 'x'], ['tasks', { id: 1 }],
      ['messages', [{ type: 'tool', content: 'x' }, {}]], ['updates', { __interrupt__: 'x' }], ['surprise', {}], ['surprise', {}],
    ])
    expect(problems(ops)).toEqual(['missing_id', 'malformed', 'malformed', 'malformed', 'missing_id', 'missing_id', 'interrupt', 'unknown_event'])
    expect(ops.at(-1)).toEqual({ op: 'turn.finish', turnId: 't', status: 'done' })
  })

  it('tool-call arguments that are not JSON are told, and the call keeps what parsed', () => {
    const ops = decode([['messages', [{ type: 'ai', id: 'm', content: '', tool_call_chunks: [{ id: 'c', name: 'f', args: '{"a": 1, ', index: 0 }] }, {}]]])
    expect(problems(ops)).toEqual(['tool_arguments'])
    const input = ops.filter((op): op is Extract<Op, { op: 'message.delta' }> => op.op === 'message.delta' && op.path === 'input').at(-1)
    expect(input?.value).toEqual({ a: 1 })
  })

  it('no frame, however shaped, makes the decoder throw or reach a prototype', () => {
    const mode = fc.constantFrom('metadata', 'messages', 'updates', 'values', 'tasks', 'checkpoints', 'custom', 'error', 'messages|a:1', 'values|a:1|b:2', 'updates|x', 'debug', 'zzz')
    const json = fc.oneof(
      fc.jsonValue(),
      fc.tuple(fc.record({ type: fc.constantFrom('ai', 'tool', 'human', 'AIMessageChunk'), id: fc.constantFrom('__proto__', 'constructor', 'm1'), content: fc.jsonValue(), tool_call_chunks: fc.jsonValue(), tool_call_id: fc.constantFrom('__proto__', 'c1') }), fc.jsonValue()),
      fc.dictionary(fc.constantFrom('__proto__', 'constructor', '__interrupt__', 'agent', 'messages'), fc.jsonValue()),
    )
    fc.assert(fc.property(fc.array(fc.tuple(mode, json), { maxLength: 20 }), (frames) => {
      const text = frames.map(([event, data]) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`).join('')
      const state = foldStream(text, { protocol: langGraphProtocol })
      expect(({} as Record<string, unknown>).polluted).toBeUndefined()
      expect(Object.getPrototypeOf(state.agentState)).toBe(Object.prototype)
      expect(state.turns['turn-1']?.status).toMatch(/done|error/)
    }), { numRuns: 200 })
  })
})

describe('history', () => {
  it('a document that is not a history is a problem; an empty one changes nothing', () => {
    const state = createAgentStore().getState()
    expect(readLangGraphHistory({ nope: 1 }, { state })).toEqual([expect.objectContaining({ op: 'problem', error: expect.objectContaining({ code: 'history' }) })])
    expect(readLangGraphHistory([], { state })).toEqual([])
  })

  it('one state (GET /threads/{id}/state) is a conversation, with its pending interrupt as a gate', () => {
    const store = createAgentStore()
    store.getState().dispatch(readLangGraphHistory({
      values: { messages: [{ type: 'human', id: 'h1', content: 'Email Ada' }, { type: 'ai', id: 'a1', content: 'Drafted.', tool_calls: [{ id: 'c1', name: 'send', args: { to: 'ada' } }] }] },
      checkpoint: { checkpoint_id: 'cp2' }, parent_checkpoint: { checkpoint_id: 'cp1' }, next: ['approval'],
      tasks: [{ id: 'task', name: 'approval', interrupts: [{ id: 'i1', value: { question: 'Send it?' } }] }],
    }, { state: store.getState() }))
    const state = store.getState()
    expect(state.turnIds).toEqual(['lg:h1', 'lg:a1'])
    expect(Object.values(state.gates)).toEqual([expect.objectContaining({ id: 'i1', turnId: 'lg:a1', status: 'pending', question: 'Send it?', extra: { interruptId: 'i1' } })])
  })

  it('message ids that name a prototype member are kept as data', () => {
    const store = createAgentStore()
    store.getState().dispatch(readLangGraphHistory({ values: { messages: [{ type: 'human', id: '__proto__', content: 'x' }, { type: 'ai', id: 'constructor', content: 'y' }] } }, { state: store.getState() }))
    expect(({} as Record<string, unknown>).content).toBeUndefined()
    expect(store.getState().turnIds.length).toBeLessThanOrEqual(2)
  })
})
