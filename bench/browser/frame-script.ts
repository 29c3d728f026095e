/**
 * Script time per animation frame from a Chromium performance trace, shared by
 * the browser benches. A page's own start (its script evaluated, a thousand
 * messages mounted) fills a few dozen whole frames, enough to be the p95 of a
 * stream of a few hundred; so a bench reports the frames of the whole page and,
 * between two `performance.mark`s, the frames while the answer streams.
 */

/** The fields of a trace event the benches read. */
export interface TraceEvent { name: string; cat?: string; ph: string; ts: number; dur?: number; pid: number; tid: number; args?: Record<string, unknown> }

/** The categories a bench traces: timeline events, V8's script events and `performance.mark`s. */
export const TRACE_CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'toplevel', 'blink.user_timing']

const FRAME_US = (1000 / 60) * 1000

/** Script events at the top of the renderer's main thread (nested ones are inside their parent's time). */
export const SCRIPT_EVENTS: ReadonlySet<string> = new Set(['FunctionCall', 'EvaluateScript', 'TimerFire', 'FireAnimationFrame', 'RunMicrotasks', 'v8.callFunction', 'v8.run', 'EventDispatch'])

function mainThread(events: TraceEvent[]): { pid: number; tid: number } {
  const named = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
  if (!named) throw new Error('no renderer main thread in the trace')
  return { pid: named.pid, tid: named.tid }
}

/**
 * The trace time of a `performance.mark(name)` in the page, or undefined.
 *
 * @example
 * const from = markAt(trace.traceEvents, 'weft-stream-start')
 */
export function markAt(events: TraceEvent[], name: string): number | undefined {
  return events.find((e) => e.name === name && (e.cat ?? '').includes('user_timing'))?.ts
}

/**
 * Ms in each 16.7 ms window from `from` to `to` (trace times; from the first to the
 * last such event when absent) of the top-level main-thread events named in
 * `names`; a window with none counts 0. An event spanning windows charges each
 * the part it spent there, and only its part inside the range counts.
 *
 * @example
 * const rendering = timePerWindow(trace.traceEvents, new Set(['Layout', 'Paint']), from, to)
 */
export function timePerWindow(events: TraceEvent[], names: ReadonlySet<string>, from = -Infinity, to = Infinity): number[] {
  const main = mainThread(events)
  const own = events
    .filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && names.has(e.name) && e.dur !== undefined && e.ts + e.dur > from && e.ts < to)
    .sort((a, b) => a.ts - b.ts)
  const top: TraceEvent[] = []
  let end = -Infinity
  for (const e of own) {
    if (e.ts >= end) {
      top.push(e)
      end = e.ts + e.dur!
    }
  }
  const start = Number.isFinite(from) ? from : (top[0]?.ts ?? 0)
  const stopAt = Number.isFinite(to) ? to : Math.max(start, end)
  const windows = new Array<number>(Math.max(1, Math.ceil((stopAt - start) / FRAME_US))).fill(0)
  for (const e of top) {
    let at = Math.max(e.ts, start)
    const stop = Math.min(e.ts + e.dur!, stopAt)
    while (at < stop) {
      let w = Math.floor((at - start) / FRAME_US)
      // Rounding can put `at` on its window's end; it then belongs to the next window
      // (without this the slice is empty and the loop never ends).
      if (start + (w + 1) * FRAME_US <= at) w += 1
      const slice = Math.min(stop, start + (w + 1) * FRAME_US) - at
      if (w < windows.length) windows[w]! += slice
      at += slice
    }
  }
  return windows.map((us) => us / 1000)
}

/**
 * Script ms in each 16.7 ms window that had any script, from `from` to `to`
 * (the whole trace when absent).
 *
 * @example
 * percentile(scriptPerFrame(trace.traceEvents), 95)
 */
export function scriptPerFrame(events: TraceEvent[], from?: number, to?: number): number[] {
  return timePerWindow(events, SCRIPT_EVENTS, from, to).filter((ms) => ms > 0)
}

/**
 * The value at the p-th percentile (nearest rank), 0 for no values.
 *
 * @example
 * percentile([1, 2, 3, 4], 50) // 3
 */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0
}
