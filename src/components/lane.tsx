/**
 * The controls of a sub-agent's lane: its summary line that opens and collapses
 * it, focus and hide, the bar that says a lane is focused, and the button that
 * shows hidden lanes again. The transcript's lanes and the timeline's lane rows
 * draw them; they share one view state (`useLaneView`).
 */
import { createContext, forwardRef, useContext, useEffect, useRef, type ButtonHTMLAttributes, type HTMLAttributes, type MouseEvent, type ReactNode } from 'react'
import { useThread } from '../react/selectors'
import { asText } from './format'
import { useLabels } from './labels'
import { useHiddenLanes, useLaneView } from './lane-view'
import { drawPart } from './slot'
import { useTurnIdFrom } from './turn-context'

interface LaneContextValue {
  threadId: string
  /** The id of the element the lane's summary opens and collapses. */
  controls?: string
  /** What the summary counts, in words ("2 messages", "3 steps"). */
  count?: string
  /** Whether the summary shows the lane's name (its accessible name always has it). */
  named?: boolean
}

const LaneContext = createContext<LaneContextValue | undefined>(undefined)

function useLaneContext(explicit: string | undefined): LaneContextValue {
  const context = useContext(LaneContext)
  return explicit !== undefined && explicit !== context?.threadId ? { threadId: explicit } : context ?? { threadId: '' }
}

/**
 * Move keyboard focus, once React has drawn the change, to the first match in
 * `scope`; with `ifLost`, only when the change took it from the page (the
 * button pressed was drawn again elsewhere) and nothing took it since.
 */
function focusLater(scope: ParentNode, selector: string, ifLost = false) {
  requestAnimationFrame(() => {
    const active = document.activeElement
    if (ifLost && active && active !== document.body && active.isConnected) return
    scope.querySelector<HTMLElement>(selector)?.focus()
  })
}

/** A lane's focus button; the id goes in a quoted attribute value, so only quotes and backslashes need escaping. */
const focusButtonOf = (threadId: string) => `[data-weft="lane-focus-button"][data-lane="${threadId.replace(/["\\]/g, '\\$&')}"]`

/**
 * Props of `SubAgentLane.Header`.
 *
 * @example
 * <SubAgentLane.Header threadId={thread.id} count="2 messages" />
 */
export interface LaneHeaderProps extends HTMLAttributes<HTMLDivElement> {
  threadId: string
  /** The id of the element the summary opens and collapses (its `aria-controls`). */
  controls?: string
  /** What the summary counts, in words. */
  count?: string
  /** Show the lane's name on the summary (default true; the timeline's row already shows it). */
  named?: boolean
  /** Render the host's own element (its only child) as the header; the default controls go inside it. */
  asChild?: boolean
}

/**
 * A lane's header: `SubAgentLane.Toggle` (its name, status and count; opens and
 * collapses it), `SubAgentLane.Focus` and `SubAgentLane.Hide`, or the parts the host puts in
 * it. `data-state` is the lane's view: `open`, `collapsed`, `hidden` or `focused`.
 *
 * @example
 * <SubAgentLane.Header threadId="sub_web" count="2 messages" />
 * <SubAgentLane.Header threadId="sub_web"><SubAgentLane.Toggle /><SubAgentLane.Focus /></SubAgentLane.Header>
 */
const Header = forwardRef<HTMLDivElement, LaneHeaderProps>(function LaneHeader({ threadId, controls, count, named = true, asChild, children, ...rest }, ref) {
  const view = useLaneView(threadId)
  const parts = children !== undefined && !asChild ? children : <><Toggle /><Focus /><Hide /></>
  const props = { ...rest, 'data-weft': 'lane-header', 'data-state': view.state }
  return (
    <LaneContext.Provider value={{ threadId, controls, count, named }}>
      {drawPart('div', asChild, children, props, ref, parts)}
    </LaneContext.Provider>
  )
})

