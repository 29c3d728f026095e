/**
 * Protocol detection, for every protocol: from the first frame alone (recorded
 * streams), and from response headers plus the first frame (live streams).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AgentClient } from '../../helpers/built-in-client'
import { syncScheduler } from '../../../src/core/store/batcher'
import { foldStream } from '../../../src/umbrella/defaults'
import { FrameDecoder } from '../../../src/core/protocol/frame-decoder'
import { builtInProtocols } from '../../../src/protocols/index'
import { createAgentStore } from '../../../src/core/store/store'
import { encodeFrame } from '../../../mock/scenario'
import { scenarios } from '../../../mock/scenarios/index'
import { startServer, type TestServer } from '../../helpers/server'
import { messageIn } from '../../../src/core/model/message-table'

const sseOf = (name: string, protocol: string) => {
  const scenario = scenarios.find((s) => s.protocol === protocol && s.name === name)!
  return scenario.frames.map((f) => encodeFrame(f)).join('')
}

describe('detection from the first frame', () => {
  it.each(scenarios.map((s) => [s.protocol, s.name] as const))('%s/%s is read as its own protocol', (protocol, name) => {
    const state = foldStream(sseOf(name, protocol))
    const turn = state.turns['turn-1']!
    expect(turn.protocol).toBe(protocol)
    expect(turn.problems.filter((p) => /which protocol/.test(p.message))).toEqual([])
  })

  it('holds events back until it can tell, then replays them in order', () => {
    // A UI stream whose first chunk could be anything with a `type`.
    const reader = new FrameDecoder({ turnId: 't', protocols: builtInProtocols })
    expect(reader.event({ type: 'mystery' })).toEqual([])
    const ops = reader.event({ type: 'text-delta', id: 'a', delta: 'Hi' })
    expect(reader.protocol).toBe('ui-message')
    expect(ops.some((op) => op.op === 'problem')).toBe(true) // the unknown chunk, reported once its protocol is known
    expect(ops.some((op) => op.op === 'message.delta')).toBe(true)
  })

  it('reports a stream it cannot place instead of guessing', () => {
    const state = foldStream(Array.from({ length: 10 }, (_, i) => ({ hello: i })))
    expect(state.turns['turn-1']!.problems[0]).toMatchObject({ type: 'protocol', message: expect.stringContaining('which protocol') })
  })

  it('a response header settles it before any frame', () => {
    const headers = new Headers({ 'x-vercel-ai-ui-message-stream': 'v1' })
    const reader = new FrameDecoder({ turnId: 't', headers, protocols: builtInProtocols })
    reader.event({ type: 'start', messageId: 'm' })
    expect(reader.protocol).toBe('ui-message')
  })

  it('an AG-UI `event:` line settles it even when the data has no type', () => {
    const reader = new FrameDecoder({ turnId: 't', protocols: builtInProtocols })
    reader.frame({ event: 'RUN_STARTED', data: '{"threadId":"th","runId":"r1"}' })
    expect(reader.protocol).toBe('ag-ui')
  })
})

describe('detection on a live stream over loopback', () => {
  let srv: TestServer
  beforeAll(async () => {
    srv = await startServer()
  })
  afterAll(() => srv.close())

  it.each(scenarios.map((s) => [s.protocol, s.name] as const))('%s/%s: the client tells the protocol and folds the answer', async (protocol, name) => {
    const store = createAgentStore()
    const client = new AgentClient(store, { url: `${srv.url}/mock/stream/${protocol}/${name}?chunk=random`, scheduler: syncScheduler })
    await client.send()
    const state = store.getState()
    const turn = state.turns[state.turnIds.at(-1)!]!
    expect(turn.protocol).toBe(protocol)
    expect(state.cursor.protocol).toBe(protocol)
    const recorded = foldStream(sseOf(name, protocol), { protocol: protocol as never })
    expect(turn.messageIds.map((id) => messageIn(state.messages, id)!.props.content))
      .toEqual(recorded.turns['turn-1']!.messageIds.map((id) => messageIn(recorded.messages, id)!.props.content))
  })
})
