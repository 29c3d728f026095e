/**
 * AG-UI history in React: loads the latest day into the provider's store on
 * mount and older days on demand. A thin binding over the framework-free `AgUiHistory`.
 */
import { useCallback, useEffect, useMemo, useSyncExternalStore } from 'react'
import type { WeftError } from '../../../core/index'
import { useAgentStore } from '../../../react/index'
import { AgUiHistory, type AgUiHistoryOptions } from '../history'

/**
 * Options of `useAgUiHistory`.
 *
 * @example
 * const options: UseAgUiHistoryOptions = { historyUrl: '/api/v1/agent/history', credentials: 'include' }
 */
export interface UseAgUiHistoryOptions extends AgUiHistoryOptions {
  /** Load the latest page on mount (default true). */
  enabled?: boolean
}

/**
 * What `useAgUiHistory` returns.
 *
 * @example
 * const { loadOlder, hasMore, loading, error }: AgUiHistoryHandle = useAgUiHistory(options)
 */
export interface AgUiHistoryHandle {
  /** Load the next older day; a failure lands in `error` and calling again retries. */
  loadOlder(): Promise<void>
  hasMore: boolean
  loading: boolean
  error: WeftError | undefined
}

/**
 * Page the conversation's history into the nearest `AgentProvider`'s store.
 * Load it before sending: runs the events stream replays are then recognised
 * and never shown twice.
 *
 * @example
 * function Transcript() {
 *   const { loadOlder, hasMore, loading } = useAgUiHistory({ historyUrl: '/api/v1/agent/history' })
 *   return hasMore ? <button disabled={loading} onClick={() => loadOlder()}>Earlier</button> : null
 * }
 */
export function useAgUiHistory(options: UseAgUiHistoryOptions): AgUiHistoryHandle {
  const store = useAgentStore()
  const { historyUrl, enabled = true } = options
  // A new loader only for a new store or endpoint; the latest headers and fetch serve the next page.
  const history = useMemo(() => new AgUiHistory(store, options), [store, historyUrl])
  history.setOptions(options)

  // Loading the first page is idempotent, so StrictMode's second mount does not ask twice. An unmount
  // does not abort: the page belongs to the store, which outlives this component.
  useEffect(() => {
    if (enabled) void history.loadFirst()
  }, [history, enabled])

  const status = useSyncExternalStore(
    useCallback((listener: () => void) => history.subscribe(listener), [history]),
    () => history.status,
    () => history.status,
  )
  const loadOlder = useCallback(() => history.loadOlder(), [history])
  return { loadOlder, hasMore: status.hasMore, loading: status.loading, error: status.error }
}
