/**
 * Counts React commits: React calls the devtools hook once per commit, in
 * production builds too. Imported before React, which looks for the hook when it loads.
 */
export const commitTimes: number[] = []

;(window as unknown as { __REACT_DEVTOOLS_GLOBAL_HOOK__: unknown }).__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
  supportsFiber: true,
  renderers: new Map(),
  inject: () => 1,
  onCommitFiberRoot: () => { commitTimes.push(performance.now()) },
  onCommitFiberUnmount: () => undefined,
  onPostCommitFiberRoot: () => undefined,
  checkDCE: () => undefined,
}
