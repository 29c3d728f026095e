// @vitest-environment jsdom
/**
 * `Composer` and its parts, rule by rule, in jsdom: when a send goes and with
 * what text, when the box keeps its text, Escape and Stop, Enter and Shift+Enter,
 * the busy, idle and disabled states the store's status and a send refusal give,
 * and the props each part hands its element (or the host's, with `asChild`).
 */
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react'
import { createRef, type ReactNode } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { Attachments } from '../../src/components/attachments'
import { Composer } from '../../src/components/composer'
import { weftError } from '../../src/core/model/errors'
import type { StreamStatus } from '../../src/core/model/model'
import { createAgentStore, type AgentStore } from '../../src/core/store/store'
import { AgentProvider } from '../../src/umbrella/providers'
import { SendRefusalContext } from '../../src/react/store-context'
import { VoiceSettingsProvider } from '../../src/components/voice'
import { handDictation } from '../helpers/voice'

afterEach(cleanup)

const refused = weftError('validation', 'the conversation is still loading', { code: 'conversation_unavailable' })

function show(node: ReactNode, { status, refusal }: { status?: StreamStatus; refusal?: typeof refused } = {}) {
  const store: AgentStore = createAgentStore()
  if (status) store.getState().dispatch([{ op: 'stream.status', status }])
  const view = render(<AgentProvider store={store}><SendRefusalContext.Provider value={refusal}>{node}</SendRefusalContext.Provider></AgentProvider>)
  return { store, ...view }
}

const form = () => document.querySelector('[data-weft="composer"]') as HTMLFormElement
const box = () => screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement
const type = (text: string) => fireEvent.change(box(), { target: { value: text } })
const sendButton = () => document.querySelector('[data-weft="composer-send"]') as HTMLButtonElement
const stopButton = () => document.querySelector('[data-weft="composer-stop"]') as HTMLButtonElement

describe('Composer.Root: sending', () => {
  it('sends the trimmed text and clears the box', () => {
    const send = vi.fn()
    show(<Composer send={send} />)
    type('  Hello there \n')
    fireEvent.submit(form())
    expect(send.mock.calls).toEqual([['Hello there']])
    expect(box().value).toBe('')
  })

  it('sends nothing for an empty or blank box, and keeps what is there', () => {
    const send = vi.fn()
    show(<Composer send={send} />)
    fireEvent.submit(form())
    type('  \n ')
    fireEvent.submit(form())
    expect(send).not.toHaveBeenCalled()
    expect(box().value).toBe('  \n ')
  })

  it('starts with defaultValue', () => {
    const send = vi.fn()
    show(<Composer send={send} defaultValue="Draft" />)
    expect(box().value).toBe('Draft')
    fireEvent.submit(form())
    expect(send.mock.calls).toEqual([['Draft']])
  })

  it('sends nothing while refused, and the text stays in the box', () => {
    const send = vi.fn()
    show(<Composer.Root send={send} defaultValue="Hi"><Composer.Input /></Composer.Root>, { refusal: refused })
    fireEvent.submit(form())
    expect(send).not.toHaveBeenCalled()
    expect(box().value).toBe('Hi')
  })

  it('sends while an answer comes (the client queues it or steers with it), and the box clears', () => {
    const send = vi.fn()
    show(<Composer.Root send={send} defaultValue="And Lyon?"><Composer.Input /></Composer.Root>, { status: 'streaming' })
    fireEvent.submit(form())
    expect(send.mock.calls).toEqual([['And Lyon?']])
    expect(box().value).toBe('')
  })

  it('files alone can be sent: the text is empty then', () => {
    const send = vi.fn()
    show(<Attachments.Root><Composer send={send} /></Attachments.Root>)
    expect(sendButton().disabled).toBe(true)
    const file = new File(['x'], 'a.txt', { type: 'text/plain' })
    act(() => { fireEvent.drop(document.querySelector('[data-weft="attachments"]')!, { dataTransfer: { files: [file], types: ['Files'] } }) })
    expect(sendButton().disabled).toBe(false)
    fireEvent.submit(form())
    expect(send.mock.calls).toEqual([['']])
  })
})

