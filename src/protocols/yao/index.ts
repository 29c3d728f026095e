/**
 * Yao: the protocol definition, its decoder and its task resume strategy.
 *
 * @example
 * import { yaoProtocol } from 'weft/protocols/yao'
 */
export { yaoProtocol } from './protocol'
export { createYaoDecoder, sniffYao } from './decoder'
export { yaoResume, type YaoTaskHandle } from './resume'
export { yaoHistory, readYaoHistory, type YaoStoredMessage } from './history'
