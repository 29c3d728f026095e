/**
 * The resumable headless hook: `useAgentStream` plus a resume strategy. A lost
 * connection reconnects on its own; a reload (or a remount) picks the stream up
 * from the handle kept per conversation.
 */
import { useCallback, useEffect, useRef } from 'react'
import type { AgentClientOptions, GateResponse, SendInput } from '../core/client'
import { settleInterrupted } from '../core/conversations/interrupted'
import type { ResumeStrategyName } from '../core/resume/strategies/index'
import type { BackoffOptions, HistoryLoader, ResumeStorage, ResumeStrategy } from '../core/resume/types'
import { useAgentStore, useWithClientDefaults } from './provider'
import { useAgentSelector } from './selectors'
import { resumeStorageKey, defaultResumeStorage } from '../core/resume/storage'
import { useConversationId, useConversationStore } from './conversations'
import { useClientActions } from './use-client-actions'
import { useStoreClients } from './use-store-client'
import type { AgentStreamHandle, UseAgentStreamOptions } from './use-agent-stream'

/**
 * Options of `useResumableStream`: those of `useAgentStream`, plus how to resume.
 *
 * @example
 * const options: UseResumableStreamOptions = {
 *   url: '/rpc/agent/stream', protocol: 'vocion', conversationKey: 'chat-1',
 *   resume: 'vocion', resumeUrl: '/rpc/agent/stream/resume',
 * }
 */
export interface UseResumableStreamOptions extends Omit<UseAgentStreamOptions, 'resume'> {
  /** The host's key for the conversation: the handle is stored under it. Under a `ConversationsProvider`, the selected conversation's id by default. */
  conversationKey?: string
  /** `vocion`, `sse` (Last-Event-ID, AG-UI), `ai-sdk`, `yao`, or the host's own strategy. */
  resume: ResumeStrategy | ResumeStrategyName
  /** Where reconnects go (Vocion's `…/resume`, the AI SDK chat API, Yao's task stream; SSE defaults to the stream's URL). */
  resumeUrl?: string
  /** Where handles are kept (default `sessionStorage`). */
  storage?: ResumeStorage
  /** Reconnects in a row without progress before giving up (default 5). */
  maxRetries?: number
  backoff?: BackoffOptions
  /** Loads the conversation when the stream cannot be resumed (404/410); turns or ops replace the store's content. */
  loadHistory?: HistoryLoader
  /** Another name for `loadHistory`. */
  onExpired?: HistoryLoader
  /**
   * Where the back end serves the conversation's stored history: read with the
   * protocol's history reader when the stream cannot be resumed (`loadHistory` wins).
   */
  historyUrl?: string | ((conversationKey: string) => string)
}

/**
 * What `useResumableStream` returns: `useAgentStream`'s handle plus `retry`.
 *
 * @example
 * const { send, stop, retry, status, error } = useResumableStream(options)
 */
export interface ResumableStreamHandle extends AgentStreamHandle {
  /** Reconnect after the stream gave up (`status === 'error'`), with a fresh reconnect budget. */
  retry(): Promise<void>
}

/**
 * Stream an agent's answers into the nearest `AgentProvider`'s store, resuming
 * dropped streams. Mounting with a stored handle re-attaches (once, also under
 * StrictMode); unmounting detaches without forgetting the handle; `stop()` and a
 * normal end forget it. Under a `ConversationsProvider`, a reload also resumes the
 * streams of conversations that are not open, each into its own conversation.
 *
 * @example
 * function Chat({ chatId }: { chatId: string }) {
 *   const { send, stop, retry, status } = useResumableStream({
 *     url: '/rpc/agent/stream', protocol: 'vocion', conversationKey: chatId,
 *     resume: 'vocion', resumeUrl: '/rpc/agent/stream/resume',
 *   })
 *   if (status === 'error') return <button onClick={() => void retry()}>Try again</button>
 *   return <button onClick={() => (status === 'streaming' ? stop() : send('Hello'))}>{status}</button>
 * }
 */
export function useResumableStream(options: UseResumableStreamOptions): ResumableStreamHandle {
  const store = useAgentStore()
  const conversationId = useConversationId()
  const conversationKey = options.conversationKey ?? conversationId
  if (conversationKey === undefined) throw new Error('weft: useResumableStream needs a conversationKey, or a <ConversationsProvider> above it')
  // Each conversation's store has its own client, so the handle of each is kept under its own key.
  const clientOptions = useWithClientDefaults(toClientOptions(options, conversationKey))
  const { client, clientFor } = useStoreClients(store, clientOptions)
  const following = conversationId !== undefined
  const conversations = useConversationStore()
  const latest = useRef(options)
  latest.current = options

  // After a reload, the streams of conversations that are not open resume too, each into its own store.
  useEffect(() => {
    if (!conversations || options.conversationKey !== undefined) return
    let cancelled = false
    const timer = setTimeout(() => {
      void conversations.ready().then(() => {
        const handles = latest.current.storage ?? defaultResumeStorage()
        for (const { id } of conversations.list()) {
          if (cancelled || id === conversations.selectedId || !hasHandle(handles, id)) continue
          void conversations.load(id).then(() => {
            const other = conversations.storeOf(id)
            if (cancelled || !other || id === conversations.selectedId) return
            const background = clientFor(other, { ...clientOptions, ...toClientOptions(latest.current, id) })
            void background.attach().then((attached) => {
              if (!attached && !background.busy) settleInterrupted(other)
            })
          })
        }
      })
    }, 0)
    return () => {
      cancelled = true
      clearTimeout(timer)
    }
    // Once per conversation store: a reload is what leaves handles of conversations that are not open.
  }, [conversations, clientFor])

  useEffect(() => {
    // Deferred: StrictMode's throwaway mount cancels the timer in its cleanup, so only one resume request leaves.
    const timer = setTimeout(() => {
      void client.attach().then((attached) => {
        // Nothing to resume: what a previous page left streaming ends as aborted.
        if (following && !attached && !client.busy) settleInterrupted(store)
      })
    }, 0)
    return () => {
      clearTimeout(timer)
      // Detach only: the handle stays for the next mount or page. A conversation the user
      // switched away from keeps streaming; every client is let go of on unmount.
      if (!following) client.dispose()
    }
  }, [client, conversationKey, following, store])

  const actions = useClientActions(client, store, options.onError)
  const retry = useCallback(() => client.retry(), [client])
  const status = useAgentSelector((s) => s.status)
  // Only the error that stopped the stream: one a successful retry got past is not shown.
  const error = useAgentSelector((s) => (s.status === 'error' ? s.error : undefined))
  return { ...actions, retry, status, error }
}

function hasHandle(storage: ResumeStorage, conversationKey: string): boolean {
  try {
    return storage.getItem(resumeStorageKey(conversationKey)) !== null
  } catch {
    return false
  }
}

function toClientOptions(options: UseResumableStreamOptions, conversationKey: string): AgentClientOptions {
  const { conversationKey: _key, resume, resumeUrl, storage, maxRetries, backoff, loadHistory, onExpired, historyUrl, ...rest } = options
  return {
    ...rest,
    resume: { strategy: resume, conversationKey, resumeUrl, storage, maxRetries, backoff, loadHistory: loadHistory ?? onExpired, historyUrl },
  }
}
