/**
 * A chat laid out: a centred column that scrolls, sticks to the bottom while
 * an answer streams and lets go when the person scrolls up, with "Jump to
 * latest" to come back, and the composer docked below.
 */
import { forwardRef, useEffect, useMemo, useRef, useState, type HTMLAttributes, type ReactNode } from 'react'
import { useLabels } from './labels'
import { TranscriptScrollContext } from './scroll-context'
import { Transcript } from './transcript'

/** Within this many pixels of the end counts as at the end. */
const NEAR_END = 48
/** Input by which a person scrolls; only a scroll up that follows some lets go of the end. */
const INTENT_EVENTS = ['wheel', 'touchmove', 'keydown', 'pointerdown'] as const
/** Frames after an input within which its own scroll arrives (the pointer held down on the log counts for as long as it is down). */
const INTENT_FRAMES = 4

/**
 * Props of `Chat`.
 *
 * @example
 * <Chat footer={<Composer send={send} stop={stop} />} />
 */
export interface ChatProps extends HTMLAttributes<HTMLDivElement> {
  /** The scrolling content (default: `<Transcript.Root />`). */
  children?: ReactNode
  /** Docked under the content: usually the composer. */
  footer?: ReactNode
}

/**
 * Sticks a scrolling element to its end while its content grows, until the
 * person scrolls up (by wheel, touch, keys or the scrollbar; a scroll by the
 * page's own code, or by a virtual list placing rows, does not let go). Returns the element's ref, the
 * ref of an empty element to place after the content (`end`), whether it is at the end, and a
 * function that scrolls there and sticks again.
 *
 * Nothing here reads layout in a scroll handler or per token: two intersection observers
 * on `end` tell when the end leaves the viewport (growth, or a scroll by code) and when it
 * leaves the last 48 px, and only a scroll that follows the person's input is measured, in
 * the next animation frame. The scroll to the end is written when the observer reports,
 * after the frame's layout. No resize observer: one on the content would be skipped when a
 * virtual list resizes the content from its own resize observer, and the browser reports
 * that as an error on `window`.
 *
 * @example
 * const { viewport, content, end, atEnd, jump } = useStickToBottom()
 */
