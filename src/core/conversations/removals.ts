/**
 * Removing a conversation so that it can come back: what an undo needs is kept
 * as it goes (its record as this page holds it, else as stored), and `restore`
 * brings the conversation back from that.
 */
import { createAgentStore } from '../store/store'
import type { Entry, Ledger, Removed } from './ledger'
import { checkRecord, stateOf } from './record'
import type { Saver } from './saver'
import type { ConversationStorage } from './storage'

/**
 * The conversations removed on this page, kept for an undo.
 *
 * @example
 * const removals = new Removals(ledger, saver, storage)
 * if (await removals.remove(entry, forget)) await removals.restore(entry.id)
 */
export class Removals {
  private readonly removed = new Map<string, Removed>()

  constructor(
    private readonly ledger: Ledger,
    private readonly saver: Saver,
    private readonly storage: ConversationStorage,
  ) {}

  /** Whether this page removed the conversation `id` (what storage says of it is not followed). */
  has(id: string): boolean {
    return this.removed.has(id)
  }

  /**
   * Delete a conversation: `forget` takes it off the page first. Resolves true when
   * `restore` can bring it back (its record was readable).
   */
  async remove(entry: Entry, forget: (entry: Entry) => void): Promise<boolean> {
    const id = entry.id
    const store = entry.store
    forget(entry)
    const restorable = entry.summary.status !== 'error'
    if (restorable) {
      this.removed.set(id, {
        summary: { ...entry.summary, status: 'idle' },
        titleSource: entry.titleSource,
        record: store ? this.saver.plainRecord(entry, store.getState(), entry.revision).record : undefined,
      })
    }
    if (!store && restorable) {
      // Never loaded here: keep the stored record itself for an undo.
      const checked = checkRecord(await this.storage.load(id).catch(() => undefined), id)
      const removed = this.removed.get(id)
      if (checked.ok && removed) removed.record = checked.value
    }
    await entry.saving?.catch(() => undefined)
    await this.storage.remove(id)
    return restorable
  }

  /** Undo a `remove`: the conversation comes back with everything it held, and is stored again. */
  async restore(id: string): Promise<boolean> {
    const removed = this.removed.get(id)
    if (!removed?.record || this.ledger.entries.has(id)) return false
    this.removed.delete(id)
    const entry = this.ledger.add({ ...removed.summary }, 0, removed.titleSource)
    this.ledger.attach(entry, createAgentStore({ initialState: stateOf(removed.record) }))
    entry.dirty = true
    this.ledger.publish()
    await this.saver.save(entry)
    return true
  }
}
