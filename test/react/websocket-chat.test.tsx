/**
 * The WebSocket transport through the components, as a host uses it: a person
 * types in `Composer` and presses Send, `useAgentStream` opens a real WebSocket
 * (the `ws` client) to a real `ws` server on loopback, the server streams AI SDK
 * UI message chunks one per message, and `Transcript` shows the answer the
 * same events give `foldStream`; Stop closes the socket.
 */
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import type { AddressInfo } from 'node:net'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { WebSocket, WebSocketServer, type WebSocket as ServerSocket } from 'ws'
import { Composer } from '../../src/components/composer'
import { Transcript } from '../../src/components/transcript'
import { syncScheduler } from '../../src/core/store/batcher'
import { messageList } from '../../src/core/model/message-table'
import { foldStream } from '../../src/core/protocol/fold-stream'
import { webSocketTransport, type WebSocketRequestMessage } from '../../src/core/transport/websocket'
import { uiMessageProtocol } from '../../src/protocols/ui-message/index'
import { AgentProvider } from '../../src/react/provider'
import { useAgentStream } from '../../src/react/use-agent-stream'
import { fixtureSet as fixtures } from '../../src/testing/fixtures/index'
import { encodeFrame } from '../../src/testing/frames'

let server: WebSocketServer
let socketUrl: string
const requests: WebSocketRequestMessage[] = []
const closes: Array<Promise<number>> = []

const frames = fixtures['ui-message'].full.frames
const slow = fixtures['ui-message']['long-answer'].frames
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function serve(socket: ServerSocket, request: WebSocketRequestMessage): Promise<void> {
  const slowly = new URL(request.url, 'http://agent.test').pathname === '/slow'
  for (const frame of slowly ? slow : frames) {
    if (socket.readyState !== socket.OPEN) return
    socket.send(typeof frame.data === 'string' ? frame.data : JSON.stringify(frame.data))
    if (slowly) await pause(15)
  }
  socket.close(1000)
}

beforeAll(async () => {
  server = new WebSocketServer({ host: '127.0.0.1', port: 0 })
  await new Promise<void>((resolve) => server.once('listening', () => resolve()))
  socketUrl = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/agent`
  server.on('connection', (socket) => {
    closes.push(new Promise<number>((resolve) => socket.once('close', (code) => resolve(code))))
    socket.once('message', (raw) => {
      const request = JSON.parse(String(raw)) as WebSocketRequestMessage
      requests.push(request)
      void serve(socket, request)
    })
  })
})
afterEach(cleanup)
afterAll(async () => {
  for (const socket of server.clients) socket.terminate()
  await new Promise<void>((resolve) => server.close(() => resolve()))
})

function Chat({ path }: { path: string }) {
  const { send, stop } = useAgentStream({
    url: `http://agent.test${path}`, protocol: 'ui-message', scheduler: syncScheduler,
    transport: webSocketTransport({ url: socketUrl, WebSocket }),
  })
  return (
    <>
      <Transcript.Root />
      <Composer send={send} stop={stop} />
    </>
  )
}

function ask(text: string) {
  fireEvent.change(screen.getByRole('textbox', { name: 'Message' }), { target: { value: text } })
  fireEvent.click(document.querySelector('[data-weft="composer-send"]')!)
}

/** The assistant's text that `foldStream` gives the same events. */
function expectedText(): string[] {
  const state = foldStream(frames.map((frame) => encodeFrame(frame)).join(''), { protocols: [uiMessageProtocol] })
  return messageList(state.messages).filter((m) => m.role === 'assistant' && m.type === 'text').map((m) => String(m.props.content))
}

describe('useAgentStream over webSocketTransport, drawn by the components', () => {
  it('a send from the composer streams over a socket and the transcript shows what foldStream folds', async () => {
    render(<AgentProvider protocols={[uiMessageProtocol]}><Chat path="/full" /></AgentProvider>)
    ask('Hello over a socket')
    await waitFor(() => expect(document.querySelector('[data-weft="turn"][data-role="assistant"]')?.getAttribute('data-state')).toBe('done'), { timeout: 10_000 })
    const texts = expectedText()
    expect(texts.length).toBeGreaterThan(0)
    for (const text of texts) expect(document.body.textContent).toContain(text.trim().slice(0, 40))
    // The request the client built went as the socket's first message: the protocol's body with the question in it.
    expect(requests.at(-1)!.method).toBe('POST')
    expect(requests.at(-1)!.body).toContain('Hello over a socket')
    expect(await closes.at(-1)).toBe(1000)
  })

  it('Stop closes the socket and the answer ends stopped, keeping what arrived', async () => {
    render(<AgentProvider protocols={[uiMessageProtocol]}><Chat path="/slow" /></AgentProvider>)
    ask('Take your time')
    await waitFor(() => expect(document.querySelector('[data-weft="turn"][data-role="assistant"]')?.textContent?.length ?? 0).toBeGreaterThan(20), { timeout: 10_000 })
    const stopButton = document.querySelector<HTMLButtonElement>('[data-weft="composer-stop"]')
    expect(stopButton).not.toBeNull()
    act(() => stopButton!.click())
    await waitFor(() => expect(document.querySelector('[data-weft="turn"][data-role="assistant"]')?.getAttribute('data-state')).toBe('aborted'))
    expect(await closes.at(-1)).toBe(1000)
  })
})
