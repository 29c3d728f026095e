/**
 * One connection, read through a transport the test scripts batch by batch: a
 * transport that yields more after a stop (nothing of it is folded), a send the
 * server answers 204 (read as an empty stream, not as a resume with nothing
 * left), and the URL the handle names through reconnects (the first request's,
 * never a resume request's).
 */
import { describe, expect, it } from 'vitest'
import type { AgentClientOptions } from '../../../src/core/client/options'
import { messageIn } from '../../../src/core/model/message-table'
import type { AgentState } from '../../../src/core/model/model'
import type { ResumeState, ResumeStrategy } from '../../../src/core/resume/types'
import { memoryStorage } from '../../../src/core/resume/storage'
import { createAgentStore } from '../../../src/core/store/store'
import type { SSEFrame } from '../../../src/core/transport/frames'
import type { StreamEndReason } from '../../../src/core/transport/open-stream'
import type { StreamTransport, TransportStream } from '../../../src/core/transport/transport'
import { aiSdkResume } from '../../../src/protocols/ui-message/index'
import { AgentClient } from '../../helpers/built-in-client'
import { ScriptedAgent } from '../../helpers/scripted-agent'

const URL = 'http://agent.invalid/api/chat'
const textOf = (s: AgentState, turnId: string) =>
  s.turns[turnId]!.messageIds.map((id) => messageIn(s.messages, id)!).filter((m) => m.type === 'text').map((m) => String(m.props.content)).join('')
const framesOf = (...chunks: unknown[]): SSEFrame[] => chunks.map((chunk) => ({ data: JSON.stringify(chunk) }))
const tick = () => new Promise((resolve) => setTimeout(resolve, 0))

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await tick()
  expect(check()).toBe(true)
}

/** A transport that ignores the abort: it yields `first`, waits for `release`, yields `second` and ends. */
function stubbornTransport(first: SSEFrame[], second: SSEFrame[]) {
  let release!: () => void
  const released = new Promise<void>((resolve) => (release = resolve))
  const opened: AbortSignal[] = []
  let endReason: StreamEndReason | undefined
  const transport: StreamTransport = {
    open: async (request) => {
      opened.push(request.signal!)
      const stream: TransportStream = {
        status: 200,
        headers: new Headers({ 'content-type': 'text/event-stream' }),
        batches: (async function* () {
          yield first
          await released
          yield second
          endReason = 'eof'
        })(),
        get endReason() {
          return endReason
        },
        settle: () => undefined,
      }
      return stream
    },
  }
  return { transport, release: () => release(), opened }
}

describe('a transport that goes on after a stop', () => {
  it('what it yields after the stop is not folded: the turn keeps what came before and ends aborted', async () => {
    const { transport, release, opened } = stubbornTransport(
      framesOf({ type: 'start', messageId: 'm1' }, { type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'before' }),
      framesOf({ type: 'text-delta', id: 't', delta: ' after' }, { type: 'text-end', id: 't' }, { type: 'finish' }),
    )
    const store = createAgentStore()
    const client = new AgentClient(store, { url: URL, protocol: 'ui-message', transport })
    const sending = client.send('q')
    await until(() => {
      const s = store.getState()
      return s.turnIds.length === 2 && textOf(s, s.turnIds[1]!) === 'before'
    })
    client.stop()
    expect(opened[0]!.aborted).toBe(true)
    release()
    await sending
    await tick()
    const s = store.getState()
    const turn = s.turns[s.turnIds[1]!]!
    expect(textOf(s, turn.id)).toBe('before')
    expect(turn.status).toBe('aborted')
    expect(turn.problems).toEqual([])
    expect(s.status).toBe('aborted')
    expect(client.busy).toBe(false)
  })
})

describe('a send the server answers 204', () => {
  it('is read as a stream that ended with nothing in it, the way an empty 200 is', async () => {
    const stores = [204, 200].map(() => createAgentStore())
    const agents = [new ScriptedAgent().next({ status: 204 }), new ScriptedAgent().next({ frames: [], then: 'end' })]
    for (const [i, store] of stores.entries()) await new AgentClient(store, { url: URL, protocol: 'ui-message', fetch: agents[i]!.fetch }).send('q')
    const [noContent, empty] = stores.map((store) => {
      const s = store.getState()
      const turn = s.turns[s.turnIds[1]!]!
      const { turnId, ...cursor } = s.cursor
      return { turnId: turnId === turn.id, status: s.status, turn: { status: turn.status, messages: turn.messageIds.length, problems: turn.problems.map((p) => p.code ?? p.type) }, cursor }
    })
    expect(noContent).toEqual(empty)
    expect(noContent).toEqual({
      turnId: true, status: 'aborted', turn: { status: 'aborted', messages: 0, problems: ['truncated'] },
      cursor: { protocol: 'ui-message', eventCount: 0, lastEventId: undefined, sequence: undefined, streamId: undefined },
    })
  })
})

describe('the URL a handle names', () => {
  it('is the first request\'s, through every reconnect', async () => {
    const seen: Array<string | undefined> = []
    const inner = aiSdkResume()
    const strategy: ResumeStrategy = {
      ...inner,
      handle: (state: ResumeState) => {
        seen.push(state.streamUrl)
        return inner.handle(state as Parameters<typeof inner.handle>[0])
      },
    } as ResumeStrategy
    const agent = new ScriptedAgent()
    const partial = [{ type: 'start', messageId: 'm1' }, { type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'a' }]
    // Each reconnect replays the turn and brings one more delta before it drops again.
    agent.next(
      { frames: partial, then: 'drop' },
      { frames: [...partial, { type: 'text-delta', id: 't', delta: 'b' }], then: 'drop' },
      { frames: [...partial, { type: 'text-delta', id: 't', delta: 'b' }, { type: 'text-delta', id: 't', delta: 'c' }, { type: 'text-end', id: 't' }, { type: 'finish' }], then: 'end', done: true },
    )
    const store = createAgentStore()
    const options: AgentClientOptions = {
      url: URL, protocol: 'ui-message', fetch: agent.fetch,
      resume: { conversationKey: 'c1', storage: memoryStorage(), strategy, maxRetries: 2, backoff: { sleep: async () => true } },
    }
    await new AgentClient(store, options).send('q')
    expect(agent.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['POST ' + URL, `GET ${URL}/c1/stream`, `GET ${URL}/c1/stream`])
    const s = store.getState()
    expect(textOf(s, s.turnIds[1]!)).toBe('abc')
    expect(s.status).toBe('done')
    expect(seen.length).toBeGreaterThan(2)
    expect(new Set(seen)).toEqual(new Set([URL]))
  })
})
