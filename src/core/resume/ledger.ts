/**
 * The per-turn record of what was folded: one fingerprint per counted event, in
 * order, plus the events' own keys. Kept in memory only; it is what lets a
 * replay be aligned against what the store already shows.
 */
import type { ReplayItem } from './types'

/**
 * What strategies and filters may read of a ledger.
 *
 * @example
 * ledger.count; ledger.fingerprintAt(0); ledger.indexOfKey('run_1:0003')
 */
export interface LedgerView {
  /** Counted events folded so far. */
  readonly count: number
  /**
   * The fingerprint of the counted event at `index`; an empty string when the
   * event is known to have been folded but not what it was (see `seed`).
   */
  fingerprintAt(index: number): string | undefined
  /** Where the event with this key was folded. */
  indexOfKey(key: string): number | undefined
  /** The key of the last folded event that had one. */
  readonly lastKey: string | undefined
  /** The largest numeric key folded (a Yao sequence). */
  readonly maxNumericKey: number | undefined
  /** How many folded events had this fingerprint. */
  occurrences(fingerprint: string): number
}

/**
 * The ledger of one turn.
 *
 * @example
 * const ledger = new TurnLedger()
 * ledger.record({ frame, event, json: true, fingerprint: fingerprint(frame.data), counted: true })
 * ledger.count // 1
 */
export class TurnLedger implements LedgerView {
  private readonly prints: string[] = []
  // Wire strings only ever land in a Map, never as object keys.
  private readonly keys = new Map<string, number>()
  /** How often each fingerprint was folded, counted up to `seenUpTo` only when asked: a resume asks, a stream does not. */
  private readonly seen = new Map<string, number>()
  private seenUpTo = 0
  private last: string | undefined
  private maxNumeric: number | undefined

  get count(): number {
    return this.prints.length
  }

  get lastKey(): string | undefined {
    return this.last
  }

  get maxNumericKey(): number | undefined {
    return this.maxNumeric
  }

  fingerprintAt(index: number): string | undefined {
    return this.prints[index]
  }

  indexOfKey(key: string): number | undefined {
    return this.keys.get(key)
  }

  occurrences(fingerprint: string): number {
    for (; this.seenUpTo < this.prints.length; this.seenUpTo++) {
      const print = this.prints[this.seenUpTo] as string
      // A seeded event's print is empty: it was folded, but what it was is not known.
      if (print !== '') this.seen.set(print, (this.seen.get(print) ?? 0) + 1)
    }
    return this.seen.get(fingerprint) ?? 0
  }

  /**
   * Note `count` events folded before this ledger existed (a store that kept the
   * turn across a reload): they count, but cannot be compared.
   */
  seed(count: number): void {
    for (let i = 0; i < count; i++) this.prints.push('')
  }

  /** Note one folded event (uncounted events are not recorded). */
  record(item: ReplayItem): void {
    if (!item.counted) return
    if (item.key !== undefined) {
      this.keys.set(item.key, this.prints.length)
      this.last = item.key
      const n = Number(item.key)
      if (item.key.trim() !== '' && Number.isFinite(n) && (this.maxNumeric === undefined || n > this.maxNumeric)) this.maxNumeric = n
    }
    this.prints.push(item.fingerprint)
  }
}
