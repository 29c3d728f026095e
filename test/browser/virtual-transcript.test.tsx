import '../../src/components/styles.css'
import { act, fireEvent, screen, waitFor } from '@testing-library/react'
import axe from 'axe-core'
import { useRef } from 'react'
import { describe, expect, it } from 'vitest'
import { Chat } from '../../src/components/chat'
import { MarkdownSettingsProvider } from '../../src/components/markdown/markdown'
import { MarkdownMessage } from '../../src/components/messages/text'
import { RendererProvider, type MessageRendererProps } from '../../src/components/renderers'
import type { Op } from '../../src/core/model/ops'
import { renderWith, scrollUp, storeWith } from './support'

/** `count` finished turns, user and assistant in turn, the answers two paragraphs long. */
const conversation = (count: number): Op[] =>
  Array.from({ length: count }, (_, i): Op[] => {
    const role = i % 2 === 0 ? 'user' : 'assistant'
    const content = role === 'user' ? `Question ${i}` : `Answer ${i} with **bold** text.\n\nAnd a second paragraph for turn ${i}.`
    return [
      { op: 'turn.open', turnId: `t${i}`, role },
      { op: 'message.put', turnId: `t${i}`, messageId: `m${i}`, type: 'text', status: 'done', props: { content } },
      { op: 'turn.finish', turnId: `t${i}`, status: 'done' },
    ]
  }).flat()

const frames = (count = 2) => new Promise<void>((resolve) => {
  const step = (left: number) => (left === 0 ? resolve() : requestAnimationFrame(() => step(left - 1)))
  step(count)
})

/**
 * Scrolls to the top until the first question is drawn, as a reader keeps scrolling: the list's
 * estimated heights give way to measured ones as rows are drawn, which can move the top on a busy machine.
 */
async function scrolledToFirst(viewport: HTMLElement): Promise<void> {
  await waitFor(() => {
    scrollUp(viewport)
    expect(screen.getByText('Question 0')).toBeTruthy()
  }, { timeout: 10_000 })
}

function mount(ops: readonly Op[]) {
  const store = storeWith(ops)
  const view = renderWith(store, <div style={{ height: 600, width: 800 }}><MarkdownSettingsProvider highlight={false}><Chat /></MarkdownSettingsProvider></div>)
  const viewport = view.container.querySelector<HTMLElement>('[data-weft="chat-viewport"]')!
  const gap = () => viewport.scrollHeight - viewport.scrollTop - viewport.clientHeight
  return { store, viewport, gap, ...view }
}

