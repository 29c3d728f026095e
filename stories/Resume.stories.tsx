import type { Meta, StoryObj } from '@storybook/react-vite'
import '../src/components/styles.css'
import { useEffect, useState } from 'react'
import { expect, userEvent, waitFor, within } from 'storybook/test'
import { StateInspector, Transcript } from '../src/components'
import { memoryStorage } from '../src/core/resume/storage'
import type { ResumeStorage } from '../src/core/resume/types'
import { useAgentSelector, useAgentStore } from '../src/react'
import { AgentProvider } from '../src/umbrella/providers'
import { useResumableStream } from '../src/react/use-resumable-stream'

const ANSWER =
  'Contoso renews on 30 September [1]. The champion asked for a two-year term at the current price [2], so a draft note to Nadia is ready below.'

interface ResumeDemoProps {
  /** The mock server drops the first connection after this many frames. */
  cut?: number
  /** Milliseconds between frames. */
  delay?: number
}

/** Every status the stream went through, in order. */
function useStatusHistory(): string[] {
  const store = useAgentStore()
  const [history, setHistory] = useState<string[]>([])
  useEffect(
    () => store.subscribe((s, prev) => {
      if (s.status !== prev.status) setHistory((list) => [...list, s.status])
    }),
    [store],
  )
  return history
}

function ResumingChat({ cut, delay, storage, onReload }: ResumeDemoProps & { storage: ResumeStorage; onReload?: () => void }) {
  const query = [cut !== undefined ? `cut=${cut}` : '', `delay=${delay ?? 30}`].filter(Boolean).join('&')
  const { send, stop, retry, status, error } = useResumableStream({
    url: `/mock/stream/vocion/answer?${query}`,
    protocol: 'vocion',
    conversationKey: 'resume-story',
    resume: 'vocion',
    resumeUrl: `/mock/resume/vocion/answer?delay=${delay ?? 30}`,
    storage,
    backoff: { baseMs: 250, maxMs: 2000 },
  })
  const history = useStatusHistory()
  const events = useAgentSelector((s) => s.cursor.eventCount)
  return (
    <div style={{ display: 'grid', gap: 12, maxWidth: 720 }}>
      <div style={{ display: 'flex', gap: 8 }}>
        <button onClick={() => void send('Where is the Contoso renewal?')}>Ask</button>
        <button onClick={stop} disabled={status !== 'streaming' && status !== 'reconnecting'}>Stop</button>
        {status === 'error' && <button onClick={() => void retry()}>Retry</button>}
        {onReload && <button onClick={onReload}>Reload the page</button>}
      </div>
      <p style={{ margin: 0 }}>
        Status <output data-testid="status">{status}</output> · events <output data-testid="events">{events}</output>
        {error && <span role="alert"> · {error.message}</span>}
      </p>
      <ol data-testid="status-history" aria-label="Status history" style={{ display: 'flex', gap: 16, margin: 0, paddingLeft: 16 }}>
        {history.map((s, i) => <li key={i}>{s}</li>)}
      </ol>
      <Transcript.Root />
      <StateInspector sections={['cursor']} open={false} />
    </div>
  )
}

/** A chat whose first connection drops mid-answer; the kit resumes it. */
function DroppedConnectionDemo(props: ResumeDemoProps) {
  const [storage] = useState(memoryStorage)
  return (
    <AgentProvider>
      <ResumingChat {...props} storage={storage} />
    </AgentProvider>
  )
}

/** "Reload" throws the provider and its store away and mounts a fresh one, as a real reload does. */
function ReloadDemo(props: ResumeDemoProps) {
  const [storage] = useState(memoryStorage)
  const [page, setPage] = useState(1)
  return (
    <AgentProvider key={page}>
      <p style={{ margin: 0 }}>Page load <output data-testid="page">{page}</output></p>
      <ResumingChat {...props} storage={storage} onReload={() => setPage((n) => n + 1)} />
    </AgentProvider>
  )
}

/**
 * Resume: a dropped connection reconnects with backoff (status `reconnecting`) and
 * asks the server only for the events it missed (Vocion: `stream_meta`, then
 * `…/resume?id=<streamId>&after=<count>`); nothing is shown twice.
 */
const meta = {
  title: 'Streams/Resume',
  component: DroppedConnectionDemo,
  args: { cut: 14, delay: 30 },
} satisfies Meta<typeof DroppedConnectionDemo>

export default meta
type Story = StoryObj<typeof meta>

const TIMEOUT = 10_000

function answerText(canvasElement: HTMLElement): string {
  const turns = canvasElement.querySelectorAll('[data-weft="turn"][data-role="assistant"]')
  return turns[turns.length - 1]?.querySelector('[data-type="text"]')?.textContent ?? ''
}

/** The mock server cuts the first connection after 14 frames; the answer still lands whole. */
export const DroppedConnection: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    await userEvent.click(canvas.getByRole('button', { name: 'Ask' }))
    await waitFor(() => expect(canvas.getByTestId('status').textContent).toBe('done'), { timeout: TIMEOUT })
    const history = [...canvas.getByTestId('status-history').querySelectorAll('li')].map((li) => li.textContent)
    await expect(history).toEqual(['connecting', 'streaming', 'reconnecting', 'streaming', 'done'])
    await expect(answerText(canvasElement)).toBe(ANSWER)
  },
}

/** Reloading mid-answer: the new page finds the handle and rebuilds the turn from the start. */
export const Reload: StoryObj<typeof ReloadDemo> = {
  render: (args) => <ReloadDemo {...args} />,
  args: { delay: 60 },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    await userEvent.click(canvas.getByRole('button', { name: 'Ask' }))
    await waitFor(() => expect(Number(canvas.getByTestId('events').textContent)).toBeGreaterThanOrEqual(3), { timeout: TIMEOUT })
    await userEvent.click(canvas.getByRole('button', { name: 'Reload the page' }))
    await waitFor(() => expect(canvas.getByTestId('page').textContent).toBe('2'))
    await waitFor(() => expect(canvas.getByTestId('status').textContent).toBe('done'), { timeout: TIMEOUT })
    const history = [...canvas.getByTestId('status-history').querySelectorAll('li')].map((li) => li.textContent)
    await expect(history).toEqual(['reconnecting', 'streaming', 'done'])
    await expect(answerText(canvasElement)).toBe(ANSWER)
  },
}
