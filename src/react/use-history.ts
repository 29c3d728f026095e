/**
 * History in React for any protocol: a `HistoryPager` per store (so each
 * conversation pages its own history), and older pages on scroll-up with the
 * reader's place kept.
 */
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useSyncExternalStore, type RefObject } from 'react'
import { weftError, WeftStreamError, type WeftError } from '../core/model/errors'
import { HistoryPager, type HistorySource } from '../core/history/pager'
import { historyReaderOf } from '../core/protocol/history'
import type { ProtocolInput } from '../core/protocol/types'
import { useProtocols } from './protocols-context'
import { useAgentStore } from './provider'
import { useAgentSelector } from './selectors'

/**
 * Options of `useHistory`.
 *
 * @example
 * const options: UseHistoryOptions<string> = { protocol: 'ui-message', load: async (before) => ({ data: await getPage(before), hasMore: false }) }
 */
export interface UseHistoryOptions<C> {
  /**
   * Fetch one page; `before` is undefined for the newest. The latest function is used for each page.
   * A page hands over `data` (what the server returned, read by `protocol`'s history reader), or a `batch` or `ops` of its own.
   */
  load: HistorySource<C>
  /** The protocol whose `history` slot reads each page's `data`: a definition, or the name of one the provider was given. */
  protocol?: ProtocolInput
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
 * `ConversationsProvider`, the selected conversation's). Each page's `data` is
 * read by the protocol's own history reader (its definition's `history` slot);
 * pages that overlap what the store shows are de-duplicated.
 *
 * @example
 * const history = useHistory({
 *   protocol: 'ui-message',
 *   load: async (before, signal) => {
 *     const res = await fetch(`/api/chat/${chatId}/messages?before=${before ?? ''}`, { signal })
 *     const { messages, next } = await res.json()
 *     return { data: messages, next, hasMore: next !== null }
 *   },
 * })
 */
export function useHistory<C>(options: UseHistoryOptions<C>): HistoryHandle {
  const store = useAgentStore()
  const { enabled = true } = options
  const protocols = useProtocols()
  const latest = useRef({ ...options, protocols })
  latest.current = { ...options, protocols }
  const pager = useMemo(() => new HistoryPager<C>(
    store,
    (before, signal) => latest.current.load(before, signal),
    // The reader is looked up per page, so the provider's latest protocols are the ones read with.
    (data, context) => {
      const { protocol, protocols: given } = latest.current
      if (protocol === undefined) throw new WeftStreamError(weftError('validation', 'useHistory got a page of `data` but no `protocol` to read it with'))
      return historyReaderOf(protocol, given)(data, context)
    },
  ), [store])
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
