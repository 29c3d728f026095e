/**
 * The protocols a process knows by name. The registry imports no protocol: the
 * built-ins register themselves through `registerProtocol` like any host
 * protocol (the `weft` and `weft/protocols` entries do it), and a client or
 * `foldStream` can be given definitions directly instead.
 */
import { weftError, WeftStreamError } from '../errors'
import type { ProtocolName } from '../model'
import type { ProtocolDefinition, ProtocolInput } from './types'

const registered = new Map<string, ProtocolDefinition>()

/**
 * Make protocols known by name and to detection. A definition with the name of
 * one already registered replaces it, keeping its place in detection order.
 *
 * @example
 * registerProtocol(myProtocol)
 * foldStream(text, { protocol: 'mine' })
 */
export function registerProtocol(...definitions: readonly ProtocolDefinition[]): void {
  for (const definition of definitions) registered.set(definition.name, definition)
}

/**
 * The registered protocols, in the order detection tries them.
 *
 * @example
 * registeredProtocols().map((p) => p.name) // ['yao', 'ui-message', 'vocion', 'ag-ui'] with `weft`
 */
export function registeredProtocols(): readonly ProtocolDefinition[] {
  return [...registered.values()]
}

/**
 * A registered protocol by name, or `undefined`.
 *
 * @example
 * getProtocol('yao')?.create({ turnId: 't1', scope: 't1' })
 */
export function getProtocol(name: ProtocolName): ProtocolDefinition | undefined {
  return registered.get(name)
}

/**
 * The definition an option names: the definition itself, else one of
 * `candidates` with that name, else a registered one. An unknown name is a
 * `validation` error.
 *
 * @example
 * resolveProtocol('yao').name // 'yao'
 */
export function resolveProtocol(input: ProtocolInput, candidates: readonly ProtocolDefinition[] = []): ProtocolDefinition {
  if (typeof input !== 'string') return input
  const found = candidates.find((p) => p.name === input) ?? registered.get(input)
  if (found) return found
  throw new WeftStreamError(weftError('validation', `no protocol named "${input}" is registered`, {
    detail: 'import the protocol (e.g. `weft/protocols/<name>`) and pass its definition, or call registerProtocol',
  }))
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