describe('Composer.Root: state', () => {
  it('busy while the stream connects, streams or reconnects; idle otherwise', () => {
    const states = (['idle', 'connecting', 'streaming', 'reconnecting', 'done', 'error', 'aborted'] as StreamStatus[]).map((status) => {
      const { unmount } = show(<Composer send={() => {}} />, { status })
      const state = form().getAttribute('data-state')
      unmount()
      return [status, state]
    })
    expect(states).toEqual([
      ['idle', 'idle'], ['connecting', 'busy'], ['streaming', 'busy'], ['reconnecting', 'busy'], ['done', 'idle'], ['error', 'idle'], ['aborted', 'idle'],
    ])
  })

  it('the busy prop wins over the store\'s status', () => {
    const { unmount } = show(<Composer send={() => {}} busy={false} />, { status: 'streaming' })
    expect(form().getAttribute('data-state')).toBe('idle')
    unmount()
    show(<Composer send={() => {}} busy />)
    expect(form().getAttribute('data-state')).toBe('busy')
  })

  it('disabled while a send would be refused, even when busy', () => {
    show(<Composer send={() => {}} busy />, { refusal: refused })
    expect(form().getAttribute('data-state')).toBe('disabled')
  })

  it('passes its props and ref to the form', () => {
    const ref = createRef<HTMLFormElement>()
    show(<Composer.Root send={() => {}} ref={ref} className="mine" aria-label="Ask"><span>child</span></Composer.Root>)
    expect(ref.current).toBe(form())
    expect(form().className).toBe('mine')
    expect(form().getAttribute('aria-label')).toBe('Ask')
    expect(form().textContent).toBe('child')
  })

  it('a part outside Composer.Root says where it belongs', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    expect(() => render(<Composer.Input />)).toThrow('weft: <Composer.Input> must sit inside <Composer.Root>')
    expect(() => render(<Composer.Send />)).toThrow('weft: <Composer.Send> must sit inside <Composer.Root>')
    expect(() => render(<Composer.Stop />)).toThrow('weft: <Composer.Stop> must sit inside <Composer.Root>')
    expect(() => render(<Composer.Action />)).toThrow('weft: <Composer.Action> must sit inside <Composer.Root>')
    vi.mocked(console.error).mockRestore()
  })
})

describe('Composer.Root: Escape', () => {
  it('stops a busy answer when a stop was given, and takes the key', () => {
    const stop = vi.fn()
    show(<Composer send={() => {}} stop={stop} busy />)
    const event = new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true })
    box().dispatchEvent(event)
    expect(stop).toHaveBeenCalledTimes(1)
    expect(event.defaultPrevented).toBe(true)
  })

  it('does nothing when idle, without a stop, for another key, or when the host took the key', () => {
    const stop = vi.fn()
    const press = (node: ReactNode, key = 'Escape') => {
      const { unmount } = show(node)
      const event = new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true })
      box().dispatchEvent(event)
      unmount()
      return event.defaultPrevented
    }
    expect(press(<Composer send={() => {}} stop={stop} />)).toBe(false)
    expect(press(<Composer send={() => {}} busy />)).toBe(false)
    expect(press(<Composer send={() => {}} stop={stop} busy />, 'a')).toBe(false)
    const onKeyDown = vi.fn((event: { preventDefault(): void }) => event.preventDefault())
    expect(press(<Composer send={() => {}} stop={stop} busy onKeyDown={onKeyDown} />)).toBe(true)
    expect(onKeyDown).toHaveBeenCalledTimes(1)
    expect(stop).not.toHaveBeenCalled()
  })
})

