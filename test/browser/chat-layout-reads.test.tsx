/**
 * Where `Chat`'s stick-to-bottom reads layout, in Chromium: never in a scroll
 * handler, and while an answer streams only when the end's intersection observer
 * reports, which the browser does after it has laid the frame out (so the read
 * forces nothing). A read is any of the viewport's layout getters called from
 * `chat.tsx`; the virtual list reads the same element for its own rows and is
 * not counted.
 */
import '../../src/components/styles.css'
import { act, fireEvent, waitFor } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { Chat } from '../../src/components/chat'
import { MarkdownSettingsProvider } from '../../src/components/markdown/markdown'
import type { Op } from '../../src/core/model/ops'
import { renderWith, storeWith } from './support'

const earlier = (count: number): Op[] =>
  Array.from({ length: count }, (_, i): Op[] => [
    { op: 'turn.open', turnId: `t${i}`, role: i % 2 ? 'assistant' : 'user' },
    { op: 'message.put', turnId: `t${i}`, messageId: `m${i}`, type: 'text', status: 'done', props: { content: `Message ${i}\n\nwith a second paragraph.` } },
    { op: 'turn.finish', turnId: `t${i}`, status: 'done' },
  ]).flat()

const frame = () => new Promise((resolve) => requestAnimationFrame(resolve))
const frames = async (n: number) => { for (let i = 0; i < n; i++) await frame() }

const Native = window.IntersectionObserver
let inObserver = 0
beforeEach(() => {
  // Marks the time spent in intersection observers' callbacks.
  window.IntersectionObserver = class extends Native {
    constructor(callback: IntersectionObserverCallback, options?: IntersectionObserverInit) {
      super((entries, observer) => {
        inObserver++
        try { callback(entries, observer) } finally { inObserver-- }
      }, options)
    }
  }
})
afterEach(() => { window.IntersectionObserver = Native })

/** Counts reads of `element`'s layout made by chat.tsx, by where they were made. */
function countReads(element: HTMLElement) {
  const reads = { scrollHandler: 0, observer: 0, elsewhere: 0 }
  let inScroll = false
  // Capturing on the document runs before the element's own listeners; the one added last, after them.
  const enter = () => { inScroll = true }
  const leave = () => { inScroll = false }
  element.ownerDocument.addEventListener('scroll', enter, true)
  element.addEventListener('scroll', leave)
  const count = () => {
    if (!new Error().stack?.includes('chat.tsx')) return
    if (inScroll) reads.scrollHandler++
    else if (inObserver > 0) reads.observer++
    else reads.elsewhere++
  }
  for (const name of ['scrollTop', 'scrollHeight', 'clientHeight', 'scrollLeft', 'clientWidth', 'offsetHeight', 'offsetTop'] as const) {
    const proto = name.startsWith('offset') ? HTMLElement.prototype : Element.prototype
    const native = Object.getOwnPropertyDescriptor(proto, name)!
    Object.defineProperty(element, name, {
      configurable: true,
      get() { count(); return native.get!.call(this) },
      set: native.set && function (this: HTMLElement, value: number) { native.set!.call(this, value) },
    })
  }
  const rect = element.getBoundingClientRect.bind(element)
  element.getBoundingClientRect = () => { count(); return rect() }
  const reset = () => Object.assign(reads, { scrollHandler: 0, observer: 0, elsewhere: 0 })
  return { reads, reset }
}

describe('Chat reads no layout per token', () => {
  it('while an answer streams: none in a scroll handler, none outside the end\'s observer; a person\'s scroll is measured in a frame, not in its handler', async () => {
    const store = storeWith(earlier(60))
    const { container } = renderWith(store, <MarkdownSettingsProvider highlight={false}><div style={{ height: 400 }}><Chat /></div></MarkdownSettingsProvider>)
    const viewport = container.querySelector<HTMLElement>('[data-weft="chat-viewport"]')!
    const gap = () => viewport.scrollHeight - viewport.scrollTop - viewport.clientHeight
    await waitFor(() => expect(gap()).toBeLessThan(2))
    await frames(3)
    const { reads, reset } = countReads(viewport)

    act(() => store.getState().dispatch([{ op: 'turn.open', turnId: 'a', role: 'assistant' }]))
    for (let i = 0; i < 120; i++) {
      const value = i % 10 === 9 ? 'a paragraph ends here.\n\n' : `token${i} `
      act(() => store.getState().dispatch([{ op: 'message.delta', turnId: 'a', messageId: 'a/m', type: 'text', action: 'append', path: 'content', value }]))
      await frame()
    }
    await frames(3)
    // It followed the answer, reading only where the observer reported the end out of view.
    expect(gap()).toBeLessThan(2)
    expect(reads.scrollHandler).toBe(0)
    expect(reads.elsewhere).toBe(0)
    expect(reads.observer).toBeGreaterThan(0)

    // The person scrolls up: the handler still reads nothing; the frame after it measures, and lets go.
    reset()
    fireEvent.wheel(viewport, { deltaY: -200 })
    viewport.scrollTop -= 200
    await waitFor(() => expect(container.querySelector('[data-weft="chat"]')!.getAttribute('data-state')).toBe('scrolled'))
    expect(reads.scrollHandler).toBe(0)
    expect(reads.elsewhere).toBeGreaterThan(0)
  })
})
