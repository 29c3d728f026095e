/**
 * The four built-in protocols. Nothing happens on import: hand the ones a host
 * speaks to a client, `foldStream` or `AgentProvider` as `protocols`. It loads
 * no React, so it serves `foldStream` on a server too: the views (AG-UI's tool
 * view) are in `weft/protocols/ag-ui/react`, whose `agUiProtocolWithViews` the
 * `weft` entry's list has in AG-UI's place.
 *
 * @example
 * import { foldStream } from 'weft/core'
 * import { builtInProtocols } from 'weft/protocols'
 * foldStream(text, { protocols: builtInProtocols }) // detected among yao, ui-message, vocion, ag-ui
 */
import type { ProtocolDefinition } from '../core/index'
import { agUiProtocol } from './ag-ui/protocol'
import { uiMessageProtocol } from './ui-message/protocol'
import { vocionProtocol } from './vocion/protocol'
import { yaoProtocol } from './yao/protocol'

export * from './yao/index'
export * from './ui-message/index'
export * from './vocion/index'
export * from './ag-ui/index'

/**
 * The built-in protocols, in the order detection tries them, without views
 * (the `weft` entry's list has AG-UI's).
 *
 * @example
 * builtInProtocols.map((p) => p.name) // ['yao', 'ui-message', 'vocion', 'ag-ui']
 */
export const builtInProtocols: readonly ProtocolDefinition[] = [yaoProtocol, uiMessageProtocol, vocionProtocol, agUiProtocol]
