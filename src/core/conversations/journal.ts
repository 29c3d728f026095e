/**
 * A page that goes away cannot wait for an asynchronous save, so it writes what
 * it has not saved to the tab's session storage synchronously (the journal),
 * next to the resume handles a reload resumes from; the next page load takes the
 * journal over the stored record when nobody saved in between.
 */
import type { ResumeStorage } from '../resume/types'
import { checkRecord, checkSummary, type ConversationRecord } from './record'

/**
 * The journal of one conversation list in one tab.
 *
 * @example
 * const journal = new Journal(sessionStorage, 'weft:conversations:journal:default:')
 * journal.write(record)
 */
export class Journal {
  constructor(private readonly storage: ResumeStorage | undefined, private readonly prefix: string) {}

  /** Keep a record for the next page of this tab; a record too big for session storage is left to the asynchronous save. */
  write(record: ConversationRecord): void {
    try {
      this.storage?.setItem(this.prefix + record.id, JSON.stringify(record))
    } catch {
      // Too big for session storage, or refused: the asynchronous save is all there is.
    }
  }

  /**
   * The journal this tab wrote for a conversation, when it builds on the stored
   * revision (nobody saved since) and passes the schema check. It is read once.
   */
  take(id: string, raw: unknown): ConversationRecord | undefined {
    if (!this.storage) return undefined
    let text: string | null = null
    try {
      text = this.storage.getItem(this.prefix + id)
      this.storage.removeItem(this.prefix + id)
    } catch {
      return undefined
    }
    if (!text) return undefined
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch {
      return undefined
    }
    const checked = checkRecord(parsed, id)
    if (!checked.ok) return undefined
    const stored = checkSummary(raw, id)
    const storedRevision = raw === undefined ? 0 : stored.ok ? stored.value.revision : -1
    return checked.value.revision === storedRevision ? checked.value : undefined
  }

  drop(id: string): void {
    try {
      this.storage?.removeItem(this.prefix + id)
    } catch {
      // Nothing to do: a stale journal names an older revision and is ignored.
    }
  }
}
