import type { Meta, StoryObj } from '@storybook/react-vite'
import { expect, userEvent, waitFor, within } from 'storybook/test'
import { Transcript } from '../src/components'
import type { Op } from '../src/core/model/ops'
import { HostLog, RecordingCallbacks, StaticAgent, useHostLog } from './support/demo'

/**
 * Human-in-the-loop gates. The card only hands the answer to the host's
 * `onGateAnswer`; here the host resolves the gate in the store.
 */
const meta = {
  title: 'Components/Gate',
} satisfies Meta

export default meta
type Story = StoryObj<typeof meta>

const ops: Op[] = [
  { op: 'turn.open', turnId: 't1', role: 'assistant' },
  { op: 'message.put', turnId: 't1', messageId: 'm1', type: 'text', status: 'done', props: { content: 'The email to Nadia is ready. Send it?' } },
  {
    op: 'message.put', turnId: 't1', messageId: 'c1', type: 'tool', status: 'streaming',
    props: { toolCallId: 'c1', name: 'send_email', state: 'approval-requested', input: { to: 'nadia@contoso.example', subject: 'Your renewal terms' } },
  },
  {
    op: 'gate.open',
    gate: { id: 'g1', turnId: 't1', kind: 'tool-approval', toolCallId: 'c1', question: 'Send this email to Nadia Brandt?', payload: { to: 'nadia@contoso.example' } },
  },
  { op: 'gate.open', gate: { id: 'g2', turnId: 't1', kind: 'hitl', question: 'Also archive the thread?', payload: {} } },
]

function GateDemo() {
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

/** Two pending gates; approve one, reject the other. */
export const Pending: Story = {
  render: () => <GateDemo />,
  play: async ({ canvasElement }) => {
    const cards = () => [...canvasElement.querySelectorAll<HTMLElement>('[data-weft="gate"]')]
    await expect(cards().map((c) => c.getAttribute('data-state'))).toEqual(['pending', 'pending'])
    await userEvent.click(within(cards()[0]!).getByRole('button', { name: 'Approve' }))
    await userEvent.click(within(cards()[1]!).getByRole('button', { name: 'Reject' }))
    await expect(within(canvasElement).getByTestId('host-log').textContent).toBe('gate tool-approval approvedgate hitl rejected')
    await waitFor(() => expect(cards().map((c) => c.getAttribute('data-state'))).toEqual(['approved', 'rejected']))
    await expect(within(canvasElement).queryByRole('button', { name: 'Approve' })).toBeNull()
  },
}
