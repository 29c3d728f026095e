/**
 * History through the plug-in: a protocol's `history` slot reads what its back
 * end stores. `readHistory` finds the slot, so a host (and `useHistory`) never
 * needs to know which reader a protocol uses, and a host protocol brings its own.
 */
import { weftError, WeftStreamError } from '../model/errors'
import type { AgentState } from '../model/model'
import type { Op } from '../model/ops'
import { resolveProtocol } from './resolve'
import type { HistoryReader, ProtocolDefinition, ProtocolInput } from './types'

/**
 * The history reader of a protocol (a definition, or the name of one of
 * `protocols`). Throws a `validation` error when the protocol is unknown or has
 * no reader.
 *
 * @example
 * const read = historyReaderOf(yaoProtocol)
 * store.getState().dispatch(read(await res.json(), { state: store.getState() }))
 */
export function historyReaderOf(protocol: ProtocolInput, protocols?: readonly ProtocolDefinition[]): HistoryReader {
  const definition = resolveProtocol(protocol, protocols)
  if (!definition.history) {
    throw new WeftStreamError(weftError('validation', `the protocol "${definition.name}" has no history reader`, {
      detail: 'give its ProtocolDefinition a `history` slot',
    }))
  }
  return definition.history
}

/**
 * A document the protocol's back end stored, read into ops for `state` (turns
 * and messages `state` already shows are skipped by the built-in readers).
 *
 * @example
 * store.getState().dispatch(readHistory(uiMessageProtocol, await loadChat(id), store.getState()))
 */
export function readHistory(protocol: ProtocolInput, data: unknown, state: AgentState, protocols?: readonly ProtocolDefinition[]): Op[] {
  return historyReaderOf(protocol, protocols)(data, { state })
}
