import type { Meta, StoryObj } from '@storybook/react-vite'
import { expect, within } from 'storybook/test'
import { ScenarioChat } from './support/demo'
import { expectChatIn, inspectorSummary, lastTurn, sendAndFinish, themeOf } from './support/play'

/**
 * Yao's hierarchical stream, live from the mock agent server, folded by
 * `useAgentStream` into the transcript and the state inspector.
 */
const meta = {
  title: 'Protocols/Yao',
  component: ScenarioChat,
  args: { protocol: 'yao', scenario: 'simple-text', delay: 30, prompt: 'What is the weather?' },
} satisfies Meta<typeof ScenarioChat>

export default meta
type Story = StoryObj<typeof meta>

/** One finished text message, no grouping. */
export const SimpleText: Story = {
  args: { scenario: 'simple-text' },
  play: async ({ canvasElement, globals }) => {
    await sendAndFinish(canvasElement)
    const turn = lastTurn(canvasElement)
    await expect(turn.querySelector('[data-weft="text"]')?.textContent).toBe('Hello World')
    await expect(turn.getAttribute('data-state')).toBe('done')
    // The user's turn comes first.
    await expect(canvasElement.querySelector('[data-weft="turn"][data-role="user"]')?.textContent).toBe('What is the weather?')
    await expect(inspectorSummary(canvasElement)).toContain('status: done · turns: 2')
    await expectChatIn(canvasElement, themeOf(globals))
  },
}

/** Three deltas merged into one message; it is aria-busy only while it streams. */
export const StreamingText: Story = {
  args: { scenario: 'streaming-text' },
  play: async ({ canvasElement }) => {
    await sendAndFinish(canvasElement)
    const turn = lastTurn(canvasElement)
    const messages = turn.querySelectorAll('[data-weft="message"]')
    await expect(messages.length).toBe(1)
    await expect(messages[0]?.textContent).toBe('Hello World!')
    await expect(messages[0]?.hasAttribute('aria-busy')).toBe(false)
    await expect(canvasElement.querySelector('[role="log"]')).not.toBeNull()
  },
}

/** One LLM block: reasoning, a tool call whose arguments stream as partial JSON, then the answer. */
export const OneBlock: Story = {
  args: { scenario: 'one-block' },
  play: async ({ canvasElement }) => {
    await sendAndFinish(canvasElement)
    const block = lastTurn(canvasElement).querySelector('[data-weft="block"]')
    await expect(block?.querySelector('[data-weft="block-label"]')?.textContent).toBe('Answering the question')
    await expect(block?.getAttribute('data-state')).toBe('done')
    const types = [...(block?.querySelectorAll('[data-weft="message"]') ?? [])].map((m) => m.getAttribute('data-type'))
    await expect(types).toEqual(['reasoning', 'tool', 'text'])
    const tool = within(block as HTMLElement).getByText('get_weather').closest('[data-weft="tool"]')
    await expect(JSON.parse(tool?.querySelector('[data-weft="tool-input"] pre')?.textContent ?? 'null')).toEqual({ city: 'Paris', unit: 'celsius' })
    await expect(block?.querySelector('[data-weft="reasoning"]')?.textContent).toContain('so I should call the weather tool.')
    await expect(block?.querySelector('[data-type="text"]')?.textContent).toBe('It is sunny in Paris, 25°C.')
  },
}

/** LLM → MCP → LLM: three blocks in order, each closed. */
export const SequentialBlocks: Story = {
  args: { scenario: 'sequential-blocks' },
  play: async ({ canvasElement }) => {
    await sendAndFinish(canvasElement)
    const blocks = [...lastTurn(canvasElement).querySelectorAll('[data-weft="block"]')]
    await expect(blocks.map((b) => b.querySelector('[data-weft="block-label"]')?.textContent)).toEqual(['Planning', 'weather.forecast', 'Answer'])
    await expect(blocks.every((b) => b.getAttribute('data-state') === 'done')).toBe(true)
    await expect(blocks[1]?.textContent).toContain('Forecast: sunny, high 25°C, low 14°C.')
    await expect(blocks[2]?.textContent).toContain('Tomorrow will be sunny with a high of 25°C.')
    // Each Yao block is a timeline row too.
    await expect(lastTurn(canvasElement).querySelector('[data-weft="trace-headline"]')?.textContent).toBe('3 steps')
  },
}

/** One block, three lanes whose messages arrive interleaved. */
export const ConcurrentThreads: Story = {
  args: { scenario: 'concurrent-threads' },
  play: async ({ canvasElement }) => {
    await sendAndFinish(canvasElement)
    const lanes = [...lastTurn(canvasElement).querySelectorAll('[data-weft="thread"]')]
    await expect(lanes.map((l) => l.textContent)).toEqual([
      'Weather: Sunny, 25°C', 'News: markets open higher — tech leads.', 'Summary: a sunny day and a calm market.',
    ])
    await expect(lanes.every((l) => l.getAttribute('data-state') === 'done')).toBe(true)
    await expect(inspectorSummary(canvasElement)).toContain('threads: 3')
  },
}

/** One block in the dark theme (`data-theme="dark"`, the toolbar's Theme), in the kit's `Chat` with the action bar. */
export const OneBlockDark: Story = {
  ...OneBlock,
  globals: { theme: 'dark' },
  play: async (context) => {
    await OneBlock.play?.(context)
    await expectChatIn(context.canvasElement, 'dark')
  },
}

/** Three lanes in the dark theme. */
export const ConcurrentThreadsDark: Story = {
  ...ConcurrentThreads,
  globals: { theme: 'dark' },
  play: async (context) => {
    await ConcurrentThreads.play?.(context)
    await expectChatIn(context.canvasElement, 'dark')
  },
}
