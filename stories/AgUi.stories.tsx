import type { Meta, StoryObj } from '@storybook/react-vite'
import { expect, userEvent, waitFor, within } from 'storybook/test'
import { ScenarioChat } from './support/demo'
import { expectChatIn, lastTurn, sendAndFinish, themeOf } from './support/play'

/**
 * AG-UI events, live from the mock agent server (the event stream of one run,
 * requested directly): steps as blocks, parallel tool calls, navigation
 * actions, an interrupt, sub-agents as lanes.
 */
const meta = {
  title: 'Protocols/AG-UI',
  component: ScenarioChat,
  args: { protocol: 'ag-ui', scenario: 'run', delay: 30, prompt: 'Add milk to my todos' },
} satisfies Meta<typeof ScenarioChat>

export default meta
type Story = StoryObj<typeof meta>

/** Steps, two tool calls streaming at once, and `ui_schema` navigation actions handed to the host. */
export const Run: Story = {
  args: { scenario: 'run' },
  play: async ({ canvasElement }) => {
    await sendAndFinish(canvasElement)
    const turn = lastTurn(canvasElement)
    const blocks = [...turn.querySelectorAll('[data-weft="block"]')].map((b) => b.querySelector('[data-weft="block-label"]')?.textContent)
    await expect(blocks).toEqual(['plan', 'act'])
    const tools = [...turn.querySelectorAll('[data-weft="tool"]')]
    await expect(tools.map((t) => t.querySelector('[data-weft="tool-name"]')?.textContent)).toEqual(['calendar.search', 'todo.create'])
    // The refused action (an unfilled `{id}` path) never becomes a button.
    const buttons = [...turn.querySelectorAll('[data-weft="navigation-action"]')].map((b) => b.textContent)
    await expect(buttons).toEqual(['Open calendar', 'Edit'])
    await userEvent.click(within(turn).getByRole('button', { name: 'Edit' }))
    await expect(within(canvasElement).getByTestId('host-log').textContent).toBe('navigate /todo/123/edit {"from":"chat"}')
    await expect([...turn.querySelectorAll('[data-type="text"]')].at(-1)?.textContent).toContain('"Buy milk" is on your todo list')
  },
}

/** The run stops for approval: the tool waits, the gate goes to the host. */
export const Interrupt: Story = {
  args: { scenario: 'interrupt', prompt: 'Delete the milk todo' },
  play: async ({ canvasElement, globals }) => {
    await sendAndFinish(canvasElement)
    const turn = lastTurn(canvasElement)
    await expect(turn.querySelector('[data-weft="tool"]')?.getAttribute('data-state')).toBe('approval-requested')
    const gate = turn.querySelector<HTMLElement>('[data-weft="gate"]')
    await expect(gate?.textContent).toContain('Delete "Buy milk"?')
    await userEvent.click(within(gate as HTMLElement).getByRole('button', { name: 'Reject' }))
    await expect(within(canvasElement).getByTestId('host-log').textContent).toBe('gate interrupt rejected')
    await waitFor(() => expect(turn.querySelector('[data-weft="gate"]')?.getAttribute('data-state')).toBe('rejected'))
    await expectChatIn(canvasElement, themeOf(globals))
  },
}

/** Two sub-agents as lanes of one step; one of them fails. */
export const Subagents: Story = {
  args: { scenario: 'subagents', prompt: 'Is weft 1.0 out?' },
  play: async ({ canvasElement }) => {
    await sendAndFinish(canvasElement)
    const turn = lastTurn(canvasElement)
    const lanes = [...turn.querySelectorAll('[data-weft="thread"]')]
    await expect(lanes.map((l) => [l.getAttribute('aria-label'), l.getAttribute('data-state')])).toEqual([
      ['web-researcher', 'done'], ['docs-reader', 'error'],
    ])
    await expect(lanes[0]?.textContent).toContain('Searching for release notes.')
    await expect(lanes[0]?.querySelector('[data-weft="tool-name"]')?.textContent).toBe('web.search')
    await expect([...turn.querySelectorAll('[data-type="text"]')].at(-1)?.textContent).toBe('weft 1.0 is out; the handbook could not be read.')
  },
}

/** The run in the dark theme, in the kit's `Chat` with the action bar. */
export const RunDark: Story = {
  ...Run,
  globals: { theme: 'dark' },
  play: async (context) => {
    await Run.play?.(context)
    await expectChatIn(context.canvasElement, 'dark')
  },
}

/** Sub-agents as lanes, in the dark theme. */
export const SubagentsDark: Story = {
  ...Subagents,
  globals: { theme: 'dark' },
  play: async (context) => {
    await Subagents.play?.(context)
    await expectChatIn(context.canvasElement, 'dark')
  },
}
