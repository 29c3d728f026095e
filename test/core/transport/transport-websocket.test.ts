/**
 * `webSocketTransport` against a real WebSocket server (`ws` on loopback)
 * streaming AI SDK UI message chunks, one per message: the client folds what
 * `foldStream` folds for the same events; a socket dropped mid-answer is a lost
 * connection the `ai-sdk` resume strategy reconnects from, a clean close
 * mid-answer is a truncated turn, and `stop()` closes the socket.
 */
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WebSocket, WebSocketServer, type WebSocket as ServerSocket } from 'ws'
import { syncScheduler } from '../../../src/core/store/batcher'
import { AgentClient, type AgentClientOptions } from '../../../src/core/client'
import { STREAM_TRUNCATED } from '../../../src/core/model/errors'
import { foldStream } from '../../../src/core/protocol/fold-stream'
import type { AgentState } from '../../../src/core/model/model'
import { messageIn } from '../../../src/core/model/message-table'
import { memoryStorage } from '../../../src/core/resume/storage'
import { createAgentStore, type AgentStore } from '../../../src/core/store/store'
import { webSocketTransport, type WebSocketRequestMessage } from '../../../src/core/transport/websocket'
import { uiMessageProtocol } from '../../../src/protocols/ui-message/index'
import { fixtureSet as fixtures } from '../../../src/testing/fixtures/index'
import { encodeFrame, type AgentFixture } from '../../../src/testing/frames'
import { comparable } from '../../helpers/live-fold'

/** What each connection asked for, and how its socket ended on the server's side. */
interface Seen {
  request: WebSocketRequestMessage
  closed: Promise<number>
}

let server: WebSocketServer
let socketUrl: string
const seen: Seen[] = []

const messageOf = (frame: AgentFixture['frames'][number]) => (typeof frame.data === 'string' ? frame.data : JSON.stringify(frame.data))
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function play(socket: ServerSocket, frames: AgentFixture['frames'], everyMs = 0): Promise<void> {
  for (const frame of frames) {
    if (socket.readyState !== socket.OPEN) return
    socket.send(messageOf(frame))
    if (everyMs > 0) await pause(everyMs)
  }
}

/** The routes, by the request's url: the url the client built travels in the first message. */
async function serve(socket: ServerSocket, request: WebSocketRequestMessage): Promise<void> {
  const path = new URL(request.url, 'http://agent.test').pathname
  const long = fixtures['ui-message']['long-answer'].frames
  if (path === '/full/api/chat') {
    await play(socket, fixtures['ui-message'].full.frames)
    socket.close(1000)
  } else if (path === '/binary/api/chat') {
    for (const frame of fixtures['ui-message'].tools.frames) socket.send(Buffer.from(messageOf(frame)), { binary: true })
    socket.close()
  } else if (path === '/drop/api/chat') {
    // The connection breaks a third of the way in: no closing handshake.
    await play(socket, long.slice(0, 150))
    setTimeout(() => socket.terminate(), 20)
  } else if (path === '/drop/api/chat/chat-drop/stream') {
    // The AI SDK's resume route replays the active stream from its start.
    await play(socket, long)
    socket.close(1000)
  } else if (path === '/cut/api/chat') {
    await play(socket, long.slice(0, 40))
    socket.close(1000)
  } else if (path === '/broken/api/chat') {
    await play(socket, long.slice(0, 40))
    socket.close(1011, 'agent crashed')
  } else if (path === '/slow/api/chat') {
    await play(socket, long, 10)
    socket.close(1000)
  } else socket.close(1008, 'no such route')
}

beforeAll(async () => {
  server = new WebSocketServer({ host: '127.0.0.1', port: 0 })
  await new Promise<void>((resolve) => server.once('listening', () => resolve()))
  socketUrl = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/agent`
  server.on('connection', (socket) => {
    const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)))
    socket.once('message', (raw) => {
      const request = JSON.parse(String(raw)) as WebSocketRequestMessage
      seen.push({ request, closed })
      void serve(socket, request)
    })
  })
})
afterAll(async () => {
  for (const socket of server.clients) socket.terminate()
  await new Promise<void>((resolve) => server.close(() => resolve()))
})

const transport = () => webSocketTransport({ url: socketUrl, WebSocket })

function clientFor(store: AgentStore, route: string, extra: Partial<AgentClientOptions> = {}): AgentClient {
  return new AgentClient(store, {
    url: `http://agent.test${route}`, protocols: [uiMessageProtocol], transport: transport(), scheduler: syncScheduler, idleTimeoutMs: 5000, ...extra,
  })
}

function assistantTurn(state: AgentState): string {
  const turnId = state.turnIds.find((id) => state.turns[id]?.role === 'assistant')
  if (!turnId) throw new Error('no assistant turn')
  return turnId
}

/** What `foldStream` makes of the same events, under the live turn's id. */
const recorded = (fixture: AgentFixture, turnId: string) =>
  comparable(foldStream(fixture.frames.map((frame) => encodeFrame(frame)).join(''), { turnId, protocols: [uiMessageProtocol] }))

const textOf = (state: AgentState, turnId: string) =>
  state.turns[turnId]!.messageIds.map((id) => messageIn(state.messages, id)).filter((m) => m?.type === 'text').map((m) => String(m!.props.content)).join('')

