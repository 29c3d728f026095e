// @vitest-environment jsdom
/**
 * Sticking to the end of the chat (`useStickToBottom`, through `Chat`), rule by
 * rule, in jsdom with a laid-out viewport: a 200 px window on 1000 px of content,
 * frames run by hand (the browser's order: the scroll event, the animation frame
 * callbacks, then the intersection observers, which report where the end is as the
 * browser would: a change, or the first report after `observe`). What
 * is checked is where the viewport is scrolled to and what `Chat` shows. Also which
 * transcripts virtualize, which follows from the element they scroll in.
 * (`test/browser/pins-chat-scroll.test.tsx` runs the same in Chromium.)
 */
import { act, cleanup, fireEvent, render } from '@testing-library/react'
import { createRef } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { Chat } from '../../src/components/chat'
import { Transcript } from '../../src/components/transcript'
import type { Op } from '../../src/core/model/ops'
import { createAgentStore } from '../../src/core/store/store'
import { AgentProvider } from '../../src/umbrella/providers'

/** The viewport's layout: its content's height, its own, and where it is scrolled to. */
const layout = { height: 1000, client: 200, top: 0, moved: false }
const frames = new Map<number, FrameRequestCallback>()
let nextFrame = 1
const observers = new Set<{ callback: ResizeObserverCallback }>()
/** The intersection observers: the bottom margin of their root, what they watch and what they last reported of it. */
const intersections = new Set<{ callback: IntersectionObserverCallback; margin: number; reported: Map<Element, boolean> }>()

const isViewport = (el: Element) => el.getAttribute('data-weft') === 'chat-viewport'

beforeEach(() => {
  Object.assign(layout, { height: 1000, client: 200, top: 0, moved: false })
  frames.clear()
  observers.clear()
  intersections.clear()
  Object.defineProperties(HTMLDivElement.prototype, {
    scrollHeight: { configurable: true, get(this: Element) { return isViewport(this) ? layout.height : 0 } },
    clientHeight: { configurable: true, get(this: Element) { return isViewport(this) ? layout.client : 0 } },
    scrollTop: {
      configurable: true,
      get(this: Element) { return isViewport(this) ? layout.top : 0 },
      set(this: Element, value: number) {
        if (!isViewport(this)) return
        const top = Math.max(0, Math.min(value, layout.height - layout.client))
        if (top !== layout.top) layout.moved = true
        layout.top = top
      },
    },
  })
  vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => {
    frames.set(nextFrame, callback)
    return nextFrame++
  })
  vi.stubGlobal('cancelAnimationFrame', (id: number) => frames.delete(id))
  vi.stubGlobal('ResizeObserver', class {
    constructor(readonly callback: ResizeObserverCallback) {}
    observe() { observers.add(this) }
    unobserve() {}
    disconnect() { observers.delete(this) }
  })
  vi.stubGlobal('IntersectionObserver', class {
    readonly margin: number
    readonly reported = new Map<Element, boolean>()
    constructor(readonly callback: IntersectionObserverCallback, options?: IntersectionObserverInit) {
      // `top right bottom left`: the root's box grown at its bottom by this much.
      this.margin = Number.parseFloat(options?.rootMargin?.split(' ')[2] ?? '0')
    }
    observe(target: Element) {
      intersections.add(this)
      this.reported.delete(target)
      this.reported.set(target, undefined as unknown as boolean)
    }
    unobserve(target: Element) { this.reported.delete(target) }
    disconnect() {
      this.reported.clear()
      intersections.delete(this)
    }
  })
})

