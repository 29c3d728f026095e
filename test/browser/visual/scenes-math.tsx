/**
 * Screenshot scenes of math (weft/katex) and a diagram (weft/mermaid) in an
 * answer: inline and display math in KaTeX's fonts, a Mermaid flowchart in the
 * page's theme, and math whose TeX is invalid (its source and KaTeX's message).
 */
import { katexMath } from 'weft/katex'
import { mermaidDiagrams } from 'weft/mermaid'
import { MarkdownSettingsProvider } from '../../../src/components/markdown/markdown'
import { Transcript } from '../../../src/components/transcript'
import type { Op } from '../../../src/core/model/ops'
import type { Scene } from './scenes'

const answer = `The roots of $ax^2 + bx + c = 0$ are

$$
x = \\frac{-b \\pm \\sqrt{b^2 - 4ac}}{2a}
$$

and the plan costs $5 and $10 a month. A request goes:

\`\`\`mermaid
graph LR
  Ask[Person asks] --> Agent{Agent}
  Agent -->|tool call| Tool[(Weather API)]
  Tool --> Agent
  Agent --> Answer[Answer]
\`\`\`

Unknown TeX shows as written: $\\notacommand{x}$.
`

const ops: Op[] = [
  { op: 'turn.open', turnId: 'u1', role: 'user' },
  { op: 'message.put', turnId: 'u1', messageId: 'u1/m', role: 'user', type: 'text', status: 'done', props: { content: 'How do I solve a quadratic, and how does a request flow?' } },
  { op: 'turn.finish', turnId: 'u1', status: 'done' },
  { op: 'turn.open', turnId: 'a1', role: 'assistant' },
  { op: 'message.put', turnId: 'a1', messageId: 'a1/text', type: 'text', status: 'done', props: { content: answer } },
  { op: 'turn.finish', turnId: 'a1', status: 'done' },
]

// KaTeX (its stylesheet and fonts) and Mermaid loaded before the first capture, so each capture waits only for drawing.
await Promise.all([katexMath('x', false), mermaidDiagrams('graph LR\n  A --> B', 'light')])

export const scenes: Scene[] = [
  {
    name: 'math-diagram',
    ops,
    view: () => (
      <MarkdownSettingsProvider math={katexMath} diagrams={mermaidDiagrams}>
        <Transcript.Root />
      </MarkdownSettingsProvider>
    ),
  },
]