describe('webSocketTransport: a stream of UI message chunks', () => {
  it('folds what foldStream folds for the same events, and sends the request as the first message', async () => {
    const store = createAgentStore()
    await clientFor(store, '/full/api/chat', { headers: { authorization: 'Bearer t0ken' } }).send()
    const state = store.getState()
    const turnId = assistantTurn(state)
    expect(comparable(state)).toEqual(recorded(fixtures['ui-message'].full, turnId))
    expect(state.turns[turnId]!.protocol).toBe('ui-message')
    const { request } = seen.find((s) => s.request.url.includes('/full/'))!
    expect(request).toMatchObject({
      type: 'request', method: 'POST', url: 'http://agent.test/full/api/chat',
      headers: { authorization: 'Bearer t0ken', 'content-type': 'application/json' },
    })
    // The protocol is not known before its first event: the first body is the generic one.
    expect(JSON.parse(request.body!)).toEqual({ input: '' })
  })

  it('a client told its protocol sends that protocol\'s request (the AI SDK chat body)', async () => {
    const store = createAgentStore()
    await clientFor(store, '/full/api/chat', { protocol: uiMessageProtocol, conversationId: 'chat-told' }).send('Weather?')
    const { request } = seen.findLast((s) => s.request.url.includes('/full/'))!
    expect(JSON.parse(request.body!)).toMatchObject({
      id: 'chat-told', trigger: 'submit-message', messages: [{ role: 'user', parts: [{ type: 'text', text: 'Weather?' }] }],
    })
  })

  it('reads binary messages as UTF-8 text, and a close without a code as a clean end', async () => {
    const store = createAgentStore()
    await clientFor(store, '/binary/api/chat').send()
    const state = store.getState()
    const turnId = assistantTurn(state)
    expect(comparable(state)).toEqual(recorded(fixtures['ui-message'].tools, turnId))
    expect(state.turns[turnId]!.status).toBe('done')
  })
})

describe('webSocketTransport: a socket that goes away', () => {
  it('a dropped socket is a lost connection: the ai-sdk strategy rejoins, skips the replayed start, and the turn is done', async () => {
    const store = createAgentStore()
    const delays: number[] = []
    const client = clientFor(store, '/drop/api/chat', {
      resume: {
        strategy: 'ai-sdk', conversationKey: 'chat-drop', storage: memoryStorage(),
        backoff: { sleep: async (ms) => (delays.push(ms), true) },
      },
    })
    await client.send()
    const state = store.getState()
    const turnId = assistantTurn(state)
    const requests = seen.filter((s) => s.request.url.includes('/drop/')).map((s) => `${s.request.method} ${s.request.url}`)
    expect(requests).toEqual(['POST http://agent.test/drop/api/chat', 'GET http://agent.test/drop/api/chat/chat-drop/stream'])
    expect(delays).toHaveLength(1)
    expect(state.turns[turnId]!.status).toBe('done')
    expect(state.error).toBeUndefined()
    // Every delta once: the replayed start was recognised, not folded twice.
    expect(comparable(state)).toEqual(recorded(fixtures['ui-message']['long-answer'], turnId))
  })

  it('a clean close before the protocol ended is a truncated answer: aborted, with what arrived', async () => {
    const store = createAgentStore()
    await clientFor(store, '/cut/api/chat').send()
    const state = store.getState()
    const turnId = assistantTurn(state)
    expect(state.turns[turnId]!.status).toBe('aborted')
    expect(state.turns[turnId]!.problems?.map((p) => p.code)).toContain(STREAM_TRUNCATED)
    expect(textOf(state, turnId).length).toBeGreaterThan(0)
  })

  it('an abnormal close without a resume strategy ends the turn in a network error naming the close code', async () => {
    const store = createAgentStore()
    const errors: unknown[] = []
    await clientFor(store, '/broken/api/chat', { onError: (error) => errors.push(error) }).send()
    const state = store.getState()
    expect(errors).toEqual([expect.objectContaining({ type: 'network', retryable: true, code: 'websocket_1011' })])
    expect(state.turns[assistantTurn(state)]!.status).toBe('error')
  })

  it('a socket that cannot open is a network error', async () => {
    const store = createAgentStore()
    const errors: unknown[] = []
    const closed = new WebSocketServer({ host: '127.0.0.1', port: 0 })
    await new Promise<void>((resolve) => closed.once('listening', () => resolve()))
    const port = (closed.address() as AddressInfo).port
    await new Promise<void>((resolve) => closed.close(() => resolve()))
    const client = new AgentClient(store, {
      url: '/api/chat', protocols: [uiMessageProtocol], scheduler: syncScheduler, onError: (error) => errors.push(error),
      transport: webSocketTransport({ url: `ws://127.0.0.1:${port}/agent`, WebSocket }),
    })
    await client.send('hi')
    expect(errors).toEqual([expect.objectContaining({ type: 'network', retryable: true })])
  })
})

describe('webSocketTransport: stop', () => {
  it('stop() closes the socket with 1000 and the turn ends aborted with what arrived', async () => {
    const store = createAgentStore()
    const client = clientFor(store, '/slow/api/chat')
    const sending = client.send()
    await new Promise<void>((resolve) => {
      const off = store.subscribe((state) => {
        const turnId = state.turnIds.find((id) => state.turns[id]?.role === 'assistant')
        if (turnId && textOf(state, turnId).length > 20) {
          off()
          resolve()
        }
      })
    })
    client.stop()
    await sending
    const { closed } = seen.find((s) => s.request.url.includes('/slow/'))!
    expect(await closed).toBe(1000)
    const state = store.getState()
    expect(state.turns[assistantTurn(state)]!.status).toBe('aborted')
  })

  it('an aborted request never opens a socket', async () => {
    const controller = new AbortController()
    controller.abort()
    let made = 0
    const stream = await webSocketTransport({
      socketFor: () => {
        made++
        return new WebSocket(socketUrl)
      },
    }).open({ url: '/x', signal: controller.signal })
    expect(made).toBe(0)
    expect(stream.endReason).toBe('aborted')
  })
})