describe('Composer.Input', () => {
  it('the box: named Message, one row, the host\'s placeholder, the typed text', () => {
    show(<Composer send={() => {}} placeholder="Ask anything" />)
    expect(box().getAttribute('rows')).toBe('1')
    expect(box().getAttribute('placeholder')).toBe('Ask anything')
    expect(box().getAttribute('data-weft')).toBe('composer-input')
    expect(box().disabled).toBe(false)
    expect(box().hasAttribute('title')).toBe(false)
    type('abc')
    expect(box().value).toBe('abc')
  })

  it('a refusal disables it and shows why, as placeholder and title', () => {
    show(<Composer send={() => {}} placeholder="Ask anything" />, { refusal: refused })
    expect(box().disabled).toBe(true)
    expect(box().getAttribute('placeholder')).toBe('the conversation is still loading')
    expect(box().getAttribute('title')).toBe('the conversation is still loading')
  })

  it('takes the host\'s rows, disabled, other props, ref, onChange and onKeyDown', () => {
    const ref = createRef<HTMLTextAreaElement>()
    const onChange = vi.fn()
    const onKeyDown = vi.fn()
    show(<Composer.Root send={() => {}}><Composer.Input ref={ref} rows={4} disabled id="q" onChange={onChange} onKeyDown={onKeyDown} /></Composer.Root>)
    expect(ref.current).toBe(box())
    expect([box().getAttribute('rows'), box().disabled, box().id]).toEqual(['4', true, 'q'])
    type('x')
    expect(onChange).toHaveBeenCalledTimes(1)
    expect(box().value).toBe('x')
    fireEvent.keyDown(box(), { key: 'a' })
    expect(onKeyDown).toHaveBeenCalledTimes(1)
  })

  it('Enter sends; Shift+Enter, Enter while composing, another key or a host that took the key do not', () => {
    const send = vi.fn()
    const onKeyDown = vi.fn((event: { key: string; preventDefault(): void }) => { if (event.key === 'Enter' && send.mock.calls.length > 0) event.preventDefault() })
    show(<Composer.Root send={send}><Composer.Input onKeyDown={onKeyDown} /></Composer.Root>)
    type('one')
    fireEvent.keyDown(box(), { key: 'Enter', shiftKey: true })
    fireEvent.keyDown(box(), { key: 'Enter', isComposing: true })
    fireEvent.keyDown(box(), { key: 'a' })
    expect(send).not.toHaveBeenCalled()
    const enter = new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true })
    box().dispatchEvent(enter)
    expect(send.mock.calls).toEqual([['one']])
    expect(enter.defaultPrevented).toBe(true)
    type('two')
    fireEvent.keyDown(box(), { key: 'Enter' })
    expect(send.mock.calls).toEqual([['one']])
    expect(box().value).toBe('two')
  })

  it('asChild: the host\'s field gets the value, the name, the handlers and the data attribute', () => {
    const send = vi.fn()
    const onKeyDown = vi.fn()
    show(<Composer.Root send={send}><Composer.Input asChild placeholder="Ask"><textarea className="auto" onKeyDown={onKeyDown} /></Composer.Input></Composer.Root>)
    expect(box().className).toBe('auto')
    expect(box().getAttribute('data-weft')).toBe('composer-input')
    expect(box().getAttribute('placeholder')).toBe('Ask')
    type('hey')
    expect(box().value).toBe('hey')
    fireEvent.keyDown(box(), { key: 'Enter' })
    expect(onKeyDown).toHaveBeenCalledTimes(1)
    expect(send.mock.calls).toEqual([['hey']])
  })
})

describe('Composer.Send, Composer.Stop and Composer.Action', () => {
  it('Send: an icon named Send, enabled only with text, while idle and not refused', () => {
    const { unmount } = show(<Composer.Root send={() => {}}><Composer.Input /><Composer.Send /></Composer.Root>)
    const send = sendButton()
    expect([send.type, send.getAttribute('aria-label'), send.getAttribute('title'), send.disabled]).toEqual(['submit', 'Send', 'Send', true])
    const icon = send.querySelector('[data-weft="composer-icon"]')!
    expect([icon.getAttribute('width'), icon.getAttribute('height'), icon.getAttribute('stroke-width')]).toEqual(['18', '18', '2.25'])
    type(' ')
    expect(sendButton().disabled).toBe(true)
    type('x')
    expect(sendButton().disabled).toBe(false)
    unmount()
    for (const options of [{ status: 'streaming' as const }, { refusal: refused }]) {
      const view = show(<Composer.Root send={() => {}} defaultValue="x"><Composer.Send /></Composer.Root>, options)
      expect(sendButton().disabled, JSON.stringify(options)).toBe(true)
      view.unmount()
    }
  })

  it('children replace the icon and its name; the host\'s props and ref go to the button', () => {
    const ref = createRef<HTMLButtonElement>()
    show(<Composer.Root send={() => {}}><Composer.Send ref={ref} className="go">Ask</Composer.Send></Composer.Root>)
    const send = sendButton()
    expect(ref.current).toBe(send)
    expect([send.textContent, send.hasAttribute('aria-label'), send.hasAttribute('title'), send.className]).toEqual(['Ask', false, false, 'go'])
    expect(send.querySelector('svg')).toBeNull()
  })

  it('Stop: enabled while busy with a stop; a click runs the host\'s onClick, then stop', () => {
    const order: string[] = []
    const stop = vi.fn(() => order.push('stop'))
    const { unmount } = show(<Composer.Root send={() => {}} stop={stop} busy><Composer.Stop onClick={() => order.push('host')} /></Composer.Root>)
    const button = stopButton()
    expect([button.type, button.getAttribute('aria-label'), button.getAttribute('title'), button.disabled]).toEqual(['button', 'Stop', 'Stop', false])
    fireEvent.click(button)
    expect(order).toEqual(['host', 'stop'])
    unmount()
    for (const node of [<Composer.Root key="a" send={() => {}} stop={stop}><Composer.Stop /></Composer.Root>, <Composer.Root key="b" send={() => {}} busy><Composer.Stop /></Composer.Root>]) {
      const view = show(node)
      expect(stopButton().disabled).toBe(true)
      view.unmount()
    }
  })

  it('Action: Send while idle, Stop while busy, marked by data-state', () => {
    const first = show(<Composer send={() => {}} stop={() => {}} />)
    expect(sendButton().getAttribute('data-state')).toBe('send')
    expect(stopButton()).toBeNull()
    first.unmount()
    show(<Composer send={() => {}} stop={() => {}} busy />)
    expect(stopButton().getAttribute('data-state')).toBe('stop')
    expect(sendButton()).toBeNull()
  })

  it('asChild buttons: the host\'s element, which names itself, gets the data attribute and the click', () => {
    const stop = vi.fn()
    show(<Composer.Root send={() => {}} stop={stop} busy><Composer.Stop asChild><a href="#stop">Halt</a></Composer.Stop></Composer.Root>)
    const link = stopButton()
    expect([link.tagName, link.textContent, link.hasAttribute('aria-label'), link.getAttribute('type')]).toEqual(['A', 'Halt', false, 'button'])
    fireEvent.click(link)
    expect(stop).toHaveBeenCalledTimes(1)
  })
})

