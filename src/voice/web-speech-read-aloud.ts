/**
 * Read-aloud over the browser's speech synthesis (`speechSynthesis`).
 */
import { voiceError, type ReadAloudAdapter, type ReadAloudHandlers, type ReadAloudOptions, type ReadAloudSession, type VoiceErrorCode } from './types'

/**
 * The part of `speechSynthesis` the adapter uses, so a test can pass its own.
 *
 * @example
 * const synthesis: SpeechSynthesisLike = window.speechSynthesis
 */
export type SpeechSynthesisLike = Pick<SpeechSynthesis, 'speak' | 'cancel' | 'pause' | 'resume' | 'getVoices'>

/**
 * The part of an utterance the adapter sets and listens to.
 *
 * @example
 * const Utterance: SpeechUtteranceConstructor = SpeechSynthesisUtterance
 */
export interface SpeechUtteranceConstructor {
  new (text: string): Pick<SpeechSynthesisUtterance, 'lang' | 'voice' | 'rate' | 'pitch' | 'volume' | 'onstart' | 'onend' | 'onerror'>
}

/**
 * Options of `webSpeechReadAloud`: the synthesis and utterance to use
 * (default the page's), the options `speak` gives none of, and the longest
 * piece spoken as one utterance.
 *
 * @example
 * const options: WebSpeechReadAloudOptions = { lang: 'en-GB', rate: 1.1 }
 */
export interface WebSpeechReadAloudOptions extends ReadAloudOptions {
  synthesis?: SpeechSynthesisLike
  utterance?: SpeechUtteranceConstructor
  /** Characters per utterance (default 200): Chrome stops a long one after about 15 s, so the text is spoken sentence by sentence. */
  chunkLength?: number
}

const CODES: Readonly<Record<string, VoiceErrorCode>> = {
  'not-allowed': 'not-allowed',
  network: 'network',
  'language-unavailable': 'language',
  'voice-unavailable': 'language',
  'synthesis-unavailable': 'unsupported',
}

/** What another `speak` or `cancel` on the page does to an utterance: an end, not a failure to show. */
const SILENCED: ReadonlySet<string> = new Set(['interrupted', 'canceled'])

/**
 * The text in pieces of at most `limit` characters, cut after a sentence, or
 * else after a clause, or else at a space; a word longer than the limit stays whole.
 *
 * @example
 * speechChunks('One. Two.', 5) // ['One.', 'Two.']
 */
export function speechChunks(text: string, limit: number): string[] {
  const out: string[] = []
  let rest = text.replace(/\s+/g, ' ').trim()
  while (rest.length > limit) {
    // The head with the space after it, so a mark that ends the head counts as followed by one.
    const head = rest.slice(0, limit + 1)
    const end = lastBreak(head, /[.!?…。！？]/) ?? lastBreak(head, /[,;:，；：]/) ?? (head.lastIndexOf(' ') > 0 ? head.lastIndexOf(' ') : rest.indexOf(' ', limit))
    const at = end === -1 ? rest.length : end
    out.push(rest.slice(0, at).trim())
    rest = rest.slice(at).trim()
  }
  if (rest !== '') out.push(rest)
  return out
}

/** Just after the last mark of `marks` in `head` that a space follows, if any. */
function lastBreak(head: string, marks: RegExp): number | undefined {
  for (let i = head.length - 2; i > 0; i--) if (head[i + 1] === ' ' && marks.test(head[i]!)) return i + 1
  return undefined
}

/** The page's synthesis and utterance, read when asked. */
function pageSynthesis(): { synthesis: SpeechSynthesisLike; utterance: SpeechUtteranceConstructor } | undefined {
  if (typeof window === 'undefined' || !window.speechSynthesis || typeof SpeechSynthesisUtterance === 'undefined') return undefined
  return { synthesis: window.speechSynthesis, utterance: SpeechSynthesisUtterance }
}

/**
 * A read-aloud adapter over the browser's speech synthesis: the text is
 * spoken sentence by sentence in the voice asked for (by name or URI, else
 * the first of the language, else the browser's), with pause and resume. The
 * voices are the system's and the browser's; some of Chrome's are the
 * vendor's online voices, which send the text to its servers.
 *
 * @example
 * <VoiceSettingsProvider readAloud={webSpeechReadAloud({ rate: 1.1 })}>
 *   <Chat footer={<Composer send={send} stop={stop} />} />
 * </VoiceSettingsProvider>
 */
export function webSpeechReadAloud(options: WebSpeechReadAloudOptions = {}): ReadAloudAdapter {
  const engine = () => {
    const page = options.synthesis && options.utterance ? undefined : pageSynthesis()
    const synthesis = options.synthesis ?? page?.synthesis
    const utterance = options.utterance ?? page?.utterance
    return synthesis && utterance ? { synthesis, utterance } : undefined
  }
  return {
    get supported() {
      return engine() !== undefined
    },
    speak(text: string, speakOptions: ReadAloudOptions, handlers: ReadAloudHandlers): ReadAloudSession {
      const found = engine()
      let done = false
      const finish = (error?: { code: VoiceErrorCode; message: string; cause?: unknown }) => {
        if (done) return
        done = true
        if (error) handlers.onError?.(voiceError(error.code, error.message, error.cause))
        handlers.onEnd?.()
      }
      if (!found) {
        queueMicrotask(() => finish({ code: 'unsupported', message: 'This browser has no speech synthesis' }))
        return { cancel: () => finish() }
      }
      const { synthesis, utterance: Utterance } = found
      const settings = { ...options, ...speakOptions }
      const lang = settings.lang
      const voices = synthesis.getVoices()
      const voice = (settings.voice !== undefined ? voices.find((v) => v.name === settings.voice || v.voiceURI === settings.voice) : undefined)
        ?? (lang !== undefined ? voices.find((v) => v.lang === lang) ?? voices.find((v) => v.lang.split('-')[0] === lang.split('-')[0]) : undefined)
      const chunks = speechChunks(text, options.chunkLength ?? 200)
      if (chunks.length === 0) {
        queueMicrotask(() => finish())
        return { cancel: () => finish() }
      }
      // Whatever this page was saying (or a pause it was left in) would hold the new text back.
      synthesis.cancel()
      let started = false
      chunks.forEach((chunk, index) => {
        const utterance = new Utterance(chunk)
        if (lang !== undefined) utterance.lang = lang
        if (voice) utterance.voice = voice
        if (settings.rate !== undefined) utterance.rate = settings.rate
        if (settings.pitch !== undefined) utterance.pitch = settings.pitch
        if (settings.volume !== undefined) utterance.volume = settings.volume
        utterance.onstart = () => {
          if (started || done) return
          started = true
          handlers.onStart?.()
        }
        utterance.onend = () => {
          if (index === chunks.length - 1) finish()
        }
        utterance.onerror = (event) => {
          if (done) return
          if (SILENCED.has(event.error)) return finish()
          finish({ code: CODES[event.error] ?? 'service', message: event.error, cause: event })
          synthesis.cancel()
        }
        synthesis.speak(utterance as SpeechSynthesisUtterance)
      })
      return {
        cancel: () => {
          if (done) return
          finish()
          synthesis.cancel()
        },
        pause: () => synthesis.pause(),
        resume: () => synthesis.resume(),
      }
    },
  }
}
