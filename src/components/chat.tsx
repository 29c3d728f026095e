/**
 * A chat laid out: a centred column that scrolls, sticks to the bottom while
 * an answer streams and lets go when the person scrolls up, with "Jump to
 * latest" to come back, and the composer docked below.
 */
import { forwardRef, useCallback, useEffect, useRef, useState, type HTMLAttributes, type ReactNode } from 'react'
import { useLabels } from './labels'
import { Transcript } from './transcript'

/** Within this many pixels of the end counts as at the end. */
const NEAR_END = 48

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
 * person scrolls away from the end. Returns the element's ref, whether it is
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
  const toEnd = useCallback(() => {
    const el = viewport.current
    if (el) el.scrollTop = el.scrollHeight
  }, [])
  useEffect(() => {
    const el = viewport.current
    const inner = content.current
    if (!el || !inner) return
    const onScroll = () => {
      const near = el.scrollHeight - el.scrollTop - el.clientHeight <= NEAR_END
      stuck.current = near
      setAtEnd(near)
    }
    // Growth (a token, a new turn) keeps the end in view only while stuck.
    const observer = new ResizeObserver(() => {
      if (stuck.current) toEnd()
      else setAtEnd(el.scrollHeight - el.scrollTop - el.clientHeight <= NEAR_END)
    })
    observer.observe(inner)
    el.addEventListener('scroll', onScroll, { passive: true })
    toEnd()
    return () => {
      observer.disconnect()
      el.removeEventListener('scroll', onScroll)
    }
  }, [toEnd])
  const jump = useCallback(() => {
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
    <div data-weft="chat" data-state={atEnd ? 'at-end' : 'scrolled'} {...rest} ref={ref}>
      <div data-weft="chat-viewport" ref={viewport}>
        <div data-weft="chat-column" ref={content}>
          {children ?? <Transcript.Root />}
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
