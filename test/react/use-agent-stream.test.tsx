import { act, cleanup, configure, render, screen, waitFor } from '@testing-library/react'
import { Profiler, StrictMode, memo, useState } from 'react'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createAgentStore, type AgentStore } from '../../src/core/store/store'
import { useAgentStream, useMessage, useStatus, useTurn, useTurnIds, useBlocks, useThread, useTrace, useTurns } from '../../src/react/index'
import { AgentProvider } from '../../src/umbrella/providers'
import { startServer, type TestServer } from '../helpers/server'
import { findScenario } from '../../mock/scenarios/index'
import { messageList, messageRecord } from '../../src/core/model/message-table'

let srv: TestServer
beforeAll(async () => {
  srv = await startServer()
})
afterAll(() => srv.close())
afterEach(() => cleanup())
// These wait on a real loopback stream, not a timer: a busy machine may take longer than the 1 s default.
configure({ asyncUtilTimeout: 15_000 })

const streamPath = (scenario: string, query = '') => `/mock/stream/yao/${scenario}${query ? `?${query}` : ''}`

function Controls({ url, autoSend = false }: { url: string; autoSend?: boolean }) {
  const { send, stop, status, error } = useAgentStream({ url, protocol: 'yao' })
  const [sent, setSent] = useState(false)
  if (autoSend && !sent) {
    setSent(true)
    void send('Hello')
  }
  return (
    <div>
      <button onClick={() => void send('Hello')}>send</button>
      <button onClick={stop}>stop</button>
      <output data-testid="status">{status}</output>
      <output data-testid="error">{error?.type ?? ''}</output>
    </div>
  )
}

const MessageRow = memo(function MessageRow({ id, onRender }: { id: string; onRender: (id: string) => void }) {
  const message = useMessage(id)
  onRender(id)
  return <p data-testid={`m-${id}`}>{String(message?.props.content ?? '')}</p>
})

const TurnView = memo(function TurnView({ id, onRender }: { id: string; onRender: (id: string) => void }) {
  const turn = useTurn(id)
  onRender(`turn:${id}`)
  return <section data-role={turn?.role}>{turn?.messageIds.map((m) => <MessageRow key={m} id={m} onRender={onRender} />)}</section>
})

function Transcript({ onRender = () => {} }: { onRender?: (id: string) => void }) {
  const ids = useTurnIds()
  onRender('list')
  return <div role="log">{ids.map((id) => <TurnView key={id} id={id} onRender={onRender} />)}</div>
}

function Chat({ url, store, onRender }: { url: string; store?: AgentStore; onRender?: (id: string) => void }) {
  return (
    <AgentProvider store={store}>
      <Controls url={url} />
      <Transcript onRender={onRender} />
    </AgentProvider>
  )
}

