/**
 * The turns of a long transcript, virtualized: only the turns near the
 * viewport are in the DOM; the others are space of their measured (or
 * estimated) height. Loaded on first use, so short chats never fetch it.
 */
import { forwardRef, useLayoutEffect, useRef, useState, type CSSProperties, type ReactNode, type RefObject } from 'react'
import { Virtualizer } from 'virtua'

/**
 * Props of `VirtualTurns`.
 *
 * @example
 * <VirtualTurns turnIds={ids} scrollRef={viewport} draw={(ids) => ids.map((id) => <Transcript.Turn key={id} turnId={id} />)} />
 */
export interface VirtualTurnsProps {
  turnIds: readonly string[]
  /** The element that scrolls (the chat's viewport). */
  scrollRef: RefObject<HTMLElement | null>
  /** Draws turns, one keyed element each. */
  draw: (turnIds: readonly string[]) => ReactNode[]
}

/**
 * One row of the virtual list: a turn, with the gap after it as padding,
 * since absolutely placed rows do not take the transcript's flex gap.
 */
const Row = forwardRef<HTMLDivElement, { style: CSSProperties; index: number; children: ReactNode }>(function Row({ style, children }, ref) {
  return <div data-weft="virtual-turn" style={style} ref={ref}>{children}</div>
})

/**
 * Draws the turns near the viewport of `scrollRef`, and the last turn after
 * them. Rows are measured as they mount, so a row that changes height moves the
 * ones below it.
 *
 * @example
 * <VirtualTurns turnIds={ids} scrollRef={viewport} draw={(ids) => ids.map((id) => <Transcript.Turn key={id} turnId={id} />)} />
 */
export default function VirtualTurns({ turnIds, scrollRef, draw }: VirtualTurnsProps) {
  const anchor = useRef<HTMLDivElement | null>(null)
  const [startMargin, setStartMargin] = useState(0)
  // Whatever stands above the list inside the scroller (the column's padding) is its start margin.
  // Measured when the list mounts and when the window resizes (a breakpoint may change the padding),
  // not after every render: each measure forces a layout of the whole transcript.
  useLayoutEffect(() => {
    const scroller = scrollRef.current
    const here = anchor.current
    if (!scroller || !here) return
    const measure = () => setStartMargin(Math.round(here.getBoundingClientRect().top - scroller.getBoundingClientRect().top + scroller.scrollTop))
    measure()
    const view = here.ownerDocument.defaultView
    view?.addEventListener('resize', measure)
    return () => view?.removeEventListener('resize', measure)
  }, [scrollRef])
  return (
    <>
      <div ref={anchor} data-weft="virtual-start" />
      <Virtualizer scrollRef={scrollRef} startMargin={startMargin} item={Row} bufferSize={600}>
        {draw(turnIds.slice(0, -1))}
      </Virtualizer>
      {/* The last turn is drawn after the list, not in it. While it streams, the list would measure it
          after every drawn frame, commit again and move the viewport to keep up; when it finishes,
          nothing moves: it joins the list only once another turn follows it. */}
      {draw(turnIds.slice(-1))}
    </>
  )
}
