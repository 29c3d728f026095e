import '../../src/components/styles.css'
import { act, fireEvent, screen, waitFor } from '@testing-library/react'
import axe from 'axe-core'
import { describe, expect, it, vi } from 'vitest'
import { WeftCallbacksProvider } from '../../src/components/callbacks'
import { Chat } from '../../src/components/chat'
import { MarkdownSettingsProvider } from '../../src/components/markdown/markdown'
import { markdownToText } from '../../src/components/markdown/plain'
import { MessageActions } from '../../src/components/message-actions'
import { Transcript } from '../../src/components/transcript'
import type { Op } from '../../src/core/model/ops'
import { renderWith, scrollUp, storeWith, textTurn } from './support'

const turns = (count: number): Op[] =>
  Array.from({ length: count }, (_, i): Op[] => [
    { op: 'turn.open', turnId: `t${i}`, role: 'assistant' },
    { op: 'message.put', turnId: `t${i}`, messageId: `m${i}`, type: 'text', status: 'done', props: { content: `Answer ${i}\n\nwith a second paragraph.` } },
    { op: 'turn.finish', turnId: `t${i}`, status: 'done' },
  ]).flat()

describe('Chat: sticks to the bottom', () => {
  it('follows a streaming answer, lets go when the person scrolls up, and Jump to latest comes back', async () => {
    const store = storeWith([...turns(30), { op: 'turn.open', turnId: 'live', role: 'assistant' }])
    const { container } = renderWith(store, <div style={{ height: 300 }}><Chat /></div>)
    const viewport = container.querySelector<HTMLElement>('[data-weft="chat-viewport"]')!
    const gap = () => viewport.scrollHeight - viewport.scrollTop - viewport.clientHeight
    await waitFor(() => expect(gap()).toBeLessThan(2))
    const grow = (text: string) => act(() => store.getState().dispatch([
      { op: 'message.delta', turnId: 'live', messageId: 'live/m', type: 'text', action: 'append', path: 'content', value: text },
    ]))
    grow('A long line that streams in.\n\n'.repeat(10))
    await waitFor(() => expect(gap()).toBeLessThan(2))
    expect(screen.queryByRole('button', { name: /Jump to latest/ })).toBeNull()

    scrollUp(viewport)
    await waitFor(() => expect(screen.getByRole('button', { name: /Jump to latest/ })).toBeTruthy())
    grow('More text while the person reads above.\n\n'.repeat(10))
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))
    expect(viewport.scrollTop).toBe(0)

    fireEvent.click(screen.getByRole('button', { name: /Jump to latest/ }))
    await waitFor(() => expect(gap()).toBeLessThan(2))
    expect(screen.queryByRole('button', { name: /Jump to latest/ })).toBeNull()
  })
})

describe('Chat: lets go on small steps', () => {
  it('a trackpad or smooth wheel scroll, a few pixels per frame, lets go of the end and is not pulled back', async () => {
    const store = storeWith(turns(30))
    const { container } = renderWith(store, <div style={{ height: 300 }}><Chat /></div>)
    const viewport = container.querySelector<HTMLElement>('[data-weft="chat-viewport"]')!
    const gap = () => viewport.scrollHeight - viewport.scrollTop - viewport.clientHeight
    await waitFor(() => expect(gap()).toBeLessThan(2))
    const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve(undefined)))
    // One wheel event, then the gesture's scroll events alone, 8 px a frame: each within 48 px of the end.
    fireEvent.wheel(viewport, { deltaY: -8 })
    for (let i = 0; i < 12; i++) {
      viewport.scrollTop -= 8
      await frame()
    }
    await frame()
    expect(gap()).toBeGreaterThan(90)
    await waitFor(() => expect(screen.getByRole('button', { name: /Jump to latest/ })).toBeTruthy())
    // Scrolling back down to the end sticks again.
    viewport.scrollTop = viewport.scrollHeight
    await waitFor(() => expect(screen.queryByRole('button', { name: /Jump to latest/ })).toBeNull())
  })
})

