import type { Meta, StoryObj } from '@storybook/react-vite'
import { useState } from 'react'
import { expect, userEvent, within } from 'storybook/test'
import { Composer, Sources, StateInspector, StatusBar, Suggestions } from '../src/components'
import { weftError } from '../src/core/model/errors'
import type { Op } from '../src/core/model/ops'
import { HostLog, RecordingCallbacks, StaticAgent, useHostLog } from './support/demo'

/** The parts around the transcript, each over a store built from ops. */
const meta = {
  title: 'Components/Parts',
} satisfies Meta

export default meta
type Story = StoryObj<typeof meta>

/** A turn's sources: safe links, markers, snippets; an unsafe URL shows its title only. */
export const SourcesList: Story = {
  render: () => (
    <StaticAgent
      ops={[
        { op: 'turn.open', turnId: 't1', role: 'assistant' },
        { op: 'source.add', turnId: 't1', source: { id: 'a', kind: 'document', title: 'Contoso — renewal record', url: 'https://crm.example.com/contoso', snippet: 'Renewal date 30 September; ARR 120k.', citationIndex: 1 } },
        { op: 'source.add', turnId: 't1', source: { id: 'b', kind: 'url', title: 'Pricing page', url: '/pricing', citationIndex: 2 } },
        { op: 'source.add', turnId: 't1', source: { id: 'c', kind: 'url', title: 'Looks like a link', url: 'javascript:alert(1)' } },
      ]}
    >
      <Sources turnId="t1" />
    </StaticAgent>
  ),
  play: async ({ canvasElement }) => {
    const links = within(canvasElement).getAllByRole('link').map((a) => a.getAttribute('href'))
    await expect(links).toEqual(['https://crm.example.com/contoso', '/pricing'])
    // The title without a link (its card, shown on hover or focus, repeats it).
    const [title] = within(canvasElement).getAllByText('Looks like a link')
    await expect([title!.tagName, title!.getAttribute('data-weft')]).toEqual(['SPAN', 'source-title'])
  },
}

function SuggestionsDemo() {
  const log = useHostLog()
  return (
    <StaticAgent ops={[{ op: 'turn.open', turnId: 't1', role: 'assistant', suggestions: ['What about next year?', 'Draft the email'] }]}>
      <RecordingCallbacks onEntry={log.add}>
        <Suggestions turnId="t1" />
        <HostLog entries={log.entries} />
      </RecordingCallbacks>
    </StaticAgent>
  )
}

/** Follow-up suggestions hand their text to the host. */
export const SuggestionButtons: Story = {
  render: () => <SuggestionsDemo />,
  play: async ({ canvasElement }) => {
    await userEvent.click(within(canvasElement).getByRole('button', { name: 'Draft the email' }))
    await expect(within(canvasElement).getByTestId('host-log').textContent).toBe('suggest Draft the email')
  },
}

function StatusDemo() {
  const [retries, setRetries] = useState(0)
  return (
    <StaticAgent ops={[{ op: 'stream.status', status: 'error', error: weftError('rate_limit', 'Too many requests; try again in a moment.') }]}>
      <StatusBar onRetry={() => setRetries((n) => n + 1)} />
      <span data-testid="retries">{retries}</span>
    </StaticAgent>
  )
}

/** The stream failed: its message and a Retry that calls the host. */
export const StatusWithError: Story = {
  render: () => <StatusDemo />,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    await expect(canvas.getByRole('status').getAttribute('data-state')).toBe('error')
    await expect(canvas.getByRole('status').textContent).toContain('Too many requests')
    await userEvent.click(canvas.getByRole('button', { name: 'Retry' }))
    await expect(canvas.getByTestId('retries').textContent).toBe('1')
  },
}

function ComposerDemo() {
  const [sent, setSent] = useState<string[]>([])
  return (
    <StaticAgent ops={[]}>
      <Composer send={(text) => setSent((list) => [...list, text])} stop={() => undefined} placeholder="Ask anything" />
      <ol data-testid="sent">{sent.map((text, i) => <li key={i}>{text}</li>)}</ol>
    </StaticAgent>
  )
}

/** The composer: Enter sends, Shift+Enter breaks the line, Stop only while an answer is coming. */
export const ComposerBox: Story = {
  render: () => <ComposerDemo />,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    await expect(canvas.queryByRole('button', { name: 'Stop' })).toBeNull()
    await expect((canvas.getByRole('button', { name: 'Send' }) as HTMLButtonElement).disabled).toBe(true)
    await userEvent.type(canvas.getByRole('textbox', { name: 'Message' }), 'Hello there{Enter}')
    await expect(canvas.getByTestId('sent').textContent).toBe('Hello there')
    await expect((canvas.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement).value).toBe('')
  },
}

const inspected: Op[] = [
  { op: 'turn.open', turnId: 't1', role: 'assistant' },
  { op: 'block.open', turnId: 't1', blockId: 'b1', kind: 'llm', label: 'Answering' },
  { op: 'message.put', turnId: 't1', messageId: 'm1', blockId: 'b1', type: 'text', status: 'done', props: { content: 'Hello World' } },
  { op: 'trace.node', turnId: 't1', node: { id: 'b1', kind: 'llm', label: 'Answering', status: 'done' } },
  { op: 'turn.finish', turnId: 't1', status: 'done' },
  { op: 'stream.status', status: 'done' },
]

/** The store as readable text, section by section. */
export const Inspector: Story = {
  render: () => (
    <StaticAgent ops={inspected}>
      <StateInspector />
    </StaticAgent>
  ),
  play: async ({ canvasElement }) => {
    await expect(canvasElement.querySelector('[data-weft="inspector-summary"]')?.textContent).toBe(
      'status: done · turns: 1 · blocks: 1 · threads: 0 · messages: 1 · trace: 1 · gates: 0',
    )
    const messages = canvasElement.querySelector('[data-section="messages"] pre')?.textContent ?? '{}'
    await expect(JSON.parse(messages).m1.props.content).toBe('Hello World')
  },
}
