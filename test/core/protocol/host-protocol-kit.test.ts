/**
 * A host's protocol built from the public entries alone (test/fixtures/host-protocol:
 * `weft/core` and `weft/protocol-kit`, nothing under src/ by path) runs like a
 * built-in one: `foldStream` folds it, an `AgentClient` streams it from a real
 * loopback SSE server with the request its builder makes, and its history reader
 * fills a store. Its views are drawn in test/react/host-protocol-kit.test.tsx.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AgentClient, createAgentStore, foldStream, messageList, syncScheduler, type AgentState, type Message } from 'weft/core'
import { memoProtocol, memoSse } from '../../fixtures/host-protocol/index'

const answer = [
  { memo: 'start' },
  { memo: 'text', id: 'm1', text: 'Looking ' },
  { memo: 'text', id: 'm1', text: 'that up.' },
  { memo: 'tool', id: 'c1', name: 'lookup', input: '{"q":"we' },
  { memo: 'tool', id: 'c1', input: 'ather"}' },
  { memo: 'result', id: 'c1', output: { temp: 21 } },
  { memo: 'done' },
]

let server: Server
let base = ''
const bodies: unknown[] = []

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = ''
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()))
    req.on('end', () => {
      bodies.push(raw ? JSON.parse(raw) : undefined)
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      // In two writes, so the client reads the answer across more than one network read.
      const sse = memoSse(answer)
      const cut = sse.indexOf('"tool"')
      res.write(sse.slice(0, cut))
      setTimeout(() => res.end(sse.slice(cut)), 5)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

/** The assistant turns' messages as `[type, props]`. */
function answers(state: AgentState): Array<Array<[string, Record<string, unknown>]>> {
  const messages = new Map(messageList(state.messages).map((m: Message) => [m.id, m]))
  return state.turnIds
    .filter((id) => state.turns[id]!.role === 'assistant')
    .map((id) => state.turns[id]!.messageIds.map((m) => [messages.get(m)!.type, { ...messages.get(m)!.props }] as [string, Record<string, unknown>]))
}

const expected: Array<[string, Record<string, unknown>]> = [
  ['text', { content: 'Looking that up.' }],
  ['tool', { name: 'lookup', toolCallId: 'c1', state: 'output-available', input: { q: 'weather' }, output: { temp: 21 } }],
]

describe('a host protocol from weft/core and weft/protocol-kit only', () => {
  it('folds a recorded stream through foldStream', () => {
    const state = foldStream(memoSse(answer), { protocol: memoProtocol })
    expect(answers(state)).toEqual([expected])
    const turn = state.turns[state.turnIds.at(-1)!]!
    expect(turn.protocol).toBe('memo')
    expect(turn.status).toBe('done')
    expect(turn.problems).toEqual([])
  })

  it('is detected among the candidates it is given', () => {
    const state = foldStream(memoSse(answer), { protocols: [memoProtocol] })
    expect(state.turns[state.turnIds.at(-1)!]!.protocol).toBe('memo')
  })

  it('keeps the ids of a second request apart (createIdScope), and reports what it cannot read as problems', () => {
    const twice = [...answer.slice(0, -1), { memo: 'start' }, { memo: 'text', id: 'm1', text: 'Again.' }, { memo: 'nonsense' }, 42, { memo: 'done' }]
    const state = foldStream(memoSse(twice), { protocol: memoProtocol })
    const [messages] = answers(state)
    expect(messages!.map(([type, props]) => [type, type === 'text' ? props.content : props.name])).toEqual([
      ['text', 'Looking that up.'], ['tool', 'lookup'], ['text', 'Again.'],
    ])
    const turn = state.turns[state.turnIds.at(-1)!]!
    expect(turn.problems.map((p) => [p.type, p.code])).toEqual([['protocol', 'unknown_kind'], ['protocol', 'not_memo']])
  })

  it('streams through an AgentClient from a loopback SSE server, with the request its builder makes', async () => {
    const store = createAgentStore()
    const client = new AgentClient(store, { url: `${base}/memo`, protocol: memoProtocol, scheduler: syncScheduler })
    await client.send('Weather?')
    await client.send('And tomorrow?')
    const state = store.getState()
    expect(state.status).toBe('done')
    expect(answers(state)).toEqual([expected, expected])
    expect(bodies.slice(-2)).toEqual([
      { messages: [{ role: 'user', content: 'Weather?' }], ask: 'Weather?' },
      {
        messages: [{ role: 'user', content: 'Weather?' }, { role: 'assistant', content: 'Looking that up.' }, { role: 'user', content: 'And tomorrow?' }],
        ask: 'And tomorrow?',
      },
    ])
  })

  it('reads its stored history into a store, and a document it cannot read into a problem', () => {
    const store = createAgentStore()
    store.getState().dispatch(memoProtocol.history!([{ id: 'a', text: 'Earlier' }, { nope: true }], { state: store.getState() }))
    expect(answers(store.getState())).toEqual([[['text', { content: 'Earlier' }]]])
    expect(memoProtocol.history!({ not: 'a list' }, { state: store.getState() })).toEqual([
      expect.objectContaining({ op: 'problem', error: expect.objectContaining({ code: 'bad_history' }) }),
    ])
  })
})
