import type { Meta, StoryObj } from '@storybook/react-vite'
import type { ReactNode } from 'react'
import { expect, within } from 'storybook/test'
import { Transcript } from '../src/components'
import type { Op } from '../src/core/model/ops'
import { StaticAgent } from './support/demo'

/** A link to another story, opened in Storybook's own frame rather than inside the canvas. */
function StoryLink({ id, children }: { id: string; children: ReactNode }) {
  return <a href={`?path=/story/${id}`} target="_top" style={{ color: 'var(--weft-accent)' }}>{children}</a>
}

const sample: Op[] = [
  { op: 'turn.open', turnId: 'u1', role: 'user' },
  { op: 'message.put', turnId: 'u1', messageId: 'u1/m', role: 'user', type: 'text', status: 'done', props: { content: 'What is weft?' } },
  { op: 'turn.finish', turnId: 'u1', status: 'done' },
  { op: 'turn.open', turnId: 'a1', role: 'assistant' },
  { op: 'message.put', turnId: 'a1', messageId: 'a1/m', type: 'text', status: 'done', props: { content: 'React hooks and components for **agent chat UIs**: one model of turns, messages, a work timeline and approval gates, from five wire protocols.' } },
  { op: 'turn.finish', turnId: 'a1', status: 'done' },
]

const sections: Array<[string, string, ReactNode]> = [
  ['Protocols', 'protocols-ui-message-stream--plain', 'A chat against the mock agent server in each wire protocol: the AI SDK UI message stream, AG-UI, LangGraph, Yao and Vocion.'],
  ['Components', 'components-defaults--composer-placeholder', 'Every part with no configuration (composer, gates, tool groups, data parts, sources), the renderers, markdown, the timeline and a whole conversation at three widths.'],
  ['Conversation', 'conversation-loop--ui-message-approval', 'The loop: regenerate, edit, branches, a message queued while the agent runs, usage and timing.'],
  ['Conversations', 'conversations-thread-list--thread-list-with-mock-server', 'Many conversations in IndexedDB, with the thread list.'],
  ['Streams', 'streams-resume--dropped-connection', 'Resuming a stream cut mid-answer.'],
]

/** The page Storybook opens on: what weft is, and where to look. */
function Introduction() {
  return (
    <main data-testid="introduction" style={{ maxWidth: '44rem', fontFamily: 'var(--weft-font)', color: 'var(--weft-fg)', lineHeight: 1.6 }}>
      <h1 style={{ fontSize: '1.75rem', margin: '0 0 0.5rem' }}>weft</h1>
      <p style={{ margin: '0 0 1rem' }}>
        React hooks and components for agent chat UIs. weft reads an agent's event stream, folds it into one model of
        turns, messages, a work timeline and approval gates, and draws it with accessible components, or yours.
      </p>
      <section aria-label="A transcript" style={{ border: '1px solid var(--weft-border)', borderRadius: 12, padding: 16, margin: '0 0 1.5rem' }}>
        <StaticAgent ops={sample}>
          <Transcript.Root />
        </StaticAgent>
      </section>
      <h2 style={{ fontSize: '1.25rem', margin: '0 0 0.5rem' }}>Where to look</h2>
      <ul style={{ paddingInlineStart: '1.25rem', margin: '0 0 1rem' }}>
        {sections.map(([name, id, text]) => (
          <li key={name} style={{ marginBlockEnd: '0.5rem' }}>
            <StoryLink id={id}>{name}</StoryLink>: {text}
          </li>
        ))}
      </ul>
      <h2 style={{ fontSize: '1.25rem', margin: '0 0 0.5rem' }}>In every story</h2>
      <p style={{ margin: 0 }}>
        The Theme toolbar switches light and dark, the viewport menu sets a phone (375 px), a tablet (768 px) or a laptop
        (1280 px). Each story runs as a test in Chromium, in both themes, with axe checking it.
      </p>
    </main>
  )
}

const meta = {
  title: 'Introduction',
  component: Introduction,
  parameters: { layout: 'padded' },
} satisfies Meta<typeof Introduction>

export default meta
type Story = StoryObj<typeof meta>

/** What weft is, a transcript drawn by it, and the sections of this Storybook. */
export const Welcome: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    await expect(canvas.getByRole('heading', { level: 1 }).textContent).toBe('weft')
    await expect(canvas.getByRole('log', { name: 'Conversation' })).toBeTruthy()
    await expect(canvas.getAllByRole('link').map((link) => link.textContent)).toEqual(['Protocols', 'Components', 'Conversation', 'Conversations', 'Streams'])
    // Styled by weft's variables, not the browser's serif default.
    await expect(getComputedStyle(canvas.getByTestId('introduction')).fontFamily).not.toMatch(/^(serif|"?Times)/i)
  },
}
