/**
 * Voice adapters a test drives by hand: each `start` or `speak` is recorded as a
 * session whose handlers the test calls (interim and final words, an error, the end),
 * with what the component asked of it (stop, cancel, pause).
 */
import type { DictationAdapter, DictationHandlers, DictationOptions, ReadAloudAdapter, ReadAloudHandlers, ReadAloudOptions, VoiceErrorCode } from '../../src/voice/types'

export interface HandDictationSession {
  options: DictationOptions
  handlers: DictationHandlers
  stopped: boolean
  cancelled: boolean
  started(): void
  interim(text: string): void
  final(text: string): void
  error(code: VoiceErrorCode): void
  end(): void
}

export function handDictation(supported = true): DictationAdapter & { sessions: HandDictationSession[]; last(): HandDictationSession } {
  const sessions: HandDictationSession[] = []
  return {
    supported,
    sessions,
    last: () => sessions[sessions.length - 1]!,
    start(options, handlers) {
      const session: HandDictationSession = {
        options, handlers, stopped: false, cancelled: false,
        started: () => handlers.onStart?.(),
        interim: (text) => handlers.onInterim?.(text),
        final: (text) => handlers.onFinal(text),
        error: (code) => handlers.onError?.({ code, message: code }),
        end: () => handlers.onEnd?.(),
      }
      sessions.push(session)
      return { stop: () => { session.stopped = true }, cancel: () => { session.cancelled = true } }
    },
  }
}

export interface HandSpeech {
  text: string
  options: ReadAloudOptions
  handlers: ReadAloudHandlers
  cancelled: boolean
}

export function handReadAloud(supported = true): ReadAloudAdapter & { spoken: HandSpeech[]; last(): HandSpeech } {
  const spoken: HandSpeech[] = []
  return {
    supported,
    spoken,
    last: () => spoken[spoken.length - 1]!,
    speak(text, options, handlers) {
      const speech: HandSpeech = { text, options, handlers, cancelled: false }
      spoken.push(speech)
      return { cancel: () => { speech.cancelled = true; handlers.onEnd?.() } }
    },
  }
}
