import type { Meta, StoryObj } from '@storybook/react-vite'
import { useState } from 'react'
import { expect, userEvent, waitFor, within } from 'storybook/test'
import { Chat, Composer, StatusBar, Transcript } from '../src/components'
import type { AgentClientOptions } from '../src/core/client'
import { useAgentStream } from '../src/react'
import { fixtures } from '../src/testing/fixtures'
import { mockFetch } from '../src/testing/mock-fetch'
import { AgentProvider } from '../src/umbrella/providers'
import { DemoTurn } from './support/demo'
import { expectChatIn, lastTurn, STREAM_TIMEOUT, themeOf } from './support/play'

const URL = '/api/lanes'

/**
 * Sub-agent lanes: AG-UI's recorded run with two sub-agents, replayed frame by
 * frame. A running lane is open, a finished one collapses to its summary line, a
 * failed one stays open. Each lane collapses, hides or takes the focus from its
 * header, in the transcript or on the timeline: both show the same choice.
 */
function LanesChat({ pace = 60 }: { pace?: number }) {
  const [defaults] = useState<Partial<AgentClientOptions>>(() => ({
    fetch: mockFetch([{ method: 'POST', url: URL, stream: { pace }, answer: fixtures['ag-ui'].subagents }]) as typeof fetch,
  }))
  return (
    <AgentProvider clientDefaults={defaults}>
      <Inner />
    </AgentProvider>
  )
}

function Inner() {
  const { send, stop } = useAgentStream({ url: URL, protocol: 'ag-ui' })
  return (
    <div style={{ height: 'min(42rem, calc(100vh - 2rem))' }}>
      <Chat footer={<><Composer send={send} stop={stop} defaultValue="Is weft 1.0 out?" /><StatusBar /></>}>
        <Transcript.Root>{(id) => <DemoTurn turnId={id} />}</Transcript.Root>
      </Chat>
    </div>
  )
}

const meta = {
  title: 'Conversation/Sub-agent lanes',
  component: LanesChat,
} satisfies Meta<typeof LanesChat>

export default meta
type Story = StoryObj<typeof meta>

const lanes = (turn: HTMLElement) => [...turn.querySelectorAll<HTMLElement>('[data-weft="thread"]')]
const views = (turn: HTMLElement) => lanes(turn).map((l) => `${l.getAttribute('aria-label')}: ${l.getAttribute('data-view')}`)
const rows = (turn: HTMLElement) => [...turn.querySelectorAll<HTMLElement>('[data-weft="trace-node"][data-kind="delegate"]')]

/** The run streams: the lanes open as they start, the finished one collapses; then the person collapses, hides and focuses lanes. */
export const CollapseHideFocus: Story = {
  play: async ({ canvasElement, globals }) => {
    const canvas = within(canvasElement)
    await userEvent.click(await canvas.findByRole('button', { name: 'Send' }))
    // While both sub-agents run, both lanes are open.
    await waitFor(() => expect(views(lastTurn(canvasElement))).toEqual(['web-researcher: open', 'docs-reader: open']), { timeout: STREAM_TIMEOUT })
    await waitFor(() => expect(canvasElement.querySelector('[data-weft="status-bar"]')?.getAttribute('data-state')).toBe('done'), { timeout: STREAM_TIMEOUT })
    const turn = lastTurn(canvasElement)
    await expect(views(turn)).toEqual(['web-researcher: collapsed', 'docs-reader: open'])
    const timeline = turn.querySelector<HTMLDetailsElement>('[data-weft="trace-disclosure"]')!
    await userEvent.click(timeline.querySelector('summary')!)
    await expect(rows(turn).map((r) => r.getAttribute('data-view'))).toEqual(['collapsed', 'open'])

    // Open the finished lane from the transcript: the timeline's row opens too.
    await userEvent.click(within(lanes(turn)[0]!).getByRole('button', { name: /^web-researcher · done/ }))
    await expect(views(turn)).toEqual(['web-researcher: open', 'docs-reader: open'])
    await expect(rows(turn)[0]?.getAttribute('data-view')).toBe('open')

    // Hide the failed lane from the timeline, then bring it back.
    await userEvent.click(within(rows(turn)[1]!).getByRole('button', { name: 'Hide docs-reader' }))
    await expect(views(turn)).toEqual(['web-researcher: open', 'docs-reader: hidden'])
    // The keyboard goes to the way back, in the view the person hid it from.
    const restore = within(turn.querySelector('[data-weft="trace"]')!).getByRole('button', { name: 'Show 1 hidden lane' })
    await waitFor(() => expect(document.activeElement).toBe(restore))
    await userEvent.keyboard('{Enter}')
    await expect(views(turn)).toEqual(['web-researcher: open', 'docs-reader: open'])

    // Focus the first lane: only its work shows, with the way back.
    await userEvent.click(within(lanes(turn)[0]!).getByRole('button', { name: 'Focus web-researcher' }))
    await expect(views(turn)).toEqual(['web-researcher: focused'])
    await expect(turn.querySelector('[data-weft="lane-focus"]')?.textContent).toContain('Showing only web-researcher')
    await expect(rows(turn)).toHaveLength(1)
    await expect(turn.textContent).not.toContain('weft 1.0 is out; the handbook could not be read.')
    await waitFor(() => expect(document.activeElement?.getAttribute('data-weft')).toBe('lane-unfocus'))
    await userEvent.keyboard('{Enter}')
    await expect(views(turn)).toEqual(['web-researcher: open', 'docs-reader: open'])
    await expect(turn.textContent).toContain('weft 1.0 is out; the handbook could not be read.')
    await expectChatIn(canvasElement, themeOf(globals))
  },
}

/** The same, in the dark theme. */
export const CollapseHideFocusDark: Story = {
  ...CollapseHideFocus,
  globals: { theme: 'dark' },
}
