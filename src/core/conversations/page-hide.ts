/**
 * The moments a page may go away without warning: `pagehide`, and the page
 * being hidden (`visibilitychange`), after which a browser may discard it.
 */

/**
 * Call `onHide` whenever the page goes away or is hidden. Returns how to stop
 * listening, or undefined where there is no page (a server, a worker).
 *
 * @example
 * const unwatch = watchPageHide(() => conversations.writeJournal())
 * unwatch?.()
 */
export function watchPageHide(onHide: () => void): (() => void) | undefined {
  if (typeof addEventListener !== 'function' || typeof document === 'undefined') return undefined
  const onVisibility = () => {
    if (document.visibilityState === 'hidden') onHide()
  }
  addEventListener('pagehide', onHide)
  document.addEventListener('visibilitychange', onVisibility)
  return () => {
    removeEventListener('pagehide', onHide)
    document.removeEventListener('visibilitychange', onVisibility)
  }
}
