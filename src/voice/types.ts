/**
 * What a speech service does for the kit, with no React and no browser API in
 * the types: a dictation adapter (speech to text into the composer) and a
 * read-aloud adapter (an answer spoken). The Web Speech implementations and a
 * host's own service (a WebSocket to a speech-to-text server, a text-to-speech
 * endpoint) implement the same two interfaces.
 */

/**
 * Why speech failed: `not-allowed` (the person or the browser refused the
 * microphone or the speech service), `no-speech` (nothing was heard),
 * `audio-capture` (no microphone), `network` (the service could not be
 * reached), `unsupported` (no speech service here), `language` (the language
 * or voice is not available), `aborted` (ended by something other than the
 * person), `service` (the service failed otherwise).
 *
 * @example
 * const quiet: VoiceErrorCode = 'no-speech'
 */
export type VoiceErrorCode = 'not-allowed' | 'no-speech' | 'audio-capture' | 'network' | 'unsupported' | 'language' | 'aborted' | 'service'

/**
 * A speech failure as the components show it: its code, a message for logs
 * (the components show their own words, from the labels, per code) and what
 * the service reported, when anything.
 *
 * @example
 * const error: VoiceError = { code: 'not-allowed', message: 'Microphone permission was denied' }
 */
export interface VoiceError {
  code: VoiceErrorCode
  message: string
  cause?: unknown
}

/**
 * A `VoiceError` of this code, with a message.
 *
 * @example
 * handlers.onError?.(voiceError('network', 'The speech server closed the connection', event))
 */
export function voiceError(code: VoiceErrorCode, message: string = code, cause?: unknown): VoiceError {
  return cause === undefined ? { code, message } : { code, message, cause }
}

/**
 * How to listen: the language spoken (BCP 47, `en-US`; the service's default
 * when absent).
 *
 * @example
 * const options: DictationOptions = { lang: 'fr-FR' }
 */
export interface DictationOptions {
  lang?: string
}

/**
 * What a dictation session reports, in this order: `onStart` once listening
 * (the microphone granted), then any number of `onInterim` and `onFinal`,
 * then `onEnd` exactly once, after an error too. `onInterim` gives the whole
 * text heard but not yet settled (each call replaces the one before; `''`
 * clears it); `onFinal` gives text that is settled, which replaces the
 * interim text. After `cancel()` nothing but `onEnd` comes.
 *
 * @example
 * const handlers: DictationHandlers = {
 *   onInterim: (text) => preview(text),
 *   onFinal: (text) => commit(text),
 *   onError: (error) => console.warn(error.code),
 *   onEnd: () => done(),
 * }
 */
export interface DictationHandlers {
  onStart?(): void
  onInterim?(text: string): void
  onFinal(text: string): void
  onError?(error: VoiceError): void
  onEnd?(): void
}

/**
 * One listening: `stop()` ends it and keeps what was heard (the service
 * settles its interim text as final first, where it can); `cancel()` ends it
 * and drops anything not yet final.
 *
 * @example
 * const session: DictationSession = adapter.start({}, handlers)
 * session.stop()
 */
export interface DictationSession {
  stop(): void
  cancel(): void
}

/**
 * Speech to text for the composer. `supported` says whether it can work here
 * (read when the button draws); `start` begins listening at once and reports
 * through the handlers, never by throwing. A host's own streaming service fits
 * it: open the socket and the microphone in `start`, call `onInterim` and
 * `onFinal` as results come, close in `stop`/`cancel` and call `onEnd`.
 *
 * @example
 * const adapter: DictationAdapter = {
 *   supported: true,
 *   start(options, handlers) {
 *     const socket = new WebSocket(`wss://speech.example.com/listen?lang=${options.lang ?? 'en'}`)
 *     socket.onopen = () => handlers.onStart?.()
 *     socket.onmessage = (event) => {
 *       const result = JSON.parse(String(event.data)) as { text: string; final: boolean }
 *       if (result.final) handlers.onFinal(result.text)
 *       else handlers.onInterim?.(result.text)
 *     }
 *     socket.onerror = () => handlers.onError?.(voiceError('network'))
 *     socket.onclose = () => handlers.onEnd?.()
 *     return { stop: () => socket.send('{"type":"finish"}'), cancel: () => socket.close() }
 *   },
 * }
 */
export interface DictationAdapter {
  readonly supported: boolean
  start(options: DictationOptions, handlers: DictationHandlers): DictationSession
}

/**
 * How to speak: the language (BCP 47), a voice by name or URI (the service's
 * choice when absent or unknown), and the rate, pitch and volume (1 is the
 * service's normal).
 *
 * @example
 * const options: ReadAloudOptions = { lang: 'en-GB', rate: 1.2 }
 */
export interface ReadAloudOptions {
  lang?: string
  voice?: string
  rate?: number
  pitch?: number
  volume?: number
}

/**
 * What speaking reports: `onStart` when sound begins, then `onEnd` exactly
 * once (after the whole text, after an error, or after `cancel()`), with
 * `onError` before it on a failure.
 *
 * @example
 * const handlers: ReadAloudHandlers = { onEnd: () => setSpeaking(false), onError: (error) => show(error) }
 */
export interface ReadAloudHandlers {
  onStart?(): void
  onError?(error: VoiceError): void
  onEnd?(): void
}

/**
 * One text being spoken: `cancel()` silences it; `pause()` and `resume()` are
 * there when the service can pause.
 *
 * @example
 * const session: ReadAloudSession = adapter.speak('Hello', {}, {})
 * session.pause?.()
 */
export interface ReadAloudSession {
  cancel(): void
  pause?(): void
  resume?(): void
}

/**
 * Text to speech for answers. `supported` says whether it can work here;
 * `speak` starts at once and reports through the handlers, never by throwing.
 * A host's own service fits it: fetch the audio in `speak`, play it, and call
 * `onEnd` when it ends.
 *
 * @example
 * const adapter: ReadAloudAdapter = {
 *   supported: true,
 *   speak(text, options, handlers) {
 *     const audio = new Audio(`/api/speech?voice=${options.voice ?? 'alloy'}&text=${encodeURIComponent(text)}`)
 *     audio.onplaying = () => handlers.onStart?.()
 *     audio.onended = () => handlers.onEnd?.()
 *     audio.onerror = () => { handlers.onError?.(voiceError('network')); handlers.onEnd?.() }
 *     void audio.play().catch(() => { handlers.onError?.(voiceError('not-allowed')); handlers.onEnd?.() })
 *     return { cancel: () => { audio.pause(); handlers.onEnd?.() }, pause: () => audio.pause(), resume: () => void audio.play() }
 *   },
 * }
 */
export interface ReadAloudAdapter {
  readonly supported: boolean
  speak(text: string, options: ReadAloudOptions, handlers: ReadAloudHandlers): ReadAloudSession
}
