/**
 * Conversations in React: `ConversationsProvider` scopes a conversation store and
 * hands the selected conversation's agent store to everything below, so the
 * transcript, the selector hooks, `useAgentStream` and `useResumableStream`
 * follow the selection. Switching is one render: the provider swaps stores.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useState, useSyncExternalStore, type ErrorInfo, type ReactNode } from 'react'
import type { Conversations, ConversationsState, ConversationSummary } from '../core/conversations/conversations'
import { weftError, type WeftError } from '../core/model/errors'
import { createAgentStore } from '../core/store/store'
import { ConversationGuard, RenderFailureContext } from './conversations-boundary'
import type { ProtocolDefinition } from '../core/protocol/types'
import { AgentProvider } from './provider'
import { SendRefusalContext } from './store-context'

const ConversationsContext = createContext<Conversations | null>(null)
const SelectedContext = createContext<string | undefined>(undefined)

/** Props of `ConversationsProvider`. */
export interface ConversationsProviderProps {
  /** Made with `createConversations` (once, outside render, or in `useState`). */
  conversations: Conversations
  /** Shown until the stored list is read and the selected conversation loaded. */
  fallback?: ReactNode
  /**
   * Told when drawing the selected conversation threw (a typed error, code
   * `conversation_render_failed`, naming the conversation), for the host's logging.
   */
  onRenderError?: (error: WeftError, thrown: unknown, info: ErrorInfo) => void
  /** The protocols the hooks below speak (see `AgentProviderProps.protocols`); default: the enclosing provider's. */
  protocols?: readonly ProtocolDefinition[]
  children?: ReactNode
}

/**
 * Gives its subtree a conversation list and the selected conversation's store.
 * When drawing the selected conversation throws and no `ConversationBoundary`
 * below catches it, the subtree is drawn again without that conversation (the
 * empty store, sends refused with the reason), so `ThreadList` and the other
 * conversations go on working; `ThreadList` marks the conversation that could not be shown.
 *
 * @example
 * const conversations = createConversations({ storage: indexedDbConversations() })
 * <ConversationsProvider conversations={conversations} fallback={<p>Loading…</p>}>
 *   <ThreadList /><Chat />
 * </ConversationsProvider>
 */
export function ConversationsProvider({ conversations, fallback = null, onRenderError, protocols, children }: ConversationsProviderProps) {
  useEffect(() => {
    void conversations.ready()
  }, [conversations])
  const state = useListState(conversations)
  // A conversation that is loading, or whose record cannot be read, shows an empty store that is never saved.
  const [unavailable] = useState(() => createAgentStore())
  const own = state.selectedId !== undefined ? conversations.storeOf(state.selectedId) : undefined
  const summary = state.list.find((c) => c.id === state.selectedId)
  // So anything typed there is refused, not lost.
  const refusal = useMemo(
    () => (own ? undefined : refusalOf(state.selectedId, summary)),
    [own, state.selectedId, summary?.status, summary?.error],
  )
  // A refusal shown in the empty store is about one conversation: the next one starts clean.
  useEffect(() => unavailable.getState().reset(), [unavailable, refusal])
  if (!state.ready) return <>{fallback}</>
  return (
    <ConversationsContext.Provider value={conversations}>
      <SelectedContext.Provider value={state.selectedId}>
        <ConversationGuard conversationId={state.selectedId} onError={onRenderError}>
          {(failure) => (
            <RenderFailureContext.Provider value={failure}>
              <SendRefusalContext.Provider value={failure ? refusalOf(state.selectedId, summary, failure) : refusal}>
                <AgentProvider store={failure ? unavailable : (own ?? unavailable)} protocols={protocols}>{children}</AgentProvider>
              </SendRefusalContext.Provider>
            </RenderFailureContext.Provider>
          )}
        </ConversationGuard>
      </SelectedContext.Provider>
    </ConversationsContext.Provider>
  )
}

/** The `code` of the error a send gets while the selected conversation's own store is not there. */
const CONVERSATION_UNAVAILABLE = 'conversation_unavailable'

