/**
 * The preview side of weft's Storybook addon, against a Storybook channel: the
 * decorator gives the story's weft clients an inspector (through a provider of
 * the story's own too) and sends its snapshot to the manager on each change and
 * when the panel asks; a new story starts from nothing; leaving stops it.
 */
import { act, cleanup, render } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { addons, mockChannel } from 'storybook/preview-api'
import { useAgentStream } from '../../src/react'
import { AgentProvider } from '../../src/umbrella/providers'
import { fixtures, mockFetch } from '../../src/testing'
import { syncScheduler } from '../../src/core/store/batcher'
import { createInspector } from '../../src/inspector'
import { INSPECTOR_REQUEST_EVENT, INSPECTOR_SNAPSHOT_EVENT, sendInspector, type InspectorChannel, type InspectorMessage } from '../../src/inspector/storybook/channel'
import { withInspector } from '../../src/inspector/storybook/preview'
import { withAgent } from '../../src/testing/storybook'

afterEach(() => cleanup())

function recordingChannel() {
  const channel = mockChannel() as unknown as InspectorChannel
  const messages: InspectorMessage[] = []
  channel.on(INSPECTOR_SNAPSHOT_EVENT, (message) => messages.push(message as InspectorMessage))
  return { channel, messages }
}

let sendNow: (() => Promise<void>) | undefined

function StoryChat() {
  const { send } = useAgentStream({ url: '/api/agent', protocol: 'vocion', fetch: mockFetch({ '/api/agent': fixtures.vocion.plain! }), scheduler: syncScheduler })
  sendNow = () => send('Hello')
  return null
}

/** A story with an agent provider of its own, as most host stories have. */
function Story() {
  return (
    <AgentProvider>
      <StoryChat />
    </AgentProvider>
  )
}

describe('sendInspector', () => {
  it('sends the snapshot at once, on each change and when the manager asks, and stops when told', async () => {
    const { channel, messages } = recordingChannel()
    const inspector = createInspector()
    const stop = sendInspector(inspector, channel, { storyId: 'chat--live', theme: 'dark' })
    expect(messages).toEqual([{ storyId: 'chat--live', theme: 'dark', snapshot: { turns: [], droppedTurns: 0, maxFramesPerTurn: 2000 } }])
    channel.emit(INSPECTOR_REQUEST_EVENT)
    expect(messages).toHaveLength(2)
    inspector.clear()
    await Promise.resolve()
    expect(messages).toHaveLength(3)
    stop()
    channel.emit(INSPECTOR_REQUEST_EVENT)
    inspector.clear()
    await Promise.resolve()
    expect(messages).toHaveLength(3)
  })
})

function PlainChat() {
  const { send } = useAgentStream({ url: '/api/agent' })
  sendNow = () => send('Hello')
  return null
}

describe('withInspector', () => {
  it('reaches a hook under weft/testing’s withAgent, whose provider has client defaults of its own', async () => {
    const { channel, messages } = recordingChannel()
    addons.setChannel(channel as Parameters<typeof addons.setChannel>[0])
    const decorated = withAgent({ protocol: 'vocion', scenario: 'plain', pace: 'instant', clientDefaults: { scheduler: syncScheduler } })
    const Story = () => decorated(PlainChat, { args: {} })
    render(withInspector(Story, { id: 'chat--with-agent' }))
    await act(async () => {
      await sendNow!()
    })
    await act(async () => {
      await Promise.resolve()
    })
    const [turn] = messages.at(-1)!.snapshot.turns
    expect(turn).toMatchObject({ protocol: 'vocion', status: 'done' })
    expect(turn!.frames.length).toBe(fixtures.vocion.plain!.frames.filter((f) => f.data !== undefined).length)
  })

  it('inspects the story’s client under the story’s own provider and sends each turn over the channel', async () => {
    const { channel, messages } = recordingChannel()
    addons.setChannel(channel as Parameters<typeof addons.setChannel>[0])
    const view = render(withInspector(Story, { id: 'chat--live', globals: { theme: 'light' } }))
    expect(messages.at(-1)).toMatchObject({ storyId: 'chat--live', theme: 'light', snapshot: { turns: [] } })
    await act(async () => {
      await sendNow!()
    })
    await act(async () => {
      await Promise.resolve()
    })
    const last = messages.at(-1)!
    expect(last.storyId).toBe('chat--live')
    const [turn] = last.snapshot.turns
    expect(turn).toMatchObject({ protocol: 'vocion', status: 'done', requests: [{ kind: 'request', method: 'POST', url: '/api/agent' }] })
    expect(turn!.frames.map((f) => f.data)).toEqual(fixtures.vocion.plain!.frames.filter((f) => f.data !== undefined).map((f) => (typeof f.data === 'string' ? f.data : JSON.stringify(f.data))))
    // What crosses the channel is plain data.
    expect(JSON.parse(JSON.stringify(last))).toEqual(last)

    // Another story starts from nothing; the one left sends no more.
    const before = messages.length
    view.rerender(withInspector(Story, { id: 'chat--other', globals: {} }))
    expect(messages.slice(before).map((m) => [m.storyId, m.snapshot.turns.length])).toEqual([['chat--other', 0]])
    view.unmount()
    channel.emit(INSPECTOR_REQUEST_EVENT)
    expect(messages.length).toBe(before + 1)
  })
})
