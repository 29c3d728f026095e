import type { Meta, StoryObj } from '@storybook/react-vite'
import { expect, userEvent, waitFor, within } from 'storybook/test'
import '../src/components/styles.css'
import { Chat, Composer, StatusBar } from '../src/components'
import { useAgentStream, type WhileRunning } from '../src/react'
import { AgentProvider } from '../src/umbrella/providers'
import { STREAM_TIMEOUT } from './support/play'
import { LOOP_URL, loopHandlers } from './testing/loop-agent'

/**
 * A message sent while the agent runs, live against the scripted loop agent
 * (Mock Service Worker, a word every 150 ms): it is queued under the running
 * answer, where it can be edited, removed or sent now (which steers: the answer
 * stops, what it said stays, and the message goes at once), and what is still
 * queued goes when the answer ends. `whileRunning: 'steer'` makes every send steer.
 */
function QueueChat({ whileRunning }: { whileRunning: WhileRunning }) {
  return (
    <AgentProvider>
      <QueueChatInner whileRunning={whileRunning} />
    </AgentProvider>
  )
}

function QueueChatInner({ whileRunning }: { whileRunning: WhileRunning }) {
  const { send, stop } = useAgentStream({ url: `${LOOP_URL}/ui-message`, protocol: 'ui-message', whileRunning })
  return (
    <div style={{ height: 560, display: 'flex', flexDirection: 'column' }}>
      <Chat footer={<><Composer send={send} stop={stop} /><StatusBar /></>} />
    </div>
  )
}

const meta = {
  title: 'Conversation/Queue and steer',
  component: QueueChat,
  args: { whileRunning: 'queue' },
  parameters: { msw: { handlers: { loop: loopHandlers('ui-message', 150) } } },
} satisfies Meta<typeof QueueChat>

export default meta
type Story = StoryObj<typeof meta>

async function type(canvasElement: HTMLElement, text: string) {
  const box = within(canvasElement).getByRole('textbox', { name: 'Message' })
  await userEvent.type(box, `${text}{Enter}`)
}

const items = (canvasElement: HTMLElement) => [...canvasElement.querySelectorAll<HTMLElement>('[data-weft="queue-item"]')]
const questions = (canvasElement: HTMLElement) =>
  [...canvasElement.querySelectorAll('[data-weft="turn"][data-role="user"]')].map((turn) => turn.textContent)
const streaming = (canvasElement: HTMLElement) => canvasElement.querySelector('[data-weft="turn"][data-role="assistant"][data-state="streaming"]') !== null

/** Queue two messages while the answer streams, edit the first, remove the second: the first goes when the answer ends. */
export const Queue: Story = {
  play: async ({ canvasElement }) => {
    await type(canvasElement, 'Tell me about Lyon and its old town')
    await waitFor(() => expect(streaming(canvasElement)).toBe(true), { timeout: STREAM_TIMEOUT })
    await type(canvasElement, 'Make it short')
    await type(canvasElement, 'Add a map')
    await waitFor(() => expect(items(canvasElement)).toHaveLength(2))
    await userEvent.click(within(items(canvasElement)[0]!).getByRole('button', { name: 'Edit' }))
    const field = within(items(canvasElement)[0]!).getByRole('textbox', { name: 'Edit' })
    await userEvent.clear(field)
    await userEvent.type(field, 'Make it very short{Enter}')
    await userEvent.click(within(items(canvasElement)[1]!).getByRole('button', { name: 'Remove' }))
    await waitFor(() => expect(items(canvasElement)).toHaveLength(1))
    await waitFor(() => expect(questions(canvasElement)).toEqual(['Tell me about Lyon and its old town', 'Make it very short']), { timeout: STREAM_TIMEOUT })
    await waitFor(() => expect(canvasElement.querySelector('[data-weft="status-bar"]')?.getAttribute('data-state')).toBe('done'), { timeout: STREAM_TIMEOUT })
    expect(items(canvasElement)).toHaveLength(0)
  },
}

/** Queue a message, then Send now: the answer stops where it was and the message goes at once. */
export const SendNowSteers: Story = {
  play: async ({ canvasElement }) => {
    await type(canvasElement, 'Plan three days in Paris for two people')
    await waitFor(() => expect(streaming(canvasElement)).toBe(true), { timeout: STREAM_TIMEOUT })
    await type(canvasElement, 'Only museums, please')
    await waitFor(() => expect(items(canvasElement)).toHaveLength(1))
    await userEvent.click(within(items(canvasElement)[0]!).getByRole('button', { name: 'Send now' }))
    await waitFor(() => expect(questions(canvasElement)).toEqual(['Plan three days in Paris for two people', 'Only museums, please']))
    expect(canvasElement.querySelector('[data-weft="turn"][data-role="assistant"][data-state="aborted"]')).not.toBeNull()
    await waitFor(() => expect(canvasElement.querySelector('[data-weft="status-bar"]')?.getAttribute('data-state')).toBe('done'), { timeout: STREAM_TIMEOUT })
  },
}

/** Every send steers (`whileRunning: 'steer'`): nothing is queued. */
export const Steer: Story = {
  args: { whileRunning: 'steer' },
  play: async ({ canvasElement }) => {
    await type(canvasElement, 'Describe the Rhône in detail')
    await waitFor(() => expect(streaming(canvasElement)).toBe(true), { timeout: STREAM_TIMEOUT })
    await type(canvasElement, 'Just the source')
    await waitFor(() => expect(questions(canvasElement)).toEqual(['Describe the Rhône in detail', 'Just the source']))
    expect(items(canvasElement)).toHaveLength(0)
    await waitFor(() => expect(canvasElement.querySelector('[data-weft="status-bar"]')?.getAttribute('data-state')).toBe('done'), { timeout: STREAM_TIMEOUT })
  },
}

/** After Stop the queue waits, marked "Not sent yet", until Send now. */
export const HeldAfterStop: Story = {
  play: async ({ canvasElement }) => {
    await type(canvasElement, 'Write a long poem about rivers')
    await waitFor(() => expect(streaming(canvasElement)).toBe(true), { timeout: STREAM_TIMEOUT })
    await type(canvasElement, 'Make it rhyme')
    await waitFor(() => expect(items(canvasElement)).toHaveLength(1))
    await userEvent.click(within(canvasElement).getByRole('button', { name: 'Stop' }))
    await waitFor(() => expect(canvasElement.querySelector('[data-weft="queue"]')?.getAttribute('data-state')).toBe('held'))
    await expect(within(items(canvasElement)[0]!).getByText('Not sent yet')).toBeTruthy()
  },
}
