/**
 * Which protocols weft/testing knows beyond their name: the built-in ones have
 * shipped fixtures and resume replies; a host's own protocol has neither, and
 * asking for them fails with a typed error that says what to pass instead.
 */
import type { BuiltInProtocol } from './frames'

/**
 * The built-in protocols, in the order the Storybook decorator offers them.
 *
 * @example
 * BUILT_IN_PROTOCOLS.includes('yao') // true
 */
export const BUILT_IN_PROTOCOLS: readonly BuiltInProtocol[] = ['vocion', 'ui-message', 'ag-ui', 'yao', 'langgraph']

const BUILT_IN: ReadonlySet<string> = new Set<string>(BUILT_IN_PROTOCOLS)

/**
 * True for the names of the five built-in protocols.
 *
 * @example
 * isBuiltInProtocol('ui-message') // true
 * isBuiltInProtocol('lines')      // false: a host protocol
 */
export function isBuiltInProtocol(name: string | undefined): name is BuiltInProtocol {
  return name !== undefined && BUILT_IN.has(name)
}

/**
 * What exists only for the built-in protocols: shipped `fixtures`, and a
 * protocol's own `resume` reply (Vocion's `id`/`after`, Yao's `since`, the AI SDK's replay,
 * LangGraph's rejoin from `Last-Event-ID: -1`).
 *
 * @example
 * const feature: BuiltInOnlyFeature = 'fixtures'
 */
export type BuiltInOnlyFeature = 'fixtures' | 'resume'

/**
 * Thrown when a feature only the built-in protocols have is asked of another
 * protocol: a shipped fixture by name, or a protocol-specific resume reply.
 * `protocol` and `feature` say which; the message says what to pass instead.
 *
 * @example
 * try {
 *   getFixture('lines', 'plain')
 * } catch (error) {
 *   if (error instanceof UnsupportedProtocolError) console.log(error.protocol, error.feature) // 'lines' 'fixtures'
 * }
 */
export class UnsupportedProtocolError extends Error {
  /** The protocol that was asked. */
  readonly protocol: string
  /** What it was asked for. */
  readonly feature: BuiltInOnlyFeature

  constructor(protocol: string, feature: BuiltInOnlyFeature) {
    super(
      feature === 'fixtures'
        ? `weft/testing: no fixtures ship for protocol "${protocol}" (only for ${BUILT_IN_PROTOCOLS.join(', ')}); pass a fixture of your own (an AgentFixture or bare events)`
        : `weft/testing: no resume reply for protocol "${protocol}" (only ${BUILT_IN_PROTOCOLS.join(', ')} have one; any protocol can resume by Last-Event-ID); answer its reconnect with a route of your own`,
    )
    this.name = 'UnsupportedProtocolError'
    this.protocol = protocol
    this.feature = feature
  }
}