describe('useAgentStream against a real loopback server', () => {
  it('streams a Yao answer into the transcript and ends done', async () => {
    const store = createAgentStore()
    render(<Chat url={srv.url + streamPath('one-block', 'chunk=random')} store={store} />)
    act(() => screen.getByText('send').click())
    await waitFor(() => expect(screen.getByTestId('status').textContent).toBe('done'))
    expect(screen.getByRole('log').textContent).toContain('It is sunny in Paris, 25°C.')
    const { turnIds, turns } = store.getState()
    expect(turnIds.map((id) => turns[id]!.role)).toEqual(['user', 'assistant'])
    expect(turns[turnIds[1]!]!.protocol).toBe('yao')
  })

  it('posts the input as JSON and sends the host headers', async () => {
    const before = srv.requests.length
    render(<Chat url={srv.url + streamPath('simple-text')} />)
    act(() => screen.getByText('send').click())
    await waitFor(() => expect(screen.getByTestId('status').textContent).toBe('done'))
    const request = srv.requests[before]!
    expect(request.method).toBe('POST')
    expect(request.headers['content-type']).toBe('application/json')
    expect(request.headers.accept).toBe('text/event-stream')
  })

  it('under StrictMode one send makes one request', async () => {
    const before = srv.requests.length
    render(<StrictMode><Chat url={srv.url + streamPath('streaming-text')} /></StrictMode>)
    act(() => screen.getByText('send').click())
    await waitFor(() => expect(screen.getByTestId('status').textContent).toBe('done'))
    expect(srv.requests.length - before).toBe(1)
    expect(screen.getByRole('log').textContent).toContain('Hello World!')
  })

  it('stop() aborts the request and marks the turn aborted', async () => {
    const store = createAgentStore()
    render(<Chat url={srv.url + streamPath('one-block', 'delay=40')} store={store} />)
    act(() => screen.getByText('send').click())
    await waitFor(() => expect(screen.getByTestId('status').textContent).toBe('streaming'))
    act(() => screen.getByText('stop').click())
    expect(screen.getByTestId('status').textContent).toBe('aborted')
    const { turnIds, turns } = store.getState()
    expect(turns[turnIds.at(-1)!]!.status).toBe('aborted')
    // Nothing more lands after the stop.
    const count = Object.keys(messageRecord(store.getState().messages)).length
    await new Promise((r) => setTimeout(r, 200))
    expect(Object.keys(messageRecord(store.getState().messages)).length).toBe(count)
  })

  it('unmount aborts the request', async () => {
    const store = createAgentStore()
    const view = render(<Chat url={srv.url + streamPath('one-block', 'delay=40')} store={store} />)
    act(() => screen.getByText('send').click())
    await waitFor(() => expect(store.getState().status).toBe('streaming'))
    view.unmount()
    expect(store.getState().status).toBe('aborted')
    const sequence = store.getState().cursor.eventCount
    await new Promise((r) => setTimeout(r, 200))
    expect(store.getState().cursor.eventCount).toBe(sequence)
  })

  it('HTTP failures become typed errors, never a throw', async () => {
    render(<Chat url={srv.url + '/mock/stream/yao/no-such-scenario'} />)
    act(() => screen.getByText('send').click())
    await waitFor(() => expect(screen.getByTestId('status').textContent).toBe('error'))
    expect(screen.getByTestId('error').textContent).toBe('validation')
  })

  it('a closed port is a network error', async () => {
    render(<Chat url="http://127.0.0.1:9/stream" />)
    act(() => screen.getByText('send').click())
    await waitFor(() => expect(screen.getByTestId('status').textContent).toBe('error'))
    expect(screen.getByTestId('error').textContent).toBe('network')
  })

  it('a second send scopes its ids apart from the first', async () => {
    const store = createAgentStore()
    render(<Chat url={srv.url + streamPath('streaming-text')} store={store} />)
    act(() => screen.getByText('send').click())
    await waitFor(() => expect(screen.getByTestId('status').textContent).toBe('done'))
    act(() => screen.getByText('send').click())
    await waitFor(() => expect(store.getState().turnIds).toHaveLength(4))
    await waitFor(() => expect(screen.getByTestId('status').textContent).toBe('done'))
    const texts = messageList(store.getState().messages).filter((m) => m.role === 'assistant').map((m) => m.props.content)
    expect(texts).toEqual(['Hello World!', 'Hello World!'])
  })
})

