import type { Meta, StoryObj } from '@storybook/react-vite'
import { useMemo } from 'react'
import { expect, userEvent, waitFor, within } from 'storybook/test'
import '../src/components/styles.css'
import { Chat, Composer, Transcript, UsageSettingsProvider, type UsageSettings } from '../src/components'
import type { Op } from '../src/core'
import { useAgentStream } from '../src/react'
import { mockFetch } from '../src/testing/mock-fetch'
import { AgentProvider } from '../src/umbrella/providers'
import { createAgentStore } from '../src/core/store/store'
import { STREAM_TIMEOUT } from './support/play'

/**
 * The usage footer under an answer: tokens in and out (reasoning and cached
 * where the protocol says), time to first token, total time, tokens per second,
 * and a cost from the host's price table. A turn with nothing to show draws no
 * footer; `UsageSettingsProvider` hides it or any figure.
 */
const answered: Op[] = [
  { op: 'turn.open', turnId: 'u1', role: 'user' },
  { op: 'message.put', turnId: 'u1', messageId: 'u1/m', role: 'user', type: 'text', status: 'done', props: { content: 'Summarise the renewal terms for Contoso.' } },
  { op: 'turn.finish', turnId: 'u1', status: 'done' },
  { op: 'turn.open', turnId: 'a1', role: 'assistant' },
  { op: 'message.put', turnId: 'a1', messageId: 'a1/text', type: 'text', status: 'done', props: { content: 'Contoso renews on **1 March** for two years, with a **5 %** discount on the second year.' } },
  { op: 'turn.update', turnId: 'a1', usage: { inputTokens: 12_480, outputTokens: 356, reasoningTokens: 128, cachedInputTokens: 8_192, model: 'gpt-4o' } },
  { op: 'turn.update', turnId: 'a1', timing: { runs: [{ startedAt: 1_000, firstTokenAt: 1_640, endedAt: 4_200 }] } },
  { op: 'turn.finish', turnId: 'a1', status: 'done' },
  { op: 'turn.open', turnId: 'u2', role: 'user' },
  { op: 'message.put', turnId: 'u2', messageId: 'u2/m', role: 'user', type: 'text', status: 'done', props: { content: 'Thanks!' } },
  { op: 'turn.finish', turnId: 'u2', status: 'done' },
  { op: 'turn.open', turnId: 'a2', role: 'assistant' },
  { op: 'message.put', turnId: 'a2', messageId: 'a2/text', type: 'text', status: 'done', props: { content: 'You are welcome. (A turn with no usage and no timing has no footer.)' } },
  { op: 'turn.finish', turnId: 'a2', status: 'done' },
]

const prices = { 'gpt-4o': { input: 2.5, output: 10, cachedInput: 1.25 } }

function Recorded(settings: UsageSettings) {
  const store = useMemo(() => {
    const s = createAgentStore()
    s.getState().dispatch(answered)
    return s
  }, [])
  return (
    <AgentProvider store={store}>
      <UsageSettingsProvider {...settings}>
        <Transcript.Root />
      </UsageSettingsProvider>
    </AgentProvider>
  )
}

/** An AI SDK route that sends its usage at finish, as `messageMetadata: ({ part }) => ({ totalUsage: part.totalUsage })` does. */
const liveFetch = mockFetch({
  'POST /api/usage': [
    { type: 'start', messageMetadata: { model: 'gpt-4o' } },
    { type: 'start-step' },
    { type: 'text-start', id: 't' },
    ...'Lyon sits where the Rhône and the Saône meet; its old town is a UNESCO site.'.split(/(?<= )/).map((delta) => ({ type: 'text-delta', id: 't', delta })),
    { type: 'text-end', id: 't' },
    { type: 'finish-step' },
    { type: 'finish', messageMetadata: { totalUsage: { inputTokens: 812, outputTokens: 19, totalTokens: 831 } } },
  ],
}, { protocol: 'ui-message', pace: 60 })

function Live() {
  return (
    <AgentProvider>
      <UsageSettingsProvider prices={prices}>
        <LiveInner />
      </UsageSettingsProvider>
    </AgentProvider>
  )
}

function LiveInner() {
  const { send, stop } = useAgentStream({ url: '/api/usage', protocol: 'ui-message', fetch: liveFetch })
  return (
    <div style={{ height: 420, display: 'flex', flexDirection: 'column' }}>
      <Chat footer={<Composer send={send} stop={stop} />} />
    </div>
  )
}

const meta = {
  title: 'Conversation/Usage and timing',
  component: Recorded,
} satisfies Meta<typeof Recorded>

export default meta
type Story = StoryObj<typeof meta>

const figures = (root: HTMLElement) => [...root.querySelectorAll('[data-weft="usage-figure"]')].map((f) => f.getAttribute('data-figure'))

/** Every figure, the cost from the host's prices (cached input at its own price); the second answer has no footer. */
export const Figures: Story = {
  args: { prices },
  play: async ({ canvasElement }) => {
    expect(canvasElement.querySelectorAll('[data-weft="turn-usage"]')).toHaveLength(1)
    expect(figures(canvasElement)).toEqual(['input', 'output', 'reasoning', 'cached', 'firstToken', 'total', 'speed', 'cost'])
    expect(within(canvasElement.querySelector('[data-weft="turn-usage"]')!).getByText('$0.025')).toBeTruthy()
  },
}

/** Without a price table there is no cost: prices are never guessed. */
export const WithoutPrices: Story = {
  play: async ({ canvasElement }) => {
    expect(figures(canvasElement)).not.toContain('cost')
  },
}

/** The host hides some figures (`hide={['reasoning', 'cached', 'speed']}`), or the whole footer (`hide`). */
export const Hidden: Story = {
  args: { prices, hide: ['reasoning', 'cached', 'speed'] },
  play: async ({ canvasElement }) => {
    expect(figures(canvasElement)).toEqual(['input', 'output', 'firstToken', 'total', 'cost'])
  },
}

/** Live: the client stamps the request, the first token and the end; the usage comes with the route's finish. */
export const LiveAnswer: StoryObj<typeof Live> = {
  render: () => <Live />,
  play: async ({ canvasElement }) => {
    await userEvent.type(within(canvasElement).getByRole('textbox', { name: 'Message' }), 'Tell me about Lyon{Enter}')
    await waitFor(() => expect(canvasElement.querySelector('[data-weft="turn-usage"]')).not.toBeNull(), { timeout: STREAM_TIMEOUT })
    expect(figures(canvasElement)).toEqual(['input', 'output', 'firstToken', 'total', 'speed', 'cost'])
  },
}
