/**
 * Protocol auto-detection: every protocol given rates the response
 * headers and the first event; the most confident one wins.
 */
import type { ProtocolName } from '../model/model'
import type { DetectInput, ProtocolDefinition } from './types'

/** Below this, a guess is not good enough to act on. */
const MIN_CONFIDENCE = 0.5

/**
 * The protocol a stream speaks, or `undefined` when nothing is sure enough.
 *
 * @example
 * detectProtocol(protocols, { first: { type: 'text-delta', id: 't', delta: 'Hi' } }) // 'ui-message'
 */
export function detectProtocol(
  definitions: readonly ProtocolDefinition[],
  input: DetectInput,
): ProtocolName | undefined {
  let best: ProtocolName | undefined
  let bestScore = MIN_CONFIDENCE
  for (const definition of definitions) {
    let score = 0
    try {
      score = definition.sniff(input)
    } catch {
      score = 0 // a sniffer tripping over odd input is a "no"
    }
    if (score > bestScore || (score === 1 && bestScore < 1)) {
      best = definition.name
      bestScore = score
    }
  }
  return best
}
