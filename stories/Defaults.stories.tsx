import type { Meta, StoryObj } from '@storybook/react-vite'
import { expect, userEvent, within } from 'storybook/test'
import { Composer, Transcript, WeftCallbacksProvider } from '../src/components'
import type { Op } from '../src/core/model/ops'
import { StaticAgent } from './support/demo'

/**
 * What the components show with no configuration, where a chat kit is judged
 * at first sight: the composer's placeholder, a gate after its answer, a plain
 * answer's headline.
 */
const meta = {
  title: 'Components/Defaults',
} satisfies Meta

export default meta
type Story = StoryObj<typeof meta>

const user = (id: string, content: string): Op[] => [
  { op: 'turn.open', turnId: id, role: 'user' },
  { op: 'message.put', turnId: id, messageId: `${id}/m`, role: 'user', type: 'text', status: 'done', props: { content } },
  { op: 'turn.finish', turnId: id, status: 'done' },
]

/** The composer with no placeholder given shows "Send a message…" (the `composerPlaceholder` label). */
export const ComposerPlaceholder: Story = {
  render: () => (
    <StaticAgent ops={[]}>
      <Composer send={() => undefined} />
    </StaticAgent>
  ),
  play: async ({ canvasElement }) => {
    const box = within(canvasElement).getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement
    await expect(box.placeholder).toBe('Send a message…')
  },
}

/** A gate's title says what is asked while it waits, then what happened. */
export const GateTitles: Story = {
  render: () => (
    <StaticAgent
      ops={[
        { op: 'turn.open', turnId: 't1', role: 'assistant' },
        { op: 'gate.open', gate: { id: 'g1', turnId: 't1', kind: 'approval', question: 'Send the renewal email?', payload: {} } },
        { op: 'gate.open', gate: { id: 'g2', turnId: 't1', kind: 'approval', question: 'Archive the thread?', payload: {} } },
        { op: 'gate.resolve', gateId: 'g2', status: 'approved' },
        { op: 'gate.open', gate: { id: 'g3', turnId: 't1', kind: 'question', question: 'Which folder?', payload: {} } },
        { op: 'gate.resolve', gateId: 'g3', status: 'answered', response: { value: 'Renewals 2027' } },
        { op: 'gate.open', gate: { id: 'g4', turnId: 't1', kind: 'approval', question: 'Copy the legal team?', payload: {} } },
        { op: 'gate.resolve', gateId: 'g4', status: 'rejected', response: { reason: 'Not yet' } },
      ]}
    >
      <WeftCallbacksProvider onGateAnswer={() => undefined}>
        <Transcript.Root />
      </WeftCallbacksProvider>
    </StaticAgent>
  ),
  play: async ({ canvasElement }) => {
    const titles = [...canvasElement.querySelectorAll('[data-weft="gate-title"]')].map((title) => title.textContent)
    await expect(titles).toEqual(['Approval needed', 'Approved', 'Answered', 'Rejected'])
    await expect(within(canvasElement).getByRole('group', { name: 'Rejected' }).querySelector('[data-weft="gate-status"]')?.textContent).toBe('Not yet')
  },
}

const step = (turnId: string, content: string): Op[] => [
  { op: 'turn.open', turnId, role: 'assistant' },
  { op: 'block.open', turnId, blockId: `${turnId}/s1`, kind: 'step', label: 'Step 1' },
  { op: 'trace.node', turnId, node: { id: `${turnId}/s1`, kind: 'step', label: 'Step 1', status: 'start' } },
  { op: 'message.put', turnId, messageId: `${turnId}/text`, blockId: `${turnId}/s1`, type: 'text', status: 'done', props: { content } },
  { op: 'block.close', blockId: `${turnId}/s1`, status: 'done' },
  { op: 'trace.node', turnId, node: { id: `${turnId}/s1`, status: 'done' } },
  { op: 'turn.finish', turnId, status: 'done' },
]

/** A plain answer (one LLM step of text, no tool) has no "1 step" headline. */
export const PlainAnswer: Story = {
  render: () => (
    <StaticAgent ops={[...user('u1', 'What is the capital of Australia?'), ...step('a1', 'The capital of Australia is **Canberra**.')]}>
      <Transcript.Root />
    </StaticAgent>
  ),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText('Canberra')).toBeTruthy()
    await expect(canvasElement.querySelector('[data-weft="trace-headline"]')).toBeNull()
    // What shows (the step block's own label is hidden by the stylesheet).
    await expect(canvasElement.innerText).not.toMatch(/step/i)
  },
}

/** A tool call awaiting approval: its card shows the input, open; the gate under it asks, without repeating it. */
export const HeldCallOnce: Story = {
  render: () => (
    <StaticAgent
      ops={[
        { op: 'turn.open', turnId: 't1', role: 'assistant' },
        { op: 'message.put', turnId: 't1', messageId: 'c1', type: 'tool', status: 'streaming', props: { toolCallId: 'c1', name: 'send_email', state: 'approval-requested', input: { to: 'nadia@contoso.example', subject: 'Your renewal terms' } } },
        { op: 'gate.open', gate: { id: 'g1', turnId: 't1', kind: 'tool-approval', toolCallId: 'c1', question: 'Send this email to Nadia Brandt?', payload: { to: 'nadia@contoso.example' } } },
      ]}
    >
      <WeftCallbacksProvider onGateAnswer={() => undefined}>
        <Transcript.Root />
      </WeftCallbacksProvider>
    </StaticAgent>
  ),
  play: async ({ canvasElement }) => {
    const gate = within(canvasElement).getByRole('group', { name: 'Approval needed' })
    await expect(gate.textContent).not.toContain('nadia@contoso.example')
    await expect(canvasElement.querySelector('[data-weft="tool-input"]')?.textContent).toContain('nadia@contoso.example')
  },
}

