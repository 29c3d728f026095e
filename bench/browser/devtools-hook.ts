/**
 * Counts React commits: React calls the devtools hook once per commit, in
 * production builds too. Imported before React, which looks for the hook when it loads.
 *
 * Each commit is also put down to what started the work it commits: an
 * animation frame (weft's store applies a stream's ops once per frame), a
 * ResizeObserver callback (the virtual list measuring rows, the chat following
 * the end), a scroll event, or a task React scheduled itself (`scheduler`).
 * A callback's tag lasts to the end of its microtasks, where React commits the
 * updates made inside it.
 */
export const commitTimes: number[] = []
export const commitSources: string[] = []

let source = 'scheduler'
function tagged<A extends unknown[], R>(name: string, fn: (...args: A) => R): (...args: A) => R {
  return (...args: A) => {
    source = name
    try {
      return fn(...args)
    } finally {
      queueMicrotask(() => queueMicrotask(() => { if (source === name) source = 'scheduler' }))
    }
  }
}

const raf = window.requestAnimationFrame.bind(window)
window.requestAnimationFrame = (callback) => raf(tagged('animation frame', callback))
const NativeResizeObserver = window.ResizeObserver
window.ResizeObserver = class extends NativeResizeObserver {
  constructor(callback: ResizeObserverCallback) {
    super(tagged('ResizeObserver', callback))
  }
}
const listen = EventTarget.prototype.addEventListener
EventTarget.prototype.addEventListener = function (this: EventTarget, type: string, listener: EventListenerOrEventListenerObject | null, options?: boolean | AddEventListenerOptions) {
  if (type === 'scroll' && typeof listener === 'function') {
    const wrapped = tagged('scroll event', listener as (event: Event) => void)
    wrappers.set(listener, wrapped)
    return listen.call(this, type, wrapped, options)
  }
  return listen.call(this, type, listener, options)
}
const unlisten = EventTarget.prototype.removeEventListener
const wrappers = new WeakMap<object, EventListener>()
EventTarget.prototype.removeEventListener = function (this: EventTarget, type: string, listener: EventListenerOrEventListenerObject | null, options?: boolean | EventListenerOptions) {
  return unlisten.call(this, type, (listener && wrappers.get(listener)) ?? listener, options)
}

;(window as unknown as { __REACT_DEVTOOLS_GLOBAL_HOOK__: unknown }).__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
  supportsFiber: true,
  renderers: new Map(),
  inject: () => 1,
  onCommitFiberRoot: () => {
    commitTimes.push(performance.now())
    commitSources.push(source)
  },
  onCommitFiberUnmount: () => undefined,
  onPostCommitFiberRoot: () => undefined,
  checkDCE: () => undefined,
}
