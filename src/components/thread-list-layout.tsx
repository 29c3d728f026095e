/**
 * The thread list beside the chat: a sidebar where there is room, a drawer
 * over the chat where there is not, opened by a button.
 */
import { createContext, forwardRef, useContext, useEffect, useId, useRef, useState, type FocusEvent, type HTMLAttributes, type ReactNode } from 'react'
import { useLabels } from './labels'

interface ThreadLayoutState {
  /** The list's id, for the toggle's `aria-controls`. */
  listId: string
  /** Closes the drawer (a conversation was chosen); nothing changes where the list is a sidebar. */
  close(): void
}

const ThreadLayoutContext = createContext<ThreadLayoutState | null>(null)

/** The layout around a `ThreadList`, if any. */
export function useThreadLayout(): ThreadLayoutState | null {
  return useContext(ThreadLayoutContext)
}

/**
 * Props of `ThreadListLayout`.
 *
 * @example
 * const props: ThreadListLayoutProps = { defaultOpen: false, children: null }
 */
export interface ThreadListLayoutProps extends HTMLAttributes<HTMLDivElement> {
  /** The `ThreadList` and the chat beside it. */
  children: ReactNode
  /** Whether the drawer starts open where the layout is narrow (default false). */
  defaultOpen?: boolean
}

/**
 * A `ThreadList` and its chat side by side, and where the layout is narrow (40rem
 * or less, a container query) the list becomes a drawer over the chat: a button
 * (`data-weft="thread-toggle"`, named by the `conversations` label, `aria-expanded`,
 * `aria-controls` the list) opens it, focus moves into the list, and choosing a
 * conversation or Escape (focus back on the button), a click beside it or focus
 * leaving it closes it. `data-state` is `open` or `closed`. Its frame
 * (`thread-layout-frame`) is the grid; the layout itself is the size container.
 *
 * @example
 * <ConversationsProvider conversations={conversations}>
 *   <ThreadListLayout style={{ height: '100vh' }}>
 *     <ThreadList />
 *     <Chat footer={<Composer send={send} stop={stop} />} />
 *   </ThreadListLayout>
 * </ConversationsProvider>
 */
export const ThreadListLayout = forwardRef<HTMLDivElement, ThreadListLayoutProps>(function ThreadListLayout({ children, defaultOpen = false, ...rest }, ref) {
  const labels = useLabels()
  const listId = useId()
  const [open, setOpen] = useState(defaultOpen)
  const toggle = useRef<HTMLButtonElement | null>(null)
  const frame = useRef<HTMLDivElement | null>(null)
  const list = () => frame.current?.querySelector<HTMLElement>(`[id="${CSS.escape(listId)}"]`) ?? null
  // The toggle shows only while the layout is narrow: then the list is a drawer.
  const drawer = () => toggle.current !== null && getComputedStyle(toggle.current).display !== 'none'

  useEffect(() => {
    if (!open || !drawer()) return
    const target = list()?.querySelector<HTMLElement>('[role="option"][tabindex="0"]') ?? list()?.querySelector<HTMLElement>('button')
    target?.focus()
  }, [open])

  const state: ThreadLayoutState = {
    listId,
    close: () => {
      // The chosen row is about to hide with the drawer: focus waits on the button that opens it again.
      if (open && drawer() && list()?.contains(document.activeElement)) toggle.current?.focus()
      setOpen(false)
    },
  }
  const leave = (event: FocusEvent<HTMLDivElement>) => {
    const next = event.relatedTarget as Node | null
    if (!open || !next || !list()?.contains(event.target as Node)) return
    if (!list()?.contains(next) && next !== toggle.current) setOpen(false)
  }
  return (
    <ThreadLayoutContext.Provider value={state}>
      <div {...rest} ref={ref} data-weft="thread-layout" data-state={open ? 'open' : 'closed'}>
        <div
          ref={frame}
          data-weft="thread-layout-frame"
          onBlur={leave}
          onKeyDown={(event) => {
            if (event.key !== 'Escape' || !open || !drawer()) return
            event.preventDefault()
            setOpen(false)
            toggle.current?.focus()
          }}
        >
          <button
            ref={toggle}
            type="button"
            data-weft="thread-toggle"
            aria-label={labels.conversations}
            title={labels.conversations}
            aria-expanded={open}
            aria-controls={listId}
            onClick={() => setOpen(!open)}
          >
            <svg width="1.25em" height="1.25em" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" aria-hidden="true">
              <path d="M4 6h16M4 12h16M4 18h16" />
            </svg>
          </button>
          <div data-weft="thread-backdrop" aria-hidden="true" onClick={() => setOpen(false)} />
          {children}
        </div>
      </div>
    </ThreadLayoutContext.Provider>
  )
})