describe('MessageActions', () => {
  it('copies as text and as markdown, reports thumbs, and hides regenerate and edit without handlers', async () => {
    const writes: string[] = []
    vi.spyOn(navigator.clipboard, 'writeText').mockImplementation(async (text: string) => { writes.push(text) })
    const onFeedback = vi.fn()
    renderWith(storeWith(textTurn('## Title\n\n**Bold** and `code`')), (
      <WeftCallbacksProvider onFeedback={onFeedback}><MessageActions turnId="t1" /></WeftCallbacksProvider>
    ))
    expect(screen.getByRole('toolbar', { name: 'Message actions' })).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Regenerate' })).toBeNull()
    expect(screen.queryByRole('button', { name: 'Edit' })).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: 'Copy' }))
    fireEvent.click(screen.getByRole('button', { name: 'Copy as Markdown' }))
    await waitFor(() => expect(writes).toEqual(['Title\n\nBold and code', '## Title\n\n**Bold** and `code`']))
    const up = screen.getByRole('button', { name: 'Good answer' })
    // Drawn, not a glyph a system font may lack: the icon is an SVG and the button has no text.
    expect(up.querySelector('svg')).not.toBeNull()
    expect(up.textContent).toBe('')
    fireEvent.click(up)
    expect(up.getAttribute('aria-pressed')).toBe('true')
    fireEvent.click(up)
    expect(onFeedback.mock.calls).toEqual([['t1', 'up'], ['t1', undefined]])
  })

  it('shows regenerate and edit when the host handles them, and nothing while the answer streams', () => {
    const onRegenerate = vi.fn()
    const onEdit = vi.fn()
    const { unmount } = renderWith(storeWith(textTurn('Hi', 'streaming')), <WeftCallbacksProvider onRegenerate={onRegenerate} onEdit={onEdit}><MessageActions turnId="t1" /></WeftCallbacksProvider>)
    expect(screen.queryByRole('toolbar')).toBeNull()
    unmount()
    renderWith(storeWith(textTurn('Hi')), <WeftCallbacksProvider onRegenerate={onRegenerate} onEdit={onEdit}><MessageActions turnId="t1" /></WeftCallbacksProvider>)
    fireEvent.click(screen.getByRole('button', { name: 'Regenerate' }))
    fireEvent.click(screen.getByRole('button', { name: 'Edit' }))
    expect(onRegenerate).toHaveBeenCalledWith('t1')
    expect(onEdit).toHaveBeenCalledWith('t1')
  })

  it('reads markdown as plain text for copying', () => {
    expect(markdownToText('- a\n- **b**\n\n| x | y |\n|---|---|\n| 1 | 2 |\n\n```js\nlet a\n```')).toBe('• a\n• b\n\nx\ty\n1\t2\n\nlet a')
  })
})

describe('accessibility of a streaming answer', () => {
  it('keeps the streaming text in the accessibility tree, busy, with its links and code reachable, and axe finds nothing', async () => {
    const store = storeWith([
      { op: 'turn.open', turnId: 't1', role: 'assistant' },
      { op: 'source.add', turnId: 't1', source: { id: 's1', kind: 'url', url: 'https://a.example', title: 'A', citationIndex: 1 } },
      { op: 'message.delta', turnId: 't1', messageId: 'm1', type: 'text', action: 'append', path: 'content', value: 'See [docs](https://a.example) [1]\n\n```ts\nconst a = 1\n```\n\nmore' },
    ])
    const { container } = renderWith(store, <MarkdownSettingsProvider highlight={false}><Transcript.Root /></MarkdownSettingsProvider>)
    // Nothing is hidden with focusable content inside: the answer is busy, not hidden, so a live region waits for its end.
    expect(container.querySelector('[aria-hidden="true"] a, [aria-hidden="true"] pre')).toBeNull()
    const busy = container.querySelector('[data-weft="text"][aria-busy="true"]')!
    expect(busy.querySelectorAll('a, pre').length).toBeGreaterThan(1)
    for (const el of busy.querySelectorAll<HTMLElement>('a')) expect([el.tagName, el.tabIndex]).toEqual([el.tagName, 0])
    const results = await axe.run(container, { rules: { region: { enabled: false } } })
    expect(results.violations.map((v) => v.id)).toEqual([])
  })
})
