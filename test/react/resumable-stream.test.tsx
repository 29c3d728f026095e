import { act, cleanup, render, screen, waitFor } from '@testing-library/react'
import { StrictMode } from 'react'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createResumeRoutes, flakyVocionResumeRoute } from '../../mock/resume'
import { encodeFrame } from '../../mock/scenario'
import { findScenario } from '../../mock/scenarios/index'
import { syncScheduler } from '../../src/core/store/batcher'
import { RESUME_EXHAUSTED } from '../../src/core/client'
import { foldStream } from '../../src/umbrella/defaults'
import type { AgentState } from '../../src/core/model/model'
import { memoryStorage, resumeStorageKey, writeHandle } from '../../src/core/resume/storage'
import { createAgentStore, type AgentStore } from '../../src/core/store/store'
import { useMessage, useTurn, useTurnIds } from '../../src/react/index'
import { AgentProvider } from '../../src/umbrella/providers'
import { useResumableStream, type UseResumableStreamOptions } from '../../src/react/use-resumable-stream'
import { startServer, type TestServer } from '../helpers/server'
import { messageIn } from '../../src/core/model/message-table'
import { traceRecord } from '../../src/core/model/trace-table'

let srv: TestServer
let resumeHealthy = true
beforeAll(async () => {
  srv = await startServer({
    routes: [
      ...createResumeRoutes(),
      // A resume endpoint that is down (sockets die) until the test says otherwise.
      flakyVocionResumeRoute(() => resumeHealthy),
      // The back end's stored transcript of a conversation, for resume.historyUrl.
      {
        method: 'GET', path: '/chats/:key/history',
        handler: ({ res, params }) => {
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify([
            { id: 'q1', role: 'user', content: `Status of ${params.key}?` },
            { id: 'a1', role: 'assistant', events: [{ type: 'response_delta', delta: 'Renewal is on track.' }, { type: 'done', response: 'Renewal is on track.' }] },
          ]))
        },
      },
    ],
  })
})
afterAll(() => srv.close())
afterEach(() => {
  cleanup()
  sessionStorage.clear()
  resumeHealthy = true
})

const ANSWER = 'Contoso renews on 30 September [1]. The champion asked for a two-year term at the current price [2], so a draft note to Nadia is ready below.'

function Message({ id }: { id: string }) {
  const message = useMessage(id)
  return message?.type === 'text' ? <p data-role={message.role}>{String(message.props.content ?? '')}</p> : null
}
function Turn({ id }: { id: string }) {
  const turn = useTurn(id)
  return <section>{turn?.messageIds.map((m) => <Message key={m} id={m} />)}</section>
}
function Transcript() {
  return <div role="log">{useTurnIds().map((id) => <Turn key={id} id={id} />)}</div>
}

function Controls(props: UseResumableStreamOptions) {
  const { send, stop, retry, status, error } = useResumableStream(props)
  return (
    <div>
      <button onClick={() => void send('Hello')}>send</button>
      <button onClick={stop}>stop</button>
      <button onClick={() => void retry()}>retry</button>
      <output data-testid="status">{status}</output>
      <output data-testid="error">{error?.code ?? ''}</output>
    </div>
  )
}

function Chat({ store, ...options }: UseResumableStreamOptions & { store: AgentStore }) {
  return (
    <AgentProvider store={store}>
      <Controls {...options} />
      <Transcript />
    </AgentProvider>
  )
}

/** Vocion options against the loopback server. */
function vocion(query: string, extra: Partial<UseResumableStreamOptions> = {}): UseResumableStreamOptions {
  return {
    url: `${srv.url}/mock/stream/vocion/answer${query ? `?${query}` : ''}`, protocol: 'vocion', scheduler: syncScheduler,
    conversationKey: 'chat-1', resume: 'vocion', resumeUrl: `${srv.url}/mock/resume/vocion/answer`, backoff: { baseMs: 1, maxMs: 4 },
    ...extra,
  }
}

function recordStatuses(store: AgentStore): string[] {
  const seen: string[] = []
  store.subscribe((s, prev) => {
    if (s.status !== prev.status) seen.push(s.status)
  })
  return seen
}

function uninterruptedView(): unknown {
  const s = findScenario('vocion', 'answer')!
  return view(foldStream(s.frames.map((f) => encodeFrame(f)).join(''), { protocol: 'vocion', turnId: 'turn-1' }), 'turn-1')
}

function view(state: AgentState, turnId: string): unknown {
  const turn = state.turns[turnId]
  if (!turn) return undefined
  const byId = <T extends { id: string }>(list: T[]) => [...list].sort((a, b) => a.id.localeCompare(b.id))
  // The parent is the user turn each run makes afresh; the timing is the live client's alone.
  const { id: _id, parentId: _parent, timing: _timing, ...fields } = turn
  const shown = {
    turn: fields,
    messages: turn.messageIds.map((id) => messageIn(state.messages, id)),
    trace: byId(Object.values(traceRecord(state.trace)).filter((n) => n.turnId === turnId)),
    gates: turn.gateIds.map((id) => state.gates[id]),
  }
  return JSON.parse(JSON.stringify(shown).split(turnId).join('TURN'))
}

