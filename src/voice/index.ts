/**
 * weft/voice: the dictation and read-aloud adapters the components take, and
 * their Web Speech implementations. No React: a host's own adapter imports
 * the types from here alone.
 *
 * @example
 * import { webSpeechDictation, webSpeechReadAloud, type DictationAdapter } from 'weft/voice'
 */
export {
  voiceError,
  type VoiceError, type VoiceErrorCode,
  type DictationAdapter, type DictationHandlers, type DictationOptions, type DictationSession,
  type ReadAloudAdapter, type ReadAloudHandlers, type ReadAloudOptions, type ReadAloudSession,
} from './types'
export {
  webSpeechDictation,
  type WebSpeechDictationOptions, type SpeechRecognitionConstructor, type SpeechRecognitionLike, type SpeechRecognitionResultEventLike,
} from './web-speech-dictation'
export { webSpeechReadAloud, speechChunks, type WebSpeechReadAloudOptions, type SpeechSynthesisLike, type SpeechUtteranceConstructor } from './web-speech-read-aloud'
