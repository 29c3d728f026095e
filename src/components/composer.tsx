/**
 * The input: one container with a growing text area and a single button that
 * is Send while idle and Stop while an answer is coming, wired to the `send`
 * and `stop` the host passes in (usually from `useAgentStream`).
 */
import {
  createContext, forwardRef, useContext, useState,
  type ButtonHTMLAttributes, type ChangeEvent, type FormEvent, type FormHTMLAttributes, type HTMLAttributes, type KeyboardEvent, type ReactNode, type Ref, type TextareaHTMLAttributes,
} from 'react'
import type { WeftError } from '../core/model/errors'
import { useStatus } from '../react/selectors'
import { useSendRefusal } from '../react/store-context'
import { useAttachedCount } from './attachments'
import { DictateButton, type ComposerDictateProps } from './dictation'
import { useLabels } from './labels'
import { SendIcon, StopIcon } from './icons'
import { Slot } from './slot'

interface ComposerState {
  text: string
  /** Files wait in the surrounding `Attachments.Root`: sending needs no text then. */
  attached: boolean
  setText(text: string): void
  busy: boolean
  /** Why nothing can be sent now (a conversation still loading or unreadable). */
  refusal: WeftError | undefined
  canStop: boolean
  stop(): void
}

const ComposerContext = createContext<ComposerState | null>(null)

function useComposer(part: string): ComposerState {
  const state = useContext(ComposerContext)
  if (!state) throw new Error(`weft: <Composer.${part}> must sit inside <Composer.Root>`)
  return state
}

/**
 * Props of `Composer.Root` (and of `Composer`).
 *
 * @example
 * const props: ComposerRootProps = { send: (text) => client.send(text), stop: () => client.stop() }
 */
export interface ComposerRootProps extends Omit<FormHTMLAttributes<HTMLFormElement>, 'onSubmit'> {
  /** Called with the trimmed text (empty when only attachments are sent); the box clears. */
  send: (text: string) => unknown
  /** Called by Stop, and by Escape while an answer is coming. */
  stop?: () => void
  /** Overrides the store's status: true while an answer is coming. */
  busy?: boolean
  /** Text the box starts with. */
  defaultValue?: string
  children?: ReactNode
}

/**
 * The form that holds the composer's text (`data-state` `busy`, `idle`, or
 * `disabled` while the conversation shown takes no send: `useSendRefusal`, which
 * the text area then shows as its placeholder, through the `sendRefused` label). Busy follows the store's
 * status (connecting, streaming or reconnecting) unless `busy` says otherwise.
 * Escape anywhere in it stops a streaming answer. Enter sends while an answer
 * comes too: the client queues the message, or steers with it (`whileRunning`).
 *
 * @example
 * <Composer.Root send={send} stop={stop}>
 *   <Composer.Input placeholder="Ask anything" />
 *   <Composer.Action />
 * </Composer.Root>
 */
const Root = forwardRef<HTMLFormElement, ComposerRootProps>(function ComposerRoot({ send, stop, busy: busyProp, defaultValue = '', children, onKeyDown, ...rest }, ref) {
  const [text, setText] = useState(defaultValue)
  const status = useStatus()
  const busy = busyProp ?? (status === 'connecting' || status === 'streaming' || status === 'reconnecting')
  const attached = useAttachedCount() > 0
  const refusal = useSendRefusal()
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const value = text.trim()
    // The text stays in the box while it cannot be sent. While an answer comes it is sent too:
    // the client queues it, or steers with it (its `whileRunning`).
    if ((!value && !attached) || refusal) return
    setText('')
    void send(value)
  }
  const state: ComposerState = { text, attached, setText, busy, refusal, canStop: busy && Boolean(stop), stop: () => stop?.() }
  return (
    <ComposerContext.Provider value={state}>
      <form
        {...rest}
        ref={ref}
        data-weft="composer"
        data-state={refusal ? 'disabled' : busy ? 'busy' : 'idle'}
        onSubmit={submit}
        onKeyDown={(event) => {
          onKeyDown?.(event)
          if (event.key === 'Escape' && state.canStop && !event.defaultPrevented) {
            event.preventDefault()
            state.stop()
          }
        }}
      >
        {children}
      </form>
    </ComposerContext.Provider>
  )
})