describe('Composer.Dictate', () => {
  it('the ready composer draws it between the box and Send only with a dictation adapter that is supported', () => {
    show(<Composer send={() => undefined} />)
    expect(document.querySelector('[data-weft="composer-dictate"]')).toBeNull()
    cleanup()
    show(<VoiceSettingsProvider dictation={handDictation(false)}><Composer send={() => undefined} /></VoiceSettingsProvider>)
    expect(document.querySelector('[data-weft="composer-dictate"]')).toBeNull()
    cleanup()
    show(<VoiceSettingsProvider dictation={handDictation()}><Composer send={() => undefined} /></VoiceSettingsProvider>)
    expect([...form().children].map((el) => el.getAttribute('data-weft'))).toEqual(['composer-input', 'composer-dictate', 'voice-status', 'composer-send'])
  })

  it('writes what it hears into the composer’s text, which Send then sends', () => {
    const send = vi.fn()
    const adapter = handDictation()
    show(<VoiceSettingsProvider dictation={adapter}><Composer send={send} /></VoiceSettingsProvider>)
    fireEvent.click(screen.getByRole('button', { name: 'Dictate' }))
    act(() => adapter.last().final('call Ana'))
    expect(box().value).toBe('call Ana')
    expect(sendButton().disabled).toBe(false)
    fireEvent.submit(form())
    expect(send.mock.calls).toEqual([['call Ana']])
  })

  it('is disabled while a refusal holds the composer, enabled otherwise; the host’s disabled wins', () => {
    show(<VoiceSettingsProvider dictation={handDictation()}><Composer send={() => undefined} /></VoiceSettingsProvider>, { refusal: refused })
    expect(screen.getByRole('button', { name: 'Dictate' }).hasAttribute('disabled')).toBe(true)
    cleanup()
    show(<VoiceSettingsProvider dictation={handDictation()}><Composer.Root send={() => undefined}><Composer.Dictate /></Composer.Root></VoiceSettingsProvider>)
    expect(screen.getByRole('button', { name: 'Dictate' }).hasAttribute('disabled')).toBe(false)
    cleanup()
    show(<Composer.Root send={() => undefined}><Composer.Dictate adapter={handDictation()} disabled /></Composer.Root>)
    expect(screen.getByRole('button', { name: 'Dictate' }).hasAttribute('disabled')).toBe(true)
  })

  it('outside Composer.Root it says where it belongs', () => {
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    expect(() => render(<Composer.Dictate adapter={handDictation()} />)).toThrow('<Composer.Dictate> must sit inside <Composer.Root>')
    quiet.mockRestore()
  })
})