/** The intersection observers report the end (an element after the content): in view when the gap under the viewport is within their margin. */
function intersect() {
  const gap = layout.height - layout.top - layout.client
  const due: Array<[IntersectionObserverCallback, IntersectionObserverEntry, IntersectionObserver]> = []
  for (const observer of intersections) {
    for (const [target, was] of observer.reported) {
      const now = gap <= observer.margin
      if (was === now) continue
      observer.reported.set(target, now)
      due.push([observer.callback, { isIntersecting: now, target } as IntersectionObserverEntry, observer as unknown as IntersectionObserver])
    }
  }
  for (const [callback, entry, observer] of due) callback([entry], observer)
}

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
  for (const key of ['scrollHeight', 'clientHeight', 'scrollTop']) delete (HTMLDivElement.prototype as unknown as Record<string, unknown>)[key]
})

const viewport = () => document.querySelector('[data-weft="chat-viewport"]') as HTMLDivElement
const chatState = () => document.querySelector('[data-weft="chat"]')!.getAttribute('data-state')
const jumpButton = () => document.querySelector('[data-weft="jump-to-latest"]') as HTMLButtonElement | null
const end = () => layout.height - layout.client

/** One frame: the scroll event when the viewport moved, `between` (a list placing rows in its scroll handler), the frame callbacks queued before it, then the intersection observers. */
function frame(between?: () => void) {
  act(() => {
    if (layout.moved) {
      layout.moved = false
      viewport().dispatchEvent(new Event('scroll'))
    }
    between?.()
    const due = [...frames.keys()]
    for (const id of due) {
      const callback = frames.get(id)
      if (!callback) continue
      frames.delete(id)
      callback(0)
    }
    intersect()
  })
}
const run = (count: number) => { for (let i = 0; i < count; i++) frame() }

/** The content grows, and the frame that draws it tells the observers. */
function grow(by: number) {
  layout.height += by
  act(() => {
    for (const observer of [...observers]) observer.callback([], observer as unknown as ResizeObserver)
    intersect()
  })
}

/** The page's own code (or a virtual list) scrolls. */
function codeScrolls(to: number) {
  viewport().scrollTop = to
  frame()
}

/** The person scrolls, by `input`, to `to`. */
function personScrolls(to: number, input: 'wheel' | 'touchmove' | 'keydown' | 'pointerdown' = 'wheel') {
  fireEvent(viewport(), new Event(input, { bubbles: true }))
  viewport().scrollTop = to
  frame()
}

/** A mounted chat, settled at the end. */
function mounted() {
  const view = render(<Chat><p>content</p></Chat>)
  frame()
  return view
}

