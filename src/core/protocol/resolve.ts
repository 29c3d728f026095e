/**
 * Protocols are given, never registered: a client, `foldStream`, a history read
 * or a provider is handed the definitions it may use (`protocols`), and a name
 * (`protocol: 'yao'`) is looked up among them. Nothing here keeps state, so two
 * clients on one page can speak different sets, and a bundler that drops an
 * unused module drops nothing a host relies on.
 */
import { weftError, WeftStreamError } from '../model/errors'
import type { ProtocolName } from '../model/model'
import type { ProtocolDefinition, ProtocolInput } from './types'

/**
 * The definition an option names: the definition itself, else the one of
 * `candidates` with that name. An unknown name is a `validation` error.
 *
 * @example
 * resolveProtocol('yao', [yaoProtocol, uiMessageProtocol]).name // 'yao'
 */
export function resolveProtocol(input: ProtocolInput, candidates: readonly ProtocolDefinition[] | undefined): ProtocolDefinition {
  if (typeof input !== 'string') return input
  const found = findProtocol(input, candidates)
  if (found) return found
  throw new WeftStreamError(weftError('validation', `no protocol named "${input}" was given`, {
    detail: candidates?.length
      ? `the protocols given are ${candidates.map((p) => `"${p.name}"`).join(', ')}`
      : 'pass the definitions as `protocols` (e.g. `protocols: [yaoProtocol]` from `weft/protocols/yao`), or use the `weft` entry, which defaults to the built-in ones',
  }))
}

/**
 * The definition of `candidates` with this name, or `undefined`.
 *
 * @example
 * findProtocol('ag-ui', builtInProtocols)?.gateAnswers
 */
export function findProtocol(name: ProtocolName | undefined, candidates: readonly ProtocolDefinition[] | undefined): ProtocolDefinition | undefined {
  if (name === undefined || !candidates) return undefined
  return candidates.find((p) => p.name === name)
}

/**
 * The protocols a client or a fold may detect among: `protocols`, with the
 * definition `protocol` names first when it is one that is not in the list.
 *
 * @example
 * candidatesOf({ protocol: myProtocol, protocols: builtInProtocols }) // [myProtocol, ...builtInProtocols]
 */
export function candidatesOf(options: { protocol?: ProtocolInput; protocols?: readonly ProtocolDefinition[] }): readonly ProtocolDefinition[] {
  const list = options.protocols ?? []
  const given = options.protocol
  return typeof given === 'object' && !list.includes(given) ? [given, ...list] : list
}

/**
 * The name an option gives a protocol.
 *
 * @example
 * protocolName(yaoProtocol) // 'yao'
 */
export function protocolName(input: ProtocolInput | undefined): ProtocolName | undefined {
  return typeof input === 'string' || input === undefined ? input : input.name
}
