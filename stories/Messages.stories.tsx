import type { Meta, StoryObj } from '@storybook/react-vite'
import { expect, userEvent, within } from 'storybook/test'
import { Transcript } from '../src/components'
import type { Op } from '../src/core/model/ops'
import { HostLog, RecordingCallbacks, StaticAgent, useHostLog } from './support/demo'

/** The default message renderers, each over a store built from ops. */
const meta = {
  title: 'Components/Messages',
} satisfies Meta

export default meta
type Story = StoryObj<typeof meta>

const open: Op = { op: 'turn.open', turnId: 't1', role: 'assistant' }
const finish: Op = { op: 'turn.finish', turnId: 't1', status: 'done' }

function Gallery({ ops }: { ops: readonly Op[] }) {
  const log = useHostLog()
  return (
    <StaticAgent ops={ops}>
      <RecordingCallbacks onEntry={log.add}>
        <Transcript.Root />
        <HostLog entries={log.entries} />
      </RecordingCallbacks>
    </StaticAgent>
  )
}

/** Plain text; `[n]` markers link to the turn's sources; markup in the text stays text. */
export const Text: Story = {
  render: () => (
    <Gallery
      ops={[
        open,
        {
          op: 'message.put', turnId: 't1', messageId: 'm1', type: 'text', status: 'done',
          props: { content: 'Contoso renews on 30 September [1].\nThe champion wants a two-year term [2].\n\nA tag like <b>this</b> is shown, not applied.' },
        },
        { op: 'source.add', turnId: 't1', source: { id: 's1', kind: 'document', url: 'https://crm.example.com/contoso', title: 'Contoso — renewal record', citationIndex: 1 } },
        { op: 'source.add', turnId: 't1', source: { id: 's2', kind: 'document', url: 'https://notes.example.com/0912', title: 'Call with Nadia, 12 Sep', citationIndex: 2 } },
        finish,
      ]}
    />
  ),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    await expect(canvas.getByRole('link', { name: '[2]' }).getAttribute('href')).toBe('https://notes.example.com/0912')
    await expect(canvasElement.querySelector('[data-weft="text"] b')).toBeNull()
    await expect(canvasElement.querySelectorAll('[data-weft="text"] p').length).toBe(2)
  },
}

/** A message still streaming: `aria-busy`, its tokens hidden from the live region until it is done. */
export const Streaming: Story = {
  render: () => (
    <Gallery
      ops={[
        open,
        { op: 'message.delta', turnId: 't1', messageId: 'm1', type: 'reasoning', action: 'append', path: 'content', value: 'The user wants the forecast; ' },
        { op: 'message.delta', turnId: 't1', messageId: 'm2', type: 'text', action: 'append', path: 'content', value: 'Tomorrow will be sun' },
      ]}
    />
  ),
  play: async ({ canvasElement }) => {
    const text = canvasElement.querySelector('[data-type="text"]')
    await expect(text?.getAttribute('aria-busy')).toBe('true')
    await expect(text?.querySelector('[data-weft="text"]')?.getAttribute('aria-busy')).toBe('true')
    await expect(canvasElement.querySelector('details[data-weft="reasoning"]')?.hasAttribute('open')).toBe(true)
  },
}

/** Reasoning folds away once it is done. */
export const Reasoning: Story = {
  render: () => (
    <Gallery
      ops={[
        open,
        { op: 'message.put', turnId: 't1', messageId: 'm1', type: 'reasoning', status: 'done', props: { content: 'The user asks about the weather, so I should call the weather tool.' } },
        finish,
      ]}
    />
  ),
  play: async ({ canvasElement }) => {
    const details = canvasElement.querySelector('details[data-weft="reasoning"]')
    await expect(details?.hasAttribute('open')).toBe(false)
    await userEvent.click(within(canvasElement).getByText('Reasoning'))
    await expect(details?.hasAttribute('open')).toBe(true)
  },
}

const tool = (messageId: string, props: Record<string, unknown>, status: 'streaming' | 'done' = 'done'): Op => ({
  op: 'message.put', turnId: 't1', messageId, type: 'tool', status, props: { toolCallId: messageId, ...props },
})

/** A tool call in each of its states; `data-state` on the badge is the state. */
export const ToolCalls: Story = {
  render: () => (
    <Gallery
      ops={[
        // An AG-UI turn: its protocol's tool view adds the navigation actions.
        { ...open, protocol: 'ag-ui' },
        tool('c1', { name: 'get_weather', state: 'input-streaming', inputText: '{"city": "Par' }, 'streaming'),
        tool('c2', { name: 'get_weather', state: 'input-available', input: { city: 'Paris' } }, 'streaming'),
        tool('c3', { name: 'send_email', state: 'approval-requested', input: { to: 'nadia@contoso.example' } }, 'streaming'),
        tool('c4', { name: 'search', state: 'output-available', input: { q: 'renewal' }, output: 'Partial results…', preliminary: true }, 'streaming'),
        tool('c5', {
          name: 'create_todo', state: 'output-available', input: { title: 'Call Nadia' }, output: { id: 123, title: 'Call Nadia' },
          actions: [{ type: 'navigation', path: '/todo/123/edit', params: { from: 'chat' }, label: 'Edit the to-do' }],
        }),
        tool('c6', { name: 'lookup_invoice', state: 'output-error', input: { invoice: 'INV-2231' }, errorText: 'The tool endpoint could not be reached' }),
        tool('c7', { name: 'delete_account', state: 'output-denied', input: { id: 'acc-1' } }),
      ]}
    />
  ),
  play: async ({ canvasElement }) => {
    const states = [...canvasElement.querySelectorAll('[data-weft="tool-state"]')].map((b) => b.getAttribute('data-state'))
    await expect(states).toEqual(['input-streaming', 'input-available', 'approval-requested', 'output-available', 'output-available', 'output-error', 'output-denied'])
    await expect(canvasElement.querySelector('[data-weft="tool-input"] pre')?.textContent).toBe('{"city": "Par')
    const log = within(canvasElement).getByTestId('host-log')
    await expect(log.textContent).toBe('')
    await userEvent.click(within(canvasElement).getByRole('button', { name: 'Edit the to-do' }))
    await expect(log.textContent).toBe('navigate /todo/123/edit {"from":"chat"}')
  },
}