describe('Chat: sticking to the end', () => {
  it('opens at the end', () => {
    mounted()
    expect(layout.top).toBe(800)
    expect(chatState()).toBe('at-end')
    expect(jumpButton()).toBeNull()
  })

  it('shows itself at the end from its first render, before any scroll event', () => {
    render(<Chat><p>content</p></Chat>)
    expect(chatState()).toBe('at-end')
    expect(jumpButton()).toBeNull()
  })

  it('the end moves only for more than a pixel', () => {
    mounted()
    grow(300)
    frame(() => { layout.height += 1 })
    expect(layout.top).toBe(1100)
    grow(1)
    expect(layout.top).toBe(1102)
    frame()
    grow(300)
    frame(() => { layout.height += 2 })
    expect(layout.top).toBe(1404)
  })

  it('follows the content as it grows while stuck', () => {
    mounted()
    grow(300)
    expect(layout.top).toBe(1100)
    grow(50)
    expect(layout.top).toBe(1150)
    expect(chatState()).toBe('at-end')
  })

  it('looks again a frame later: rows placed after it scrolled still end in view', () => {
    mounted()
    grow(300)
    expect(layout.top).toBe(1100)
    // The scroll event of that move, then rows measured in the list's scroll handler, with no resize notification.
    frame(() => { layout.height += 200 })
    expect(layout.top).toBe(1300)
  })

  it('a person scrolling up lets go: growth stays where they are, and Jump to latest shows', () => {
    mounted()
    personScrolls(300)
    expect(layout.top).toBe(300)
    expect(chatState()).toBe('scrolled')
    expect(jumpButton()!.textContent).toBe('Jump to latest ↓')
    grow(400)
    expect(layout.top).toBe(300)
    expect(chatState()).toBe('scrolled')
    frame()
    expect(layout.top).toBe(300)
  })

  it.each(['wheel', 'touchmove', 'keydown', 'pointerdown'] as const)('%s is a person\'s input', (input) => {
    mounted()
    personScrolls(300, input)
    grow(100)
    expect(layout.top).toBe(300)
    expect(chatState()).toBe('scrolled')
  })

  it('a scroll up by code does not let go: the end comes back, and Jump to latest never shows', () => {
    mounted()
    codeScrolls(300)
    expect(layout.top).toBe(800)
    expect(chatState()).toBe('at-end')
    expect(jumpButton()).toBeNull()
    frame()
    expect(chatState()).toBe('at-end')
    grow(100)
    expect(layout.top).toBe(900)
  })

  it('a person\'s small scroll up lets go at once, while still counting as at the end', () => {
    mounted()
    personScrolls(780)
    expect(layout.top).toBe(780)
    expect(chatState()).toBe('at-end')
    grow(28)
    expect(layout.top).toBe(780)
    expect(chatState()).toBe('at-end')
    grow(1)
    expect(layout.top).toBe(780)
    expect(chatState()).toBe('scrolled')
  })

  it('a move of one pixel is no scroll up, and a gap of one pixel is the end', () => {
    mounted()
    personScrolls(799)
    expect(layout.top).toBe(799)
    expect(chatState()).toBe('at-end')
    grow(100)
    expect(layout.top).toBe(900)
    frame()
    personScrolls(898)
    grow(100)
    expect(layout.top).toBe(898)
  })

  it('scrolling back down near the end sticks again', () => {
    mounted()
    personScrolls(300)
    personScrolls(751)
    expect(layout.top).toBe(751)
    expect(chatState()).toBe('scrolled')
    personScrolls(752)
    expect(layout.top).toBe(800)
    expect(chatState()).toBe('at-end')
    grow(100)
    expect(layout.top).toBe(900)
  })

  it('a scroll down by code near the end sticks again too', () => {
    mounted()
    personScrolls(300)
    run(5)
    codeScrolls(760)
    expect(layout.top).toBe(800)
    grow(100)
    expect(layout.top).toBe(900)
  })

  it('mounted on an element already at its end, a scroll up by code before any input does not let go', () => {
    layout.top = 800
    render(<Chat><p>content</p></Chat>)
    codeScrolls(300)
    expect(layout.top).toBe(800)
  })

  it('Jump to latest sticks at once: growth right after it is followed', () => {
    mounted()
    personScrolls(300)
    act(() => jumpButton()!.click())
    grow(100)
    expect(layout.top).toBe(900)
  })

  it('Jump to latest scrolls to the end and sticks', () => {
    mounted()
    personScrolls(300)
    act(() => jumpButton()!.click())
    expect(layout.top).toBe(800)
    expect(chatState()).toBe('at-end')
    expect(jumpButton()).toBeNull()
    frame()
    grow(100)
    expect(layout.top).toBe(900)
  })
})

