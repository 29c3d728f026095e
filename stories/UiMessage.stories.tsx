import type { Meta, StoryObj } from '@storybook/react-vite'
import { expect, userEvent, within } from 'storybook/test'
import { ScenarioChat } from './support/demo'
import { expectChatIn, lastTurn, sendAndFinish, themeOf } from './support/play'

/**
 * The AI SDK style UI message stream, live from the mock agent server: steps
 * become blocks, tool calls stream their input, sources and data parts land
 * on the turn.
 */
const meta = {
  title: 'Protocols/UI message stream',
  component: ScenarioChat,
  args: { protocol: 'ui-message', scenario: 'plain', delay: 30, prompt: '什么是向量数据库？' },
} satisfies Meta<typeof ScenarioChat>

export default meta
type Story = StoryObj<typeof meta>

/** The document's plain answer: one step, one text. */
export const Plain: Story = {
  args: { scenario: 'plain' },
  play: async ({ canvasElement }) => {
    await sendAndFinish(canvasElement)
    const turn = lastTurn(canvasElement)
    await expect(turn.querySelector('[data-weft="block"]')?.getAttribute('data-state')).toBe('done')
    await expect(turn.querySelector('[data-type="text"]')?.textContent).toBe('向量数据库是一种专为存储和检索高维向量而设计的数据库...')
  },
}

/** A knowledge-base tool call with its output, a notice, then the answer. */
export const Tools: Story = {
  args: { scenario: 'tools' },
  play: async ({ canvasElement, globals }) => {
    await sendAndFinish(canvasElement)
    const turn = lastTurn(canvasElement)
    const tool = turn.querySelector('[data-weft="tool"]')
    await expect(tool?.getAttribute('data-state')).toBe('output-available')
    await expect(tool?.querySelector('[data-weft="tool-name"]')?.textContent).toBe('search_knowledge_base')
    await expect(JSON.parse(tool?.querySelector('[data-weft="tool-input"] pre')?.textContent ?? 'null')).toEqual({ query: '最新 AI 论文' })
    await expect(turn.querySelector('[data-weft="notice"]')?.textContent).toBe('知识库搜索已完成')
    await expect(turn.querySelector('[data-type="text"]')?.textContent).toBe('根据知识库中的内容...')
    await expectChatIn(canvasElement, themeOf(globals))
  },
}

/** Reasoning, folded once done, then the answer. */
export const Reasoning: Story = {
  args: { scenario: 'reasoning' },
  play: async ({ canvasElement }) => {
    await sendAndFinish(canvasElement)
    const turn = lastTurn(canvasElement)
    const reasoning = turn.querySelector('details[data-weft="reasoning"]')
    await expect(reasoning?.hasAttribute('open')).toBe(false)
    await expect(reasoning?.textContent).toContain('让我先分析这个问题')
    await expect(turn.querySelector('[data-type="text"]')?.textContent).toBe('综合分析后，结论是...')
  },
}

/** Everything at once: parallel tools, an approved call, sources, a file, data parts, suggestions. */
export const Full: Story = {
  args: { scenario: 'full', prompt: 'Weather in San Francisco and Tokyo?' },
  play: async ({ canvasElement }) => {
    await sendAndFinish(canvasElement)
    const turn = lastTurn(canvasElement)
    const blocks = [...turn.querySelectorAll('[data-weft="block"]')].map((b) => b.querySelector('[data-weft="block-label"]')?.textContent)
    await expect(blocks).toEqual(['Step 1', 'Step 2'])
    const tools = [...turn.querySelectorAll('[data-weft="tool"]')]
    await expect(tools.map((t) => t.querySelector('[data-weft="tool-name"]')?.textContent)).toEqual(['get_weather', 'get_weather', 'send_email'])
    await expect(tools.every((t) => t.getAttribute('data-state') === 'output-available')).toBe(true)
    // `<think>` tags never show as text.
    await expect(turn.textContent).not.toContain('<think>')
    const answer = [...turn.querySelectorAll('[data-type="text"]')].at(-1)
    await expect(answer?.querySelector('a[data-weft="citation"]')?.getAttribute('href')).toBe('https://weather.example.com/sf')
    await expect(turn.querySelectorAll('[data-weft="source"]').length).toBe(2)
    await expect(turn.querySelector('[data-weft="gate"]')?.getAttribute('data-state')).toBe('approved')
    await userEvent.click(within(turn).getByRole('button', { name: 'Compare with last week' }))
    await expect(within(canvasElement).getByTestId('host-log').textContent).toBe('suggest Compare with last week')
  },
}

/** Everything at once in the dark theme, in the kit's `Chat` with the action bar. */
export const FullDark: Story = {
  ...Full,
  globals: { theme: 'dark' },
  play: async (context) => {
    await Full.play?.(context)
    await expectChatIn(context.canvasElement, 'dark')
  },
}

/** Reasoning, then the answer, in the dark theme. */
export const ReasoningDark: Story = {
  ...Reasoning,
  globals: { theme: 'dark' },
  play: async (context) => {
    await Reasoning.play?.(context)
    await expectChatIn(context.canvasElement, 'dark')
  },
}
