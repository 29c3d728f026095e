/**
 * The `weft` entry's one convenience: where a protocol list can be given and
 * was not, the built-in protocols are used. Nothing is registered anywhere:
 * these are plain functions over the core's, so a host on
 * `weft/core` (or a bundler that drops what is unused) is not affected.
 */
import { foldStream as coreFoldStream, streamToOps as coreStreamToOps, type FoldStreamOptions } from '../core/protocol/fold-stream'
import type { AgentState } from '../core/model/model'
import type { Op } from '../core/model/ops'
import { readHistory as coreReadHistory } from '../core/protocol/history'
import type { ProtocolDefinition, ProtocolInput } from '../core/protocol/types'
// The definitions without views: folding and clients need no React, so a server importing these loads none.
import { builtInProtocols as withoutLangGraph } from '../protocols/index'
import { langGraphProtocol } from '../protocols/langgraph/index'

/** The five built-in protocols, as the `weft` entry's providers have them. */
const builtInProtocols: readonly ProtocolDefinition[] = [...withoutLangGraph, langGraphProtocol]

function withBuiltIns<T extends { protocols?: readonly ProtocolDefinition[] }>(options: T): T {
  return options.protocols === undefined ? { ...options, protocols: builtInProtocols } : options
}

/**
 * The core's `foldStream`, detecting among the built-in protocols unless `protocols` says otherwise.
 *
 * @example
 * import { foldStream } from 'weft'
 * const state = foldStream(recordedSse) // the protocol is detected
 */
export function foldStream(input: string | readonly unknown[], options: FoldStreamOptions = {}): AgentState {
  return coreFoldStream(input, withBuiltIns(options))
}

/**
 * The core's `streamToOps`, detecting among the built-in protocols unless `protocols` says otherwise.
 *
 * @example
 * import { streamToOps } from 'weft'
 * const ops = streamToOps([{ type: 'response_delta', delta: 'Hi' }], { protocol: 'vocion' })
 */
export function streamToOps(input: string | readonly unknown[], options: FoldStreamOptions = {}): Op[] {
  return coreStreamToOps(input, withBuiltIns(options))
}

/**
 * The core's `readHistory`, where a name is one of the built-in protocols unless `protocols` says otherwise.
 *
 * @example
 * import { readHistory } from 'weft'
 * store.getState().dispatch(readHistory('ui-message', await loadChat(id), store.getState()))
 */
export function readHistory(protocol: ProtocolInput, data: unknown, state: AgentState, protocols: readonly ProtocolDefinition[] = builtInProtocols): Op[] {
  return coreReadHistory(protocol, data, state, protocols)
}
