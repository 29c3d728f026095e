/**
 * A tool the UI answers, in Chromium: the host's renderer of `pickColor` draws
 * the agent's options as buttons and calls `respond` with the person's choice;
 * the call shows the result at once and the answer goes on against the mock loop
 * agent (`POST /mock/loop/…`), which reads the request weft builds. A second
 * `respond` from the same card is refused with a typed result and sends nothing.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { useState } from 'react'
import { describe, expect, it } from 'vitest'
import { Composer } from '../../src/components/composer'
import type { ToolRendererProps } from '../../src/components/messages/tool'
import { ToolRenderersProvider } from '../../src/components/tool-renderers'
import { Transcript } from '../../src/components/transcript'
import type { RespondResult } from '../../src/core/client/respond'
import type { ProtocolName } from '../../src/core/model/model'
import { createAgentStore } from '../../src/core/store/store'
import { useAgentStream } from '../../src/react/use-agent-stream'
import { renderWith } from './support'

function recordingFetch() {
  const bodies: Array<Record<string, unknown>> = []
  const fetch = (async (url: RequestInfo | URL, init?: RequestInit) => {
    bodies.push(JSON.parse(String(init?.body ?? '{}')) as Record<string, unknown>)
    return globalThis.fetch(url, init)
  }) as typeof globalThis.fetch
  return { bodies, fetch }
}

const results: RespondResult[] = []

/** The host's card: the options as buttons until the call has its colour. */
function ColorPicker({ input, output, respond }: ToolRendererProps<{ options: string[] }, { color: string }>) {
  const [again, setAgain] = useState<RespondResult | undefined>()
  if (output) {
    return (
      <p data-testid="picked">
        Picked {output.color}
        <button type="button" onClick={() => void respond({ color: 'violet' }).then((r) => { results.push(r); setAgain(r) })}>Pick again</button>
        {again && !again.ok && <span role="status">{again.error.code}</span>}
      </p>
    )
  }
  return (
    <div role="group" aria-label="Pick a colour">
      {(input?.options ?? []).map((color) => (
        <button key={color} type="button" onClick={() => void respond({ color }).then((r) => results.push(r))}>{color}</button>
      ))}
    </div>
  )
}

function Chat({ protocol, fetch }: { protocol: ProtocolName; fetch: typeof globalThis.fetch }) {
  const { send, stop } = useAgentStream({
    url: `/mock/loop/${protocol}?delay=2`, protocol, fetch,
    tools: { pickColor: { ui: true, description: 'Ask the user to pick a colour', parameters: { type: 'object', properties: { options: { type: 'array', items: { type: 'string' } } } } } },
  })
  return (
    <ToolRenderersProvider renderers={{ pickColor: ColorPicker }}>
      <Transcript.Root />
      <Composer send={send} stop={stop} />
    </ToolRenderersProvider>
  )
}

function ask(text: string) {
  const box = screen.getByRole('textbox', { name: 'Message' })
  fireEvent.change(box, { target: { value: text } })
  fireEvent.keyDown(box, { key: 'Enter' })
}

const timeout = { timeout: 10_000 }

describe.each(['ui-message', 'ag-ui'] as const)('a renderer answers its tool call with respond (%s)', { timeout: 30_000 }, (protocol) => {
  it('the choice is recorded on the call, the loop goes on, and a second respond is refused', async () => {
    results.length = 0
    const { bodies, fetch } = recordingFetch()
    const store = createAgentStore()
    renderWith(store, <Chat protocol={protocol} fetch={fetch} />)
    ask('Please pick a colour for the theme')
    const group = await screen.findByRole('group', { name: 'Pick a colour' }, timeout)
    await waitFor(() => expect(store.getState().status).toBe('done'), timeout)
    expect(bodies).toHaveLength(1)
    fireEvent.click(within(group).getByRole('button', { name: 'amber' }))
    // Shown at once, before the agent answers.
    expect(screen.getByTestId('picked').textContent).toContain('Picked amber')
    await screen.findByText(/Amber it is: the theme now uses amber\./, undefined, timeout)
    await waitFor(() => expect(store.getState().status).toBe('done'), timeout)
    expect(results).toEqual([{ ok: true }])
    expect(bodies).toHaveLength(2)
    if (protocol === 'ui-message') {
      const last = (bodies[1]!.messages as Array<{ role: string; parts: Array<Record<string, unknown>> }>).at(-1)!
      expect(last.parts.find((p) => p.type === 'tool-pickColor')).toMatchObject({ state: 'output-available', output: { color: 'amber' } })
    } else {
      expect(bodies[0]!.tools).toEqual([expect.objectContaining({ name: 'pickColor' })])
      expect((bodies[1]!.messages as Array<Record<string, unknown>>).at(-1)).toMatchObject({ role: 'tool', content: '{"color":"amber"}' })
    }

    fireEvent.click(screen.getByRole('button', { name: 'Pick again' }))
    expect(await screen.findByRole('status')).toHaveProperty('textContent', 'answered')
    expect(results[1]).toMatchObject({ ok: false, error: { type: 'validation', code: 'answered' } })
    expect(bodies).toHaveLength(2)
  })
})