describe('Chat: when an input counts as the person\'s', () => {
  it('an input that scrolled nothing expires after four frames', () => {
    mounted()
    fireEvent.wheel(viewport())
    run(3)
    codeScrolls(300)
    expect(layout.top).toBe(300)

    cleanup()
    Object.assign(layout, { height: 1000, top: 0, moved: false })
    mounted()
    fireEvent.wheel(viewport())
    run(4)
    codeScrolls(300)
    expect(layout.top).toBe(800)
  })

  it('a new input starts the four frames again', () => {
    mounted()
    fireEvent.wheel(viewport())
    run(3)
    fireEvent.keyDown(viewport())
    run(3)
    codeScrolls(300)
    expect(layout.top).toBe(300)
  })

  it('one scroll uses the input up: a scroll up by code right after it does not let go', () => {
    mounted()
    layout.height += 100
    fireEvent.wheel(viewport())
    viewport().scrollTop = 860
    frame()
    expect(layout.top).toBe(900)
    codeScrolls(700)
    expect(layout.top).toBe(900)
  })

  it('a pointer held down counts for as long as it is down (a scrollbar drag)', () => {
    mounted()
    fireEvent.pointerDown(viewport())
    run(10)
    codeScrolls(300)
    expect(layout.top).toBe(300)
    expect(chatState()).toBe('scrolled')
  })

  it('the end reported out of view before the scroll event of a held pointer: measured next frame, so the drag up lets go', () => {
    mounted()
    fireEvent.pointerDown(viewport())
    run(10)
    // The browser reports the end's observers after the frame a scroll was written in, and sends the scroll event the frame after.
    viewport().scrollTop = 300
    act(() => intersect())
    expect(layout.top).toBe(300)
    frame()
    expect(layout.top).toBe(300)
    expect(chatState()).toBe('scrolled')
  })

  it('growth during an input, with no scroll of the person\'s, is still followed a frame later', () => {
    mounted()
    fireEvent.keyDown(viewport())
    grow(300)
    expect(layout.top).toBe(800)
    frame()
    expect(layout.top).toBe(1100)
    expect(chatState()).toBe('at-end')
    grow(300)
    frame()
    expect(layout.top).toBe(1400)
  })

  it('released anywhere on the page, it counts for four more frames', () => {
    for (const release of ['pointerup', 'pointercancel']) {
      mounted()
      fireEvent.pointerDown(viewport())
      run(10)
      fireEvent(window, new Event(release))
      run(3)
      codeScrolls(300)
      expect(layout.top, `${release}, 3 frames`).toBe(300)
      cleanup()
      Object.assign(layout, { height: 1000, top: 0, moved: false })

      mounted()
      fireEvent.pointerDown(viewport())
      fireEvent(window, new Event(release))
      run(4)
      codeScrolls(300)
      expect(layout.top, `${release}, 4 frames`).toBe(800)
      cleanup()
      Object.assign(layout, { height: 1000, top: 0, moved: false })
    }
  })

  it('a release is heard even when the element it ends on keeps the event to itself', () => {
    render(<Chat footer={<button type="button" onPointerUp={(event) => event.stopPropagation()}>stop</button>}><p>content</p></Chat>)
    frame()
    fireEvent.pointerDown(viewport())
    run(10)
    fireEvent.pointerUp(document.querySelector('[data-weft="chat-footer"] button')!)
    run(4)
    codeScrolls(300)
    expect(layout.top).toBe(800)
  })

  it('a release with no pointer down does not extend an input', () => {
    mounted()
    fireEvent.wheel(viewport())
    run(2)
    fireEvent(window, new Event('pointerup'))
    run(2)
    codeScrolls(300)
    expect(layout.top).toBe(800)
  })
})

describe('Chat: after it is gone', () => {
  it('neither scrolling nor growth moves the element any more', () => {
    const { unmount } = mounted()
    const el = viewport()
    unmount()
    layout.top = 0
    el.dispatchEvent(new Event('scroll'))
    expect(layout.top).toBe(0)
    expect(observers.size).toBe(0)
    expect(intersections.size).toBe(0)
    expect(frames.size).toBe(0)
  })

  it('no input reaches it any more: neither on its element nor a release on the page', () => {
    const { unmount } = mounted()
    const el = viewport()
    fireEvent.pointerDown(el)
    frame()
    unmount()
    fireEvent.wheel(el)
    fireEvent.keyDown(el)
    fireEvent(window, new Event('pointerup'))
    fireEvent(window, new Event('pointercancel'))
    expect(frames.size).toBe(0)
  })

  it('an input\'s expiry is cancelled with it', () => {
    const { unmount } = mounted()
    fireEvent.wheel(viewport())
    expect(frames.size).toBe(1)
    unmount()
    expect(frames.size).toBe(0)
  })
})