/** Files and images: only safe URLs become links or images. */
export const Files: Story = {
  render: () => (
    <Gallery
      ops={[
        open,
        {
          op: 'message.put', turnId: 't1', messageId: 'f1', type: 'file', status: 'done',
          props: { mediaType: 'image/png', filename: 'dot.png', url: 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAYAAAAf8/9hAAAAHElEQVR42mNkYPhfz0AEYBxVSF+FAP5FDvcfRYWgAAAAAElFTkSuQmCC' },
        },
        { op: 'message.put', turnId: 't1', messageId: 'f2', type: 'file', status: 'done', props: { mediaType: 'application/pdf', filename: 'Q3 review.pdf', url: 'https://files.example.com/q3.pdf' } },
        { op: 'message.put', turnId: 't1', messageId: 'f3', type: 'file', status: 'done', props: { mediaType: 'text/html', filename: 'trap.html', url: 'javascript:alert(1)' } },
        finish,
      ]}
    />
  ),
  play: async ({ canvasElement }) => {
    await expect(canvasElement.querySelectorAll('img[data-weft="file"]').length).toBe(1)
    await expect(within(canvasElement).getByRole('link', { name: 'Q3 review.pdf' }).getAttribute('href')).toBe('https://files.example.com/q3.pdf')
    await expect(within(canvasElement).getByText(/trap\.html/).tagName).toBe('SPAN')
  },
}

/** Notices, an error inside the answer, a progress line. */
export const NoticesErrorsLoading: Story = {
  render: () => (
    <Gallery
      ops={[
        open,
        { op: 'message.put', turnId: 't1', messageId: 'n1', type: 'notice', status: 'done', props: { text: 'Using the EU data region.', level: 'info' } },
        { op: 'message.put', turnId: 't1', messageId: 'n2', type: 'notice', status: 'done', props: { text: 'The CRM answered slowly.', level: 'warning' } },
        { op: 'message.put', turnId: 't1', messageId: 'l1', type: 'loading', status: 'streaming', props: { message: 'Calling weather.forecast…' } },
        { op: 'message.put', turnId: 't1', messageId: 'e1', type: 'error', status: 'error', props: { message: 'The model refused the request.', type: 'llm' } },
      ]}
    />
  ),
  play: async ({ canvasElement }) => {
    await expect([...canvasElement.querySelectorAll('[data-weft="notice"]')].map((n) => n.getAttribute('data-level'))).toEqual(['info', 'warning'])
    await expect(canvasElement.querySelector('[data-weft="error"]')?.textContent).toBe('The model refused the request.')
  },
}

/** Types without a renderer: data parts show their data, anything else its props. */
export const DataAndUnknown: Story = {
  render: () => (
    <Gallery
      ops={[
        open,
        { op: 'message.put', turnId: 't1', messageId: 'd1', type: 'data-weather', status: 'done', props: { data: { city: 'Paris', high: 25 } } },
        { op: 'message.put', turnId: 't1', messageId: 'd2', type: 'kanban-board', status: 'done', props: { columns: ['todo', 'done'] } },
        finish,
      ]}
    />
  ),
  play: async ({ canvasElement }) => {
    const types = [...canvasElement.querySelectorAll('[data-weft="data-type"]')].map((n) => n.textContent)
    await expect(types).toEqual(['data-weather', 'kanban-board'])
  },
}

/** A recommended action: nothing happens until a person clicks it. */
export const RecommendedAction: Story = {
  render: () => (
    <Gallery
      ops={[
        open,
        {
          op: 'message.put', turnId: 't1', messageId: 'a1', type: 'recommended-action', status: 'done',
          props: { actionId: 'gmail.send', label: 'Draft the note to Nadia Brandt', rationale: 'She asked for terms in writing.', confidence: 0.82 },
        },
        finish,
      ]}
    />
  ),
  play: async ({ canvasElement }) => {
    const log = within(canvasElement).getByTestId('host-log')
    await expect(log.textContent).toBe('')
    await userEvent.click(within(canvasElement).getByRole('button', { name: 'Draft the note to Nadia Brandt' }))
    await expect(log.textContent).toBe('action gmail.send')
  },
}
