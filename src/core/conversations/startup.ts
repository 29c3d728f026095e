/**
 * Which conversation a page shows when it starts: the one it showed last, else
 * the newest one that loads, else a new one.
 */
import type { Ledger } from './ledger'

/**
 * What choosing the first conversation does with the conversation store.
 *
 * @example
 * const target: StartTarget = { selectedId: undefined, select: async () => {}, create: () => 'chat-1' }
 */
export interface StartTarget {
  readonly selectedId: string | undefined
  select(id: string): Promise<void>
  create(): string
}

/**
 * Select the conversation a page starts on, from the listed ones; `remembered` is
 * the id it showed last, if any.
 *
 * @example
 * await selectOnStart(ledger, memory.recall(), conversations)
 */
export async function selectOnStart(ledger: Ledger, remembered: string | undefined, target: StartTarget): Promise<void> {
  if (remembered !== undefined && ledger.entries.has(remembered)) {
    await target.select(remembered)
    return
  }
  // None remembered, or it is gone (deleted here or in another tab): the newest one that loads,
  // else the first one tried (it shows why it cannot be read), else a new one.
  const candidates = ledger.sorted().filter((e) => e.summary.status !== 'error')
  for (const entry of candidates) {
    await target.select(entry.id)
    if (entry.summary.status !== 'error') break
  }
  const readable = candidates.find((e) => e.summary.status !== 'error')
  if (readable) await target.select(readable.id)
  else if (candidates[0]) await target.select(candidates[0].id)
  else if (target.selectedId === undefined) target.create()
}
