import type { Meta, StoryObj } from '@storybook/react-vite'
import { useState } from 'react'
import { expect, userEvent, within } from 'storybook/test'
import { Trace, TraceHeadline } from '../src/components'
import type { Op } from '../src/core/model/ops'
import { AgentProvider } from '../src/umbrella/providers'
import { useStaticStore } from './support/demo'

/** The work timeline: rows nested by parent, `data-state` per row, and its one-line headline. */
const meta = {
  title: 'Components/Trace',
} satisfies Meta

export default meta
type Story = StoryObj<typeof meta>

const lead = { id: 'lead', kind: 'lead', name: 'Revenue Lead' }
const analyst = { id: 'task-7', kind: 'specialist', name: 'Pipeline Analyst' }

/** The steps of a turn, one batch of ops per step. */
const steps: Op[][] = [
  [
    { op: 'turn.open', turnId: 't1', role: 'assistant' },
    { op: 'trace.node', turnId: 't1', node: { id: 'reason', actor: lead, kind: 'reason', label: 'Thinking', status: 'start' }, delta: 'Search the CRM and the call notes.' },
  ],
  [
    { op: 'trace.node', turnId: 't1', node: { id: 'reason', status: 'done', label: 'Thought through it' } },
    { op: 'trace.node', turnId: 't1', node: { id: 'task-7', actor: lead, kind: 'delegate', label: 'Delegating to Pipeline Analyst', status: 'start', detail: 'Read the renewal history' } },
    { op: 'trace.node', turnId: 't1', node: { id: 'search', parentId: 'task-7', actor: analyst, kind: 'search', tool: 'search_knowledge', label: 'Searching call notes', status: 'progress', args: { query: 'Contoso renewal' } } },
  ],
  [
    { op: 'trace.node', turnId: 't1', node: { id: 'search', status: 'done', label: 'Searched call notes', result: '2 sources' } },
    { op: 'trace.node', turnId: 't1', node: { id: 'task-7', status: 'done', label: 'Pipeline Analyst finished' } },
    { op: 'trace.node', turnId: 't1', node: { id: 'billing', actor: lead, kind: 'tool', tool: 'lookup_invoice', label: 'Checking billing', status: 'start', args: { invoice: 'INV-2231' } } },
  ],
  [
    { op: 'trace.fail', turnId: 't1', nodeId: 'billing', message: 'The tool endpoint could not be reached' },
    { op: 'source.add', turnId: 't1', source: { id: 's1', kind: 'document', title: 'Contoso — renewal record', url: 'https://crm.example.com/contoso' } },
    { op: 'source.add', turnId: 't1', source: { id: 's2', kind: 'document', title: 'Call with Nadia, 12 Sep', url: 'https://notes.example.com/0912' } },
    { op: 'turn.finish', turnId: 't1', status: 'done' },
  ],
]

function Stepper() {
  const store = useStaticStore(steps[0]!)
  const [step, setStep] = useState(1)
  const next = () => {
    const batch = steps[step]
    if (!batch) return
    store.getState().dispatch(batch)
    setStep(step + 1)
  }
  return (
    <AgentProvider store={store}>
      <TraceHeadline turnId="t1" />
      <Trace.Root turnId="t1" />
      <button type="button" onClick={next} disabled={step >= steps.length} style={{ marginTop: 12 }}>Next step</button>
    </AgentProvider>
  )
}

/** Step through a turn: the headline follows the running row, then sums the turn up. */
export const Timeline: Story = {
  render: () => <Stepper />,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    const headline = () => canvasElement.querySelector('[data-weft="trace-headline"]')?.textContent
    // Reasoning is never the headline.
    await expect(headline()).toBe('Working…')
    await userEvent.click(canvas.getByRole('button', { name: 'Next step' }))
    await expect(headline()).toBe('Delegating to Pipeline Analyst')
    const delegate = canvas.getByText('Delegating to Pipeline Analyst', { selector: '[data-weft="trace-label"]' }).closest('li')
    await expect(delegate?.querySelector(':scope > ol > li')?.getAttribute('data-state')).toBe('progress')
    await userEvent.click(canvas.getByRole('button', { name: 'Next step' }))
    await expect(headline()).toBe('Checking billing')
    await userEvent.click(canvas.getByRole('button', { name: 'Next step' }))
    await expect(headline()).toBe('2 steps · 2 sources')
    await expect(canvasElement.querySelector('[data-weft="trace-node"][data-state="error"]')?.textContent).toContain('could not be reached')
  },
}