/**
 * Props of `SubAgentLane.Toggle`, `SubAgentLane.Focus` and `SubAgentLane.Hide`.
 *
 * @example
 * <SubAgentLane.Toggle threadId="sub_web" />
 */
export interface LaneButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  /** Default: the enclosing `SubAgentLane.Header`'s lane. */
  threadId?: string
  /** Render the host's own element (its only child) as the button. */
  asChild?: boolean
}

/**
 * The lane's summary line, a button: its name, status and count. It opens and
 * collapses the lane (`aria-expanded`); `data-state` is the lane's view.
 *
 * @example
 * <SubAgentLane.Header threadId="sub_web"><SubAgentLane.Toggle /></SubAgentLane.Header>
 */
const Toggle = forwardRef<HTMLButtonElement, LaneButtonProps>(function LaneToggle({ threadId: explicit, asChild, children, onClick, ...rest }, ref) {
  const labels = useLabels()
  const { threadId, controls, count, named = true } = useLaneContext(explicit)
  const thread = useThread(threadId)
  const view = useLaneView(threadId)
  const name = asText(thread?.label) || labels.lane
  const status = labels.laneStatus(asText(thread?.status))
  const text = [named && name, status, count].filter(Boolean).join(' · ')
  const props = {
    type: 'button' as const, 'aria-label': named ? undefined : [name, text].join(' · '), ...rest,
    'data-weft': 'lane-toggle', 'data-state': view.state, 'aria-expanded': view.state !== 'collapsed', 'aria-controls': controls,
    onClick: (event: MouseEvent<HTMLButtonElement>) => { onClick?.(event); if (!event.defaultPrevented) view.toggle() },
  }
  return drawPart('button', asChild, children, props, ref, text)
})

/**
 * Shows only this lane's work, or, pressed again, every lane (`aria-pressed`).
 *
 * @example
 * <SubAgentLane.Header threadId="sub_web"><SubAgentLane.Focus /></SubAgentLane.Header>
 */
const Focus = forwardRef<HTMLButtonElement, LaneButtonProps>(function LaneFocus({ threadId: explicit, asChild, children, onClick, ...rest }, ref) {
  const labels = useLabels()
  const { threadId } = useLaneContext(explicit)
  const thread = useThread(threadId)
  const view = useLaneView(threadId)
  const focused = view.state === 'focused'
  const name = asText(thread?.label) || labels.lane
  const props = {
    type: 'button' as const, ...rest, 'data-weft': 'lane-focus-button', 'data-lane': threadId, 'data-state': view.state,
    'aria-pressed': focused, 'aria-label': focused ? labels.laneShowAll : labels.laneFocus(name),
    onClick: (event: MouseEvent<HTMLButtonElement>) => {
      onClick?.(event)
      if (event.defaultPrevented) return
      if (focused) view.unfocus()
      else view.focus()
      // The lane is drawn again elsewhere (alone, or back in its block): keep the keyboard on its
      // button, unless the focus bar that appeared took it.
      focusLater(document, focusButtonOf(threadId), true)
    },
  }
  return drawPart('button', asChild, children, props, ref, focused ? labels.laneShowAll : labels.laneFocusShort)
})

/**
 * Hides the lane; `SubAgentLane.Restore` shows it again.
 *
 * @example
 * <SubAgentLane.Header threadId="sub_web"><SubAgentLane.Hide /></SubAgentLane.Header>
 */
const Hide = forwardRef<HTMLButtonElement, LaneButtonProps>(function LaneHide({ threadId: explicit, asChild, children, onClick, ...rest }, ref) {
  const labels = useLabels()
  const { threadId } = useLaneContext(explicit)
  const thread = useThread(threadId)
  const view = useLaneView(threadId)
  const props = {
    type: 'button' as const, ...rest, 'data-weft': 'lane-hide', 'data-state': view.state,
    'aria-label': labels.laneHide(asText(thread?.label) || labels.lane),
    onClick: (event: MouseEvent<HTMLButtonElement>) => {
      onClick?.(event)
      if (event.defaultPrevented) return
      const scope = event.currentTarget.closest('[data-weft="turn-content"], [data-weft="trace"]') ?? document
      view.hide()
      focusLater(scope, '[data-weft="lane-restore"]')
    },
  }
  return drawPart('button', asChild, children, props, ref, labels.laneHideShort)
})

