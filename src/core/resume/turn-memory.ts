/**
 * What a turn keeps in memory while it can still be resumed: its ledger and its
 * decoder (one decoder per turn across reconnects, as decoders hold per-stream
 * state). Kept per store, so a component that unmounts and mounts again over the
 * same store picks the turn up where it was; a fresh store (a real reload) has none.
 */
import type { FrameDecoder } from '../protocol/frame-decoder'
import { findStoreLocal, storeLocal, storeLocalKey } from '../store/store-locals'
import { TurnLedger } from './ledger'

/**
 * One turn's in-memory resume state.
 *
 * @example
 * const memory = openTurnMemory(store, turnId); memory.ledger.count
 */
export interface TurnMemory {
  readonly ledger: TurnLedger
  /** Made when the first response arrives (its headers help detection). */
  reader?: FrameDecoder
  /**
   * How many events the store already shows that this memory's decoder never saw (a
   * store restored across a reload). The replay's first ones up to that count teach
   * the decoder where each part stands and fold nothing.
   */
  primeUntil?: number
  /** True while such an event is in the decoder, so the host's `onData` does not hear it again. */
  priming?: boolean
}

/** The owner's turn memories by turn id, kept on the owner (`store-locals.ts`). */
const TURNS = storeLocalKey<Map<string, TurnMemory>>('turn memories')

/**
 * The memory of a turn, if this owner (a store) still has it.
 *
 * @example
 * findTurnMemory(store, 'turn-1')?.ledger.count
 */
export function findTurnMemory(owner: object, turnId: string): TurnMemory | undefined {
  return findStoreLocal(owner, TURNS)?.get(turnId)
}

/**
 * A new, empty memory for a turn (replacing any earlier one).
 *
 * @example
 * const memory = openTurnMemory(store, 'turn-1')
 */
export function openTurnMemory(owner: object, turnId: string): TurnMemory {
  const turns = storeLocal(owner, TURNS, () => new Map<string, TurnMemory>())
  const memory: TurnMemory = { ledger: new TurnLedger() }
  turns.set(turnId, memory)
  return memory
}

/**
 * Forget a turn's memory (it completed, was stopped, or expired).
 *
 * @example
 * closeTurnMemory(store, 'turn-1')
 */
export function closeTurnMemory(owner: object, turnId: string): void {
  findStoreLocal(owner, TURNS)?.delete(turnId)
}
