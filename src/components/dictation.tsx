/**
 * The composer's dictation button: listens through the host's dictation
 * adapter and writes what it hears into the text at the caret, the words not
 * yet settled live and replaced as they settle, around what the person typed.
 */
import { forwardRef, useEffect, useLayoutEffect, useRef, useState, type ButtonHTMLAttributes, type HTMLAttributes, type MouseEvent, type Ref } from 'react'
import type { DictationAdapter, DictationSession, VoiceError } from '../voice/types'
import { MicIcon } from './icons'
import { useLabels } from './labels'
import { Slot } from './slot'
import { useVoiceSettings } from './voice'

/** A mark that goes straight after a word, with no space before it. */
const CLINGS = /^[,.!?;:…)\]}%'’”]/

/**
 * `piece` written into `text` at `at`, with a space on either side where a
 * word would touch it. Returns the new text, what was inserted (spaces
 * included) and where the caret goes: after the piece, before any space added after it.
 */
function insertAt(text: string, at: number, piece: string): { text: string; inserted: string; caret: number } {
  const words = piece.trim()
  if (words === '') return { text, inserted: '', caret: at }
  const before = text.slice(0, at)
  const after = text.slice(at)
  const lead = before !== '' && !/\s$/.test(before) && !CLINGS.test(words) ? ' ' : ''
  const trail = after !== '' && !/^\s/.test(after) && !CLINGS.test(after) ? ' ' : ''
  const inserted = lead + words + trail
  return { text: before + inserted + after, inserted, caret: at + lead.length + words.length }
}

/** A listening in progress: where its words go, and the unsettled ones now in the text. */
interface Listening {
  session: DictationSession | undefined
  /** Where the next words go. */
  at: number
  /** The interim words in the text, from `at`, spaces included ('' for none). */
  interim: string
  /** The text as this listening last wrote it: another text means the person edited it meanwhile. */
  written: string
  /** Stop was pressed: the service is settling its last words. */
  stopping: boolean
}

/**
 * Props of `Composer.Dictate`.
 *
 * @example
 * <Composer.Dictate lang="fr-FR" />
 */
export interface ComposerDictateProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  /** Default: `VoiceSettingsProvider`'s `dictation`. */
  adapter?: DictationAdapter
  /** The language spoken (BCP 47); default `VoiceSettingsProvider`'s `lang`, else the service's. */
  lang?: string
  /** Render the host's own element (its only child) with this button's props and behaviour. */
  asChild?: boolean
}

/** What the composer gives its dictation button. */
export interface DictationField {
  text: string
  setText(text: string): void
  /** Nothing can be sent now: the input is disabled, so is dictation. */
  refused: boolean
}

/** The composer's text area (its own, or the host's under `asChild`), found from the button's form. */
function fieldOf(button: HTMLElement | null): HTMLTextAreaElement | HTMLInputElement | null {
  return button?.closest('form')?.querySelector<HTMLTextAreaElement | HTMLInputElement>('[data-weft="composer-input"]') ?? null
}

/**
 * The dictation button (`data-state` `idle`, `listening`, `error`), drawn by
 * `Composer.Dictate` with the composer's text.
 */
