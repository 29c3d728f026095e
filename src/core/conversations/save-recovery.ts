/**
 * Getting a conversation out of save trouble: a conflict with another tab
 * settled one way or the other, a failed save tried again, or this page's
 * unsaved changes dropped for what is stored.
 */
import type { Ledger } from './ledger'
import type { Loader } from './loader'
import type { Saver } from './saver'

/**
 * The ways out of a failed or conflicting save, for the conversations of one list.
 *
 * @example
 * const recovery = new SaveRecovery(ledger, saver, loader)
 * await recovery.resolveConflict('chat-1', 'theirs')
 */
export class SaveRecovery {
  constructor(
    private readonly ledger: Ledger,
    private readonly saver: Saver,
    private readonly loader: Loader,
  ) {}

  /** Settle a conflict: `theirs` loads what the other tab saved; `mine` saves this page's copy over it. */
  async resolveConflict(id: string, keep: 'mine' | 'theirs'): Promise<void> {
    const entry = this.ledger.entries.get(id)
    if (!entry || entry.summary.status !== 'conflict') return
    if (keep === 'theirs') return this.reloadStored(id)
    entry.revision = entry.storedRevision ?? entry.revision
    entry.storedRevision = undefined
    this.ledger.patch(entry, { status: this.ledger.liveStatus(entry), error: undefined })
    this.ledger.touch(entry)
    await this.saver.save(entry)
  }

  /** Save a conversation whose last save failed now, instead of at its next save point. */
  async retrySave(id: string): Promise<void> {
    const entry = this.ledger.entries.get(id)
    if (!entry?.store || entry.summary.status === 'error' || entry.summary.status === 'conflict') return
    this.ledger.touch(entry)
    await this.saver.save(entry)
  }

  /** Drop this page's unsaved changes to a conversation and show what is stored. */
  async reloadStored(id: string): Promise<void> {
    const entry = this.ledger.entries.get(id)
    if (!entry || entry.summary.status === 'error') return
    clearTimeout(entry.timer)
    entry.timer = undefined
    await entry.saving?.catch(() => undefined)
    entry.storedRevision = undefined
    this.ledger.patch(entry, { status: 'loading', error: undefined, saveError: undefined, saveProblem: undefined })
    await this.loader.reload(entry)
  }
}
