/**
 * The inspector panel in Chromium: a live turn from the mock agent server shows
 * its request, frames (each opening to its raw data and ops), problems marked on
 * their frame, timings; "Save recording" hands over a fixture that replays
 * through `renderWithAgent` to the same turn; raw data stays text; the turn
 * picker works by keyboard; the Storybook panel draws a snapshot from the
 * preview's channel; axe finds nothing in either theme.
 */
import '../../src/components/styles.css'
import axe from 'axe-core'
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { userEvent } from 'vitest/browser'
import { Chat, Composer } from '../../src/components'
import { useAgentStream } from '../../src/react'
import { AgentProvider } from '../../src/umbrella/providers'
import { createInspector, Inspector, type AgentInspector } from '../../src/inspector'
import { InspectorAddonView } from '../../src/inspector/storybook/panel-view'
import { renderWithAgent, type AgentFixture } from '../../src/testing'
import { createAgentStore, type AgentStore } from '../../src/core/store/store'
import { inspectedSnapshot } from './visual/scenes-inspector'
import { content } from '../testing/support'

afterEach(() => cleanup())

function Live({ inspector, url, onSave, store }: { inspector: AgentInspector; url: string; onSave?: (fixture: AgentFixture) => void; store?: AgentStore }) {
  return (
    <AgentProvider {...(store ? { store } : {})}>
      <LiveChat inspector={inspector} url={url} />
      <Inspector inspector={inspector} download={false} {...(onSave ? { onSaveRecording: onSave } : {})} />
    </AgentProvider>
  )
}

function LiveChat({ inspector, url }: { inspector: AgentInspector; url: string }) {
  const { send, stop } = useAgentStream({ url, protocol: 'ui-message', inspector })
  return <div style={{ height: 300, display: 'flex', flexDirection: 'column' }}><Chat footer={<Composer send={send} stop={stop} />} /></div>
}

function Replayed() {
  const { send, stop } = useAgentStream({ url: '/replay' })
  return <Chat footer={<Composer send={send} stop={stop} />} />
}

async function sendText(text: string) {
  await userEvent.type(screen.getByRole('textbox'), text)
  await userEvent.click(screen.getByRole('button', { name: 'Send' }))
}