export const DictateButton = forwardRef<HTMLButtonElement, ComposerDictateProps & DictationField>(function DictateButton(
  { adapter: explicit, lang: explicitLang, asChild, children, text, setText, refused, disabled, onClick, ...rest },
  ref,
) {
  const labels = useLabels()
  const settings = useVoiceSettings()
  const adapter = explicit ?? settings.dictation
  const lang = explicitLang ?? settings.lang
  const [state, setState] = useState<'idle' | 'listening' | 'error'>('idle')
  const [error, setError] = useState<VoiceError | undefined>(undefined)
  const [heard, setHeard] = useState(false)
  const own = useRef<HTMLElement | null>(null)
  const listening = useRef<Listening | undefined>(undefined)
  /** The latest text: the composer's as drawn, or what this button wrote since. */
  const latest = useRef(text)
  latest.current = text
  const caret = useRef<number | undefined>(undefined)
  const entered = useRef(false)

  // The caret follows the words as they are written, once the text is drawn.
  useLayoutEffect(() => {
    const at = caret.current
    if (at === undefined) return
    caret.current = undefined
    fieldOf(own.current)?.setSelectionRange(at, at)
  })

  const write = (now: Listening, next: string, at: number) => {
    now.written = next
    latest.current = next
    caret.current = at
    setText(next)
  }

  /** Takes the interim words out of the text (or, when the person edited it meanwhile, leaves them as theirs and moves to the caret). */
  const withoutInterim = (now: Listening): string => {
    const current = latest.current
    if (current !== now.written) {
      now.at = Math.min(fieldOf(own.current)?.selectionEnd ?? current.length, current.length)
      now.interim = ''
      now.written = current
      return current
    }
    const cut = current.slice(0, now.at) + current.slice(now.at + now.interim.length)
    now.interim = ''
    return cut
  }

  const finish = (now: Listening, keep: boolean) => {
    if (listening.current !== now) return
    listening.current = undefined
    if (!keep && now.interim !== '') {
      const rest = withoutInterim(now)
      write(now, rest, now.at)
    }
  }

  const start = () => {
    if (!adapter) return
    const field = fieldOf(own.current)
    // A field the person has not been in has its caret at the start: the words go after the text then.
    const at = entered.current && field ? Math.min(field.selectionEnd ?? text.length, text.length) : text.length
    const now: Listening = { session: undefined, at, interim: '', written: text, stopping: false }
    listening.current = now
    setError(undefined)
    setHeard(false)
    setState('listening')
    let failure: VoiceError | undefined
    const live = () => listening.current === now
    try {
      now.session = adapter.start(lang !== undefined ? { lang } : {}, {
        onStart: () => {
          if (live()) setHeard(true)
        },
        onInterim: (words) => {
          if (!live()) return
          const base = withoutInterim(now)
          const placed = insertAt(base, now.at, words)
          now.interim = placed.inserted
          write(now, placed.text, placed.caret)
        },
        onFinal: (words) => {
          if (!live()) return
          const base = withoutInterim(now)
          const placed = insertAt(base, now.at, words)
          // Settled: the words are the person's text now, and the next ones go after them.
          now.at = placed.caret
          write(now, placed.text, placed.caret)
        },
        onError: (reported) => {
          if (live()) failure = reported
        },
        onEnd: () => {
          if (!live()) return
          // Stopped (or ended by the service): the words heard stay, settled or not.
          finish(now, true)
          setError(failure)
          setState(failure ? 'error' : 'idle')
        },
      })
    } catch (thrown) {
      // An adapter that throws breaks its contract; the composer shows an error and goes on.
      finish(now, true)
      setError({ code: 'service', message: String(thrown), cause: thrown })
      setState('error')
    }
  }

  /** Ends the listening, dropping the unsettled words (Escape), or keeping the text as it is (a send). */
  const cancel = (keep: boolean) => {
    const now = listening.current
    if (!now) return
    finish(now, keep)
    now.session?.cancel()
    setState('idle')
  }
  const cancelRef = useRef(cancel)
  cancelRef.current = cancel

  const press = () => {
    const now = listening.current
    if (!now) return start()
    // A second press stops and keeps what was heard; one more while the service settles gives up waiting.
    if (now.stopping) return cancel(true)
    now.stopping = true
    now.session?.stop()
  }

  // Escape while listening drops the unsettled words (and does not also stop a streaming answer);
  // a send ends the listening, the text sent as it showed. Unmounting ends it too.
  useEffect(() => {
    const form = own.current?.closest('form')
    if (!form || state !== 'listening') return
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return
      event.preventDefault()
      cancelRef.current(false)
    }
    const onSubmit = () => cancelRef.current(true)
    form.addEventListener('keydown', onKey)
    form.addEventListener('submit', onSubmit)
    return () => {
      form.removeEventListener('keydown', onKey)
      form.removeEventListener('submit', onSubmit)
    }
  }, [state])
  useEffect(() => () => cancelRef.current(true), [])
  // Whether the person has been in the field, so its caret says where they are.
  useEffect(() => {
    const form = own.current?.closest('form')
    if (!form) return
    const onFocus = (event: FocusEvent) => {
      if (event.target === fieldOf(own.current)) entered.current = true
    }
    form.addEventListener('focusin', onFocus)
    return () => form.removeEventListener('focusin', onFocus)
  }, [adapter])

  if (!adapter || !adapter.supported) return null
  const name = state === 'listening' ? labels.stopDictation : labels.dictate
  const bare = children === undefined || children === null
  const props = {
    type: 'button' as const,
    'aria-label': name,
    title: error ? labels.dictationError(error) : name,
    disabled: disabled || (refused && state !== 'listening'),
    ...rest,
    'data-weft': 'composer-dictate',
    'data-state': state,
    onClick: (event: MouseEvent<HTMLButtonElement>) => {
      onClick?.(event)
      if (!event.defaultPrevented) press()
    },
    children: bare ? <MicIcon data-weft="composer-icon" width={18} height={18} strokeWidth={2} /> : children,
  }
  const setRefs = (node: HTMLElement | null) => {
    own.current = node
    if (typeof ref === 'function') ref(node as HTMLButtonElement | null)
    else if (ref) ref.current = node as HTMLButtonElement | null
  }
  const status = error ? labels.dictationError(error) : state === 'listening' && heard ? labels.listening : ''
  return (
    <>
      {asChild
        ? <Slot {...(props as HTMLAttributes<HTMLElement>)} ref={setRefs} />
        : <button {...props} ref={setRefs as Ref<HTMLButtonElement>} />}
      <span data-weft="voice-status" data-state={error ? 'error' : state} role="status">{status}</span>
    </>
  )
})