/**
 * Props of `SubAgentLane.FocusBar`.
 *
 * @example
 * <SubAgentLane.FocusBar threadId="sub_web" />
 */
export interface LaneFocusBarProps extends HTMLAttributes<HTMLDivElement> {
  threadId: string
  /** Render the host's own element (its only child) as the bar. */
  asChild?: boolean
}

/**
 * Says that one lane is focused, with the way back ("Show all"), which takes
 * the keyboard when the bar appears. `data-state` is `focused`.
 *
 * @example
 * <SubAgentLane.FocusBar threadId="sub_web" />
 */
const FocusBar = forwardRef<HTMLDivElement, LaneFocusBarProps>(function LaneFocusBar({ threadId, asChild, children, ...rest }, ref) {
  const labels = useLabels()
  const thread = useThread(threadId)
  const view = useLaneView(threadId)
  const back = useRef<HTMLButtonElement | null>(null)
  useEffect(() => back.current?.focus({ preventScroll: true }), [])
  const content: ReactNode = (
    <>
      <span data-weft="lane-focus-text">{labels.laneFocused(asText(thread?.label) || labels.lane)}</span>
      <button type="button" data-weft="lane-unfocus" ref={back} onClick={() => { view.unfocus(); focusLater(document, focusButtonOf(threadId)) }}>
        {labels.laneShowAll}
      </button>
    </>
  )
  const props = { role: 'status', ...rest, 'data-weft': 'lane-focus', 'data-state': 'focused' }
  return drawPart('div', asChild, children, props, ref, content)
})

/**
 * Props of `SubAgentLane.Restore`.
 *
 * @example
 * <SubAgentLane.Restore turnId={turnId} />
 */
export interface LaneRestoreProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  /** Default: the enclosing turn. */
  turnId?: string
  /** Render the host's own element (its only child) as the button. */
  asChild?: boolean
}

/**
 * "Show 2 hidden lanes": shows the turn's hidden lanes again. Draws nothing
 * while none is hidden. `data-state` is `hidden`.
 *
 * @example
 * <SubAgentLane.Restore turnId={turnId} />
 */
const Restore = forwardRef<HTMLButtonElement, LaneRestoreProps>(function LaneRestore({ turnId: explicit, asChild, children, onClick, ...rest }, ref) {
  const labels = useLabels()
  const turnId = useTurnIdFrom(explicit)
  const { hidden, showAll } = useHiddenLanes(turnId)
  if (hidden.length === 0) return null
  const props = {
    type: 'button' as const, ...rest, 'data-weft': 'lane-restore', 'data-state': 'hidden',
    onClick: (event: MouseEvent<HTMLButtonElement>) => {
      onClick?.(event)
      if (event.defaultPrevented) return
      const first = hidden[0] as string
      showAll()
      focusLater(document, focusButtonOf(first))
    },
  }
  return drawPart('button', asChild, children, props, ref, labels.laneRestore(hidden.length))
})

/**
 * A sub-agent lane's parts: `Header` (`Toggle`, `Focus`, `Hide`), `FocusBar`
 * (one lane is focused, and the way back) and `Restore` (show hidden lanes).
 * `Transcript.Thread` and the timeline's lane rows draw them.
 *
 * @example
 * <SubAgentLane.Header threadId={threadId} count="2 messages" />
 */
export const SubAgentLane = { Header, Toggle, Focus, Hide, FocusBar, Restore } as const