async function axeViolations(root: Element): Promise<string[]> {
  const results = await axe.run(root, { resultTypes: ['violations'], rules: { region: { enabled: false } } })
  return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`)
}

describe('Inspector', () => {
  it('shows a live turn’s request, frames with their ops and timings; its saved recording replays to the same turn', async () => {
    const inspector = createInspector()
    const saved: AgentFixture[] = []
    const store = createAgentStore()
    render(<Live inspector={inspector} store={store} url="/mock/stream/ui-message/tools?delay=5" onSave={(f) => saved.push(f)} />)
    await sendText('What is in the knowledge base?')
    const panel = screen.getByRole('region', { name: 'Agent inspector' })
    await waitFor(() => expect(panel.querySelector('[data-weft="wire-turn"]')?.getAttribute('data-status')).toBe('done'), { timeout: 15_000 })
    const liveTurnId = inspector.getSnapshot().turns.at(-1)!.turnId
    // Every frame of the stream, the [DONE] included, once it is in.
    await waitFor(() => expect(inspector.getSnapshot().turns.at(-1)!.frames.at(-1)!.data).toBe('[DONE]'))

    const request = within(panel).getByRole('region', { name: 'Request' })
    expect(request.textContent).toContain('POST /mock/stream/ui-message/tools?delay=5')
    expect(request.textContent).toContain('submit')
    expect(within(request).getByRole('table', { name: 'Headers' }).textContent).toContain('content-type')
    expect(JSON.parse(within(request).getByLabelText('Request body').textContent!)).toMatchObject({ messages: expect.any(Array) })

    const frames = within(panel).getByRole('region', { name: /^Frames/ })
    const rows = frames.querySelectorAll('[data-weft="wire-frame"]')
    expect(rows.length).toBe(inspector.getSnapshot().turns.at(-1)!.frames.length)
    // A frame opens by keyboard to its raw data and its ops.
    const summary = rows[0]!.querySelector('summary')!
    summary.focus()
    await userEvent.keyboard('{Enter}')
    expect(rows[0]!.querySelector('details')!.open).toBe(true)
    expect(within(rows[0] as HTMLElement).getByLabelText('Frame 1 data').textContent).toContain('"type": "start"')
    expect(within(rows[0] as HTMLElement).getByLabelText('Frame 1 ops').textContent).toMatch(/"op":"/)

    const timings = within(panel).getByRole('region', { name: 'Timings' })
    expect(within(timings).getAllByRole('row')).toHaveLength(2)
    expect(timings.textContent).toMatch(/\d+ ms|\d+\.\d\d s/)

    await userEvent.click(within(panel).getByRole('button', { name: 'Save recording' }))
    expect(saved).toHaveLength(1)
    expect(within(panel).getByRole('status').textContent).toContain(`${saved[0]!.frames.length} frames`)
    const live = content(store.getState(), liveTurnId)
    cleanup()

    // The recording, as a host checks it in, replays through weft/testing to the same turn.
    const fixture = JSON.parse(JSON.stringify(saved[0])) as AgentFixture
    const replay = renderWithAgent(<Replayed />, { stream: fixture, protocol: fixture.protocol })
    await sendText('What is in the knowledge base?')
    const state = await replay.finished()
    expect(content(state)).toEqual(live)
  })

  it('marks a frame that became a problem, lists the problem, and shows raw data as text, never as markup', async () => {
    const inspector = createInspector()
    render(<Live inspector={inspector} url="/mock/stream/ui-message/error-mid-stream?delay=5" />)
    await sendText('Go')
    const panel = screen.getByRole('region', { name: 'Agent inspector' })
    await waitFor(() => expect(panel.querySelector('[data-weft="wire-problems"]')?.getAttribute('data-count')).not.toBe('0'), { timeout: 15_000 })
    expect(panel.querySelectorAll('[data-weft="wire-frame"][data-problem]').length).toBeGreaterThan(0)
    const marked = panel.querySelector('[data-weft="wire-frame"][data-problem]')!
    expect(getComputedStyle(marked).borderInlineStartWidth).toBe('3px')

    // A frame whose data looks like markup is drawn as its characters.
    render(<Inspector snapshot={{ ...inspectedSnapshot, turns: [{ ...inspectedSnapshot.turns[0]!, frames: [{ ...inspectedSnapshot.turns[0]!.frames[0]!, data: '<img src=x onerror="window.__pwned=1">' }] }] }} />)
    const hostile = screen.getAllByRole('region', { name: 'Agent inspector' }).at(-1)!
    expect(hostile.querySelector('img')).toBeNull()
    expect(hostile.textContent).toContain('<img src=x onerror=')
    expect((window as { __pwned?: number }).__pwned).toBeUndefined()
  })

  it('picks a turn by keyboard (the latest by default) and counts frames past the limit', async () => {
    const inspector = createInspector({ maxFramesPerTurn: 4 })
    render(<Live inspector={inspector} url="/mock/stream/ui-message/plain?delay=2" />)
    await sendText('One')
    await waitFor(() => expect(inspector.getSnapshot().turns.at(-1)?.status).toBe('done'), { timeout: 15_000 })
    await sendText('Two')
    await waitFor(() => expect(inspector.getSnapshot().turns).toHaveLength(2))
    await waitFor(() => expect(inspector.getSnapshot().turns.at(-1)?.status).toBe('done'), { timeout: 15_000 })
    const [first, second] = inspector.getSnapshot().turns
    const panel = screen.getByRole('region', { name: 'Agent inspector' })
    expect(panel.querySelector('[data-weft="wire-turn"]')!.getAttribute('data-turn-id')).toBe(second!.turnId)
    const picker = within(panel).getByRole('combobox', { name: 'Turn' })
    picker.focus()
    await userEvent.selectOptions(picker, first!.turnId)
    expect(panel.querySelector('[data-weft="wire-turn"]')!.getAttribute('data-turn-id')).toBe(first!.turnId)
    await waitFor(() => expect(within(panel).getByRole('note').textContent).toMatch(/^\d+ later frames were not kept \(the first 4 are shown\)$/))
    expect(panel.querySelectorAll('[data-weft="wire-frame"]')).toHaveLength(4)
  })

  it.each(['light', 'dark'] as const)('axe finds no violation in the %s theme, with a frame open', async (theme) => {
    render(<div data-theme={theme} style={{ background: 'var(--weft-bg)' }}><Inspector snapshot={inspectedSnapshot} download={false} /></div>)
    const panel = screen.getByRole('region', { name: 'Agent inspector' })
    await act(async () => {
      panel.querySelectorAll('details').forEach((details) => (details.open = true))
    })
    expect(await axeViolations(panel.parentElement!)).toEqual([])
  })
})

describe('the Storybook panel', () => {
  it('draws the snapshot the preview sent, in the story’s theme, and nothing of a story before it', async () => {
    const { rerender } = render(<InspectorAddonView message={undefined} />)
    expect(screen.getByText(/No turn yet/)).toBeTruthy()
    rerender(<InspectorAddonView message={{ storyId: 'devtools-inspector--live-turn', theme: 'dark', snapshot: inspectedSnapshot }} />)
    const view = document.querySelector('[data-story-id="devtools-inspector--live-turn"]')!
    expect(view.getAttribute('data-theme')).toBe('dark')
    expect(within(view as HTMLElement).getAllByRole('listitem').filter((li) => li.hasAttribute('data-problem'))).toHaveLength(1)
    expect(getComputedStyle(view).backgroundColor).toBe('rgb(13, 17, 23)')
    expect(await axeViolations(view)).toEqual([])
  })
})
