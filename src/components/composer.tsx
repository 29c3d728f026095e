/**
 * The input: a text area with Send and Stop, wired to the `send` and `stop`
 * the host passes in (usually from `useAgentStream`).
 */
import { createContext, useContext, useState, type FormEvent, type KeyboardEvent, type ReactNode } from 'react'
import { useStatus } from '../react/selectors'

interface ComposerState {
  text: string
  setText(text: string): void
  busy: boolean
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
export interface ComposerRootProps {
  /** Called with the trimmed text; the box clears. */
  send: (text: string) => unknown
  /** Called by Stop. */
  stop?: () => void
  /** Overrides the store's status: true while an answer is coming. */
  busy?: boolean
  /** Text the box starts with. */
  defaultValue?: string
  children?: ReactNode
}

/**
 * The form that holds the composer's text. Busy follows the store's status
 * (connecting, streaming or reconnecting) unless `busy` says otherwise.
 *
 * @example
 * <Composer.Root send={send} stop={stop}>
 *   <Composer.Input placeholder="Ask anything" />
 *   <Composer.Send />
 *   <Composer.Stop />
 * </Composer.Root>
 */
function Root({ send, stop, busy: busyProp, defaultValue = '', children }: ComposerRootProps) {
  const [text, setText] = useState(defaultValue)
  const status = useStatus()
  const busy = busyProp ?? (status === 'connecting' || status === 'streaming' || status === 'reconnecting')
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const value = text.trim()
    if (!value || busy) return
    setText('')
    void send(value)
  }
  const state: ComposerState = { text, setText, busy, canStop: busy && Boolean(stop), stop: () => stop?.() }
  return (
    <ComposerContext.Provider value={state}>
      <form data-weft="composer" data-state={busy ? 'busy' : 'idle'} onSubmit={submit}>
        {children}
      </form>
    </ComposerContext.Provider>
  )
}

/**
 * Props of `Composer.Input`.
 *
 * @example
 * <Composer.Input placeholder="Ask anything" rows={3} />
 */
export interface ComposerInputProps {
  placeholder?: string
  /** Default "Message". */
  'aria-label'?: string
  rows?: number
}

/**
 * The text area. Enter sends, Shift+Enter starts a new line.
 *
 * @example
 * <Composer.Input placeholder="Ask anything" />
 */
function Input({ placeholder, 'aria-label': label = 'Message', rows = 2 }: ComposerInputProps) {
  const { text, setText } = useComposer('Input')
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault()
      event.currentTarget.form?.requestSubmit()
    }
  }
  return (
    <textarea
      data-weft="composer-input"
      aria-label={label}
      placeholder={placeholder}
      rows={rows}
      value={text}
      onChange={(event) => setText(event.target.value)}
      onKeyDown={onKeyDown}
    />
  )
}

/**
 * Props of `Composer.Send` and `Composer.Stop`.
 *
 * @example
 * <Composer.Stop>Cancel</Composer.Stop>
 */
export interface ComposerButtonProps {
  children?: ReactNode
}

/**
 * The Send button: disabled while the box is empty or an answer is coming.
 *
 * @example
 * <Composer.Send>Ask</Composer.Send>
 */
function Send({ children = 'Send' }: ComposerButtonProps) {
  const { text, busy } = useComposer('Send')
  return (
    <button type="submit" data-weft="composer-send" disabled={busy || text.trim() === ''}>
      {children}
    </button>
  )
}

/**
 * The Stop button: enabled while an answer is coming and a `stop` was given.
 *
 * @example
 * <Composer.Stop />
 */
function Stop({ children = 'Stop' }: ComposerButtonProps) {
  const { canStop, stop } = useComposer('Stop')
  return (
    <button type="button" data-weft="composer-stop" disabled={!canStop} onClick={stop}>
      {children}
    </button>
  )
}

/**
 * Props of `Composer`.
 *
 * @example
 * <Composer send={send} stop={stop} placeholder="Ask anything" />
 */
export interface ComposerProps extends Omit<ComposerRootProps, 'children'> {
  placeholder?: string
}

/**
 * A ready composer: the text area, Send and Stop. Compose `Composer.Root`,
 * `Composer.Input`, `Composer.Send` and `Composer.Stop` for another layout.
 *
 * @example
 * const { send, stop } = useAgentStream({ url: '/api/agent' })
 * <Composer send={send} stop={stop} placeholder="Ask anything" />
 */
function ComposerDefault({ placeholder, ...root }: ComposerProps) {
  return (
    <Root {...root}>
      <Input placeholder={placeholder} />
      <Send />
      <Stop />
    </Root>
  )
}

/**
 * The composer, and its parts `Root`, `Input`, `Send` and `Stop`.
 *
 * @example
 * <Composer send={send} stop={stop} />
 */
export const Composer = Object.assign(ComposerDefault, { Root, Input, Send, Stop })
