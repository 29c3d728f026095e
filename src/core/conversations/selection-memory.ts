/**
 * Which conversation a page showed, remembered across reloads where the storage
 * lets it. A storage that refuses (private mode, quota) only costs the memory.
 */
import type { ResumeStorage } from '../resume/types'

/**
 * The selected conversation's id, kept under one key.
 *
 * @example
 * const memory = new SelectionMemory(sessionStorage, 'weft:conversations:selected:default')
 * memory.remember('chat-1')
 * memory.recall() // 'chat-1'
 */
export class SelectionMemory {
  constructor(
    private readonly storage: ResumeStorage | undefined,
    private readonly key: string,
  ) {}

  /** Remember `id` as the selected conversation. */
  remember(id: string): void {
    try {
      this.storage?.setItem(this.key, id)
    } catch {
      // Storage refused (private mode, quota): the selection just won't survive a reload.
    }
  }

  /** The id remembered last, if the storage has one and can be read. */
  recall(): string | undefined {
    try {
      return this.storage?.getItem(this.key) ?? undefined
    } catch {
      return undefined
    }
  }
}
