/**
 * Yao: the protocol definition, its decoder and its task resume strategy.
 *
 * @example
 * import { yaoProtocol } from 'weft/protocols/yao'
 */
export { yaoProtocol } from './protocol'
export { yaoResume, type YaoTaskHandle } from './resume'
export { yaoHistory, readYaoHistory, type YaoStoredMessage } from './history'
export type * from '../../core/protocol/entry-types'
