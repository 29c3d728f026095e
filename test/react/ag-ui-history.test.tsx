import { act, cleanup, render, screen, waitFor } from '@testing-library/react'
import { StrictMode } from 'react'
import { afterEach, describe, expect, it } from 'vitest'
import { createAgentStore } from '../../src/core/store/store'
import { AgentProvider } from '../../src/umbrella/providers'
import { useAgUiHistory } from '../../src/protocols/ag-ui/react/index'

afterEach(() => cleanup())

const pages: Record<string, unknown> = {
  latest: {
    scope: 'history_day', threadId: 'th', day: '2026-03-16', hasMore: true,
    messages: [{ id: 'u2', seq: 1, role: 'user', content: 'today' }, { id: 'a2', seq: 2, role: 'assistant', runId: 'r2', content: 'answer today' }],
  },
  '2026-03-16': {
    scope: 'history_day', threadId: 'th', day: '2026-03-15', hasMore: false,
    messages: [{ id: 'u1', seq: 1, role: 'user', content: 'yesterday' }, { id: 'a1', seq: 2, role: 'assistant', runId: 'r1', content: 'answer yesterday' }],
  },
}

/** A history endpoint in memory that counts its calls and can fail on demand. */
function fakeHistory(failFirst = false) {
  const calls: string[] = []
  let fail = failFirst
  const fetchImpl: typeof fetch = async (input) => {
    const url = new URL(String(input), 'http://app.local')
    calls.push(url.pathname + url.search)
    if (fail) {
      fail = false
      return new Response(JSON.stringify({ message: 'down' }), { status: 503, headers: { 'content-type': 'application/json' } })
    }
    const body = pages[url.searchParams.get('before') ?? 'latest']
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } })
  }
  return { calls, fetchImpl }
}

function History({ fetchImpl }: { fetchImpl: typeof fetch }) {
  const { loadOlder, hasMore, loading, error } = useAgUiHistory({ historyUrl: '/api/v1/agent/history', fetch: fetchImpl })
  return (
    <div>
      <output data-testid="state">{`${loading ? 'loading' : 'idle'}|${hasMore ? 'more' : 'end'}|${error?.type ?? ''}`}</output>
      <button onClick={() => void loadOlder()}>older</button>
    </div>
  )
}

describe('useAgUiHistory', () => {
  it('loads the latest day once on mount, even under StrictMode, then older days on demand', async () => {
    const store = createAgentStore()
    const { calls, fetchImpl } = fakeHistory()
    render(<StrictMode><AgentProvider store={store}><History fetchImpl={fetchImpl} /></AgentProvider></StrictMode>)
    await waitFor(() => expect(screen.getByTestId('state').textContent).toBe('idle|more|'))
    expect(calls).toEqual(['/api/v1/agent/history'])
    expect(store.getState().turnIds).toEqual(['ag-ui-user:u2', 'ag-ui-run:r2'])

    await act(async () => screen.getByText('older').click())
    await waitFor(() => expect(screen.getByTestId('state').textContent).toBe('idle|end|'))
    expect(calls).toEqual(['/api/v1/agent/history', '/api/v1/agent/history?before=2026-03-16'])
    expect(store.getState().turnIds).toEqual(['ag-ui-user:u1', 'ag-ui-run:r1', 'ag-ui-user:u2', 'ag-ui-run:r2'])

    await act(async () => screen.getByText('older').click())
    expect(calls).toHaveLength(2)
  })

  it('shows a failed page as a typed error and retries it on loadOlder', async () => {
    const store = createAgentStore()
    const { calls, fetchImpl } = fakeHistory(true)
    render(<AgentProvider store={store}><History fetchImpl={fetchImpl} /></AgentProvider>)
    await waitFor(() => expect(screen.getByTestId('state').textContent).toBe('idle|more|internal'))
    expect(store.getState().turnIds).toEqual([])
    await act(async () => screen.getByText('older').click())
    await waitFor(() => expect(screen.getByTestId('state').textContent).toBe('idle|more|'))
    expect(calls).toEqual(['/api/v1/agent/history', '/api/v1/agent/history'])
    expect(store.getState().turnIds).toHaveLength(2)
  })
})