export function useStickToBottom() {
  const viewport = useRef<HTMLDivElement | null>(null)
  const content = useRef<HTMLDivElement | null>(null)
  const end = useRef<HTMLDivElement | null>(null)
  const stuck = useRef(true)
  const [atEnd, setAtEnd] = useState(true)
  /** Where the element was last seen scrolled to: a person's scroll above it by more than a pixel is a scroll up. */
  const lastTop = useRef(0)
  /** Asks the end's observer to report again at the next frame, whether or not the end moved in or out. */
  const watch = useRef<() => void>(() => {})
  const toEnd = useMemo(() => () => {
    const el = viewport.current
    if (!el) return
    el.scrollTop = el.scrollHeight
    lastTop.current = el.scrollTop
    // An observer reports changes only: growth before the next frame would leave the end out of view unreported.
    watch.current()
  }, [])
  useEffect(() => {
    const el = viewport.current
    const sentinel = end.current
    if (!el || !sentinel) return
    // Set by the person's own scrolling (wheel, touch, keys, the scrollbar). A virtual list moves
    // scrollTop too when it measures rows above the viewport; that must not let go of the end.
    // An input that scrolled nothing (a click on a button, a wheel at the end, typing a gate's
    // reason) expires, so that a later scroll by code is not taken for the person's.
    let intent = false
    let pressed = false
    let expiry = 0
    /** A scroll that followed the person's input, measured at the next frame. */
    let personal = false
    let pending = 0
    const expire = (frames: number) => {
      cancelAnimationFrame(expiry)
      expiry = requestAnimationFrame(() => {
        if (frames > 1) expire(frames - 1)
        else if (!pressed) intent = false
      })
    }
    const onIntent = (event: Event) => {
      intent = true
      if (event.type === 'pointerdown') pressed = true
      expire(INTENT_FRAMES)
    }
    const onRelease = () => {
      if (!pressed) return
      pressed = false
      expire(INTENT_FRAMES)
    }
    const view = el.ownerDocument.defaultView ?? window
    const observing = observes()
    const measure = () => {
      pending = 0
      const top = el.scrollTop
      const gap = el.scrollHeight - top - el.clientHeight
      const near = gap <= NEAR_END
      const up = top < lastTop.current - 1
      // A person's scroll up lets go at once, even within NEAR_END of the end: a trackpad or a
      // smooth wheel moves a few pixels per event. The rest of that gesture (scroll events with no
      // new input) keeps going up, so only a scroll that is not upward sticks again near the end.
      if (personal && up) stuck.current = false
      else if (near && !up) stuck.current = true
      personal = false
      lastTop.current = top
      if (stuck.current && gap > 1) toEnd()
      // Still stuck, it is back at the end already: a scroll up by code must not show "Jump to latest" for a frame.
      setAtEnd(stuck.current || near)
    }
    const onScroll = () => {
      if (intent) personal = true
      intent = false
      // Without intersection observers (jsdom, an old engine) nothing reports the end: each scroll is measured as it comes.
      if (!observing) return measure()
      // While stuck, a scroll by code (this hook's own, or a list placing rows) decides nothing:
      // the end's observer tells if it left the end. Otherwise it is measured once, next frame.
      if ((personal || !stuck.current) && !pending) pending = requestAnimationFrame(measure)
    }
    // The end within a pixel of the viewport's bottom: out of it while stuck (growth, a scroll by code), back to it.
    // Right after the person's input the move may be theirs, its scroll event still to come: measured next frame instead.
    const edge = intersections((entries) => {
      const entry = entries[entries.length - 1]
      if (!entry || entry.isIntersecting || !stuck.current || personal) return
      if (!intent) toEnd()
      else if (!pending) pending = requestAnimationFrame(measure)
    }, { root: el, rootMargin: '0px 0px 1px 0px' })
    // The end within NEAR_END of it: "Jump to latest" shows only past it.
    const near = intersections((entries) => {
      const entry = entries[entries.length - 1]
      if (entry) setAtEnd(stuck.current || entry.isIntersecting)
    }, { root: el, rootMargin: `0px 0px ${NEAR_END}px 0px` })
    watch.current = () => {
      edge.unobserve(sentinel)
      edge.observe(sentinel)
    }
    near.observe(sentinel)
    el.addEventListener('scroll', onScroll, { passive: true })
    for (const type of INTENT_EVENTS) el.addEventListener(type, onIntent, { passive: true })
    // A scrollbar drag may end outside the log.
    view.addEventListener('pointerup', onRelease, true)
    view.addEventListener('pointercancel', onRelease, true)
    toEnd()
    return () => {
      watch.current = () => {}
      edge.disconnect()
      near.disconnect()
      cancelAnimationFrame(expiry)
      cancelAnimationFrame(pending)
      el.removeEventListener('scroll', onScroll)
      for (const type of INTENT_EVENTS) el.removeEventListener(type, onIntent)
      view.removeEventListener('pointerup', onRelease, true)
      view.removeEventListener('pointercancel', onRelease, true)
    }
  }, [toEnd])
  const jump = useMemo(() => () => {
    stuck.current = true
    setAtEnd(true)
    toEnd()
  }, [toEnd])
  return { viewport, content, end, atEnd, jump }
}

/** Whether the page has intersection observers, read when a chat mounts (a test may stub them in). */
const observes = () => typeof IntersectionObserver !== 'undefined'

/**
 * An intersection observer, or where the page has none (jsdom in a host's
 * tests, an old engine) one that observes nothing: the hold on the end then
 * follows the person's scrolls only, and rendering never throws.
 */
function intersections(callback: IntersectionObserverCallback, options: IntersectionObserverInit): Pick<IntersectionObserver, 'observe' | 'unobserve' | 'disconnect'> {
  if (!observes()) return { observe() {}, unobserve() {}, disconnect() {} }
  return new IntersectionObserver(callback, options)
}

/**
 * The chat layout (`data-weft="chat"`): the transcript in a centred, scrolling
 * column that follows a streaming answer, "Jump to latest" when the person has
 * scrolled up, and the footer (the composer) docked below. Give it a height.
 *
 * @example
 * <div style={{ height: '100vh' }}>
 *   <Chat footer={<Composer send={send} stop={stop} />} />
 * </div>
 */
export const Chat = forwardRef<HTMLDivElement, ChatProps>(function Chat({ children, footer, ...rest }, ref) {
  const labels = useLabels()
  const { viewport, content, end, atEnd, jump } = useStickToBottom()
  return (
    <div {...rest} ref={ref} data-weft="chat" data-state={atEnd ? 'at-end' : 'scrolled'}>
      <div data-weft="chat-viewport" ref={viewport}>
        <div data-weft="chat-column" ref={content}>
          <TranscriptScrollContext.Provider value={viewport}>{children ?? <Transcript.Root />}</TranscriptScrollContext.Provider>
        </div>
        <div data-weft="chat-end" ref={end} aria-hidden="true" />
      </div>
      <div data-weft="chat-footer">
        {!atEnd && (
          <button type="button" data-weft="jump-to-latest" onClick={jump}>
            {labels.jumpToLatest} ↓
          </button>
        )}
        {footer}
      </div>
    </div>
  )
})
