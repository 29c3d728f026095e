/**
 * The built-in resume strategies, by name.
 */
import type { ResumeStrategy } from '../types'
import { aiSdkResume } from '../../../protocols/ui-message/resume'
import { lastEventIdResume } from './last-event-id'
import { vocionResume } from '../../../protocols/vocion/resume'
import { yaoResume } from '../../../protocols/yao/resume'

export { aiSdkResume, type AiSdkHandle, type AiSdkResumeOptions } from '../../../protocols/ui-message/resume'
export { lastEventIdResume, type LastEventIdHandle } from './last-event-id'
export { vocionResume, type VocionHandle, type VocionResumeOptions } from '../../../protocols/vocion/resume'
export { yaoResume, type YaoTaskHandle } from '../../../protocols/yao/resume'

/**
 * The names of the built-in strategies: `vocion` (`stream_meta` + `?id=&after=`),
 * `sse` (`Last-Event-ID`, e.g. AG-UI), `ai-sdk` (`<api>/<chatId>/stream`),
 * `yao` (`?since=<sequence>`).
 *
 * @example
 * const name: ResumeStrategyName = 'sse'
 */
export type ResumeStrategyName = 'vocion' | 'sse' | 'ai-sdk' | 'yao'

/**
 * A strategy from a name, or the host's own strategy as it is.
 *
 * @example
 * resolveResumeStrategy('vocion').name // 'vocion'
 */
export function resolveResumeStrategy(strategy: ResumeStrategy | ResumeStrategyName): ResumeStrategy {
  if (typeof strategy !== 'string') return strategy
  switch (strategy) {
    case 'vocion':
      return vocionResume()
    case 'sse':
      return lastEventIdResume()
    case 'ai-sdk':
      return aiSdkResume()
    case 'yao':
      return yaoResume()
    default: {
      const name: string = strategy
      throw new Error(`weft has no resume strategy named "${name}"`)
    }
  }
}