describe('a virtualized transcript of 1,000 turns', () => {
  it('keeps only a window of turns in the DOM, opens at the latest turn, and shows the first when scrolled to the top', async () => {
    const { container, viewport, gap } = mount(conversation(1000))
    await screen.findByText('Question 998', undefined, { timeout: 5000 })
    await waitFor(() => expect(gap()).toBeLessThan(2), { timeout: 5000 })
    expect(container.querySelector('[data-weft="transcript"]')!.getAttribute('data-state')).toBe('virtual')
    const rows = container.querySelectorAll('[data-weft="turn"]').length
    expect(rows).toBeGreaterThan(3)
    expect(rows).toBeLessThan(60)
    expect(screen.queryByText('Question 0')).toBeNull()

    await scrolledToFirst(viewport)
    // Items above are measured as they mount, so the top may settle over a few frames.
    await waitFor(() => expect(viewport.scrollTop).toBe(0), { timeout: 5000 })
    expect(container.querySelectorAll('[data-weft="turn"]').length).toBeLessThan(60)
    expect(screen.queryByText('Question 998')).toBeNull()
    expect(screen.getByRole('button', { name: /Jump to latest/ })).toBeTruthy()
  })

  it('stays stuck to the bottom while an answer streams after them, and Jump to latest comes back from the top', async () => {
    const { store, viewport, gap } = mount([...conversation(1000), { op: 'turn.open', turnId: 'live', role: 'assistant' }])
    await screen.findByText('Question 998', undefined, { timeout: 5000 })
    await waitFor(() => expect(gap()).toBeLessThan(2), { timeout: 5000 })
    for (let i = 0; i < 12; i++) {
      act(() => store.getState().dispatch([
        { op: 'message.delta', turnId: 'live', messageId: 'live/m', type: 'text', action: 'append', path: 'content', value: `Streaming paragraph ${i} of the live answer, long enough to wrap.\n\n` },
      ]))
      await frames()
      await waitFor(() => expect(gap()).toBeLessThan(2), { timeout: 5000 })
    }
    await screen.findByText(/Streaming paragraph 11/)
    expect(screen.queryByRole('button', { name: /Jump to latest/ })).toBeNull()

    await scrolledToFirst(viewport)
    fireEvent.click(await screen.findByRole('button', { name: /Jump to latest/ }))
    await screen.findByText(/Streaming paragraph 11/)
    await waitFor(() => expect(gap()).toBeLessThan(2), { timeout: 5000 })
  })

  it('draws the last turn after the virtual list, where the list does not measure it while it streams; it stays there when it finishes and joins the list when a turn follows', async () => {
    const { store, container, gap } = mount([...conversation(1000), { op: 'turn.open', turnId: 'live', role: 'assistant' }])
    await screen.findByText('Question 998', undefined, { timeout: 5000 })
    const liveTurn = () => screen.getByText(/Streaming paragraph 3/).closest('[data-weft="turn"]')!
    for (let i = 0; i < 4; i++) {
      act(() => store.getState().dispatch([
        { op: 'message.delta', turnId: 'live', messageId: 'live/m', type: 'text', action: 'append', path: 'content', value: `Streaming paragraph ${i} of the live answer.\n\n` },
      ]))
      await frames()
    }
    await screen.findByText(/Streaming paragraph 3/)
    expect(liveTurn().closest('[data-weft="virtual-turn"]')).toBeNull()
    // It is the transcript's last child, after every row the list holds.
    expect(container.querySelector('[data-weft="transcript"]')!.lastElementChild).toBe(liveTurn())
    await waitFor(() => expect(gap()).toBeLessThan(2), { timeout: 5000 })

    // Finishing moves nothing: the very same element stays last, out of the list.
    const drawn = liveTurn()
    act(() => store.getState().dispatch([{ op: 'turn.finish', turnId: 'live', status: 'done' }]))
    await frames()
    expect(liveTurn()).toBe(drawn)
    expect(drawn.getAttribute('data-state')).toBe('done')
    expect(container.querySelector('[data-weft="transcript"]')!.lastElementChild).toBe(drawn)
    expect(gap()).toBeLessThan(2)

    // The next turn takes the last place, and the finished one joins the list.
    act(() => store.getState().dispatch([
      { op: 'turn.open', turnId: 'next', role: 'user' },
      { op: 'message.put', turnId: 'next', messageId: 'next/m', type: 'text', role: 'user', status: 'done', props: { content: 'One more question' } },
    ]))
    await waitFor(() => expect(liveTurn().closest('[data-weft="virtual-turn"]')).not.toBeNull(), { timeout: 5000 })
    expect(screen.getAllByText(/Streaming paragraph 3/)).toHaveLength(1)
    expect(container.querySelector('[data-weft="transcript"]')!.lastElementChild).toBe(screen.getByText('One more question').closest('[data-weft="turn"]'))
    await waitFor(() => expect(gap()).toBeLessThan(2), { timeout: 5000 })
  })

  it('keeps each message behind its own error boundary, and axe finds nothing', async () => {
    const ops = conversation(100)
    // A message whose content is not text: its renderer must fail alone, not the list.
    ops.push(
      { op: 'turn.open', turnId: 'bad', role: 'assistant' },
      { op: 'message.put', turnId: 'bad', messageId: 'bad/m', type: 'recommended-action', status: 'done', props: { rationale: { nested: { deep: true } }, confidence: 'x' } },
      { op: 'turn.finish', turnId: 'bad', status: 'done' },
    )
    const { container, gap } = mount(ops)
    await screen.findByText('Answer 99 with')
    await waitFor(() => expect(gap()).toBeLessThan(2), { timeout: 5000 })
    expect(container.querySelector('[data-weft="transcript"]')!.getAttribute('data-state')).toBe('virtual')
    const results = await axe.run(container, { rules: { region: { enabled: false } } })
    expect(results.violations.map((v) => v.id)).toEqual([])
  })
})

describe('finished turns are not drawn again', () => {
  it('a new question and the start of its answer draw none of the finished messages again, virtualized or not', async () => {
    for (const count of [1000, 10]) {
      let renders = 0
      // Re-renders only: a row the virtual list mounts as the view moves is drawn for the first time.
      const Counting = (props: MessageRendererProps) => {
        const drawn = useRef(false)
        if (drawn.current && props.message.id !== 'live/m' && props.message.id !== 'q/m') renders += 1
        drawn.current = true
        return <MarkdownMessage {...props} />
      }
      const store = storeWith(conversation(count))
      const view = renderWith(store, (
        <div style={{ height: 600, width: 800 }}>
          <MarkdownSettingsProvider highlight={false}>
            <RendererProvider renderers={{ text: Counting }}><Chat /></RendererProvider>
          </MarkdownSettingsProvider>
        </div>
      ))
      await screen.findByText(`Question ${count - 2}`, undefined, { timeout: 5000 })
      await frames(10)
      renders = 0
      act(() => store.getState().dispatch([
        { op: 'turn.open', turnId: 'q', role: 'user' },
        { op: 'message.put', turnId: 'q', messageId: 'q/m', role: 'user', type: 'text', status: 'done', props: { content: 'One more?' } },
        { op: 'turn.finish', turnId: 'q', status: 'done' },
      ]))
      await frames(3)
      act(() => store.getState().dispatch([
        { op: 'turn.open', turnId: 'live', role: 'assistant' },
        { op: 'message.delta', turnId: 'live', messageId: 'live/m', type: 'text', action: 'append', path: 'content', value: 'Sure, ' },
      ]))
      await frames(3)
      act(() => store.getState().dispatch([
        { op: 'message.delta', turnId: 'live', messageId: 'live/m', type: 'text', action: 'append', path: 'content', value: 'here it is.' },
      ]))
      await frames(3)
      expect(screen.getByText(/Sure, here it is/)).toBeTruthy()
      expect([count, renders]).toEqual([count, 0])
      view.unmount()
    }
  })
})
