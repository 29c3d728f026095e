/**
 * Where resume handles live between page loads: `sessionStorage` by default
 * (one per tab, gone with the tab), or any `{getItem, setItem, removeItem}`.
 * Storage that refuses (private mode, a full quota) never breaks a stream.
 */
import { isRecord } from '../util/record'
import type { ResumeHandle, ResumeStorage, ResumeStrategy } from './types'

const PREFIX = 'weft:resume:'
const VERSION = 1

/**
 * The storage key for a conversation.
 *
 * @example
 * resumeStorageKey('chat-42') // 'weft:resume:chat-42'
 */
export function resumeStorageKey(conversationKey: string): string {
  return PREFIX + conversationKey
}

/**
 * A storage that lives in memory (tests, servers, or a tab that must not persist).
 *
 * @example
 * useResumableStream({ url: '/api/agent', resume: 'vocion', storage: memoryStorage() })
 */
export function memoryStorage(): ResumeStorage {
  const map = new Map<string, string>()
  return {
    getItem: (key) => map.get(key) ?? null,
    setItem: (key, value) => {
      map.set(key, String(value))
    },
    removeItem: (key) => {
      map.delete(key)
    },
  }
}

let fallback: ResumeStorage | undefined

/**
 * `sessionStorage` when the page has one, otherwise one shared in-memory storage.
 *
 * @example
 * const storage = defaultResumeStorage()
 */
export function defaultResumeStorage(): ResumeStorage {
  try {
    const tabStorage = (globalThis as { sessionStorage?: ResumeStorage }).sessionStorage
    if (tabStorage) return tabStorage
  } catch {
    // Sandboxed frames throw on the mere access.
  }
  return (fallback ??= memoryStorage())
}

/**
 * The handle stored for a conversation, if it is one the strategy can read.
 *
 * @example
 * const handle = readHandle(sessionStorage, 'chat-42', vocionResume())
 */
export function readHandle<H extends ResumeHandle>(
  storage: ResumeStorage, conversationKey: string, strategy: ResumeStrategy<H>,
): H | undefined {
  let text: string | null
  try {
    text = storage.getItem(resumeStorageKey(conversationKey))
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
  if (!isRecord(parsed) || parsed.v !== VERSION || !isRecord(parsed.handle)) return undefined
  const handle = parsed.handle
  if (handle.strategy !== strategy.name || typeof handle.turnId !== 'string' || handle.turnId === '') return undefined
  if (typeof handle.count !== 'number' || !Number.isInteger(handle.count) || handle.count < 0) return undefined
  if (handle.scope !== undefined && (typeof handle.scope !== 'string' || handle.scope === '')) return undefined
  return strategy.revive(handle)
}

/**
 * Store a handle; returns the text written (undefined when the storage refused).
 *
 * @example
 * writeHandle(sessionStorage, 'chat-42', { strategy: 'vocion', turnId: 't1', count: 3 })
 */
export function writeHandle(storage: ResumeStorage, conversationKey: string, handle: ResumeHandle): string | undefined {
  const text = JSON.stringify({ v: VERSION, handle })
  try {
    storage.setItem(resumeStorageKey(conversationKey), text)
    return text
  } catch {
    return undefined
  }
}

/**
 * Forget a conversation's handle.
 *
 * @example
 * clearHandle(sessionStorage, 'chat-42')
 */
export function clearHandle(storage: ResumeStorage, conversationKey: string): void {
  try {
    storage.removeItem(resumeStorageKey(conversationKey))
  } catch {
    // A storage that refuses to forget cannot be helped; the next completion tries again.
  }
}
