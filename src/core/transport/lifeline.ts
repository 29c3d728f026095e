/**
 * One request's abort controller, tied to the caller's signal and to an idle
 * watchdog, so every wait can tell "the caller stopped" from "the server went
 * silent" from "the network failed".
 */

/**
 * Raised inside {@link Lifeline.within} when the request was aborted, by the
 * caller or by the watchdog; check `callerAborted` / `timedOut` to tell which.
 *
 * @example
 * try { await line.within(reader.read()) } catch (e) { if (!(e instanceof LifelineAbort)) throw e }
 */
export class LifelineAbort extends Error {
  constructor() {
    super('request aborted')
    this.name = 'LifelineAbort'
  }
}

/**
 * Abort controller plus idle watchdog for one request.
 *
 * @example
 * const line = new Lifeline(callerSignal, 45_000)
 * try {
 *   const res = await line.within(fetch(url, { signal: line.signal }))
 * } finally {
 *   line.dispose()
 * }
 */
export class Lifeline {
  private readonly controller = new AbortController()
  // One timer serves every wait: a read moves the deadline and leaves the timer be, and
  // the timer, when it fires early, waits again for what is left. Arming and clearing a
  // timer per read cost more than the read in a browser.
  private timer: ReturnType<typeof setTimeout> | undefined
  private timerAt = Infinity
  private deadline = Infinity
  private armedMs = 0
  private armedGrace = false
  private fired = false
  private disposed = false
  private graceMs: number | undefined
  private graceFired = false
  private readonly aborted: Promise<never>
  private readonly onCallerAbort = (): void => this.controller.abort(this.callerSignal?.reason)

  constructor(
    private readonly callerSignal: AbortSignal | undefined,
    private readonly idleMs: number,
  ) {
    this.aborted = new Promise<never>((_, reject) => {
      this.controller.signal.addEventListener('abort', () => reject(new LifelineAbort()), { once: true })
    })
    // Nobody may be waiting when the abort happens; that must not surface as unhandled.
    this.aborted.catch(() => {})
    if (callerSignal?.aborted) this.onCallerAbort()
    else callerSignal?.addEventListener('abort', this.onCallerAbort, { once: true })
  }

  /** The signal to hand to `fetch`. */
  get signal(): AbortSignal {
    return this.controller.signal
  }

  /** The caller's own signal aborted. */
  get callerAborted(): boolean {
    return this.callerSignal?.aborted === true
  }

  /** The watchdog fired (and the caller had not aborted first). */
  get timedOut(): boolean {
    return this.fired && !this.graceFired && !this.callerAborted
  }

  /** The grace period after the protocol's end ran out with no more bytes: a clean end, not a failure. */
  get graceOver(): boolean {
    return this.graceFired && !this.callerAborted
  }

  /**
   * From now on, wait at most `ms` for the next bytes (the protocol has ended and
   * only stragglers may follow); `undefined` goes back to the idle timeout.
   */
  settle(ms: number | undefined): void {
    this.graceMs = ms
  }

  /**
   * Await `work` with the watchdog armed. Rejects with `LifelineAbort` as soon as
   * the request is aborted, even if `work` ignores the signal (an injected fetch,
   * a hand-made body stream).
   */
  async within<T>(work: Promise<T>): Promise<T> {
    this.arm()
    try {
      return await Promise.race([work, this.aborted])
    } finally {
      this.disarm()
    }
  }

  /** Stop the watchdog and let go of the caller's signal. Safe to call twice. */
  dispose(): void {
    if (this.disposed) return
    this.disposed = true
    this.deadline = Infinity
    clearTimeout(this.timer)
    this.timer = undefined
    this.callerSignal?.removeEventListener('abort', this.onCallerAbort)
  }

  private arm(): void {
    const grace = this.graceMs
    const ms = grace !== undefined && (this.idleMs <= 0 || grace < this.idleMs) ? grace : this.idleMs
    if (ms <= 0 || this.disposed) return
    this.deadline = Date.now() + ms
    this.armedMs = ms
    this.armedGrace = ms === grace
    // A later timer would fire too late (the grace period is shorter than the idle timeout).
    if (this.timerAt > this.deadline) this.schedule(ms)
    else this.holdProcess(true)
  }

  private schedule(ms: number): void {
    if (this.timer !== undefined) clearTimeout(this.timer)
    this.timerAt = Date.now() + ms
    this.timer = setTimeout(() => this.check(), ms)
  }

  private check(): void {
    this.timerAt = Infinity
    const left = this.deadline - Date.now()
    // No wait is under way: the next one sets the timer again.
    if (left === Infinity || this.disposed) return
    if (left > 0) return this.schedule(left)
    this.fired = true
    this.graceFired = this.armedGrace
    this.controller.abort(new DOMException(`no data for ${this.armedMs} ms`, 'TimeoutError'))
  }

  private disarm(): void {
    this.deadline = Infinity
    // Between waits the timer must not keep a Node process alive on its own.
    this.holdProcess(false)
  }

  /** Node's timers can stop holding the process open and start again; a browser's timer is a number and has neither. */
  private holdProcess(hold: boolean): void {
    const timer = this.timer as { ref?(): void; unref?(): void } | undefined
    if (hold) timer?.ref?.()
    else timer?.unref?.()
  }
}
