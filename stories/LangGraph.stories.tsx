import type { Meta, StoryObj } from '@storybook/react-vite'
import { expect, userEvent, waitFor, within } from 'storybook/test'
import { LangGraphChat } from './support/langgraph'
import { expectChatIn, lastTurn, sendAndFinish, STREAM_TIMEOUT, themeOf } from './support/play'

/**
 * LangGraph runs as the real server streamed them (`langgraph dev`'s in-memory
 * server, recorded into weft/testing's fixtures), replayed through a mock fetch:
 * a tool-calling agent, an interrupt answered with `Command({ resume })`, parallel
 * subgraphs as lanes, reasoning, and a node that fails mid-answer.
 */
const meta = {
  title: 'Protocols/LangGraph',
  component: LangGraphChat,
  args: { scenario: 'agent', prompt: 'What is the weather in Paris?' },
} satisfies Meta<typeof LangGraphChat>

export default meta
type Story = StoryObj<typeof meta>

const texts = (turn: HTMLElement) => [...turn.querySelectorAll('[data-type="text"]')].map((t) => t.textContent)

/** Opens the turn's timeline and returns its rows' labels, in order. */
async function timeline(turn: HTMLElement): Promise<string[]> {
  const disclosure = turn.querySelector<HTMLDetailsElement>('[data-testid="turn-trace"]')
  if (!disclosure) throw new Error('no timeline')
  if (!disclosure.open) await userEvent.click(disclosure.querySelector('summary') as HTMLElement)
  return [...disclosure.querySelectorAll('[data-weft="trace-label"]')].map((l) => l.textContent ?? '')
}

/** The agent calls `get_weather`, the tool's result comes back, and the answer uses it. */
export const ToolCalling: Story = {
  play: async ({ canvasElement, globals }) => {
    await sendAndFinish(canvasElement)
    const turn = lastTurn(canvasElement)
    const tool = turn.querySelector<HTMLElement>('[data-weft="tool"]')
    await expect(tool?.querySelector('[data-weft="tool-name"]')?.textContent).toBe('get_weather')
    await expect(tool?.getAttribute('data-state')).toBe('output-available')
    await expect(tool?.textContent).toContain('sunny')
    await expect(texts(turn)).toEqual(['Let me look up the weather.', 'It is sunny in Paris, 21 degrees.'])
    await expect(await timeline(turn)).toEqual(expect.arrayContaining(['agent', 'tools', 'get_weather']))
    await expectChatIn(canvasElement, themeOf(globals))
  },
}

/** `interrupt()` stops the run at a gate; the answer resumes it with `Command({ resume })` and the email is sent. */
export const Interrupt: Story = {
  args: { scenario: 'approval', prompt: 'Email Ada to say hello.' },
  play: async ({ canvasElement }) => {
    await sendAndFinish(canvasElement)
    const turn = lastTurn(canvasElement)
    const gate = turn.querySelector<HTMLElement>('[data-weft="gate"]')
    await expect(gate?.getAttribute('data-state')).toBe('pending')
    await expect(gate?.querySelector('[data-weft="gate-question"]')?.textContent).toBe('Send this email?')
    await expect(turn.querySelector('[data-weft="tool"]')?.getAttribute('data-state')).toBe('approval-requested')
    await userEvent.type(within(gate as HTMLElement).getByRole('textbox'), 'Yes, send it')
    await userEvent.click(within(gate as HTMLElement).getByRole('button', { name: 'Submit' }))
    const log = within(canvasElement).getByTestId('host-log')
    await waitFor(() => expect(log.textContent).toBe('runresume {"approved":true}'), { timeout: STREAM_TIMEOUT })
    await waitFor(() => expect(texts(lastTurn(canvasElement)).at(-1)).toBe('Done: the email is sent.'), { timeout: STREAM_TIMEOUT })
    await waitFor(() => expect(canvasElement.querySelector('[data-weft="status-bar"]')?.getAttribute('data-state')).toBe('done'))
    const tools = [...canvasElement.querySelectorAll<HTMLElement>('[data-weft="tool"]')]
    await expect(tools.at(-1)?.getAttribute('data-state')).toBe('output-available')
    await expect(canvasElement.querySelector('[data-weft="gate"]')?.getAttribute('data-state')).not.toBe('pending')
  },
}

/** Two research subgraphs run in parallel (`Send`, `stream_subgraphs`): each is a lane with its own notes and a row of its own on the timeline. */
export const ParallelSubgraphs: Story = {
  args: { scenario: 'research', prompt: 'Research alpha and beta.' },
  play: async ({ canvasElement, globals }) => {
    await sendAndFinish(canvasElement)
    const turn = lastTurn(canvasElement)
    const lanes = [...turn.querySelectorAll<HTMLElement>('[data-weft="thread"]')]
    await expect(lanes.map((l) => [l.getAttribute('aria-label'), l.getAttribute('data-state')])).toEqual([['research', 'done'], ['research', 'done']])
    await expect(lanes.map((l) => l.textContent).sort()).toEqual([
      expect.stringContaining('Notes on alpha: it checks out.'), expect.stringContaining('Notes on beta: it checks out.'),
    ])
    const rows = await timeline(turn)
    await expect(rows.filter((r) => r === 'research')).toHaveLength(2)
    await expect(rows).toContain('summarize')
    await expect(texts(turn).at(-1)).toBe('Summary: Notes on alpha: it checks out. Notes on beta: it checks out.')
    await expectChatIn(canvasElement, themeOf(globals))
  },
}

/** Reasoning content blocks stream into a reasoning part before the answer. */
export const Reasoning: Story = {
  args: { scenario: 'reasoning', prompt: 'Hi!' },
  play: async ({ canvasElement }) => {
    await sendAndFinish(canvasElement)
    const turn = lastTurn(canvasElement)
    await expect(turn.querySelector('[data-type="reasoning"]')?.textContent).toContain('The user greets me, so I greet them back.')
    await expect(texts(turn)).toEqual(['Hello there!'])
  },
}

/** The model fails mid-answer: what streamed stays, and the turn shows the error. */
export const ErrorMidRun: Story = {
  args: { scenario: 'error', prompt: 'Count.' },
  play: async ({ canvasElement }) => {
    await userEvent.click(await within(canvasElement).findByRole('button', { name: 'Send' }))
    await waitFor(() => expect(canvasElement.querySelector('[data-weft="status-bar"]')?.getAttribute('data-state')).toBe('error'), { timeout: STREAM_TIMEOUT })
    const turn = lastTurn(canvasElement)
    await expect(texts(turn)).toEqual(['w1 w2 w3'])
    await expect(turn.querySelector('[data-weft="turn-error"]')?.textContent).toContain('The model is unavailable.')
  },
}
