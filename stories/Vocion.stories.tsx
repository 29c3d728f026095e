import type { Meta, StoryObj } from '@storybook/react-vite'
import { expect, userEvent, waitFor, within } from 'storybook/test'
import { ScenarioChat } from './support/demo'
import { expectChatIn, lastTurn, sendAndFinish, themeOf } from './support/play'

/**
 * The Vocion AgentEvent rail, live from the mock agent server: a nested work
 * timeline, cited documents, a recommended action, a failing tool and a gate.
 */
const meta = {
  title: 'Protocols/Vocion',
  component: ScenarioChat,
  args: { protocol: 'vocion', scenario: 'answer', delay: 30, prompt: 'Where is the Contoso renewal?' },
} satisfies Meta<typeof ScenarioChat>

export default meta
type Story = StoryObj<typeof meta>

/** A grounded answer: `[n]` markers link to the cited documents; the action waits for a click. */
export const Answer: Story = {
  args: { scenario: 'answer' },
  play: async ({ canvasElement }) => {
    await sendAndFinish(canvasElement)
    const turn = lastTurn(canvasElement)
    const text = turn.querySelector('[data-type="text"]')
    await expect(text?.textContent).toBe(
      'Contoso renews on 30 September [1]. The champion asked for a two-year term at the current price [2], so a draft note to Nadia is ready below.',
    )
    const citations = [...(text?.querySelectorAll('a[data-weft="citation"]') ?? [])].map((a) => a.getAttribute('href'))
    await expect(citations).toEqual(['https://crm.example.com/deals/contoso', 'https://notes.example.com/calls/0912'])
    await expect(turn.querySelectorAll('[data-weft="source"]').length).toBe(2)
    await expect(turn.querySelector('[data-weft="trace-headline"]')?.textContent).toMatch(/^\d+ steps · 2 sources$/)
    // The delegation row holds the specialist's search.
    const delegate = within(turn).getByText('Pipeline Analyst finished').closest('[data-weft="trace-node"]')
    await expect(delegate?.querySelector(':scope > ol [data-weft="trace-label"]')?.textContent).toBe('Searched call notes')

    const log = within(canvasElement).getByTestId('host-log')
    await expect(log.textContent).toBe('')
    await userEvent.click(within(turn).getByRole('button', { name: 'Draft the note to Nadia Brandt' }))
    await expect(log.textContent).toBe('action gmail.send')
  },
}

/** A tool that fails: its call and its timeline row both end as errors, and the answer says so. */
export const ToolError: Story = {
  args: { scenario: 'tool-error' },
  play: async ({ canvasElement, globals }) => {
    await sendAndFinish(canvasElement)
    const turn = lastTurn(canvasElement)
    const tool = turn.querySelector('[data-weft="tool"]')
    await expect(tool?.getAttribute('data-state')).toBe('output-error')
    await expect(tool?.querySelector('[data-weft="tool-error"]')?.textContent).toContain('could not be reached')
    await expect(turn.querySelector('[data-weft="trace-node"][data-state="error"]')).not.toBeNull()
    await expect(turn.querySelector('[data-type="text"]')?.textContent).toBe(
      'I could not reach the billing system, so I cannot confirm the invoice.',
    )
    await expectChatIn(canvasElement, themeOf(globals))
  },
}

/** A human-in-the-loop gate: the answer goes to the host, which resolves it. */
export const HumanInTheLoop: Story = {
  args: { scenario: 'hitl' },
  play: async ({ canvasElement }) => {
    await sendAndFinish(canvasElement)
    const turn = lastTurn(canvasElement)
    const gate = turn.querySelector<HTMLElement>('[data-weft="gate"]')
    await expect(gate?.getAttribute('data-state')).toBe('pending')
    await expect(gate?.textContent).toContain('Send this email to Nadia Brandt?')
    await userEvent.click(within(gate as HTMLElement).getByRole('button', { name: 'Approve' }))
    await expect(within(canvasElement).getByTestId('host-log').textContent).toBe('gate hitl approved')
    await waitFor(() => expect(turn.querySelector('[data-weft="gate"]')?.getAttribute('data-state')).toBe('approved'))
  },
}

/** The grounded answer in the dark theme, in the kit's `Chat` with the action bar. */
export const AnswerDark: Story = {
  ...Answer,
  globals: { theme: 'dark' },
  play: async (context) => {
    await Answer.play?.(context)
    await expectChatIn(context.canvasElement, 'dark')
  },
}

/** The gate in the dark theme. */
export const HumanInTheLoopDark: Story = {
  ...HumanInTheLoop,
  globals: { theme: 'dark' },
  play: async (context) => {
    await HumanInTheLoop.play?.(context)
    await expectChatIn(context.canvasElement, 'dark')
  },
}
