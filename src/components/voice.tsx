/**
 * Voice, off until a host gives an adapter: the settings (which dictation and
 * read-aloud adapters, the language, the speech options) and the read-aloud
 * button. Only the adapters' types are imported here; their Web Speech
 * implementations are `weft/voice`, which a host imports when it wants them.
 */
import {
  createContext, forwardRef, useCallback, useContext, useEffect, useId, useMemo, useState, useSyncExternalStore,
  type ButtonHTMLAttributes, type HTMLAttributes, type ReactNode,
} from 'react'
import type { DictationAdapter, ReadAloudAdapter, ReadAloudOptions, ReadAloudSession, VoiceError } from '../voice/types'
import { useLabels } from './labels'
import { Slot } from './slot'

/**
 * Which speech the components offer: `dictation` draws a microphone button in
 * the composer, `readAloud` a "Read aloud" action under each answer; `lang`
 * is the language of both (BCP 47; default the service's), `speech` the
 * voice, rate and pitch answers are read in. Without an adapter nothing is drawn.
 *
 * @example
 * const settings: VoiceSettings = { dictation: webSpeechDictation(), readAloud: webSpeechReadAloud(), lang: 'en-US' }
 */
export interface VoiceSettings {
  dictation?: DictationAdapter
  readAloud?: ReadAloudAdapter
  lang?: string
  speech?: ReadAloudOptions
}

const VoiceSettingsContext = createContext<VoiceSettings>({})

/**
 * Props of `VoiceSettingsProvider`.
 *
 * @example
 * const props: VoiceSettingsProviderProps = { readAloud: webSpeechReadAloud() }
 */
export type VoiceSettingsProviderProps = VoiceSettings & { children?: ReactNode }

/**
 * Turns voice on for the components below it: the composer's dictation button
 * (`Composer.Dictate`, in the ready `Composer` too) and the read-aloud action in
 * `MessageActions`. Nested providers merge: a setting given here replaces the
 * outer one.
 *
 * @example
 * import { webSpeechDictation, webSpeechReadAloud } from 'weft/voice'
 * <VoiceSettingsProvider dictation={webSpeechDictation()} readAloud={webSpeechReadAloud()} lang="en-US">
 *   <Chat footer={<Composer send={send} stop={stop} />} />
 * </VoiceSettingsProvider>
 */
export function VoiceSettingsProvider({ children, dictation, readAloud, lang, speech }: VoiceSettingsProviderProps) {
  const outer = useContext(VoiceSettingsContext)
  const outerSpeaker = useContext(SpeakerContext)
  const [ownSpeaker] = useState(createSpeaker)
  // The chat that held the answers is gone (a page left, a panel closed): it stops speaking.
  useEffect(() => () => silence(ownSpeaker), [ownSpeaker])
  const value = useMemo<VoiceSettings>(() => ({
    ...outer,
    ...(dictation !== undefined ? { dictation } : {}), ...(readAloud !== undefined ? { readAloud } : {}),
    ...(lang !== undefined ? { lang } : {}), ...(speech !== undefined ? { speech } : {}),
  }), [outer, dictation, readAloud, lang, speech])
  return (
    <VoiceSettingsContext.Provider value={value}>
      <SpeakerContext.Provider value={outerSpeaker ?? ownSpeaker}>{children}</SpeakerContext.Provider>
    </VoiceSettingsContext.Provider>
  )
}

/**
 * The voice settings in force (empty without a provider: voice off).
 *
 * @example
 * const { readAloud } = useVoiceSettings()
 */
export function useVoiceSettings(): VoiceSettings {
  return useContext(VoiceSettingsContext)
}

/** Who speaks: one text at a time, so a new one silences the last. */
interface Speaker {
  /** The id of the text being spoken, and its turn (a new object per text, so a late report of an old one is told apart). */
  speaking: string | undefined
  turn: object | undefined
  session: ReadAloudSession | undefined
  listeners: Set<() => void>
}

function createSpeaker(): Speaker {
  return { speaking: undefined, turn: undefined, session: undefined, listeners: new Set() }
}

/** The speaker the outermost `VoiceSettingsProvider` keeps for everything below it. */
const SpeakerContext = createContext<Speaker | null>(null)

function set(speaker: Speaker, speaking: string | undefined, turn: object | undefined) {
  speaker.speaking = speaking
  speaker.turn = turn
  for (const listener of speaker.listeners) listener()
}

