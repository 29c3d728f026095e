/**
 * The headless hook: open an agent stream, fold it into the provider's store.
 * A thin binding over the framework-free `AgentClient`.
 */
import { useEffect } from 'react'
import type { ActionResult, AgentClientOptions, AnswerResult, GateResponse, SendInput, SendOptions } from '../core/client'
import { settleInterrupted } from '../core/conversations/interrupted'
import type { WeftError } from '../core/model/errors'
import type { StreamStatus } from '../core/model/model'
import { useAgentStore, useWithClientDefaults } from './provider'
import { useAgentSelector } from './selectors'
import { useConversationId } from './conversations'
import { useClientActions } from './use-client-actions'
import { useStoreClient } from './use-store-client'

/** Options of `useAgentStream`: where the agent is and how to talk to it. */
export type UseAgentStreamOptions = AgentClientOptions

/** What `useAgentStream` returns. */
export interface AgentStreamHandle {
  /**
   * Send the user's input; the answer streams into the store. While a run is
   * active the message is queued (the default) or steers (`{ whileRunning: 'steer' }`:
   * the run stops, its partial answer stays, the message goes at once); see the
   * `whileRunning` option. Never rejects; refused (nothing sent) while the
   * conversation shown is loading or unreadable (`useSendRefusal`).
   */
  send(input?: SendInput, options?: SendOptions): Promise<void>
  /** Abort the run in flight and mark its turn `aborted`. */
  stop(): void
  /** Answer a gate (an approval, an interrupt, an action review); the run goes on as its protocol expects. */
  answer<Kind extends string = string>(gateId: string, response: GateResponse<Kind>): Promise<AnswerResult>
  /** Ask again for an answer (default: the last); the old one stays as a sibling branch. */
  regenerate(turnId?: string): Promise<ActionResult>
  /** Replace a question with a new branch; the old branch is kept. */
  edit(turnId: string, input: SendInput): Promise<ActionResult>
  /** Show the sibling at `index` of `turnId` and the branch below it. */
  selectBranch(turnId: string, index: number): ActionResult
  /** Change the text of a queued message; refused once it was sent or cancelled. */
  editQueued(id: string, text: string): ActionResult
  /** Take a message off the queue; it is never sent. */
  cancelQueued(id: string): ActionResult
  /** Send a queued message now (default: the first), stopping what runs; how a queue a stop held back goes. */
  sendQueued(id?: string): Promise<ActionResult>
  status: StreamStatus
  error: WeftError | undefined
}

/**
 * Stream an agent's answers into the nearest `AgentProvider`'s store. Under a
 * `ConversationsProvider` it follows the selected conversation, and a stream
 * keeps folding into its own conversation when another one is selected; the
 * conversation's id is the request's chat id unless `conversationId` is given.
 *
 * @example
 * function Chat() {
 *   const { send, stop, status } = useAgentStream({ url: '/api/agent', protocol: 'yao' })
 *   return <button onClick={() => (status === 'streaming' ? stop() : send('Hello'))}>{status}</button>
 * }
 */
export function useAgentStream(hostOptions: UseAgentStreamOptions): AgentStreamHandle {
  const conversationId = useConversationId()
  // The conversation's own id is the wire's chat id (AI SDK `id`, AG-UI `threadId`, Yao `chat_id`), so it is the same after a reload.
  const options = useWithClientDefaults(hostOptions.conversationId === undefined && conversationId !== undefined ? { ...hostOptions, conversationId } : hostOptions)
  const store = useAgentStore()
  // Under a ConversationsProvider the store is the selected conversation's; each store keeps its own client.
  const client = useStoreClient(store, options)
  const following = conversationId !== undefined
  // A plain stream cannot outlive its page: turns a previous page left streaming end as aborted.
  useEffect(() => {
    if (following && !client.busy) settleInterrupted(store)
  }, [client, store, following])

  const actions = useClientActions(client, store, options.onError)
  const status = useAgentSelector((s) => s.status)
  const error = useAgentSelector((s) => s.error)
  return { ...actions, status, error }
}
