/**
 * `Chat` after a scroll made by the page's own code (`element.scrollTop = …`, no
 * wheel, touch, key or pointer input), then growth of the answer. As documented:
 * a scroll without the person's input never lets go of the end, so growth is still
 * followed; a scroll that brings the log back to the end (within 48 px of it)
 * sticks again, so growth is followed from then on; and while the person has let
 * go, a code scroll that stays away from the end keeps it let go, so growth is not
 * followed.
 */
import '../../src/components/styles.css'
import { act, fireEvent, screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { Chat } from '../../src/components/chat'
import type { Op } from '../../src/core/model/ops'
import { renderWith, scrollUp, storeWith } from './support'

const turns = (count: number): Op[] =>
  Array.from({ length: count }, (_, i): Op[] => [
    { op: 'turn.open', turnId: `t${i}`, role: 'assistant' },
    { op: 'message.put', turnId: `t${i}`, messageId: `m${i}`, type: 'text', status: 'done', props: { content: `Answer ${i}\n\nwith a second paragraph.` } },
    { op: 'turn.finish', turnId: `t${i}`, status: 'done' },
  ]).flat()

const frames = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => requestAnimationFrame(resolve))
}

/** A chat of 30 answers and one streaming, scrolled to its end. */
async function chat() {
  const store = storeWith([...turns(30), { op: 'turn.open', turnId: 'live', role: 'assistant' }])
  const { container } = renderWith(store, <div style={{ height: 300 }}><Chat /></div>)
  const root = container.querySelector<HTMLElement>('[data-weft="chat"]')!
  const viewport = container.querySelector<HTMLElement>('[data-weft="chat-viewport"]')!
  const gap = () => viewport.scrollHeight - viewport.scrollTop - viewport.clientHeight
  await waitFor(() => expect(gap()).toBeLessThan(2))
  await frames(2)
  const grow = async (text = 'A line of the answer that keeps streaming in.\n\n'.repeat(8)) => {
    act(() => store.getState().dispatch([
      { op: 'message.delta', turnId: 'live', messageId: 'live/m', type: 'text', action: 'append', path: 'content', value: text },
    ]))
    await frames(3)
  }
  /** A scroll by the page's code: no input event, and the browser's own scroll event a frame later. */
  const codeScroll = async (top: number) => {
    viewport.scrollTop = top
    await frames(3)
  }
  const jump = () => screen.queryByRole('button', { name: /Jump to latest/ })
  const expectFollowing = async () => {
    await waitFor(() => expect(gap()).toBeLessThan(2))
    await frames(2)
    expect(gap()).toBeLessThan(2)
    expect(root.getAttribute('data-state')).toBe('at-end')
    expect(jump()).toBeNull()
  }
  return { viewport, root, gap, grow, codeScroll, jump, expectFollowing }
}

describe('Chat: a scroll by the page\'s own code, then growth', () => {
  it('code that scrolls away from the end does not let go: the next growth is followed to the end', async () => {
    const c = await chat()
    await c.codeScroll(0)
    await c.grow()
    await c.expectFollowing()
    expect(c.viewport.scrollTop).toBeGreaterThan(0)
  })

  it('code that scrolls up a little, within 48 px of the end, does not let go either', async () => {
    const c = await chat()
    await c.codeScroll(c.viewport.scrollTop - 30)
    await c.grow()
    await c.expectFollowing()
  })

  it('after the person let go, code that scrolls to the end sticks again: growth is followed', async () => {
    const c = await chat()
    scrollUp(c.viewport)
    await waitFor(() => expect(c.jump()).not.toBeNull())
    await c.grow()
    expect(c.viewport.scrollTop).toBe(0)
    await c.codeScroll(c.viewport.scrollHeight)
    await c.grow()
    await c.expectFollowing()
    // And again, from the end it stuck at.
    await c.grow()
    await c.expectFollowing()
  })

  it('after the person let go, code that scrolls to within 48 px of the end sticks again', async () => {
    const c = await chat()
    scrollUp(c.viewport)
    await waitFor(() => expect(c.jump()).not.toBeNull())
    await c.codeScroll(c.viewport.scrollHeight - c.viewport.clientHeight - 40)
    await c.grow()
    await c.expectFollowing()
  })

  it('after the person let go, code that scrolls elsewhere keeps it let go: growth is not followed', async () => {
    const c = await chat()
    scrollUp(c.viewport)
    await waitFor(() => expect(c.jump()).not.toBeNull())
    await c.codeScroll(120)
    expect(c.viewport.scrollTop).toBe(120)
    const height = c.viewport.scrollHeight
    await c.grow()
    expect(c.viewport.scrollHeight).toBeGreaterThan(height)
    expect(c.viewport.scrollTop).toBe(120)
    expect(c.root.getAttribute('data-state')).toBe('scrolled')
    expect(c.jump()).not.toBeNull()
  })

  it('a click in the log that scrolls nothing does not make a later code scroll count as the person\'s', async () => {
    const c = await chat()
    // A click on an answer (to select text, or on its Copy button): input, but no scroll.
    const answer = c.viewport.querySelector('[data-weft="chat-column"]')!
    fireEvent.pointerDown(answer)
    fireEvent.pointerUp(answer)
    await frames(8)
    await c.codeScroll(0)
    await c.grow()
    await c.expectFollowing()
  })

  it('a wheel at the end, which scrolls nothing, does not make a later code scroll count as the person\'s', async () => {
    const c = await chat()
    fireEvent.wheel(c.viewport, { deltaY: 40 })
    await frames(8)
    await c.codeScroll(0)
    await c.grow()
    await c.expectFollowing()
  })

  it('a pointer held on the log (the scrollbar\'s thumb) still lets go when it drags up later', async () => {
    const c = await chat()
    fireEvent.pointerDown(c.viewport)
    await frames(8)
    await c.codeScroll(0)
    fireEvent.pointerUp(c.viewport)
    await waitFor(() => expect(c.jump()).not.toBeNull())
    await c.grow()
    expect(c.viewport.scrollTop).toBe(0)
    expect(c.root.getAttribute('data-state')).toBe('scrolled')
  })
})