/**
 * Props of `Composer.Input`.
 *
 * @example
 * <Composer.Input placeholder="Ask anything" rows={3} />
 */
export interface ComposerInputProps extends Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'value' | 'defaultValue'> {
  /** Render the host's own text field (its only child, e.g. an auto-sizing textarea) with the value, handlers and name. */
  asChild?: boolean
}

/**
 * The text area: grows with its text; Enter sends, Shift+Enter starts a new line.
 * Its placeholder is the `composerPlaceholder` label ("Send a message…") unless
 * `placeholder` is given.
 * With `asChild` the host's own field gets the value, `onChange` and the Enter
 * handling (its own handlers run first).
 *
 * @example
 * <Composer.Input placeholder="Ask anything" />
 * <Composer.Input asChild><TextareaAutosize maxRows={8} /></Composer.Input>
 */
const Input = forwardRef<HTMLTextAreaElement, ComposerInputProps>(function ComposerInput({ rows = 1, onKeyDown, onChange, placeholder, disabled, asChild, children, ...rest }, ref) {
  const labels = useLabels()
  const { text, setText, refusal } = useComposer('Input')
  const reason = refusal && labels.sendRefused(refusal)
  const keyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    onKeyDown?.(event)
    if (event.defaultPrevented) return
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault()
      event.currentTarget.form?.requestSubmit()
    }
  }
  const props = {
    'aria-label': labels.message,
    rows,
    // The host's own placeholder wins, even an empty one.
    placeholder: reason ?? placeholder ?? labels.composerPlaceholder,
    disabled: disabled || refusal !== undefined,
    title: reason,
    ...rest,
    'data-weft': 'composer-input',
    value: text,
    onChange: (event: ChangeEvent<HTMLTextAreaElement>) => {
      onChange?.(event)
      setText(event.target.value)
    },
    onKeyDown: keyDown,
  }
  if (asChild) return <Slot {...(props as unknown as HTMLAttributes<HTMLElement>)} ref={ref as Ref<HTMLElement>}>{children}</Slot>
  return <textarea {...props} ref={ref} />
})

/**
 * Props of `Composer.Send`, `Composer.Stop` and `Composer.Action`.
 *
 * @example
 * <Composer.Stop>Cancel</Composer.Stop>
 */
export interface ComposerButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  /** Render the host's own element (its only child) with this button's props and behaviour. */
  asChild?: boolean
}

/**
 * Send's and Stop's button (or the host's element): without children it shows
 * `icon`, in its text colour, named by `label` (also its tooltip).
 */
const Button = forwardRef<HTMLButtonElement, ComposerButtonProps & { label: string; icon: typeof SendIcon }>(function ComposerButton(
  { asChild, label, icon: Icon, children, ...rest },
  ref,
) {
  const bare = children === undefined || children === null
  const props = {
    'aria-label': bare ? label : undefined,
    title: bare ? label : undefined,
    ...rest,
    children: bare ? <Icon data-weft="composer-icon" width={18} height={18} strokeWidth={2.25} /> : children,
  }
  return asChild ? <Slot {...(props as HTMLAttributes<HTMLElement>)} ref={ref as Ref<HTMLElement>} /> : <button {...props} ref={ref} />
})

/**
 * The Send button: disabled while an answer is coming, while the box is
 * empty and no file is attached, or while nothing can be sent (`useSendRefusal`). Without children it is an icon (an up arrow)
 * named by the `send` label (also its tooltip); children replace the icon.
 *
 * @example
 * <Composer.Send>Ask</Composer.Send>
 */
const Send = forwardRef<HTMLButtonElement, ComposerButtonProps>(function ComposerSend(props, ref) {
  const labels = useLabels()
  const { text, attached, busy, refusal } = useComposer('Send')
  return (
    <Button
      type="submit"
      label={labels.send}
      icon={SendIcon}
      disabled={busy || refusal !== undefined || (text.trim() === '' && !attached)}
      {...props}
      ref={ref}
      data-weft="composer-send"
    />
  )
})

