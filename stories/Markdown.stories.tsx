import type { Meta, StoryObj } from '@storybook/react-vite'
import { expect, waitFor } from 'storybook/test'
import { katexMath } from 'weft/katex'
import { mermaidDiagrams } from 'weft/mermaid'
import { MarkdownSettingsProvider, Transcript } from '../src/components'
import type { Op } from '../src/core/model/ops'
import { StaticAgent } from './support/demo'

/**
 * Math and diagrams in markdown answers: off by default, turned on by handing
 * `katexMath` (weft/katex) and `mermaidDiagrams` (weft/mermaid) to
 * `MarkdownSettingsProvider`. Each library loads with the first math or diagram.
 */
const meta = {
  title: 'Components/Markdown',
} satisfies Meta

export default meta
type Story = StoryObj<typeof meta>

const answer = `Euler's identity, $e^{i\\pi} + 1 = 0$, joins five constants. The Gaussian integral:

$$
\\int_{-\\infty}^{\\infty} e^{-x^2}\\,dx = \\sqrt{\\pi}
$$

Prices stay prose: the plan costs $5 and $10 a month.

\`\`\`mermaid
sequenceDiagram
  participant P as Person
  participant A as Agent
  participant T as Tool
  P->>A: What is the weather in Paris?
  A->>T: get_weather(Paris)
  T-->>A: 18 °C, light rain
  A-->>P: 18 °C with light rain
\`\`\`
`

function Answer({ ops }: { ops: readonly Op[] }) {
  return (
    <StaticAgent ops={ops}>
      <MarkdownSettingsProvider math={katexMath} diagrams={mermaidDiagrams}>
        <Transcript.Root />
      </MarkdownSettingsProvider>
    </StaticAgent>
  )
}

const turn = (content: string, status: 'done' | 'streaming'): Op[] => [
  { op: 'turn.open', turnId: 't1', role: 'assistant' },
  status === 'done'
    ? { op: 'message.put', turnId: 't1', messageId: 'm1', type: 'text', status: 'done', props: { content } }
    : { op: 'message.delta', turnId: 't1', messageId: 'm1', type: 'text', action: 'append', path: 'content', value: content },
  ...(status === 'done' ? [{ op: 'turn.finish', turnId: 't1', status: 'done' } as Op] : []),
]

/** Inline and display math drawn by KaTeX, a sequence diagram by Mermaid (in the page's theme), dollar amounts left as prose. */
export const MathAndDiagram: Story = {
  render: () => <Answer ops={turn(answer, 'done')} />,
  play: async ({ canvasElement }) => {
    const inline = canvasElement.querySelector('[data-weft="math"]')!
    const block = canvasElement.querySelector('[data-weft="math-block"]')!
    const diagram = canvasElement.querySelector('[data-weft="diagram"]')!
    await waitFor(() => expect(inline.getAttribute('data-state')).toBe('rendered'), { timeout: 30_000 })
    await waitFor(() => expect(block.getAttribute('data-state')).toBe('rendered'), { timeout: 30_000 })
    await waitFor(() => expect(diagram.getAttribute('data-state')).toBe('rendered'), { timeout: 30_000 })
    await expect(block.querySelector('.katex-display')).not.toBeNull()
    await expect(diagram.querySelector('[data-weft="diagram-svg"] svg')?.textContent).toContain('get_weather(Paris)')
    await expect(canvasElement.textContent).toContain('the plan costs $5 and $10 a month.')
  },
}

/** While the answer streams, a display block and a diagram fence that have not closed show their source; nothing is half-drawn. */
export const StillStreaming: Story = {
  render: () => <Answer ops={turn('The integral is\n\n$$\n\\int_0^1 x^2\\,dx = \\frac{1}{3}\n', 'streaming')} />,
  play: async ({ canvasElement }) => {
    const block = canvasElement.querySelector('[data-weft="math-block"]')!
    await expect(block.getAttribute('data-state')).toBe('pending')
    await expect(block.querySelector('[data-weft="math-source"]')?.textContent).toBe('$$\n\\int_0^1 x^2\\,dx = \\frac{1}{3}')
    await expect(block.querySelector('.katex')).toBeNull()
  },
}