const call = (step: string, name: string, input: Record<string, unknown>): Op[] => [
  { op: 'block.open', turnId: 't1', blockId: step, kind: 'step', label: step },
  { op: 'message.put', turnId: 't1', messageId: `${step}/call`, blockId: step, type: 'tool', status: 'done', props: { toolCallId: step, name, state: 'output-available', input, output: { ok: true } } },
  { op: 'block.close', blockId: step, status: 'done' },
]

/** An agent's successive tool calls fold into one line, "Used 3 tools", that opens onto each call. */
export const ToolGroup: Story = {
  render: () => (
    <StaticAgent
      ops={[
        ...user('u1', 'Find me a train to Lyon tomorrow morning.'),
        { op: 'turn.open', turnId: 't1', role: 'assistant' },
        ...call('s1', 'search_trains', { from: 'Paris', to: 'Lyon' }),
        ...call('s2', 'check_seats', { train: 'TGV 6601' }),
        ...call('s3', 'check_seats', { train: 'TGV 6603' }),
        { op: 'message.put', turnId: 't1', messageId: 'text', type: 'text', status: 'done', props: { content: '**TGV 6601** leaves at 09:40 with 12 seats left.' } },
        { op: 'turn.finish', turnId: 't1', status: 'done' },
      ]}
    >
      <Transcript.Root />
    </StaticAgent>
  ),
  play: async ({ canvasElement }) => {
    const group = canvasElement.querySelector<HTMLDetailsElement>('[data-weft="tool-group"]')!
    const summary = group.querySelector('summary')!
    await expect(summary.textContent).toContain('Used 3 tools')
    await expect(group.open).toBe(false)
    // The keyboard opens it too (a native summary): test/browser/visual-gaps.test.tsx presses Enter on it.
    await userEvent.click(summary)
    await expect(group.open).toBe(true)
    await expect(group.querySelectorAll('[data-weft="tool"]').length).toBe(3)
  },
}

/** A data part with no renderer of its own: its fields as a key/value card, the raw JSON one click away. */
export const DataPart: Story = {
  render: () => (
    <StaticAgent
      ops={[
        { op: 'turn.open', turnId: 't1', role: 'assistant' },
        { op: 'message.put', turnId: 't1', messageId: 'd1', type: 'data-weather', status: 'done', props: { data: { city: 'Paris', tempC: 18, conditions: 'light rain', hourly: [17, 18, 18, 16], wind: { kph: 12, from: 'SW' } } } },
        { op: 'turn.finish', turnId: 't1', status: 'done' },
      ]}
    >
      <Transcript.Root />
    </StaticAgent>
  ),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    await expect(canvas.getByText('conditions').tagName).toBe('DT')
    await expect(canvas.getByText('kph: 12, from: SW').tagName).toBe('DD')
    const raw = canvasElement.querySelector<HTMLDetailsElement>('[data-weft="data-raw"]')!
    await expect(raw.open).toBe(false)
    await userEvent.click(within(raw).getByText('JSON'))
    await expect(raw.open).toBe(true)
  },
}

/** Source chips: the site's icon (its first letter until it loads), and a card with the title, URL and snippet on hover or focus. */
export const SourceChips: Story = {
  render: () => (
    <StaticAgent
      ops={[
        { op: 'turn.open', turnId: 't1', role: 'assistant' },
        { op: 'source.add', turnId: 't1', source: { id: 's1', kind: 'url', title: 'Météo-France — Paris forecast', url: 'https://meteofrance.com/previsions-meteo-france/paris/75000', snippet: 'Light rain this afternoon, drier tomorrow until the evening.', citationIndex: 1 } },
        { op: 'source.add', turnId: 't1', source: { id: 's2', kind: 'document', title: 'Travel policy 2026', citationIndex: 2 } },
        { op: 'message.put', turnId: 't1', messageId: 'm1', type: 'text', status: 'done', props: { content: 'Expect light rain today [1]; book refundable fares [2].' } },
        { op: 'turn.finish', turnId: 't1', status: 'done' },
      ]}
    >
      <div style={{ paddingBlockEnd: 120 }}>
        <Transcript.Root />
      </div>
    </StaticAgent>
  ),
  play: async ({ canvasElement }) => {
    const link = within(canvasElement).getByRole('link', { name: 'Météo-France — Paris forecast' })
    const card = canvasElement.querySelector<HTMLElement>(`#${CSS.escape(link.getAttribute('aria-describedby')!)}`)!
    await expect(canvasElement.querySelector('[data-weft="source-icon"] img')?.getAttribute('src')).toBe('https://meteofrance.com/favicon.ico')
    await expect(card.checkVisibility()).toBe(false)
    link.focus()
    await expect(card.checkVisibility()).toBe(true)
    await expect(card.textContent).toContain('Light rain this afternoon')
  },
}