/** Silences what speaks (only `id`, when given). */
function silence(speaker: Speaker, id?: string) {
  if (speaker.turn === undefined || (id !== undefined && speaker.speaking !== id)) return
  const session = speaker.session
  speaker.session = undefined
  set(speaker, undefined, undefined)
  session?.cancel()
}

/** Speaks `text` as `id`, silencing whatever spoke before. */
function speak(speaker: Speaker, adapter: ReadAloudAdapter, id: string, text: string, options: ReadAloudOptions, onError: (error: VoiceError) => void) {
  silence(speaker)
  const turn = {}
  set(speaker, id, turn)
  const end = () => {
    if (speaker.turn !== turn) return
    speaker.session = undefined
    set(speaker, undefined, undefined)
  }
  try {
    const session = adapter.speak(text, options, {
      onError: (error) => {
        if (speaker.turn === turn) onError(error)
      },
      onEnd: end,
    })
    // An adapter may end at once (nothing to say), before `speak` returned its session.
    if (speaker.turn === turn) speaker.session = session
  } catch (error) {
    // An adapter that throws breaks its contract; the chat shows an error and goes on.
    onError({ code: 'service', message: String(error), cause: error })
    end()
  }
}

/**
 * Props of `ReadAloudButton`.
 *
 * @example
 * <ReadAloudButton text="It is 18 °C in Paris." id="a1" />
 */
export interface ReadAloudButtonProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'onClick' | 'id'> {
  /** What to read, or a function that returns it when pressed. */
  text: string | (() => string)
  /** Which text this is, so a button drawn again (a list scrolled) still shows Stop while it speaks; default one per button. */
  id?: string
  /** Default: `VoiceSettingsProvider`'s `readAloud`. */
  adapter?: ReadAloudAdapter
  /** Render the host's own element (its only child) with this button's props and behaviour. */
  asChild?: boolean
}

/**
 * Reads a text aloud and turns into Stop while it speaks (`data-state`
 * `idle`, `speaking`, or `error` after a failure, whose reason a status next
 * to it shows and announces). Below a `VoiceSettingsProvider` one text speaks
 * at a time: starting one stops the one before, and the reading stops when the
 * provider unmounts (without one, when the button does). Draws nothing without
 * an adapter, or where the adapter says speech is not supported.
 *
 * @example
 * <ReadAloudButton text={() => answerText} />
 */
export const ReadAloudButton = forwardRef<HTMLButtonElement, ReadAloudButtonProps>(function ReadAloudButton({ text, id, adapter: explicit, asChild, children, ...rest }, ref) {
  const labels = useLabels()
  const settings = useVoiceSettings()
  const adapter = explicit ?? settings.readAloud
  const own = useId()
  const key = id ?? own
  const [error, setError] = useState<VoiceError | undefined>(undefined)
  const shared = useContext(SpeakerContext)
  const [alone] = useState(createSpeaker)
  const speaker = shared ?? alone
  // A button without a provider speaks on its own: unmounted, it stops. Under one, the provider does (a list scrolled keeps speaking).
  useEffect(() => () => silence(alone), [alone])
  const subscribe = useCallback((listener: () => void) => {
    speaker.listeners.add(listener)
    return () => {
      speaker.listeners.delete(listener)
    }
  }, [speaker])
  const speaking = useSyncExternalStore(subscribe, () => speaker.speaking === key, () => false)
  if (!adapter || !adapter.supported) return null
  const toggle = () => {
    if (speaking) return silence(speaker, key)
    setError(undefined)
    const options = { ...(settings.lang !== undefined ? { lang: settings.lang } : {}), ...settings.speech }
    speak(speaker, adapter, key, typeof text === 'function' ? text() : text, options, setError)
  }
  const state = speaking ? 'speaking' : error ? 'error' : 'idle'
  const name = speaking ? labels.stopReading : labels.readAloud
  const props = {
    type: 'button' as const,
    'aria-label': name,
    title: error ? labels.readAloudError(error) : name,
    ...rest,
    'data-weft': 'read-aloud',
    'data-state': state,
    onClick: toggle,
  }
  return (
    <>
      {asChild
        ? <Slot {...(props as HTMLAttributes<HTMLElement>)} ref={ref}>{children}</Slot>
        : <button {...props} ref={ref}>{children ?? name}</button>}
      <span data-weft="voice-status" data-state={error ? 'error' : 'idle'} role="status">{error ? labels.readAloudError(error) : ''}</span>
    </>
  )
})
