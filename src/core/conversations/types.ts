/**
 * The conversation store's public shapes: a row of the list, the list's state,
 * the options, and the `code`s of the errors a conversation can show.
 */
import type { WeftError } from '../model/errors'
import type { ResumeStorage } from '../resume/types'
import type { ConversationStorage } from './storage'

/**
 * Where a conversation stands: `loading` its record, `streaming` (also in the
 * background), `error` (its record cannot be read: it is quarantined), `conflict`
 * (another tab saved it while this one had unsaved changes), or `idle`.
 */
export type ConversationStatus = 'idle' | 'loading' | 'streaming' | 'error' | 'conflict'

/**
 * One row of the conversation list.
 *
 * @example
 * const { id, title, updatedAt, status } = useConversations().conversations[0]
 */
export interface ConversationSummary {
  id: string
  title: string
  createdAt: number
  updatedAt: number
  status: ConversationStatus
  /** Why the record cannot be read (`status: 'error'`), or what the other tab did (`status: 'conflict'`). */
  error?: WeftError
  /**
   * The last save failed and nothing of it was stored (`code` `conversation_save_failed`,
   * or `conversation_quota_exceeded` when the browser's storage is full). The next save
   * point tries again; `retrySave` tries now, `reloadStored` drops this page's changes.
   */
  saveError?: WeftError
  /**
   * The last save went through without some values that are not JSON data (a function,
   * a symbol, a class instance, a cycle): `code` `conversation_not_data`, the paths in
   * the message. The page still holds them; what is stored is the rest.
   */
  saveProblem?: WeftError
}

/**
 * The list as the React binding reads it.
 *
 * @example
 * conversations.state.getState().selectedId
 */
export interface ConversationsState {
  /** The stored list has been read and the selected conversation loaded. */
  ready: boolean
  /** Newest first. */
  list: ConversationSummary[]
  selectedId?: string
  /** The list itself could not be read. */
  error?: WeftError
}

/**
 * Options of `createConversations`.
 *
 * @example
 * createConversations({ storage: indexedDbConversations(), titleLength: 48 })
 */
export interface ConversationsOptions {
  /** Default `memoryConversations()`. */
  storage?: ConversationStorage
  /** Where the selected id survives a reload (default `sessionStorage`; `false` keeps it nowhere). */
  selection?: ResumeStorage | false
  /** Separates the selection of several conversation lists on one origin. */
  namespace?: string
  /** Longest automatic title (default 60 characters). */
  titleLength?: number
  /** The clock (tests). */
  now?: () => number
  /** Listen to `pagehide` and `visibilitychange` to save (default true in a browser). */
  saveOnHide?: boolean
}

/** The `code` of a conversation's error when another tab saved it first. */
export const CONVERSATION_CONFLICT = 'conversation_conflict'
/** The `code` of a `saveError`: the storage refused the save (nothing of it was stored). */
export const CONVERSATION_SAVE_FAILED = 'conversation_save_failed'
/** The `code` of a `saveError` when the browser's storage is full. */
export const CONVERSATION_QUOTA_EXCEEDED = 'conversation_quota_exceeded'
/** The `code` of a `saveProblem`: values that are not JSON data were left out of the save. */
export const CONVERSATION_NOT_DATA = 'conversation_not_data'
/** The `code` of the error a conversation shows when drawing it threw. */
export const CONVERSATION_RENDER_FAILED = 'conversation_render_failed'
