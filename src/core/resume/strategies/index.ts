/**
 * Resume strategies by name: `sse` is the kit's own; every other name is a
 * protocol's (the name of a protocol the client was given, or the name its strategy reports).
 */
import { weftError, WeftStreamError } from '../../model/errors'
import type { ProtocolDefinition } from '../../protocol/types'
import type { ResumeStrategy } from '../types'
import { lastEventIdResume } from './last-event-id'

export { lastEventIdResume, type LastEventIdHandle } from './last-event-id'

/**
 * A strategy's name: `sse` (`Last-Event-ID`, e.g. AG-UI) or a protocol's
 * (`vocion`, `ai-sdk`, `yao` when the client has the built-ins, or a host protocol's).
 *
 * @example
 * const name: ResumeStrategyName = 'sse'
 */
export type ResumeStrategyName = string

/**
 * A strategy from a name, or the host's own strategy as it is. A name is looked
 * up among `candidates` (the client's protocols): a protocol matches by its own
 * name or by the name of the strategy it makes.
 *
 * @example
 * resolveResumeStrategy('sse').name // 'sse'
 * resolveResumeStrategy('ai-sdk', [uiMessageProtocol]).name // 'ai-sdk'
 */
export function resolveResumeStrategy(
  strategy: ResumeStrategy | ResumeStrategyName,
  candidates: readonly ProtocolDefinition[] = [],
): ResumeStrategy {
  if (typeof strategy !== 'string') return strategy
  if (strategy === 'sse') return lastEventIdResume()
  for (const definition of candidates) {
    if (!definition.resume) continue
    if (definition.name === strategy) return definition.resume()
    const made = definition.resume()
    if (made.name === strategy) return made
  }
  throw new WeftStreamError(weftError('validation', `no resume strategy named "${strategy}"`, {
    detail: 'give the client the protocol whose strategy it is (`protocols`), or pass the strategy itself',
  }))
}
