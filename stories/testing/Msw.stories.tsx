import type { Meta, StoryObj } from '@storybook/react-vite'
import { expect, userEvent, waitFor, within } from 'storybook/test'
import { AgentProvider } from '../../src/umbrella/providers'
import { agentHandlers } from '../../src/testing/msw'
import { SupportChat } from './SupportChat'

/**
 * weft/testing/msw in a story: Mock Service Worker answers the host's own
 * endpoint, which no server knows, with a shipped fixture.
 */
const meta = {
  title: 'Testing/MSW handlers',
  component: SupportChat,
  args: { endpoint: '/api/support/chat', initialQuestion: 'Is the release ready?' },
  decorators: [(Story) => <AgentProvider><Story /></AgentProvider>],
} satisfies Meta<typeof SupportChat>

export default meta
type Story = StoryObj<typeof meta>

const finished = (canvasElement: HTMLElement) =>
  waitFor(() => expect(within(canvasElement).getByTestId('status').textContent).toMatch(/^(done|error)$/), { timeout: 30_000 })

/** A gate that waits for approval, streamed by `agentHandlers`. */
export const ApprovalGate: Story = {
  parameters: { msw: { handlers: { story: agentHandlers({ url: '/api/support/chat', protocol: 'vocion', scenario: 'hitl', pace: 15 }) } } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    await userEvent.click(canvas.getByRole('button', { name: 'Ask' }))
    await finished(canvasElement)
    await expect(canvas.getByTestId('status').textContent).toBe('done')
    await expect(canvas.getByTestId('gate').textContent).toMatch(/^Needs approval: /)
  },
}

/** Random byte splits with a seed, through the service worker. */
export const RandomSplits: Story = {
  parameters: {
    msw: { handlers: { story: agentHandlers({ url: '/api/support/chat', protocol: 'ui-message', scenario: 'long-answer', chunking: 'random', seed: 21 }) } },
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    await userEvent.click(canvas.getByRole('button', { name: 'Ask' }))
    await finished(canvasElement)
    await expect(canvas.getByTestId('status').textContent).toBe('done')
    await expect(canvas.getByTestId('turn-assistant').textContent).toMatch(/^Paragraph 1: the café’s ledger for week 1 balances — 収支は一致しています\. /)
  },
}
