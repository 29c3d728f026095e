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
 * page's own code, or by a virtual list placing rows, does not let go). Returns the element's ref, whether it is
 * at the end, and a function that scrolls there and sticks again.
 *
 * @example
 * const { viewport, content, atEnd, jump } = useStickToBottom()
 */
export function useStickToBottom() {
  const viewport = useRef<HTMLDivElement | null>(null)
  const content = useRef<HTMLDivElement | null>(null)
  const stuck = useRef(true)
  const [atEnd, setAtEnd] = useState(true)
  const settling = useRef(false)
  const toEnd = useMemo(() => () => {
    const el = viewport.current
    if (!el) return
    el.scrollTop = el.scrollHeight
    // Rows measured after this (a virtual list placing the rows it just mounted) can still move the
    // end, and a resize notification can be dropped in a busy frame: look once more a frame later.
    if (settling.current) return
    settling.current = true
    requestAnimationFrame(() => {
      settling.current = false
      if (stuck.current && el.scrollHeight - el.scrollTop - el.clientHeight > 1) toEnd()
    })
  }, [])
  useEffect(() => {
    const el = viewport.current
    const inner = content.current
    if (!el || !inner) return
    let lastTop = el.scrollTop
    // Set by the person's own scrolling (wheel, touch, keys, the scrollbar). A virtual list moves
    // scrollTop too when it measures rows above the viewport; that must not let go of the end.
    // An input that scrolled nothing (a click on a button, a wheel at the end, typing a gate's
    // reason) expires, so that a later scroll by code is not taken for the person's.
    let intent = false
    let pressed = false
    let expiry = 0
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
    const onScroll = () => {
      const gap = el.scrollHeight - el.scrollTop - el.clientHeight
      const near = gap <= NEAR_END
      const up = el.scrollTop < lastTop - 1
      // A person's scroll up lets go at once, even within NEAR_END of the end: a trackpad or a
      // smooth wheel moves a few pixels per event. The rest of that gesture (scroll events with no
      // new input) keeps going up, so only a scroll that is not upward sticks again near the end.
      if (intent && up) stuck.current = false
      else if (near && !up) stuck.current = true
      intent = false
      lastTop = el.scrollTop
      if (stuck.current && gap > 1) toEnd()
      // Still stuck, it is back at the end already: a scroll up by code must not show "Jump to latest" for a frame.
      setAtEnd(stuck.current || near)
    }
    // Growth (a token, a new turn) keeps the end in view only while stuck.
    const observer = new ResizeObserver(() => {
      if (stuck.current) toEnd()
      else setAtEnd(el.scrollHeight - el.scrollTop - el.clientHeight <= NEAR_END)
    })
    observer.observe(inner)
    el.addEventListener('scroll', onScroll, { passive: true })
    for (const type of INTENT_EVENTS) el.addEventListener(type, onIntent, { passive: true })
    // A scrollbar drag may end outside the log.
    view.addEventListener('pointerup', onRelease, true)
    view.addEventListener('pointercancel', onRelease, true)
    toEnd()
    return () => {
      observer.disconnect()
      cancelAnimationFrame(expiry)
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
  return { viewport, content, atEnd, jump }
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
  const { viewport, content, atEnd, jump } = useStickToBottom()
  return (
    <div {...rest} ref={ref} data-weft="chat" data-state={atEnd ? 'at-end' : 'scrolled'}>
      <div data-weft="chat-viewport" ref={viewport}>
        <div data-weft="chat-column" ref={content}>
          <TranscriptScrollContext.Provider value={viewport}>{children ?? <Transcript.Root />}</TranscriptScrollContext.Provider>
        </div>
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
