/**
 * A protocol the kit has never heard of, defined in the test with the public
 * interface only, runs through detection, foldStream, the client (real fetch
 * over loopback), the request builder, the history reader and resume lookup.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { syncScheduler } from '../../../src/core/store/batcher'
import { AgentClient as CoreAgentClient } from '../../../src/core/client'
import { foldStream as coreFoldStream } from '../../../src/core/protocol/fold-stream'
import { builtInProtocols } from '../../../src/protocols/index'
import { AgentClient } from '../../helpers/built-in-client'
import { foldStream } from '../../../src/umbrella/defaults'
import { resolveProtocol } from '../../../src/core/protocol/resolve'
import { resolveResumeStrategy } from '../../../src/core/resume/strategies/index'
import { createAgentStore } from '../../../src/core/store/store'
import { toyProtocol, toySse } from '../../helpers/toy-protocol'
import { messageIn } from '../../../src/core/model/message-table'

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
      res.end(toySse(['Hello', ', toy'], 'A card'))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

function answer(state: ReturnType<typeof foldStream>, turnId: string) {
  const turn = state.turns[turnId]!
  return { turn, messages: turn.messageIds.map((id) => messageIn(state.messages, id)!) }
}

describe('a fifth protocol, defined by a host', () => {
  it('folds a recorded stream when given as a definition, in no list', () => {
    const state = coreFoldStream(toySse(['Hi', ' there'], 'Card'), { protocol: toyProtocol })
    const { turn, messages } = answer(state, 'turn-1')
    expect(turn.protocol).toBe('toy')
    expect(turn.status).toBe('done')
    expect(messages.map((m) => [m.type, m.props])).toEqual([['text', { content: 'Hi there' }], ['toy-card', { title: 'Card' }]])
  })

  it('is detected among the candidates it is given', () => {
    const state = foldStream(toySse(['Hi']), { protocols: [...builtInProtocols, toyProtocol] })
    expect(state.turns['turn-1']!.protocol).toBe('toy')
    // Without it among the candidates nothing recognises the stream.
    const unknown = foldStream(toySse(['Hi']))
    expect(unknown.turns['turn-1']!.protocol).toBeUndefined()
    expect(unknown.turns['turn-1']!.problems[0]!.message).toContain('before its protocol could be told')
  })

  it('an unknown name is a typed validation error', () => {
    expect(() => resolveProtocol('toy', [])).toThrow(expect.objectContaining({ info: expect.objectContaining({ type: 'validation' }) }))
  })

  it('streams through the client over real fetch, its request built by the protocol', async () => {
    const store = createAgentStore()
    const client = new AgentClient(store, { url: `${base}/chat`, protocol: toyProtocol, scheduler: syncScheduler })
    await client.send('Hello')
    await client.send('Again')
    // The path a request carries: the question, then question, answer and the new question.
    expect(bodies.slice(-2)).toEqual([{ say: 'Hello', path: 1 }, { say: 'Again', path: 3 }])
    const state = store.getState()
    expect(state.status).toBe('done')
    const assistant = state.turnIds.filter((id) => state.turns[id]!.role === 'assistant')
    expect(assistant).toHaveLength(2)
    for (const id of assistant) {
      const { turn, messages } = answer(state, id)
      expect(turn.protocol).toBe('toy')
      expect(messages.map((m) => m.type)).toEqual(['text', 'toy-card'])
      expect(messages[0]!.props.content).toBe('Hello, toy')
    }
  })

  it('a host body wins over the protocol request builder', async () => {
    const client = new AgentClient(createAgentStore(), {
      url: `${base}/chat`, protocol: toyProtocol, body: { mine: true }, scheduler: syncScheduler,
    })
    await client.send('Hello')
    expect(bodies.at(-1)).toEqual({ mine: true })
  })

  it('given in `protocols`, it is named, detected and its resume strategy found by name, beside the built-ins', async () => {
    const protocols = [...builtInProtocols, toyProtocol]
    expect(coreFoldStream(toySse(['Hi']), { protocols }).turns['turn-1']!.protocol).toBe('toy')
    expect(coreFoldStream(toySse(['Hi']), { protocol: 'toy', protocols }).turns['turn-1']!.status).toBe('done')
    expect(resolveResumeStrategy('toy-resume', protocols).name).toBe('toy-resume')
    expect(resolveResumeStrategy('toy', protocols).name).toBe('toy-resume')
    const store = createAgentStore()
    const client = new CoreAgentClient(store, { url: `${base}/chat`, scheduler: syncScheduler, protocols })
    await client.send('Hi')
    const id = store.getState().turnIds.at(-1)!
    expect(store.getState().turns[id]!.protocol).toBe('toy')
  })

  it('not given, nothing knows it: no registry fills in, and two clients on one page speak their own sets', async () => {
    expect(() => coreFoldStream(toySse(['Hi']), { protocol: 'toy', protocols: builtInProtocols })).toThrow(/no protocol named "toy"/)
    expect(() => resolveResumeStrategy('toy-resume', builtInProtocols)).toThrow(/no resume strategy named "toy-resume"/)
    // The core with no protocols at all says so once, on the stream's first event, and keeps nothing it cannot read.
    const bare = coreFoldStream(toySse(['Hi']))
    expect(bare.turns['turn-1']!.problems.map((p) => p.message)).toEqual(expect.arrayContaining(['no protocols were given to decode this stream with']))
    const toyStore = createAgentStore()
    const yaoStore = createAgentStore()
    await new CoreAgentClient(toyStore, { url: `${base}/chat`, scheduler: syncScheduler, protocols: [toyProtocol] }).send('Hi')
    await new CoreAgentClient(yaoStore, { url: `${base}/chat`, scheduler: syncScheduler, protocols: builtInProtocols }).send('Hi')
    expect(toyStore.getState().turns[toyStore.getState().turnIds.at(-1)!]!.protocol).toBe('toy')
    expect(yaoStore.getState().turns[yaoStore.getState().turnIds.at(-1)!]!.protocol).toBeUndefined()
  })

  it('says where its gate answers go: in its next request by default, through continueGate when it says "host"', async () => {
    const pendingGate = (store: ReturnType<typeof createAgentStore>, protocol: string) => {
      store.getState().dispatch([
        { op: 'turn.open', turnId: 'a1', role: 'assistant', protocol },
        { op: 'gate.open', gate: { id: 'g1', turnId: 'a1', kind: 'approval', question: 'Go?', payload: {} } },
        { op: 'turn.finish', turnId: 'a1', status: 'done' },
      ])
    }
    const hostGated = { ...toyProtocol, name: 'toy-host', gateAnswers: 'host' as const }

    const inBand = createAgentStore()
    pendingGate(inBand, 'toy')
    const sent = bodies.length
    const viaRequest = new AgentClient(inBand, { url: `${base}/chat`, protocol: toyProtocol, scheduler: syncScheduler })
    expect(await viaRequest.answer('g1', { approved: true })).toEqual({ ok: true })
    expect(bodies.length).toBe(sent + 1)

    const hosted = createAgentStore()
    pendingGate(hosted, 'toy-host')
    const refused = await new AgentClient(hosted, { url: `${base}/chat`, protocol: hostGated, scheduler: syncScheduler }).answer('g1', { approved: true })
    expect(refused).toMatchObject({ ok: false, error: { type: 'validation' } })
    expect(hosted.getState().gates.g1!.status).toBe('pending')
    const seen: unknown[] = []
    const viaHost = new AgentClient(hosted, {
      url: `${base}/chat`, protocols: [hostGated], scheduler: syncScheduler,
      continueGate: async (gate, response) => void seen.push([gate.id, response]),
    })
    expect(await viaHost.answer('g1', { approved: true })).toEqual({ ok: true })
    expect(seen).toEqual([['g1', { approved: true }]])
    expect(hosted.getState().gates.g1!.status).toBe('approved')
    expect(bodies.length).toBe(sent + 1)
  })

  it('reads its stored history into ops, and bad history into a problem', () => {
    const store = createAgentStore()
    store.getState().dispatch(toyProtocol.history!(['Earlier answer'], { state: store.getState() }))
    expect(messageIn(store.getState().messages, 'h0/text')!.props.content).toBe('Earlier answer')
    const ops = toyProtocol.history!({ not: 'a list' }, { state: store.getState() })
    expect(ops).toEqual([expect.objectContaining({ op: 'problem' })])
  })
})
