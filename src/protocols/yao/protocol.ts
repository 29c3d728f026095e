/**
 * Yao as a plug-in: its decoder, detection, request builder, history reader and resume strategy.
 */
import type { ProtocolDefinition } from '../../core/index'
import { readYaoHistory } from './history'
import { createYaoDecoder, sniffYao } from './decoder'
import { yaoResume } from './resume'
import { yaoRequest } from './request'

/**
 * Yao's chunk stream (`chunk_id`, `type`, `props`), resumed by task sequence.
 *
 * @example
 * foldStream(sseText, { protocol: yaoProtocol })
 */
export const yaoProtocol: ProtocolDefinition = {
  name: 'yao',
  create: createYaoDecoder,
  sniff: sniffYao,
  request: yaoRequest,
  history: readYaoHistory,
  resume: () => yaoResume(),
}
