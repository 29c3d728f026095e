/**
 * A gate answered through the kit with no wiring: the host gives no
 * `onGateAnswer`, so the card answers through the client that streams into the
 * store, and the run goes on against the mock loop agent (`POST /mock/loop/…`),
 * which reads the request weft builds. A host callback still takes over, and a
 * continuation the server refuses makes the buttons live again with the reason.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { WeftCallbacksProvider } from '../../src/components/callbacks'
import { Composer } from '../../src/components/composer'
import { Transcript } from '../../src/components/transcript'
import type { ProtocolName } from '../../src/core/model/model'
import { createAgentStore } from '../../src/core/store/store'
import { useAgentStream } from '../../src/react/use-agent-stream'
import { renderWith } from './support'

/** The real `fetch`, with each request's JSON body kept; `refuse` answers the nth request (from 1) with a 500 instead. */
function recordingFetch(refuse?: number) {
  const bodies: Array<Record<string, unknown>> = []
  const fetch = (async (url: RequestInfo | URL, init?: RequestInit) => {
    bodies.push(JSON.parse(String(init?.body ?? '{}')) as Record<string, unknown>)
    if (bodies.length === refuse) return new Response('the agent is down', { status: 500 })
    return globalThis.fetch(url, init)
  }) as typeof globalThis.fetch
  return { bodies, fetch }
}

function Chat({ protocol, fetch }: { protocol: ProtocolName; fetch: typeof globalThis.fetch }) {
  const { send, stop } = useAgentStream({ url: `/mock/loop/${protocol}?delay=2`, protocol, fetch })
  return (
    <>
      <Transcript.Root />
      <Composer send={send} stop={stop} />
    </>
  )
}

function ask(text: string) {
  const box = screen.getByRole('textbox', { name: 'Message' })
  fireEvent.change(box, { target: { value: text } })
  fireEvent.keyDown(box, { key: 'Enter' })
}

const timeout = { timeout: 10_000 }

describe('GateCard answers through the kit when the host gives no callback', { timeout: 30_000 }, () => {
  it('AI SDK: Approve continues the run with the approval in the next request', async () => {
    const { bodies, fetch } = recordingFetch()
    const store = createAgentStore()
    renderWith(store, <Chat protocol="ui-message" fetch={fetch} />)
    ask('Please delete the report')
    const card = await screen.findByRole('group', { name: 'Approval needed' }, timeout)
    const approve = within(card).getByRole('button', { name: 'Approve' }) as HTMLButtonElement
    expect(approve.disabled).toBe(false)
    fireEvent.click(approve)
    // Resolved in the store at once: the buttons are gone before the follow-up answers.
    expect(card.getAttribute('data-state')).toBe('approved')
    expect(within(card).queryByRole('button', { name: 'Approve' })).toBeNull()
    await screen.findByText(/Done: the report is deleted\./, undefined, timeout)
    expect(bodies).toHaveLength(2)
    const last = (bodies[1]!.messages as Array<{ role: string; parts: Array<Record<string, unknown>> }>).at(-1)!
    expect(last.role).toBe('assistant')
    expect(last.parts.find((p) => p.type === 'tool-deleteFile')).toMatchObject({ state: 'approval-responded', approval: { approved: true } })
    await waitFor(() => expect(store.getState().status).toBe('done'))
    expect(Object.values(store.getState().gates).map((g) => g.status)).toEqual(['approved'])
  })

  it('AG-UI: Reject on an interrupt resumes the run with the rejection as its payload', async () => {
    const { bodies, fetch } = recordingFetch()
    const store = createAgentStore()
    renderWith(store, <Chat protocol="ag-ui" fetch={fetch} />)
    ask('Please delete the report')
    const card = await screen.findByRole('group', { name: 'Your answer' }, timeout)
    fireEvent.click(within(card).getByRole('button', { name: 'Reject' }))
    await screen.findByText(/Kept the report\./, undefined, timeout)
    expect(bodies).toHaveLength(2)
    expect(bodies[1]!.resume).toEqual([expect.objectContaining({ status: 'resolved', payload: { approved: false } })])
  })

  it("the host's onGateAnswer takes over: the card sends nothing itself", async () => {
    const { bodies, fetch } = recordingFetch()
    const onGateAnswer = vi.fn()
    renderWith(createAgentStore(), <WeftCallbacksProvider onGateAnswer={onGateAnswer}><Chat protocol="ui-message" fetch={fetch} /></WeftCallbacksProvider>)
    ask('Please delete the report')
    const card = await screen.findByRole('group', { name: 'Approval needed' }, timeout)
    fireEvent.click(within(card).getByRole('button', { name: 'Approve' }))
    expect(onGateAnswer).toHaveBeenCalledWith(expect.objectContaining({ kind: 'tool-approval' }), 'approved', undefined)
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(bodies).toHaveLength(1)
  })

  it('a continuation the server refuses puts the buttons back, with the reason shown', async () => {
    const { bodies, fetch } = recordingFetch(2)
    const store = createAgentStore()
    renderWith(store, <Chat protocol="ui-message" fetch={fetch} />)
    ask('Please delete the report')
    const card = await screen.findByRole('group', { name: 'Approval needed' }, timeout)
    fireEvent.click(within(card).getByRole('button', { name: 'Approve' }))
    const alert = await within(card).findByRole('alert', undefined, timeout)
    expect(alert.textContent).toMatch(/500/)
    expect((within(card).getByRole('button', { name: 'Approve' }) as HTMLButtonElement).disabled).toBe(false)
    expect(Object.values(store.getState().gates).map((g) => g.status)).toEqual(['pending'])
    expect(bodies).toHaveLength(2)
  })
})
