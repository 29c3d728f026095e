import { act, fireEvent, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { SubAgentLane } from '../../src/components/lane'
import { Trace } from '../../src/components/trace'
import { Transcript } from '../../src/components/transcript'
import type { Op } from '../../src/core/model/ops'
import { createAgentStore, type AgentStore } from '../../src/core/store/store'
import { agUiProtocol } from '../../src/protocols/ag-ui/index'
import { langGraphProtocol } from '../../src/protocols/langgraph/index'
import { getFixture } from '../../src/testing/get-fixture'
import { foldStream } from '../../src/umbrella/defaults'
import type { FixtureProtocol } from '../../src/testing/frames'
import { renderWith } from './support'

const protocols = { 'ag-ui': agUiProtocol, langgraph: langGraphProtocol } as const

/** A store fed a fixture's frames through the protocol's decoder, as the client feeds it: `to(n)` folds up to frame n. */
function live(protocol: 'ag-ui' | 'langgraph', name: string) {
  const frames = getFixture(protocol as FixtureProtocol, name).frames.filter((f) => f.data !== undefined)
  const decoder = protocols[protocol].create({ turnId: 'turn-1', scope: 'turn-1' })
  const store = createAgentStore()
  store.getState().dispatch([{ op: 'turn.open', turnId: 'turn-1', role: 'assistant' }])
  let at = 0
  const to = (n: number) => {
    const ops: Op[] = []
    for (; at < Math.min(n, frames.length); at++) {
      const frame = frames[at]!
      ops.push(...decoder.decode(frame.data, { event: frame.event, id: frame.id }))
    }
    if (n >= frames.length) ops.push(...decoder.end('eof'))
    act(() => store.getState().dispatch(ops))
  }
  return { store, to, frames, end: () => to(frames.length) }
}

/** The transcript and the timeline of one store, side by side, as a host shows them. */
function both(store: AgentStore) {
  return renderWith(store, (
    <>
      <Transcript.Root />
      <Trace.Root turnId="turn-1" />
    </>
  ))
}

const transcriptOf = (c: HTMLElement) => c.querySelector<HTMLElement>('[data-weft="transcript"]')!
const traceOf = (c: HTMLElement) => c.querySelector<HTMLElement>('[data-weft="trace"]')!
const lanesIn = (c: HTMLElement) => [...transcriptOf(c).querySelectorAll<HTMLElement>('[data-weft="thread"]')]
const laneRows = (c: HTMLElement) => [...traceOf(c).querySelectorAll<HTMLElement>('[data-weft="trace-node"][data-kind="delegate"]')]
const toggleOf = (el: HTMLElement) => el.querySelector<HTMLButtonElement>(':scope > [data-weft="lane-header"] [data-weft="lane-toggle"]')!
const focusOf = (el: HTMLElement) => el.querySelector<HTMLButtonElement>(':scope > [data-weft="lane-header"] [data-weft="lane-focus-button"]')!
const hideOf = (el: HTMLElement) => el.querySelector<HTMLButtonElement>(':scope > [data-weft="lane-header"] [data-weft="lane-hide"]')!
const view = (els: HTMLElement[]) => els.map((el) => el.getAttribute('data-view'))
const visible = (el: Element | null) => el instanceof HTMLElement && el.offsetParent !== null

describe('sub-agent lanes, AG-UI sub-agents', () => {
  it('opens a running lane, collapses it once it finishes, keeps a failed one open; the timeline follows', () => {
    const run = live('ag-ui', 'subagents')
    const { container } = both(run.store)
    run.to(7) // SUBAGENT_STARTED web-researcher
    expect(view(lanesIn(container))).toEqual(['open'])
    expect(toggleOf(lanesIn(container)[0]!).textContent).toBe('web-researcher · running · 0 messages')
    run.to(13) // both lanes stream
    expect(view(lanesIn(container))).toEqual(['open', 'open'])
    expect(visible(lanesIn(container)[0]!.querySelector('[data-type="text"]'))).toBe(true)
    expect(view(laneRows(container))).toEqual(['open', 'open'])
    run.to(16) // web-researcher finished
    expect(view(lanesIn(container))).toEqual(['collapsed', 'open'])
    expect(toggleOf(lanesIn(container)[0]!).getAttribute('aria-expanded')).toBe('false')
    expect(visible(lanesIn(container)[0]!.querySelector('[data-type="text"]'))).toBe(false)
    expect(view(laneRows(container))).toEqual(['collapsed', 'open'])
    run.end()
    expect(view(lanesIn(container))).toEqual(['collapsed', 'open'])
    expect(toggleOf(lanesIn(container)[1]!).textContent).toBe('docs-reader · failed · 1 message')
    // The timeline's row: its label, then the lane's header (named for the lane), and its tool row folded under it.
    const [webRow] = laneRows(container)
    expect(toggleOf(webRow!).textContent).toBe('done · 1 step')
    expect(toggleOf(webRow!).getAttribute('aria-label')).toBe('web-researcher · done · 1 step')
    expect(visible(webRow!.querySelector('[data-kind="tool"]'))).toBe(false)
  })

  it('collapses and opens one lane in both views at once, from either', () => {
    const run = live('ag-ui', 'subagents')
    const { container } = both(run.store)
    run.end()
    const web = () => lanesIn(container)[0]!
    const row = () => laneRows(container)[0]!
    fireEvent.click(toggleOf(web()))
    expect(web().getAttribute('data-view')).toBe('open')
    expect(toggleOf(web()).getAttribute('aria-expanded')).toBe('true')
    expect(visible(web().querySelector('[data-weft="tool"]'))).toBe(true)
    expect(row().getAttribute('data-view')).toBe('open')
    expect(visible(row().querySelector('[data-kind="tool"]'))).toBe(true)
    fireEvent.click(toggleOf(row()))
    expect(view([web(), row()])).toEqual(['collapsed', 'collapsed'])
    const body = web().querySelector('[data-weft="thread-body"]')!
    expect(toggleOf(web()).getAttribute('aria-controls')).toBe(body.id)
    expect(visible(body)).toBe(false)
  })

  it('hides a lane in both views, and shows it again with the keyboard on it', async () => {
    const run = live('ag-ui', 'subagents')
    const { container } = both(run.store)
    run.end()
    hideOf(lanesIn(container)[1]!).focus()
    fireEvent.click(hideOf(lanesIn(container)[1]!))
    expect(view(lanesIn(container))).toEqual(['collapsed', 'hidden'])
    expect(visible(lanesIn(container)[1]!)).toBe(false)
    expect(visible(laneRows(container)[1]!)).toBe(false)
    const restores = [...container.querySelectorAll<HTMLButtonElement>('[data-weft="lane-restore"]')]
    expect(restores.map((b) => b.textContent)).toEqual(['Show 1 hidden lane', 'Show 1 hidden lane'])
    // The keyboard does not fall to the page: it goes to the way back.
    await waitFor(() => expect(document.activeElement).toBe(restores[0]))
    fireEvent.click(restores[1]!)
    expect(view(lanesIn(container))).toEqual(['collapsed', 'open'])
    expect(container.querySelector('[data-weft="lane-restore"]')).toBeNull()
    await waitFor(() => expect(document.activeElement).toBe(focusOf(lanesIn(container)[1]!)))
  })

  it('focuses one lane: only its work in the transcript and the timeline, and a clear way back', async () => {
    const run = live('ag-ui', 'subagents')
    const { container } = both(run.store)
    run.end()
    fireEvent.click(focusOf(laneRows(container)[0]!))
    const content = transcriptOf(container).querySelector('[data-weft="turn-content"]')!
    expect(content.getAttribute('data-state')).toBe('focused')
    expect(lanesIn(container).map((l) => l.getAttribute('aria-label'))).toEqual(['web-researcher'])
    expect(view(lanesIn(container))).toEqual(['focused'])
    expect(visible(lanesIn(container)[0]!.querySelector('[data-weft="tool"]'))).toBe(true)
    expect(content.textContent).not.toContain('weft 1.0 is out; the handbook could not be read.')
    expect(traceOf(container).getAttribute('data-state')).toBe('focused')
    expect(view(laneRows(container))).toEqual(['focused'])
    expect([...traceOf(container).querySelectorAll('[data-weft="trace-label"]')].map((l) => l.textContent)).toEqual(['web-researcher', 'web.search'])
    const bar = container.querySelector('[data-weft="lane-focus"]')!
    expect(bar.textContent).toContain('Showing only web-researcher')
    const back = bar.querySelector<HTMLButtonElement>('[data-weft="lane-unfocus"]')!
    await waitFor(() => expect(document.activeElement).toBe(back))
    const pressed = focusOf(lanesIn(container)[0]!)
    expect(pressed.getAttribute('aria-pressed')).toBe('true')
    expect(pressed.getAttribute('aria-label')).toBe('Show all')
    fireEvent.click(back)
    expect(content.getAttribute('data-state')).toBeNull()
    expect(view(lanesIn(container))).toEqual(['open', 'open'])
    expect(content.textContent).toContain('weft 1.0 is out; the handbook could not be read.')
    expect(laneRows(container)).toHaveLength(2)
    await waitFor(() => expect(document.activeElement).toBe(focusOf(lanesIn(container)[0]!)))
  })

  it('names each control for its lane, and hands its parts to the host (asChild, props, ref)', () => {
    const run = live('ag-ui', 'subagents')
    run.end()
    const ref = { current: null as HTMLElement | null }
    const { container } = renderWith(run.store, (
      <SubAgentLane.Header threadId="sub_web" className="mine" data-testid="h" asChild>
        <section ref={(node) => { ref.current = node }} />
      </SubAgentLane.Header>
    ))
    const header = container.querySelector('section')!
    expect(ref.current).toBe(header)
    expect(header.className).toBe('mine')
    expect(header.getAttribute('data-weft')).toBe('lane-header')
    expect(header.getAttribute('data-state')).toBe('collapsed')
    expect([...header.querySelectorAll('button')].map((b) => b.getAttribute('aria-label') ?? b.textContent)).toEqual([
      'web-researcher · done', 'Focus web-researcher', 'Hide web-researcher',
    ])
  })
})

describe('sub-agent lanes, LangGraph parallel subgraphs', () => {
  it('pairs each of two lanes of one name with its own row, while they run and after', () => {
    const run = live('langgraph', 'research')
    const { container } = both(run.store)
    const started = run.frames.findIndex((f) => f.event?.startsWith('messages|research:b75d'))
    run.to(started + 1)
    expect(view(lanesIn(container))).toEqual(['open', 'open'])
    expect(view(laneRows(container))).toEqual(['open', 'open'])
    run.end()
    expect(view(lanesIn(container))).toEqual(['collapsed', 'collapsed'])
    // The second lane, collapsed from the transcript: only the second row follows.
    fireEvent.click(toggleOf(lanesIn(container)[1]!))
    expect(view(laneRows(container))).toEqual(['collapsed', 'open'])
    expect(lanesIn(container)[1]!.textContent).toContain('Notes on beta: it checks out.')
    fireEvent.click(focusOf(laneRows(container)[0]!))
    expect(lanesIn(container)).toHaveLength(1)
    expect(lanesIn(container)[0]!.textContent).toContain('Notes on alpha: it checks out.')
    expect([...traceOf(container).querySelectorAll('[data-weft="trace-label"]')].map((l) => l.textContent)).toEqual(['research', 'search', 'write'])
    fireEvent.click(hideOf(lanesIn(container)[0]!))
    // Hiding the focused lane ends the focus: the rest of the answer is back.
    expect(transcriptOf(container).querySelector('[data-weft="turn-content"]')!.getAttribute('data-state')).toBeNull()
    expect(view(lanesIn(container))).toEqual(['hidden', 'open'])
    expect(transcriptOf(container).textContent).toContain('Summary: Notes on alpha')
  })
})

describe('sub-agent lanes, Vocion specialists', () => {
  it('pairs a specialist\'s row with its lane (the row is named for the lane\'s end, the lane for the specialist)', () => {
    const state = foldStream([
      { type: 'subagent_start', name: 'Pipeline Analyst' },
      { type: 'subagent_end', name: 'Pipeline Analyst' },
    ], { protocol: 'vocion' })
    const { container } = renderWith(createAgentStore({ initialState: state }), (
      <>
        <SubAgentLane.Header threadId="turn-1/subagent-1" />
        <Trace.Root turnId="turn-1" />
      </>
    ))
    const header = container.querySelector('[data-weft="lane-header"]')!
    expect(traceOf(container).querySelector('[data-weft="trace-label"]')!.textContent).toBe('Pipeline Analyst finished')
    expect([header.getAttribute('data-state'), ...view(laneRows(container))]).toEqual(['collapsed', 'collapsed'])
    fireEvent.click(toggleOf(laneRows(container)[0]!))
    expect([header.getAttribute('data-state'), ...view(laneRows(container))]).toEqual(['open', 'open'])
  })
})
