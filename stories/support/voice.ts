/**
 * Scripted voice adapters for the stories: they work in any browser (no
 * microphone, no speech engine) and behave as a speech service does, on timers.
 * Dictation "hears" a phrase word by word as interim text and settles each
 * sentence as final; read aloud "speaks" for a time that grows with the text.
 */
import { voiceError, type DictationAdapter, type ReadAloudAdapter, type VoiceErrorCode } from '../../src/voice'

/** Dictation that hears `sentences`, one word per `pace` ms, or fails with `fail` after a moment. */
export function scriptedDictation(sentences: string[], { pace = 140, fail }: { pace?: number; fail?: VoiceErrorCode } = {}): DictationAdapter {
  return {
    supported: true,
    start(_options, handlers) {
      const timers: Array<ReturnType<typeof setTimeout>> = []
      let ended = false
      let interim = ''
      const end = () => {
        if (ended) return
        ended = true
        for (const timer of timers) clearTimeout(timer)
        handlers.onEnd?.()
      }
      const at = (ms: number, step: () => void) => timers.push(setTimeout(step, ms))
      if (fail) {
        at(300, () => {
          handlers.onError?.(voiceError(fail))
          end()
        })
        return { stop: end, cancel: end }
      }
      at(200, () => handlers.onStart?.())
      let t = 300
      for (const sentence of sentences) {
        const words = sentence.split(' ')
        words.forEach((_, i) => {
          t += pace
          at(t, () => {
            interim = words.slice(0, i + 1).join(' ')
            handlers.onInterim?.(interim)
          })
        })
        t += pace * 2
        at(t, () => {
          interim = ''
          handlers.onFinal(sentence)
          handlers.onInterim?.('')
        })
      }
      return {
        // Stopping settles what was heard, as a real service does.
        stop: () => {
          if (interim !== '') handlers.onFinal(interim)
          interim = ''
          end()
        },
        cancel: end,
      }
    },
  }
}

/** Read aloud that "speaks" for `msPerChar` ms a character, then ends; pause holds the clock. */
export function scriptedReadAloud({ msPerChar = 40 }: { msPerChar?: number } = {}): ReadAloudAdapter {
  return {
    supported: true,
    speak(text, _options, handlers) {
      let left = Math.max(600, text.length * msPerChar)
      let since = Date.now()
      let timer: ReturnType<typeof setTimeout> | undefined
      let done = false
      const finish = () => {
        if (done) return
        done = true
        clearTimeout(timer)
        handlers.onEnd?.()
      }
      const run = () => {
        since = Date.now()
        timer = setTimeout(finish, left)
      }
      setTimeout(() => handlers.onStart?.(), 0)
      run()
      return {
        cancel: finish,
        pause: () => {
          clearTimeout(timer)
          left -= Date.now() - since
        },
        resume: run,
      }
    },
  }
}