describe('selector hooks re-render only their own slice', () => {
  it('a streaming token re-renders only the message it lands in', async () => {
    const store = createAgentStore()
    const renders = new Map<string, number>()
    const onRender = (id: string) => renders.set(id, (renders.get(id) ?? 0) + 1)
    render(<AgentProvider store={store}><Transcript onRender={onRender} /></AgentProvider>)
    act(() => store.getState().dispatch([
      { op: 'turn.open', turnId: 't1', role: 'assistant' },
      { op: 'message.put', turnId: 't1', messageId: 'a', type: 'text', props: { content: 'first' } },
      { op: 'message.put', turnId: 't1', messageId: 'b', type: 'text', props: { content: 'second' } },
    ]))
    renders.clear()
    for (const token of [' more', ' and', ' more']) {
      act(() => store.getState().dispatch([{ op: 'message.delta', turnId: 't1', messageId: 'b', action: 'append', path: 'content', value: token }]))
    }
    expect(screen.getByTestId('m-b').textContent).toBe('second more and more')
    expect(Object.fromEntries(renders)).toEqual({ b: 3 })
  })

  it('useMessage follows its id when the id changes, and hears only the message it names', () => {
    const store = createAgentStore()
    const seen: string[] = []
    function Probe({ id }: { id: string }) {
      const message = useMessage(id)
      const text = String(message?.props.content ?? '-')
      seen.push(text)
      return <p data-testid="probe">{text}</p>
    }
    const put = (messageId: string, value: string) => act(() => store.getState().dispatch([
      { op: 'message.delta', turnId: 't1', messageId, action: 'append', path: 'content', value },
    ]))
    const { rerender } = render(<AgentProvider store={store}><Probe id="a" /></AgentProvider>)
    put('a', 'A')
    put('b', 'B')
    rerender(<AgentProvider store={store}><Probe id="b" /></AgentProvider>)
    put('a', 'A')
    put('b', 'B')
    expect(screen.getByTestId('probe').textContent).toBe('BB')
    expect(seen).toEqual(['-', 'A', 'B', 'BB'])
  })

  it('useBlocks, useThread, useTrace and useTurns read their slices', () => {
    const store = createAgentStore()
    function Probe() {
      const blocks = useBlocks('t1')
      const thread = useThread('th1')
      const trace = useTrace('t1')
      const turns = useTurns()
      const status = useStatus()
      return <pre data-testid="probe">{JSON.stringify({ blocks: blocks.map((b) => b.label), thread: thread?.messageIds, trace: trace.map((n) => n.label), turns: turns.length, status })}</pre>
    }
    render(<AgentProvider store={store}><Probe /></AgentProvider>)
    act(() => store.getState().dispatch([
      { op: 'block.open', turnId: 't1', blockId: 'b1', kind: 'llm', label: 'Thinking' },
      { op: 'message.delta', turnId: 't1', messageId: 'm1', blockId: 'b1', threadId: 'th1', action: 'append', path: 'content', value: 'x' },
      { op: 'trace.node', turnId: 't1', node: { id: 'n1', label: 'Searched' } },
      { op: 'stream.status', status: 'streaming' },
    ]))
    expect(JSON.parse(screen.getByTestId('probe').textContent!)).toEqual({ blocks: ['Thinking'], thread: ['m1'], trace: ['Searched'], turns: 1, status: 'streaming' })
  })

  it('a whole streamed answer costs far fewer commits than tokens when batched per frame', async () => {
    const store = createAgentStore()
    let commits = 0
    render(
      <Profiler id="t" onRender={() => { commits += 1 }}>
        <AgentProvider store={store}><Controls url={srv.url + streamPath('one-block')} /><Transcript /></AgentProvider>
      </Profiler>,
    )
    commits = 0
    act(() => screen.getByText('send').click())
    await waitFor(() => expect(screen.getByTestId('status').textContent).toBe('done'))
    // Every event is folded, in fewer commits than events: the frame batcher groups what arrives together.
    const events = findScenario('yao', 'one-block')!.frames.filter((f) => f.data !== undefined).length
    expect(store.getState().cursor.eventCount).toBe(events)
    expect(commits).toBeLessThan(events)
  })

  it('each provider has its own store', () => {
    function Count() {
      return <span>{useTurnIds().length}</span>
    }
    const a = createAgentStore()
    render(<><AgentProvider store={a}><Count /></AgentProvider><AgentProvider><Count /></AgentProvider></>)
    act(() => a.getState().dispatch([{ op: 'turn.open', turnId: 't', role: 'user' }]))
    expect(screen.getAllByText(/\d/).map((e) => e.textContent)).toEqual(['1', '0'])
  })

  it('a hook outside a provider says what is missing', () => {
    function Lone() {
      useTurnIds()
      return null
    }
    expect(() => render(<Lone />)).toThrow(/AgentProvider/)
  })
})

