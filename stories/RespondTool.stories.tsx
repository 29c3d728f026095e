import type { Meta, StoryObj } from '@storybook/react-vite'
import { expect, userEvent, waitFor, within } from 'storybook/test'
import '../src/components/styles.css'
import { Composer, StatusBar, ToolRenderersProvider, Transcript, type ToolRendererProps } from '../src/components'
import type { ProtocolName } from '../src/core/model/model'
import { useAgentStream } from '../src/react'
import { AgentProvider } from '../src/umbrella/providers'
import { STREAM_TIMEOUT } from './support/play'
import { allLoopHandlers, LOOP_URL } from './testing/loop-agent'

/**
 * A tool the UI answers, live against the scripted loop agent (Mock Service
 * Worker serves `POST /api/loop/<protocol>`): asked to pick a colour, the agent
 * calls `pickColor`, which the host declares `{ ui: true }`. The host's renderer
 * of that tool draws the options; a click calls `respond({ color })`, the call
 * shows the choice at once, and the agent goes on with it in the same turn.
 */
function PickColor({ protocol }: { protocol: ProtocolName }) {
  return (
    <AgentProvider>
      <PickColorChat protocol={protocol} />
    </AgentProvider>
  )
}

/** The host's card for `pickColor`: a choice while the call waits, the colour once it has one. */
function ColorPicker({ input, output, respond }: ToolRendererProps<{ options?: string[] }, { color: string }>) {
  const card = { display: 'grid', gap: 8, padding: 12, border: '1px solid var(--weft-border)', borderRadius: 'var(--weft-radius)', color: 'var(--weft-fg)' }
  if (output) return <p style={card}>Theme colour: <strong>{output.color}</strong></p>
  return (
    <fieldset style={card}>
      <legend>Pick a colour for the theme</legend>
      <div style={{ display: 'flex', gap: 8 }}>
        {(input?.options ?? []).map((color) => (
          <button key={color} type="button" onClick={() => void respond({ color })}>{color}</button>
        ))}
      </div>
    </fieldset>
  )
}

function PickColorChat({ protocol }: { protocol: ProtocolName }) {
  const chat = useAgentStream({
    url: `${LOOP_URL}/${protocol}`, protocol,
    tools: { pickColor: { ui: true, description: 'Ask the user to pick a colour', parameters: { type: 'object', properties: { options: { type: 'array', items: { type: 'string' } } } } } },
  })
  return (
    <ToolRenderersProvider renderers={{ pickColor: ColorPicker }}>
      <div style={{ display: 'flex', flexDirection: 'column', gap: 12 }}>
        <Transcript.Root />
        <Composer send={(text) => chat.send(text)} stop={chat.stop} defaultValue="Pick a colour for the theme" />
        <StatusBar />
      </div>
    </ToolRenderersProvider>
  )
}

const meta = {
  title: 'Conversation/Tool the UI answers',
  component: PickColor,
  args: { protocol: 'ui-message' },
  parameters: { msw: { handlers: { loop: allLoopHandlers } } },
} satisfies Meta<typeof PickColor>

export default meta
type Story = StoryObj<typeof meta>

async function settled(canvasElement: HTMLElement) {
  await waitFor(() => expect(canvasElement.querySelector('[data-weft="status-bar"]')?.getAttribute('data-state')).toBe('done'), { timeout: STREAM_TIMEOUT })
}

async function pickAndGoOn(canvasElement: HTMLElement) {
  const canvas = within(canvasElement)
  await userEvent.click(canvas.getByRole('button', { name: 'Send' }))
  const teal = await canvas.findByRole('button', { name: 'teal' }, { timeout: STREAM_TIMEOUT })
  await settled(canvasElement)
  await userEvent.click(teal)
  await expect(await canvas.findByText('Theme colour:')).toBeTruthy()
  await canvas.findByText(/Teal it is: the theme now uses teal\./, undefined, { timeout: STREAM_TIMEOUT })
  await settled(canvasElement)
}

export const AiSdk: Story = {
  args: { protocol: 'ui-message' },
  play: async ({ canvasElement }) => pickAndGoOn(canvasElement),
}

export const AgUi: Story = {
  args: { protocol: 'ag-ui' },
  play: async ({ canvasElement }) => pickAndGoOn(canvasElement),
}