/**
 * The Stop button: enabled while an answer is coming and a `stop` was given.
 * Without children it is an icon (a square) named by the `stop` label, which a
 * pointer also shows as a tooltip.
 *
 * @example
 * <Composer.Stop />
 */
const Stop = forwardRef<HTMLButtonElement, ComposerButtonProps>(function ComposerStop({ onClick, ...rest }, ref) {
  const labels = useLabels()
  const { canStop, stop } = useComposer('Stop')
  return (
    <Button
      type="button"
      label={labels.stop}
      icon={StopIcon}
      disabled={!canStop}
      {...rest}
      ref={ref}
      data-weft="composer-stop"
      onClick={(event) => {
        onClick?.(event)
        stop()
      }}
    />
  )
})

/**
 * One button that is Send while idle and Stop while an answer is coming
 * (`data-state` `send` or `stop`), as in ChatGPT.
 *
 * @example
 * <Composer.Action />
 */
const Action = forwardRef<HTMLButtonElement, ComposerButtonProps>(function ComposerAction(props, ref) {
  const { busy } = useComposer('Action')
  return busy ? <Stop {...props} ref={ref} data-state="stop" /> : <Send {...props} ref={ref} data-state="send" />
})

/**
 * The dictation button, drawn only when a dictation adapter is given
 * (`VoiceSettingsProvider`'s `dictation`, or `adapter`) and says it is
 * supported here. A press listens (`data-state` `listening`; its name turns
 * from the `dictate` label to `stopDictation`): the words not yet settled show
 * in the text at the caret as they are heard and are replaced as they settle,
 * around what the person typed. A second press stops and keeps what was heard;
 * Escape stops and drops the words not yet settled; a send ends it, the text
 * sent as it showed. A failure sets `data-state` `error` and its reason (the
 * `dictationError` label) is shown and announced by a status beside the button.
 *
 * @example
 * <VoiceSettingsProvider dictation={webSpeechDictation()}>
 *   <Composer.Root send={send}>
 *     <Composer.Input />
 *     <Composer.Dictate />
 *     <Composer.Action />
 *   </Composer.Root>
 * </VoiceSettingsProvider>
 */
const Dictate = forwardRef<HTMLButtonElement, ComposerDictateProps>(function ComposerDictate(props, ref) {
  const { text, setText, refusal } = useComposer('Dictate')
  return <DictateButton {...props} ref={ref} text={text} setText={setText} refused={refusal !== undefined} />
})

/**
 * Props of `Composer`.
 *
 * @example
 * <Composer send={send} stop={stop} placeholder="Ask anything" />
 */
export interface ComposerProps extends Omit<ComposerRootProps, 'children'> {
  /** Default: the `composerPlaceholder` label ("Send a message…"). */
  placeholder?: string
}

/**
 * A ready composer: the growing text area and one Send/Stop button in one
 * container, with the dictation button between them when voice is on
 * (`VoiceSettingsProvider`). Compose `Composer.Root`, `.Input`, `.Dictate`, `.Action` (or `.Send` and
 * `.Stop`) for another layout.
 *
 * @example
 * const { send, stop } = useAgentStream({ url: '/api/agent' })
 * <Composer send={send} stop={stop} placeholder="Ask anything" />
 */
const ComposerDefault = forwardRef<HTMLFormElement, ComposerProps>(function Composer({ placeholder, ...root }, ref) {
  return (
    <Root {...root} ref={ref}>
      <Input placeholder={placeholder} />
      <Dictate />
      <Action />
    </Root>
  )
})

/**
 * The composer, and its parts `Root`, `Input`, `Dictate`, `Action`, `Send` and `Stop`.
 *
 * @example
 * <Composer send={send} stop={stop} />
 */
export const Composer = Object.assign(ComposerDefault, { Root, Input, Dictate, Action, Send, Stop })
