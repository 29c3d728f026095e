/**
 * Aligning a replay against what was already folded, so nothing lands twice.
 *
 * Keyed events (an SSE id, a Yao sequence) are recognised by their key. Events
 * without one are compared by fingerprint at the position the replay is expected
 * to start from; a server that went back further than asked is recognised by a
 * run of events that matches the ledger up to its end.
 *
 * That last case is ambiguous by nature: new events that repeat the last ones
 * folded ("la la ␠ la la ␠") look exactly like a server that went back. A run is
 * only taken as a replay when it holds a distinctive event (seen once before, with
 * real content), because identical structural events or sentences do not recur by
 * chance, while short tokens do.
 */
import type { LedgerView } from './ledger'
import type { ReplayFilter, ReplayItem } from './types'

/**
 * How to align one replayed connection.
 *
 * @example
 * const options: AlignOptions = { startAt: ledger.count, probeOlder: true, report: console.warn }
 */
export interface AlignOptions {
  /** The ledger index the replay is expected to start at (0: from the start; `count`: only new events). */
  startAt: number
  /**
   * Also recognise a replay that starts earlier than `startAt`, for streams whose
   * events carry no key (the server's count can drift).
   */
  probeOlder?: boolean
  /** The shortest run of matching events taken as a replay from an earlier point (default 1). */
  minOverlap?: number
  /**
   * Whether an event in such a run is evidence that the run is a replay, given how
   * often its fingerprint was folded (default: folded once, and at least 48
   * characters of data, so a repeated short token never is).
   */
  distinctive?: (item: ReplayItem, occurrences: number) => boolean
  /** Told when the replay differs from what was folded. */
  report(message: string): void
}

/**
 * A replay filter that drops repeats by key, or by fingerprint and position.
 *
 * @example
 * const filter = alignReplay(ledger, { startAt: 0, report: () => {} }) // an AI SDK replay from the start
 * for (const item of filter.push(replayed)) fold(item)
 */
export function alignReplay(ledger: LedgerView, options: AlignOptions): ReplayFilter {
  const minOverlap = Math.max(1, Math.floor(options.minOverlap ?? 1))
  const distinctive = options.distinctive ?? isDistinctive
  // Where the next unkeyed event is expected in the ledger. Once the replay has
  // passed the ledger's end it stays there: later events are new.
  let pos = Math.min(Math.max(0, Math.floor(options.startAt)), ledger.count)
  let probing = options.probeOlder === true && pos >= ledger.count && ledger.count > 0
  let held: ReplayItem[] = []
  let heldCounted = 0
  let alive: number[] = []
  let longest: number | undefined

  const fresh = (item: ReplayItem): ReplayItem[] => {
    pos = Number.POSITIVE_INFINITY
    return [item]
  }

  function push(item: ReplayItem): ReplayItem[] {
    if (probing) return probe(item)
    if (!item.counted) return [item]
    if (item.key !== undefined) {
      const at = ledger.indexOfKey(item.key)
      if (at === undefined) return fresh(item)
      pos = at + 1
      return []
    }
    if (pos < ledger.count) {
      const expected = ledger.fingerprintAt(pos)
      // An event folded before the ledger existed cannot be checked: its position is trusted.
      if (expected === '' || expected === item.fingerprint) {
        pos += 1
        return []
      }
      options.report(`the replay differs from what was already shown at event ${pos + 1}; what follows is shown as new`)
    }
    return fresh(item)
  }

  /** Hold events while they could still be a replay from an earlier point. */
  function probe(item: ReplayItem): ReplayItem[] {
    if (!item.counted) {
      if (held.length === 0) return [item]
      held.push(item)
      return []
    }
    if (item.key !== undefined) {
      const released = settle()
      return [...released, ...push(item)]
    }
    const offset = heldCounted
    if (offset === 0) {
      for (let j = 0; j < ledger.count; j++) if (ledger.fingerprintAt(j) === item.fingerprint) alive.push(j)
    } else {
      alive = alive.filter((j) => ledger.fingerprintAt(j + offset) === item.fingerprint)
    }
    held.push(item)
    heldCounted += 1
    const open: number[] = []
    for (const j of alive) {
      // Completions come from ever earlier starts, so the latest one is the longest overlap.
      if (j + heldCounted >= ledger.count) {
        if (heldCounted >= minOverlap && held.some((h) => h.counted && distinctive(h, ledger.occurrences(h.fingerprint)))) longest = j
      } else {
        open.push(j)
      }
    }
    alive = open
    return alive.length > 0 ? [] : settle()
  }

  /** Stop probing: drop the confirmed overlap, release the rest. */
  function settle(): ReplayItem[] {
    probing = false
    let out = held
    if (longest !== undefined) {
      let repeats = ledger.count - longest
      out = held.filter((item) => {
        if (!item.counted || repeats === 0) return true
        repeats -= 1
        return false
      })
    }
    held = []
    heldCounted = 0
    alive = []
    pos = Number.POSITIVE_INFINITY
    return out
  }

  return {
    push,
    end(final) {
      if (!probing || held.length === 0) return []
      if (final) return settle()
      // Not folded, so not counted: the next reconnect asks for these again.
      held = []
      heldCounted = 0
      alive = []
      return []
    },
  }
}

/** The default evidence rule: an event folded exactly once, with at least 48 characters of data. */
function isDistinctive(item: ReplayItem, occurrences: number): boolean {
  return occurrences === 1 && item.frame.data.length >= DISTINCTIVE_LENGTH
}

const DISTINCTIVE_LENGTH = 48
