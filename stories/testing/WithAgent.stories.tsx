import type { Meta, StoryObj } from '@storybook/react-vite'
import { expect, userEvent, within } from 'storybook/test'
import { agentArgTypes, agentTurnEnd, withAgent, type AgentArgs } from '../../src/testing/storybook'
import { SupportChat, type SupportChatProps } from './SupportChat'

/**
 * weft/testing/storybook: a host component under `withAgent`. The decorator
 * streams a shipped fixture through a mock fetch; the controls pick the
 * scenario, protocol, pace and where the connection drops.
 */
const meta = {
  title: 'Testing/withAgent decorator',
  component: SupportChat,
  args: { initialQuestion: 'Is the release ready?' },
  decorators: [withAgent({ protocol: 'vocion', scenario: 'plain', pace: 20 })],
  argTypes: agentArgTypes,
} satisfies Meta<SupportChatProps & AgentArgs>

export default meta
type Story = StoryObj<SupportChatProps & AgentArgs>

/** The plain answer, streamed at 20 ms a frame. */
export const PlainAnswer: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    await userEvent.click(canvas.getByRole('button', { name: 'Ask' }))
    await expect(await agentTurnEnd(canvasElement)).toBe('done')
    await expect(canvas.getByTestId('turn-assistant').textContent).toBe('Hello! The build is green and the release is ready.')
  },
}

/** The scenario control, set to a UI message stream that fails mid-answer. */
export const ErrorMidStream: Story = {
  args: { agentProtocol: 'ui-message', agentScenario: 'error-mid-stream' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    await userEvent.click(canvas.getByRole('button', { name: 'Ask' }))
    await expect(await agentTurnEnd(canvasElement)).toBe('error')
    await expect(canvas.getByRole('alert').textContent).toBe('Something went wrong: The model provider returned 503: overloaded')
  },
}

/** The drop slider at 4: the long answer stops after four frames and the turn ends in a network error. */
export const DroppedAtFour: Story = {
  args: { agentProtocol: 'ag-ui', agentScenario: 'long-answer', agentDropAt: 4, agentTheme: 'dark' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    await userEvent.click(canvas.getByRole('button', { name: 'Ask' }))
    await expect(await agentTurnEnd(canvasElement)).toBe('error')
    await expect(canvas.getByRole('alert').textContent).toMatch(/^Something went wrong: Connection lost/)
    await expect(canvas.getByTestId('turn-assistant').querySelector('p')?.textContent).toBe('Paragraph 1: ')
  },
}