describe('Chat: its parts', () => {
  it('passes its props and ref to its element, and holds the footer', () => {
    const ref = createRef<HTMLDivElement>()
    render(<Chat ref={ref} className="mine" footer={<span data-testid="f">footer</span>}><p>content</p></Chat>)
    const chat = document.querySelector('[data-weft="chat"]')!
    expect(ref.current).toBe(chat)
    expect(chat.className).toBe('mine')
    expect(document.querySelector('[data-weft="chat-footer"]')!.textContent).toBe('footer')
    expect(document.querySelector('[data-weft="chat-column"]')!.textContent).toBe('content')
  })
})

describe('Transcript.Root: which transcripts virtualize', () => {
  const withTurns = (count: number) => {
    const store = createAgentStore()
    const ops: Op[] = []
    for (let i = 0; i < count; i++) ops.push({ op: 'turn.open', turnId: `t${i}`, role: i % 2 ? 'assistant' : 'user' })
    store.getState().dispatch(ops)
    return store
  }
  const drawn = () => [...document.querySelectorAll('[data-turn]')].map((el) => el.getAttribute('data-turn'))
  const state = () => document.querySelector('[data-weft="transcript"]')!.getAttribute('data-state')
  const draw = (id: string) => <p data-turn={id} />

  it('inside Chat, past 40 turns, standing in with the latest 40 until the list arrives', () => {
    render(<AgentProvider store={withTurns(41)}><Chat><Transcript.Root>{draw}</Transcript.Root></Chat></AgentProvider>)
    expect(state()).toBe('virtual')
    expect(drawn()).toEqual(Array.from({ length: 40 }, (_, i) => `t${i + 1}`))
  })

  it('inside Chat, 40 turns are drawn as they are', () => {
    render(<AgentProvider store={withTurns(40)}><Chat><Transcript.Root>{draw}</Transcript.Root></Chat></AgentProvider>)
    expect(state()).toBeNull()
    expect(drawn()).toHaveLength(40)
  })

  it('outside Chat, never, unless given the element it scrolls in and a count', () => {
    const store = withTurns(45)
    const first = render(<AgentProvider store={store}><Transcript.Root>{draw}</Transcript.Root></AgentProvider>)
    expect(state()).toBeNull()
    expect(drawn()).toHaveLength(45)
    first.unmount()
    const second = render(<AgentProvider store={store}><Transcript.Root virtualize={5}>{draw}</Transcript.Root></AgentProvider>)
    expect(state()).toBeNull()
    second.unmount()
    const scroller = { current: document.createElement('div') }
    const third = render(<AgentProvider store={store}><Transcript.Root scrollRef={scroller}>{draw}</Transcript.Root></AgentProvider>)
    expect(state()).toBe('virtual')
    third.unmount()
    render(<AgentProvider store={withTurns(6)}><Transcript.Root scrollRef={scroller} virtualize={5}>{draw}</Transcript.Root></AgentProvider>)
    expect(state()).toBe('virtual')
    expect(drawn()).toEqual(['t1', 't2', 't3', 't4', 't5'])
  })

  it('without a drawing function each turn is drawn as a Transcript.Turn', () => {
    render(<AgentProvider store={withTurns(3)}><Chat><Transcript.Root /></Chat></AgentProvider>)
    expect([...document.querySelectorAll('[data-weft="turn"]')].map((el) => el.getAttribute('data-role'))).toEqual(['user', 'assistant', 'user'])
  })

  it('virtualize false, or a count not passed, keeps every turn', () => {
    const first = render(<AgentProvider store={withTurns(45)}><Chat><Transcript.Root virtualize={false}>{draw}</Transcript.Root></Chat></AgentProvider>)
    expect(state()).toBeNull()
    first.unmount()
    render(<AgentProvider store={withTurns(5)}><Chat><Transcript.Root virtualize={5}>{draw}</Transcript.Root></Chat></AgentProvider>)
    expect(state()).toBeNull()
  })
})