function refusalOf(selectedId: string | undefined, summary: ConversationSummary | undefined, failure?: WeftError): WeftError {
  const refused = (message: string, retryable: boolean) => weftError('validation', message, { code: CONVERSATION_UNAVAILABLE, retryable })
  if (selectedId === undefined) return refused('No conversation is selected: start or pick one before sending.', false)
  if (failure) return refused(`This conversation could not be shown, so nothing can be sent to it (${failure.message}).`, false)
  if (summary?.status === 'error') {
    return refused(`This conversation cannot be read, so nothing can be sent to it${summary.error ? ` (${summary.error.message})` : ''}.`, false)
  }
  return refused('This conversation is still loading; send again once it shows.', true)
}

/**
 * What `useConversations` returns.
 *
 * @example
 * const { conversations, selectedId, create, select, rename, remove, restore }: ConversationsHandle = useConversations()
 */
export interface ConversationsHandle {
  /** Newest first, each with `id`, `title`, `updatedAt` and `status`. */
  conversations: ConversationSummary[]
  selectedId: string | undefined
  selected: ConversationSummary | undefined
  /** The list could not be read at all. */
  error: WeftError | undefined
  /** Start a conversation and select it; returns its id. */
  create(options?: { title?: string }): string
  select(id: string): Promise<void>
  rename(id: string, title: string): Promise<void>
  /** Resolves true when `restore(id)` can undo it. */
  remove(id: string): Promise<boolean>
  restore(id: string): Promise<boolean>
  /** Settle a conflict with another tab: keep this page's copy or theirs. */
  resolveConflict(id: string, keep: 'mine' | 'theirs'): Promise<void>
  /** Save now a conversation whose last save failed (`saveError`). */
  retrySave(id: string): Promise<void>
  /** Drop this page's unsaved changes to a conversation and show what is stored. */
  reloadStored(id: string): Promise<void>
  /** A conversation's record as stored, as JSON text (to keep an unreadable one before deleting it). */
  exportRaw(id: string): Promise<string | undefined>
}

/**
 * The conversation list and what changes it, from the nearest `ConversationsProvider`.
 *
 * @example
 * function Sidebar() {
 *   const { conversations, select, create } = useConversations()
 *   return <nav><button onClick={() => create()}>New chat</button>
 *     {conversations.map((c) => <button key={c.id} onClick={() => select(c.id)}>{c.title}</button>)}</nav>
 * }
 */
export function useConversations(): ConversationsHandle {
  const conversations = useConversationStore()
  if (!conversations) throw new Error('weft: useConversations needs a <ConversationsProvider> above it')
  const state = useListState(conversations)
  // Bound once per list, so each keeps its identity from render to render.
  const actions = useMemo(() => ({
    create: (options?: { title?: string }) => conversations.create(options),
    select: (id: string) => conversations.select(id),
    rename: (id: string, title: string) => conversations.rename(id, title),
    remove: (id: string) => conversations.remove(id),
    restore: (id: string) => conversations.restore(id),
    resolveConflict: (id: string, keep: 'mine' | 'theirs') => conversations.resolveConflict(id, keep),
    retrySave: (id: string) => conversations.retrySave(id),
    reloadStored: (id: string) => conversations.reloadStored(id),
    exportRaw: (id: string) => conversations.exportRaw(id),
  }), [conversations])
  return useMemo(() => ({
    conversations: state.list,
    selectedId: state.selectedId,
    selected: state.list.find((c) => c.id === state.selectedId),
    error: state.error,
    ...actions,
  }), [state, actions])
}

/**
 * The nearest conversation store, or `null` outside a `ConversationsProvider`.
 *
 * @example
 * const conversations = useConversationStore(); conversations?.flush()
 */
export function useConversationStore(): Conversations | null {
  return useContext(ConversationsContext)
}

/**
 * The selected conversation's id (`undefined` outside a `ConversationsProvider`).
 *
 * @example
 * const id = useConversationId()
 */
export function useConversationId(): string | undefined {
  return useContext(SelectedContext)
}

function useListState(conversations: Conversations): ConversationsState {
  return useSyncExternalStore(
    useCallback((listener: () => void) => conversations.state.subscribe(listener), [conversations]),
    () => conversations.state.getState(),
    () => conversations.state.getState(),
  )
}
