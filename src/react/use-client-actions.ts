/**
 * What both stream hooks return to act on their client, with one rule in one
 * place: while the store shown cannot take a send (a conversation still loading
 * or unreadable), every action is refused with the reason and nothing is sent.
 */
import { useCallback } from 'react'
import type { ActionResult, AgentClient, AnswerResult, GateResponse, SendInput, SendOptions } from '../core/client'
import type { WeftError } from '../core/model/errors'
import type { AgentStore } from '../core/store/store'
import { useSendRefusal } from './store-context'

/** The client's actions as stable callbacks. */
export interface ClientActions {
  send(input?: SendInput, options?: SendOptions): Promise<void>
  stop(): void
  answer<Kind extends string = string>(gateId: string, response: GateResponse<Kind>): Promise<AnswerResult>
  regenerate(turnId?: string): Promise<ActionResult>
  edit(turnId: string, input: SendInput): Promise<ActionResult>
  selectBranch(turnId: string, index: number): ActionResult
  editQueued(id: string, text: string): ActionResult
  cancelQueued(id: string): ActionResult
  sendQueued(id?: string): Promise<ActionResult>
}

/**
 * The client's actions, refused while the store shown takes no send.
 *
 * @example
 * const { send, stop } = useClientActions(client, store, options.onError)
 */
export function useClientActions(client: AgentClient, store: AgentStore, onError?: (error: WeftError) => void): ClientActions {
  const refusal = useSendRefusal()
  // The refusal is shown where a stream's error is (the hooks' `error`, StatusBar), and the host hears of it.
  const refuse = useCallback((error: WeftError): { ok: false; error: WeftError } => {
    store.getState().dispatch([{ op: 'stream.status', status: 'error', error }])
    onError?.(error)
    return { ok: false, error }
  }, [store, onError])
  const send = useCallback(async (input?: SendInput, options?: SendOptions) => {
    if (refusal) refuse(refusal)
    else await client.send(input, options)
  }, [client, refusal, refuse])
  const stop = useCallback(() => client.stop(), [client])
  const answer = useCallback(<Kind extends string = string>(gateId: string, response: GateResponse<Kind>) =>
    (refusal ? Promise.resolve(refuse(refusal)) : client.answer<Kind>(gateId, response)), [client, refusal, refuse])
  const regenerate = useCallback((turnId?: string) => (refusal ? Promise.resolve(refuse(refusal)) : client.regenerate(turnId)), [client, refusal, refuse])
  const edit = useCallback((turnId: string, input: SendInput) => (refusal ? Promise.resolve(refuse(refusal)) : client.edit(turnId, input)), [client, refusal, refuse])
  const selectBranch = useCallback((turnId: string, index: number) => client.selectBranch(turnId, index), [client])
  const editQueued = useCallback((id: string, text: string) => client.editQueued(id, text), [client])
  const cancelQueued = useCallback((id: string) => client.cancelQueued(id), [client])
  const sendQueued = useCallback((id?: string) => (refusal ? Promise.resolve(refuse(refusal)) : client.sendQueued(id)), [client, refusal, refuse])
  return { send, stop, answer, regenerate, edit, selectBranch, editQueued, cancelQueued, sendQueued }
}