function assistantTurn(store: AgentStore): string {
  const { turnIds, turns } = store.getState()
  return turnIds.find((t) => turns[t]?.role === 'assistant')!
}

const resumeRequests = (from: number) => srv.requests.slice(from).filter((r) => r.path.includes('/resume/'))

describe('useResumableStream', () => {
  it('a connection dropped mid-answer reconnects: reconnecting, then done, with the whole text', async () => {
    const store = createAgentStore()
    const statuses = recordStatuses(store)
    render(<Chat store={store} {...vocion('cut=17')} />)
    act(() => screen.getByText('send').click())
    await waitFor(() => expect(screen.getByTestId('status').textContent).toBe('done'))
    expect(statuses).toEqual(['connecting', 'streaming', 'reconnecting', 'streaming', 'done'])
    expect(screen.getByRole('log').textContent).toContain(ANSWER)
    expect(view(store.getState(), assistantTurn(store))).toEqual(uninterruptedView())
  })

  it('a reload (new provider, fresh store) resumes from sessionStorage and rebuilds the whole turn', async () => {
    const first = createAgentStore()
    const page = render(<Chat store={first} {...vocion('delay=25')} />)
    act(() => screen.getByText('send').click())
    await waitFor(() => expect(first.getState().cursor.eventCount).toBeGreaterThanOrEqual(8))
    page.unmount()
    // Unmounting (or unloading) mid-stream keeps the handle; the default storage is sessionStorage.
    const stored = JSON.parse(sessionStorage.getItem(resumeStorageKey('chat-1'))!)
    expect(stored.handle).toMatchObject({ strategy: 'vocion', streamId: 'stream-answer-1' })
    expect(stored.handle.count).toBeGreaterThanOrEqual(8)

    const before = srv.requests.length
    const second = createAgentStore()
    render(<Chat store={second} {...vocion('delay=25')} />)
    await waitFor(() => expect(screen.getByTestId('status').textContent).toBe('done'))
    // The fresh store holds nothing of the turn, so it asks from the start and ends complete.
    expect(resumeRequests(before).map((r) => r.path)).toEqual(['/mock/resume/vocion/answer?id=stream-answer-1&after=0'])
    expect(second.getState().turnIds).toEqual([stored.handle.turnId])
    expect(view(second.getState(), stored.handle.turnId)).toEqual(uninterruptedView())
    expect(sessionStorage.getItem(resumeStorageKey('chat-1'))).toBeNull()
  })

  it('a remount over the same store asks only for what is missing and doubles nothing', async () => {
    const store = createAgentStore()
    const storage = memoryStorage()
    const options = vocion('delay=25', { storage })
    const page = render(<Chat store={store} {...options} />)
    act(() => screen.getByText('send').click())
    await waitFor(() => expect(store.getState().cursor.eventCount).toBeGreaterThanOrEqual(6))
    page.unmount()
    const count = store.getState().cursor.eventCount
    expect(store.getState().turns[assistantTurn(store)]!.status).toBe('streaming')

    const before = srv.requests.length
    render(<Chat store={store} {...options} />)
    await waitFor(() => expect(screen.getByTestId('status').textContent).toBe('done'))
    expect(resumeRequests(before).map((r) => r.path)).toEqual([`/mock/resume/vocion/answer?id=stream-answer-1&after=${count}`])
    expect(view(store.getState(), assistantTurn(store))).toEqual(uninterruptedView())
    expect(screen.getByRole('log').textContent).toBe(`Hello${ANSWER}`)
  })

  it('StrictMode\'s double mount makes exactly one resume request', async () => {
    const storage = memoryStorage()
    writeHandle(storage, 'strict', { strategy: 'vocion', turnId: 'turn-strict', protocol: 'vocion', count: 5, streamId: 'stream-answer-1' } as never)
    const before = srv.requests.length
    const store = createAgentStore()
    render(<StrictMode><Chat store={store} {...vocion('', { storage, conversationKey: 'strict' })} /></StrictMode>)
    await waitFor(() => expect(screen.getByTestId('status').textContent).toBe('done'))
    expect(resumeRequests(before)).toHaveLength(1)
    expect(view(store.getState(), 'turn-strict')).toEqual(uninterruptedView())
  })

  it('a 404 on resume rehydrates the conversation from history and clears the handle', async () => {
    const storage = memoryStorage()
    writeHandle(storage, 'old', { strategy: 'vocion', turnId: 'turn-old', protocol: 'vocion', count: 5, streamId: 'long-gone' } as never)
    const calls: string[] = []
    const store = createAgentStore()
    render(<Chat store={store} {...vocion('', {
      storage, conversationKey: 'old',
      onExpired: async ({ conversationKey, reason }) => {
        calls.push(`${conversationKey}:${reason}`)
        return [
          { turn: { id: 'u1', role: 'user' }, messages: [{ id: 'u1/text', role: 'user', type: 'text', props: { content: 'Status?' } }] },
          { turn: { id: 'a1', role: 'assistant' }, messages: [{ id: 'a1/text', type: 'text', props: { content: 'Renewal is on track.' } }] },
        ]
      },
    })} />)
    await waitFor(() => expect(screen.getByRole('log').textContent).toBe('Status?Renewal is on track.'))
    expect(calls).toEqual(['old:expired'])
    expect(screen.getByTestId('status').textContent).toBe('done')
    expect(store.getState().turnIds).toEqual(['u1', 'a1'])
    expect(storage.getItem(resumeStorageKey('old'))).toBeNull()
  })

  it('historyUrl: an expired stream is rebuilt from the stored transcript, read by the protocol', async () => {
    const storage = memoryStorage()
    writeHandle(storage, 'old', { strategy: 'vocion', turnId: 'turn-old', protocol: 'vocion', count: 5, streamId: 'long-gone' } as never)
    const store = createAgentStore()
    const from = srv.requests.length
    render(<Chat store={store} {...vocion('', { storage, conversationKey: 'old', historyUrl: (key) => `${srv.url}/chats/${key}/history` })} />)
    await waitFor(() => expect(screen.getByRole('log').textContent).toBe('Status of old?Renewal is on track.'))
    expect(screen.getByTestId('status').textContent).toBe('done')
    expect(srv.requests.slice(from).map((r) => r.path).at(-1)).toBe('/chats/old/history')
    expect(storage.getItem(resumeStorageKey('old'))).toBeNull()
  })

  it('after the reconnect bound: a typed error, and retry() completes the answer', async () => {
    resumeHealthy = false
    const store = createAgentStore()
    const before = srv.requests.length
    render(<Chat store={store} {...vocion('cut=12', { resumeUrl: `${srv.url}/mock/flaky/vocion/answer`, maxRetries: 2 })} />)
    act(() => screen.getByText('send').click())
    await waitFor(() => expect(screen.getByTestId('status').textContent).toBe('error'))
    expect(screen.getByTestId('error').textContent).toBe(RESUME_EXHAUSTED)
    expect(srv.requests.slice(before).filter((r) => r.path.startsWith('/mock/flaky/'))).toHaveLength(2)

    resumeHealthy = true
    act(() => screen.getByText('retry').click())
    await waitFor(() => expect(screen.getByTestId('status').textContent).toBe('done'))
    expect(screen.getByTestId('error').textContent).toBe('')
    expect(view(store.getState(), assistantTurn(store))).toEqual(uninterruptedView())
  })

  it('a 204 at mount means nothing to resume: nothing is shown and the handle goes', async () => {
    const storage = memoryStorage()
    writeHandle(storage, 'finished-chat', { strategy: 'ai-sdk', turnId: 'turn-x', count: 3, url: `${srv.url}/mock/ai/ui-message/plain`, chatId: 'finished-chat' } as never)
    const store = createAgentStore()
    const before = srv.requests.length
    render(<Chat store={store} {...{ url: `${srv.url}/mock/ai/ui-message/plain`, scheduler: syncScheduler, conversationKey: 'finished-chat', resume: 'ai-sdk', storage }} />)
    await waitFor(() => expect(srv.requests.length).toBe(before + 1))
    await waitFor(() => expect(storage.getItem(resumeStorageKey('finished-chat'))).toBeNull())
    expect(srv.requests[before]!.path).toBe('/mock/ai/ui-message/plain/finished-chat/stream')
    expect(store.getState().turnIds).toEqual([])
    expect(screen.getByTestId('status').textContent).toBe('idle')
  })

  it('stop() forgets the handle; unmount keeps it', async () => {
    const storage = memoryStorage()
    const store = createAgentStore()
    const page = render(<Chat store={store} {...vocion('delay=25', { storage })} />)
    act(() => screen.getByText('send').click())
    await waitFor(() => expect(store.getState().cursor.eventCount).toBeGreaterThanOrEqual(3))
    expect(storage.getItem(resumeStorageKey('chat-1'))).not.toBeNull()
    act(() => screen.getByText('stop').click())
    expect(screen.getByTestId('status').textContent).toBe('aborted')
    expect(storage.getItem(resumeStorageKey('chat-1'))).toBeNull()
    page.unmount()

    render(<Chat store={createAgentStore()} {...vocion('delay=25', { storage })} />)
    act(() => screen.getByText('send').click())
    await waitFor(() => expect(storage.getItem(resumeStorageKey('chat-1'))).not.toBeNull())
    cleanup()
    expect(storage.getItem(resumeStorageKey('chat-1'))).not.toBeNull()
  })
})
