/**
 * The four built-in protocols, registered on import: after this, detection
 * tries all four and they can be named (`protocol: 'yao'`). The `weft` entry
 * imports it; with `weft/core`, import it (or one protocol's entry) yourself.
 * It loads no React, so it serves `foldStream` on a server too: the views
 * (AG-UI's tool view) are in `weft/protocols/ag-ui/react`, whose
 * `agUiProtocolWithViews` the `weft` entry registers in AG-UI's place.
 *
 * @example
 * import 'weft/protocols'
 * foldStream(text) // detected among yao, ui-message, vocion, ag-ui
 */
import { type ProtocolDefinition, registerProtocol } from '../core/index'
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

registerProtocol(...builtInProtocols)
