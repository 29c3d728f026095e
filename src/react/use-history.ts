/**
 * History in React for any protocol: a `HistoryPager` per store (so each
 * conversation pages its own history), and older pages on scroll-up with the
 * reader's place kept.
 */
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useSyncExternalStore, type RefObject } from 'react'
import type { WeftError } from '../core/errors'
import { HistoryPager, type HistorySource } from '../core/history/pager'
import { useAgentStore } from './provider'
import { useAgentSelector } from './selectors'

/**
 * Options of `useHistory`.
 *
 * @example
 * const options: UseHistoryOptions<string> = { load: async (before) => ({ batch: uiMessageHistory(await getPage(before)), hasMore: false }) }
 */
export interface UseHistoryOptions<C> {
  /** Fetch one page; `before` is undefined for the newest. The latest function is used for each page. */
  load: HistorySource<C>
  /** Load the newest page on mount (default true). */
  enabled?: boolean
}

/**
 * What `useHistory` returns.
 *
 * @example
 * const { loadOlder, hasMore, loading, error }: HistoryHandle = useHistory(options)
 */
export interface HistoryHandle {
  /** Load the next older page; a failure lands in `error` and calling again retries. */
  loadOlder(): Promise<void>
  hasMore: boolean
  loading: boolean
  error: WeftError | undefined
}

/**
 * Page a conversation's history into the nearest store (under a
 * `ConversationsProvider`, the selected conversation's). Pages that overlap
 * what the store shows are de-duplicated.
 *
 * @example
 * const history = useHistory({
 *   load: async (before, signal) => {
 *     const res = await fetch(`/api/chat/${chatId}/messages?before=${before ?? ''}`, { signal })
 *     const { messages, next } = await res.json()
 *     return { batch: uiMessageHistory(messages), next, hasMore: next !== null }
 *   },
 * })
 */
export function useHistory<C>(options: UseHistoryOptions<C>): HistoryHandle {
  const store = useAgentStore()
  const { enabled = true } = options
  const latest = useRef(options.load)
  latest.current = options.load
  const pager = useMemo(() => new HistoryPager<C>(store, (before, signal) => latest.current(before, signal)), [store])
  useEffect(() => {
    if (enabled) void pager.loadFirst()
  }, [pager, enabled])
  const status = useSyncExternalStore(
    useCallback((listener: () => void) => pager.subscribe(listener), [pager]),
    () => pager.status,
    () => pager.status,
  )
  const loadOlder = useCallback(() => pager.loadOlder(), [pager])
  return { loadOlder, hasMore: status.hasMore, loading: status.loading, error: status.error }
}

/**
 * Load older pages when the reader scrolls near the top of `container`, and keep
 * what they were reading where it was when the page lands above it.
 *
 * @example
 * const ref = useRef<HTMLDivElement>(null)
 * useOlderOnScroll(ref, useHistory({ load }))
 * return <div ref={ref} style={{ overflow: 'auto', height: 400 }}><Transcript.Root /></div>
 */
export function useOlderOnScroll(
  container: RefObject<HTMLElement | null>,
  history: Pick<HistoryHandle, 'loadOlder' | 'hasMore' | 'loading'>,
  options: { threshold?: number } = {},
): void {
  const { threshold = 80 } = options
  // Distance from the content's bottom to the viewport's top: it stays put while content is added above.
  const fromBottom = useRef<number | undefined>(undefined)
  const { loadOlder, hasMore, loading } = history
  useEffect(() => {
    const element = container.current
    if (!element) return
    const onScroll = () => {
      if (element.scrollTop > threshold || !hasMore || loading) return
      fromBottom.current = element.scrollHeight - element.scrollTop
      void loadOlder()
    }
    element.addEventListener('scroll', onScroll, { passive: true })
    return () => element.removeEventListener('scroll', onScroll)
  }, [container, threshold, hasMore, loading, loadOlder])

  const turns = useAgentSelector((s) => s.turnIds.length)
  const drawn = useRef(turns)
  // Before paint, in the commit that drew the older turns (or that ended a page which added none).
  useLayoutEffect(() => {
    const element = container.current
    const added = turns !== drawn.current
    drawn.current = turns
    if (!element || fromBottom.current === undefined || (!added && loading)) return
    element.scrollTop = element.scrollHeight - fromBottom.current
    fromBottom.current = undefined
  }, [turns, loading, container])
}
