import type { Meta, StoryObj } from '@storybook/react-vite'
import { expect, within } from 'storybook/test'
import { RendererProvider, Transcript, type MessageRendererProps } from '../src/components'
import type { Op } from '../src/core/model/ops'
import { StaticAgent } from './support/demo'

/**
 * The renderer registry: `RendererProvider` merges a host's renderers over the
 * defaults, so a host can replace `text` or draw a type of its own.
 */
const meta = {
  title: 'Components/Renderer registry',
} satisfies Meta

export default meta
type Story = StoryObj<typeof meta>

const ops: Op[] = [
  { op: 'turn.open', turnId: 't1', role: 'assistant' },
  { op: 'message.put', turnId: 't1', messageId: 'm1', type: 'text', status: 'done', props: { content: 'Here is the forecast for the week.' } },
  { op: 'message.put', turnId: 't1', messageId: 'm2', type: 'data-forecast', status: 'done', props: { data: { days: [['Mon', 21], ['Tue', 25], ['Wed', 18]] } } },
  { op: 'message.put', turnId: 't1', messageId: 'm3', type: 'tool', status: 'done', props: { toolCallId: 'c1', name: 'get_forecast', state: 'output-available', input: { city: 'Paris' }, output: 'ok' } },
  { op: 'message.put', turnId: 't1', messageId: 'm4', type: 'mood-ring', status: 'done', props: { mood: 'sunny' } },
  { op: 'turn.finish', turnId: 't1', status: 'done' },
]

/**
 * A host's text renderer: a speech bubble. Its colours are weft's variables, so it follows
 * the theme (a fixed light fill under the dark theme's light text would be unreadable).
 */
function Bubble({ message }: MessageRendererProps) {
  return (
    <p data-testid="bubble" style={{ background: 'var(--weft-user-bubble)', color: 'var(--weft-fg)', borderRadius: 12, padding: '6px 12px', margin: 0 }}>
      {String(message.props.content ?? '')}
    </p>
  )
}

/** A host's renderer for its own `data-forecast` part: a tiny bar chart. */
function Forecast({ message }: MessageRendererProps) {
  const data = message.props.data as { days?: Array<[string, number]> } | undefined
  return (
    <figure data-testid="forecast" style={{ display: 'flex', gap: 8, alignItems: 'flex-end', height: 80, margin: 0 }}>
      {(data?.days ?? []).map(([day, high]) => (
        <div key={day} style={{ textAlign: 'center', fontSize: 12 }}>
          <div style={{ width: 28, height: high * 2, background: '#0969da', borderRadius: 4 }} />
          {day} {high}°
        </div>
      ))}
    </figure>
  )
}

/** Defaults only: the data part and the unknown type fall back to a plain JSON view. */
export const Defaults: Story = {
  render: () => (
    <StaticAgent ops={ops}>
      <Transcript.Root />
    </StaticAgent>
  ),
  play: async ({ canvasElement }) => {
    const fallbacks = [...canvasElement.querySelectorAll('[data-weft="data"]')].map((n) => n.getAttribute('data-type'))
    await expect(fallbacks).toEqual(['data-forecast', 'mood-ring'])
  },
}

/** The host replaces `text` and adds `data-forecast`; the tool keeps its default, the unknown type its fallback. */
export const HostRenderers: Story = {
  render: () => (
    <StaticAgent ops={ops}>
      <RendererProvider renderers={{ text: Bubble, 'data-forecast': Forecast }}>
        <Transcript.Root />
      </RendererProvider>
    </StaticAgent>
  ),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    await expect(canvas.getByTestId('bubble').textContent).toBe('Here is the forecast for the week.')
    await expect(canvas.getByTestId('forecast').textContent).toContain('Tue 25°')
    await expect(canvasElement.querySelector('[data-weft="tool"]')).not.toBeNull()
    await expect([...canvasElement.querySelectorAll('[data-weft="data"]')].map((n) => n.getAttribute('data-type'))).toEqual(['mood-ring'])
  },
}
