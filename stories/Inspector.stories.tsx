import type { Meta, StoryObj } from '@storybook/react-vite'
import { useState } from 'react'
import { expect, userEvent, waitFor, within } from 'storybook/test'
import '../src/components/styles.css'
import { Chat, Composer } from '../src/components'
import { useAgentStream } from '../src/react'
import { AgentProvider } from '../src/umbrella/providers'
import { createInspector, Inspector, type AgentInspector } from '../src/inspector'
import type { AgentFixture } from '../src/testing/frames'
import { STREAM_TIMEOUT } from './support/play'

/**
 * The inspector beside the chat: for the selected turn (the latest by default),
 * the request that started it, the raw frames as they arrived and the ops each
 * became, problems, timings and usage. "Save recording" downloads the turn as a
 * fixture `weft/testing` replays. The stream is the mock agent server's
 * (`/mock/stream/...`); the "weft" panel of Storybook shows the same for any story.
 */
function InspectedChat({ url, protocol }: { url: string; protocol: 'ui-message' | 'vocion' }) {
  const [inspector] = useState<AgentInspector>(() => createInspector())
  const [saved, setSaved] = useState<AgentFixture | undefined>(undefined)
  return (
    <AgentProvider>
      <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 22rem), 1fr))', gap: '1rem', alignItems: 'start' }}>
        <LiveChat url={url} protocol={protocol} inspector={inspector} />
        <Inspector inspector={inspector} download={false} onSaveRecording={setSaved} />
      </div>
      {saved ? <p data-saved-frames={saved.frames.length}>Saved recording “{saved.name}”: {saved.frames.length} frames.</p> : null}
    </AgentProvider>
  )
}

function LiveChat({ url, protocol, inspector }: { url: string; protocol: 'ui-message' | 'vocion'; inspector: AgentInspector }) {
  const { send, stop } = useAgentStream({ url, protocol, inspector })
  return (
    <div style={{ height: 420, display: 'flex', flexDirection: 'column', minWidth: 0 }}>
      <Chat footer={<Composer send={send} stop={stop} />} />
    </div>
  )
}

const meta = {
  title: 'Devtools/Inspector',
  component: InspectedChat,
  args: { url: '/mock/stream/ui-message/tools?delay=15', protocol: 'ui-message' },
} satisfies Meta<typeof InspectedChat>

export default meta
type Story = StoryObj<typeof meta>

async function sendAndInspect(canvasElement: HTMLElement) {
  const canvas = within(canvasElement)
  await userEvent.type(canvas.getByRole('textbox'), 'What is the weather in Lyon?')
  await userEvent.click(canvas.getByRole('button', { name: 'Send' }))
  await waitFor(() => expect(canvasElement.querySelector('[data-weft="wire-turn"]')?.getAttribute('data-status')).toBe('done'), { timeout: STREAM_TIMEOUT })
  return canvas
}

/** A live turn: its request, every frame with its ops, its timing; open a frame, then save the recording. */
export const LiveTurn: Story = {
  play: async ({ canvasElement }) => {
    const canvas = await sendAndInspect(canvasElement)
    const panel = canvas.getByRole('region', { name: 'Agent inspector' })
    await expect(panel.querySelector('[data-weft="wire-request-item"] summary')?.textContent).toContain('POST /mock/stream/ui-message/tools')
    const frames = panel.querySelectorAll('[data-weft="wire-frame"]')
    await expect(frames.length).toBeGreaterThan(5)
    const first = frames[0]!.querySelector('summary')!
    await userEvent.click(first)
    await expect(frames[0]!.querySelector('details')!.open).toBe(true)
    await expect(panel.querySelector('[data-weft="wire-runs"] tbody tr')).not.toBeNull()
    await userEvent.click(canvas.getByRole('button', { name: 'Save recording' }))
    // What was saved is every frame the panel lists (the stream's last frames may land after the turn is done).
    const listed = () => Number(panel.querySelector('[data-weft="wire-frames"]')?.getAttribute('data-count'))
    await waitFor(() => expect(Number(canvasElement.querySelector('[data-saved-frames]')?.getAttribute('data-saved-frames'))).toBe(listed()))
  },
}

/** The same in the dark theme. */
export const LiveTurnDark: Story = {
  globals: { theme: 'dark' },
  play: async ({ canvasElement }) => {
    await sendAndInspect(canvasElement)
  },
}

/** A stream that breaks: the frame that became a problem is marked, and the problem is listed. */
export const WithProblems: Story = {
  args: { url: '/mock/stream/vocion/error-mid-stream?delay=10', protocol: 'vocion' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    await userEvent.type(canvas.getByRole('textbox'), 'Go')
    await userEvent.click(canvas.getByRole('button', { name: 'Send' }))
    await waitFor(() => expect(canvasElement.querySelector('[data-weft="wire-problems"]')?.getAttribute('data-count')).not.toBe('0'), { timeout: STREAM_TIMEOUT })
  },
}
