/**
 * The hooks that give the agent what the page knows: `useAgentContext` registers
 * an entry with the store's client while its component is mounted (a new value
 * replaces the old, unmounting takes it back), and `useAgentState` reads and sets
 * the shared state, which the next AG-UI request carries.
 */
import { act, cleanup, render } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import type { ActionResult } from '../../src/core/client/gates'
import { createAgentStore } from '../../src/core/store/store'
import { useAgentContext, useAgentState, useAgentStream, type AgentStreamHandle } from '../../src/react/index'
import { AgentProvider } from '../../src/umbrella/providers'
import { fakeFetch } from '../helpers/fake-fetch'

afterEach(() => cleanup())

/** An AG-UI server that answers every run with nothing but its start and end. */
function agUiFetch() {
  return fakeFetch((init) => {
    const input = JSON.parse(String(init.body)) as { threadId: string; runId: string }
    const events = [{ type: 'RUN_STARTED', threadId: input.threadId, runId: input.runId }, { type: 'RUN_FINISHED', threadId: input.threadId, runId: input.runId }]
    return new Response(events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join(''), { headers: { 'content-type': 'text/event-stream' } })
  })
}

function Page({ fetch, page, open, onChat, onSet }: {
  fetch: typeof globalThis.fetch; page: number; open: boolean; onChat: (chat: AgentStreamHandle) => void; onSet: (set: ReturnType<typeof useAgentState>[1]) => void
}) {
  const chat = useAgentStream({ url: '/agent', protocol: 'ag-ui', fetch })
  const [state, setState] = useAgentState()
  onChat(chat)
  onSet(setState)
  return (
    <>
      <output data-testid="theme">{String(state.theme ?? '')}</output>
      {open && <Doc page={page} />}
    </>
  )
}

function Doc({ page }: { page: number }) {
  useAgentContext({ description: 'The open document', value: { title: 'Q3 report', page } })
  return <article>Q3 report</article>
}

describe('useAgentContext and useAgentState', () => {
  it('context goes while mounted, follows its value, and leaves on unmount; state is set at once and sent', async () => {
    const { fetch, calls } = agUiFetch()
    const store = createAgentStore()
    let chat: AgentStreamHandle | undefined
    let set: ((update: Parameters<ReturnType<typeof useAgentState>[1]>[0]) => ActionResult) | undefined
    const view = (page: number, open: boolean) => (
      <AgentProvider store={store}>
        <Page fetch={fetch} page={page} open={open} onChat={(c) => (chat = c)} onSet={(s) => (set = s)} />
      </AgentProvider>
    )
    const { rerender, getByTestId } = render(view(4, true))
    const body = (i: number) => JSON.parse(String(calls[i]!.init.body)) as { context: unknown; state: unknown }

    await act(async () => void (await chat!.send('one')))
    expect(body(0).context).toEqual([{ description: 'The open document', value: '{"title":"Q3 report","page":4}' }])

    rerender(view(5, true))
    let result: ActionResult | undefined
    act(() => {
      result = set!((current) => ({ ...current, theme: 'teal' }))
    })
    expect(result).toEqual({ ok: true })
    expect(getByTestId('theme').textContent).toBe('teal')
    await act(async () => void (await chat!.send('two')))
    expect(body(1).context).toEqual([{ description: 'The open document', value: '{"title":"Q3 report","page":5}' }])
    expect(body(1).state).toEqual({ theme: 'teal' })

    rerender(view(5, false))
    act(() => {
      result = set!({ theme: () => 'x' } as unknown as Record<string, unknown>)
    })
    expect(result).toMatchObject({ ok: false, error: { code: 'not_json' } })
    expect(getByTestId('theme').textContent).toBe('teal')
    await act(async () => void (await chat!.send('three')))
    expect(body(2).context).toEqual([])
  })
})
