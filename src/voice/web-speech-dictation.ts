/**
 * Dictation over the browser's Web Speech API (`SpeechRecognition`, prefixed
 * `webkitSpeechRecognition` in Chrome, Edge and Safari).
 */
import { voiceError, type DictationAdapter, type DictationHandlers, type DictationOptions, type DictationSession, type VoiceErrorCode } from './types'

/**
 * The part of a `SpeechRecognition` the adapter uses, so a test (or another
 * engine) can pass its own.
 *
 * @example
 * const Recognition = (window as unknown as { webkitSpeechRecognition?: SpeechRecognitionConstructor }).webkitSpeechRecognition
 */
export interface SpeechRecognitionConstructor {
  new (): SpeechRecognitionLike
}

/**
 * The fields and events of a recognition that the adapter sets and reads.
 *
 * @example
 * const recognition: SpeechRecognitionLike = new Recognition()
 */
export interface SpeechRecognitionLike {
  lang: string
  continuous: boolean
  interimResults: boolean
  maxAlternatives: number
  onstart: ((event: unknown) => void) | null
  onresult: ((event: SpeechRecognitionResultEventLike) => void) | null
  onerror: ((event: { error: string; message?: string }) => void) | null
  onend: ((event: unknown) => void) | null
  start(): void
  stop(): void
  abort(): void
}

/**
 * A result event: the results since the recognition started, of which those
 * from `resultIndex` on are new or changed.
 *
 * @example
 * const event: SpeechRecognitionResultEventLike = { resultIndex: 0, results: [Object.assign([{ transcript: 'hello' }], { isFinal: true })] }
 */
export interface SpeechRecognitionResultEventLike {
  resultIndex: number
  results: ArrayLike<ArrayLike<{ transcript: string }> & { isFinal: boolean }>
}

/**
 * Options of `webSpeechDictation`.
 *
 * @example
 * const options: WebSpeechDictationOptions = { lang: 'de-DE', continuous: false }
 */
export interface WebSpeechDictationOptions {
  /** The recognition to construct; default the page's `SpeechRecognition` or `webkitSpeechRecognition`. */
  recognition?: SpeechRecognitionConstructor
  /** The language when `start` names none; default the service's (the page's language). */
  lang?: string
  /** Keep listening across pauses until stopped (default true); false ends after one phrase. */
  continuous?: boolean
}

/** The page's recognition constructor, read when asked (a page may load a polyfill later). */
function pageRecognition(): SpeechRecognitionConstructor | undefined {
  if (typeof window === 'undefined') return undefined
  const scope = window as unknown as { SpeechRecognition?: SpeechRecognitionConstructor; webkitSpeechRecognition?: SpeechRecognitionConstructor }
  return scope.SpeechRecognition ?? scope.webkitSpeechRecognition
}

/** The Web Speech error names (and Chrome's `service-not-allowed`) as the kit's codes. */
const CODES: Readonly<Record<string, VoiceErrorCode>> = {
  'not-allowed': 'not-allowed',
  'service-not-allowed': 'not-allowed',
  'no-speech': 'no-speech',
  'audio-capture': 'audio-capture',
  network: 'network',
  aborted: 'aborted',
  'language-not-supported': 'language',
}

/** A session that has already failed: the error and the end come in a microtask, as a real one's would come later. */
function failed(handlers: DictationHandlers, code: VoiceErrorCode, message: string, cause?: unknown): DictationSession {
  let live = true
  queueMicrotask(() => {
    if (live) handlers.onError?.(voiceError(code, message, cause))
    handlers.onEnd?.()
  })
  return { stop() {}, cancel() { live = false } }
}

/**
 * A dictation adapter over the browser's speech recognition. Interim results
 * are on; in continuous mode (the default) it listens until stopped. In
 * Chrome and Edge the recognition is done by the vendor's servers (the audio
 * leaves the device); Safari recognises on the device where it can; Firefox
 * has none (`supported` is false).
 *
 * @example
 * <VoiceSettingsProvider dictation={webSpeechDictation({ lang: 'en-US' })}>
 *   <Composer send={send} stop={stop} />
 * </VoiceSettingsProvider>
 */
export function webSpeechDictation(options: WebSpeechDictationOptions = {}): DictationAdapter {
  const recognitionOf = () => options.recognition ?? pageRecognition()
  return {
    get supported() {
      return recognitionOf() !== undefined
    },
    start(startOptions: DictationOptions, handlers: DictationHandlers): DictationSession {
      const Recognition = recognitionOf()
      if (!Recognition) return failed(handlers, 'unsupported', 'This browser has no speech recognition')
      let recognition: SpeechRecognitionLike
      try {
        recognition = new Recognition()
      } catch (error) {
        return failed(handlers, 'unsupported', 'Speech recognition could not be created', error)
      }
      /** After cancel: nothing but the end is reported. */
      let cancelled = false
      let ended = false
      recognition.lang = startOptions.lang ?? options.lang ?? ''
      recognition.continuous = options.continuous ?? true
      recognition.interimResults = true
      recognition.maxAlternatives = 1
      recognition.onstart = () => {
        if (!cancelled) handlers.onStart?.()
      }
      recognition.onresult = (event) => {
        if (cancelled) return
        let final = ''
        let interim = ''
        for (let i = event.resultIndex; i < event.results.length; i++) {
          const result = event.results[i]
          const text = result?.[0]?.transcript ?? ''
          if (result?.isFinal) final += text
          else interim += text
        }
        if (final !== '') handlers.onFinal(final)
        handlers.onInterim?.(interim)
      }
      recognition.onerror = (event) => {
        // The abort of a cancel reports `aborted`: the person asked for it, so it is no error.
        if (cancelled) return
        handlers.onError?.(voiceError(CODES[event.error] ?? 'service', event.message || event.error, event))
      }
      recognition.onend = () => {
        if (ended) return
        ended = true
        handlers.onEnd?.()
      }
      try {
        recognition.start()
      } catch (error) {
        // `start` throws only when this recognition is already running, which a fresh one never is; said, not thrown.
        return failed(handlers, 'service', 'Speech recognition did not start', error)
      }
      return {
        stop: () => recognition.stop(),
        cancel: () => {
          cancelled = true
          recognition.abort()
        },
      }
    },
  }
}
