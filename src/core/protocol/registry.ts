/**
 * The protocols weft reads, in one list. A new protocol is one decoder file and
 * one line here.
 */
import type { ProtocolName } from '../model'
import type { ProtocolDefinition } from './types'
import { agUiProtocol } from '../../protocols/ag-ui/protocol'
import { uiMessageProtocol } from '../../protocols/ui-message/decoder'
import { vocionProtocol } from '../../protocols/vocion/decoder'
import { yaoProtocol } from '../../protocols/yao/decoder'

/**
 * Every built-in protocol.
 *
 * @example
 * protocols.map((p) => p.name) // ['yao', ...]
 */
export const protocols: readonly ProtocolDefinition[] = [
  yaoProtocol,
  uiMessageProtocol,
  vocionProtocol,
  agUiProtocol,
]

/**
 * Look a protocol up by name.
 *
 * @example
 * getProtocol('yao').create({ turnId: 't1', scope: 't1' })
 */
export function getProtocol(name: ProtocolName): ProtocolDefinition {
  const found = protocols.find((p) => p.name === name)
  if (!found) throw new Error(`weft does not know the protocol "${name}"`)
  return found
}
