/**
 * Measuring helpers: a network-like byte source and a best-of-N timer.
 * Figures are printed, never asserted.
 */
import { performance as nodePerformance } from 'node:perf_hooks'

/**
 * A streaming `Response` that hands over one chunk per macrotask, the way
 * bytes arrive from a socket, so per-arrival batching behaves as in a browser.
 */
export function networkResponse(chunks: readonly Uint8Array[], contentType = 'text/event-stream'): Response {
  let i = 0
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      return new Promise<void>((resolve) => {
        setImmediate(() => {
          try {
            if (i < chunks.length) controller.enqueue(chunks[i++] as Uint8Array)
            else controller.close()
          } catch {
            // The reader cancelled: it stops at the protocol's own end.
          }
          resolve()
        })
      })
    },
  })
  return new Response(body, { headers: { 'content-type': contentType } })
}

/**
 * A mark to measure busy time from (see `busySince`).
 *
 * @example
 * const mark = busyMark(); await work(); const ms = busySince(mark)
 */
export const busyMark = () => nodePerformance.eventLoopUtilization()

/**
 * Ms the event loop was busy since `mark`: the wall time less what it spent idle,
 * waiting for a timer or for I/O. A client with per-frame batches waits for the
 * next frame before it draws the end of a stream; that wait is not work, so the
 * benches time every path this way (for work that never waits it is the wall time).
 *
 * @example
 * const mark = busyMark(); await client.send(); busySince(mark)
 */
export const busySince = (mark: ReturnType<typeof busyMark>) => nodePerformance.eventLoopUtilization(mark).active

/** Split bytes into chunks of about `size` bytes. */
export function chunkBytes(bytes: Uint8Array, size: number): Uint8Array[] {
  const out: Uint8Array[] = []
  for (let at = 0; at < bytes.length; at += size) out.push(bytes.subarray(at, Math.min(at + size, bytes.length)))
  return out
}

/**
 * Run `fn` `rounds` times after two warm-ups and return the median time in ms.
 * No forced collection between rounds: a full GC before each round shrinks the
 * young generation and charges the next round with scavenges it would not see
 * in a page that has been running.
 */
export async function best(rounds: number, fn: () => Promise<void> | void): Promise<number> {
  await fn()
  await fn()
  const times: number[] = []
  for (let r = 0; r < rounds; r++) {
    const start = performance.now()
    await fn()
    times.push(performance.now() - start)
  }
  return median(times)
}

/** The middle value. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] as number
}

/** A table row printer with aligned columns. */
export function table(rows: Array<Record<string, string | number>>): void {
  if (rows.length === 0) return
  const keys = Object.keys(rows[0]!)
  const widths = keys.map((k) => Math.max(k.length, ...rows.map((r) => String(r[k]).length)))
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ')
  console.log(line(keys))
  console.log(line(widths.map((w) => '-'.repeat(w))))
  for (const row of rows) console.log(line(keys.map((k) => String(row[k]))))
  console.log()
}

/** Thousands separators for readability. */
export function n(value: number, digits = 0): string {
  return value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })
}
