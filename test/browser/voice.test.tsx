/**
 * Voice in Chromium: the composer's dictation button writes what it hears at
 * the caret (interim words live, final ones settled) around the person's text,
 * stops on a second press, on Escape and on send, and shows and announces a
 * failure; the read-aloud action reads an answer's text, is Stop while it
 * speaks and lets one answer speak at a time; nothing is drawn without an
 * adapter. Then the Web Speech adapters against a scripted recognition and
 * synthesis, and against Chromium's own.
 */
import '../../src/components/styles.css'
import { act, screen, waitFor } from '@testing-library/react'
import axe from 'axe-core'
import { describe, expect, it, vi } from 'vitest'
import { userEvent } from 'vitest/browser'
import { Composer } from '../../src/components/composer'
import { MessageActions } from '../../src/components/message-actions'
import { Transcript } from '../../src/components/transcript'
import { ReadAloudButton, VoiceSettingsProvider } from '../../src/components/voice'
import type { Op } from '../../src/core/model/ops'
import { speechChunks, webSpeechReadAloud, type SpeechSynthesisLike, type SpeechUtteranceConstructor } from '../../src/voice/web-speech-read-aloud'
import { webSpeechDictation, type SpeechRecognitionLike, type SpeechRecognitionResultEventLike } from '../../src/voice/web-speech-dictation'
import type { VoiceError } from '../../src/voice/types'
import { handDictation, handReadAloud } from '../helpers/voice'
import { SendRefusalContext } from '../../src/react/store-context'
import { weftError } from '../../src/core/model/errors'
import { renderWith, storeWith } from './support'

const field = () => screen.getByRole('textbox') as HTMLTextAreaElement
const dictateButton = () => document.querySelector<HTMLButtonElement>('[data-weft="composer-dictate"]')!

function composer(adapter = handDictation(), send = vi.fn(), stop = vi.fn()) {
  renderWith(storeWith([]), (
    <VoiceSettingsProvider dictation={adapter} lang="en-GB">
      <Composer send={send} stop={stop} />
    </VoiceSettingsProvider>
  ))
  return { adapter, send, stop }
}

describe('Composer.Dictate', () => {
  it('is off by default: no button and no status without a dictation adapter, nor when the adapter is not supported', () => {
    renderWith(storeWith([]), <Composer send={() => undefined} />)
    expect(document.querySelector('[data-weft="composer-dictate"]')).toBeNull()
    expect(document.querySelector('[data-weft="voice-status"]')).toBeNull()
    expect(screen.getAllByRole('button')).toHaveLength(1)
  })

  it('draws nothing when the adapter says it cannot work here', () => {
    composer(handDictation(false))
    expect(document.querySelector('[data-weft="composer-dictate"]')).toBeNull()
  })

  it('a press listens in the language set; interim words show live at the caret and final ones settle, around the typed text', async () => {
    const { adapter } = composer()
    const button = screen.getByRole('button', { name: 'Dictate' })
    expect(button.getAttribute('data-state')).toBe('idle')
    await userEvent.click(field())
    await userEvent.keyboard('Book a table  please')
    // The caret between the two spaces: after "table ".
    field().setSelectionRange(13, 13)
    await userEvent.click(button)
    const session = adapter.last()
    expect(session.options).toEqual({ lang: 'en-GB' })
    expect(button.getAttribute('data-state')).toBe('listening')
    expect(button.getAttribute('aria-label')).toBe('Stop dictation')
    act(() => session.started())
    expect(document.querySelector('[data-weft="voice-status"]')!.textContent).toBe('Listening…')

    act(() => session.interim('for'))
    expect(field().value).toBe('Book a table for please')
    act(() => session.interim('for two'))
    expect(field().value).toBe('Book a table for two please')
    expect(field().selectionEnd).toBe('Book a table for two'.length)
    act(() => session.final(' for two'))
    expect(field().value).toBe('Book a table for two please')
    // The next words go after the settled ones, spaced.
    act(() => session.interim('at eight'))
    expect(field().value).toBe('Book a table for two at eight please')
    act(() => session.final('at eight'))
    act(() => session.interim(''))
    expect(field().value).toBe('Book a table for two at eight please')
  })

  it('in a field the person has not been in, the words go after its text (its caret would say the start)', async () => {
    const adapter = handDictation()
    renderWith(storeWith([]), <VoiceSettingsProvider dictation={adapter}><Composer send={() => undefined} defaultValue="Book a table" /></VoiceSettingsProvider>)
    expect(field().selectionEnd).toBe(0)
    await userEvent.click(dictateButton())
    act(() => adapter.last().interim('for two'))
    expect(field().value).toBe('Book a table for two')
  })

  it('a second press stops and keeps what was heard, the unsettled words too; the button is idle after the end', async () => {
    const { adapter } = composer()
    await userEvent.click(dictateButton())
    const session = adapter.last()
    act(() => session.interim('hello there'))
    await userEvent.click(dictateButton())
    expect(session.stopped).toBe(true)
    expect(session.cancelled).toBe(false)
    expect(dictateButton().getAttribute('data-state')).toBe('listening')
    act(() => session.end())
    expect(field().value).toBe('hello there')
    expect(dictateButton().getAttribute('data-state')).toBe('idle')
    expect(dictateButton().getAttribute('aria-label')).toBe('Dictate')
    // Words that come after the end are not written.
    act(() => session.final('late'))
    expect(field().value).toBe('hello there')
  })

  it('Escape cancels: the unsettled words go, the settled ones and the typed text stay, and a streaming answer is not stopped', async () => {
    const store = storeWith([{ op: 'stream.status', status: 'streaming' }])
    const adapter = handDictation()
    const stop = vi.fn()
    renderWith(store, <VoiceSettingsProvider dictation={adapter}><Composer send={() => undefined} stop={stop} /></VoiceSettingsProvider>)
    await userEvent.click(field())
    await userEvent.keyboard('Note:')
    await userEvent.click(dictateButton())
    const session = adapter.last()
    act(() => session.final('milk'))
    act(() => session.interim('and eggs'))
    expect(field().value).toBe('Note: milk and eggs')
    field().focus()
    await userEvent.keyboard('{Escape}')
    expect(session.cancelled).toBe(true)
    expect(field().value).toBe('Note: milk')
    expect(dictateButton().getAttribute('data-state')).toBe('idle')
    expect(stop).not.toHaveBeenCalled()
    // The next Escape is the composer's again: it stops the answer.
    await userEvent.keyboard('{Escape}')
    expect(stop).toHaveBeenCalledTimes(1)
  })

  it('a send ends the listening and sends the text as it showed, interim words included', async () => {
    const { adapter, send } = composer()
    await userEvent.click(dictateButton())
    const session = adapter.last()
    act(() => session.final('what time is it'))
    act(() => session.interim('in Tokyo'))
    field().focus()
    await userEvent.keyboard('{Enter}')
    expect(send).toHaveBeenCalledWith('what time is it in Tokyo')
    expect(session.cancelled).toBe(true)
    expect(field().value).toBe('')
    expect(dictateButton().getAttribute('data-state')).toBe('idle')
    act(() => session.final('late words'))
    expect(field().value).toBe('')
  })

  it('typing while it listens keeps the typed words: the interim ones become the person’s and the next go at the caret', async () => {
    const { adapter } = composer()
    await userEvent.click(dictateButton())
    const session = adapter.last()
    act(() => session.interim('first'))
    field().focus()
    field().setSelectionRange(5, 5)
    await userEvent.keyboard('!')
    expect(field().value).toBe('first!')
    act(() => session.final('second'))
    expect(field().value).toBe('first! second')
  })

  it('a failure is shown and announced (permission denied), the button in its error state; a new press clears it', async () => {
    const { adapter } = composer()
    await userEvent.click(dictateButton())
    act(() => {
      adapter.last().error('not-allowed')
      adapter.last().end()
    })
    const status = screen.getByRole('status')
    expect(status.textContent).toBe('Microphone access was denied')
    expect(status.getAttribute('data-state')).toBe('error')
    expect(status.getBoundingClientRect().width).toBeGreaterThan(1)
    expect(dictateButton().getAttribute('data-state')).toBe('error')
    expect(dictateButton().getAttribute('title')).toBe('Microphone access was denied')
    const results = await axe.run(document.body, { rules: { region: { enabled: false } } })
    expect(results.violations).toEqual([])
    await userEvent.click(dictateButton())
    expect(dictateButton().getAttribute('data-state')).toBe('listening')
    expect(screen.getByRole('status').textContent).toBe('')
  })

  it('an adapter that throws shows an error instead of breaking the composer', async () => {
    const throwing = { supported: true, start: () => { throw new Error('boom') } }
    composer(throwing as never)
    await userEvent.click(dictateButton())
    expect(dictateButton().getAttribute('data-state')).toBe('error')
    expect(screen.getByRole('status').textContent).toBe('Dictation failed')
    await userEvent.click(field())
    await userEvent.keyboard('still works')
    expect(field().value).toBe('still works')
  })

  it('is disabled while the conversation takes no send', () => {
    renderWith(storeWith([]), (
      <SendRefusalContext.Provider value={weftError('validation', 'Loading', { code: 'conversation_unavailable' })}>
        <VoiceSettingsProvider dictation={handDictation()}><Composer send={() => undefined} /></VoiceSettingsProvider>
      </SendRefusalContext.Provider>
    ))
    expect(dictateButton().disabled).toBe(true)
  })

  it('unmounting cancels the listening', async () => {
    const adapter = handDictation()
    const { unmount } = renderWith(storeWith([]), <VoiceSettingsProvider dictation={adapter}><Composer send={() => undefined} /></VoiceSettingsProvider>)
    await userEvent.click(dictateButton())
    unmount()
    expect(adapter.last().cancelled).toBe(true)
  })
})

const answer: Op[] = [
  { op: 'turn.open', turnId: 'a1', role: 'assistant' },
  { op: 'message.put', turnId: 'a1', messageId: 'a1/t', type: 'text', role: 'assistant', status: 'done', props: { content: '## Rain\n\nIt rains **today** [1].\n\n```sh\ncurl wttr.in\n```\n\nTake an `umbrella`.' } },
  { op: 'turn.finish', turnId: 'a1', status: 'done' },
  { op: 'turn.open', turnId: 'a2', role: 'assistant' },
  { op: 'message.put', turnId: 'a2', messageId: 'a2/t', type: 'text', role: 'assistant', status: 'done', props: { content: 'Tomorrow is dry.' } },
  { op: 'turn.finish', turnId: 'a2', status: 'done' },
]

describe('read aloud in MessageActions', () => {
  it('is off by default: no read-aloud action without an adapter', () => {
    renderWith(storeWith(answer), <Transcript.Root />)
    expect(screen.getAllByRole('toolbar')).toHaveLength(2)
    expect(document.querySelector('[data-weft="read-aloud"]')).toBeNull()
    expect(screen.queryByRole('button', { name: 'Read aloud' })).toBeNull()
  })

  it('reads the answer as plain text without code blocks or citation markers, is Stop while it speaks, and idle at the end', async () => {
    const adapter = handReadAloud()
    renderWith(storeWith(answer), <VoiceSettingsProvider readAloud={adapter} lang="en-US" speech={{ rate: 1.2 }}><MessageActions turnId="a1" /></VoiceSettingsProvider>)
    const button = screen.getByRole('button', { name: 'Read aloud' })
    expect(button.getAttribute('data-state')).toBe('idle')
    await userEvent.click(button)
    expect(adapter.last().text).toBe('Rain\n\nIt rains today.\n\nTake an umbrella.')
    expect(adapter.last().options).toEqual({ lang: 'en-US', rate: 1.2 })
    expect(button.getAttribute('data-state')).toBe('speaking')
    expect(button.getAttribute('aria-label')).toBe('Stop reading')
    expect(button.textContent).toBe('Stop reading')
    act(() => adapter.last().handlers.onEnd?.())
    expect(button.getAttribute('data-state')).toBe('idle')
    expect(button.textContent).toBe('Read aloud')
  })

  it('Stop silences it; only one answer speaks at a time', async () => {
    const adapter = handReadAloud()
    renderWith(storeWith(answer), <VoiceSettingsProvider readAloud={adapter}><Transcript.Root /></VoiceSettingsProvider>)
    const [first, second] = screen.getAllByRole('button', { name: 'Read aloud' })
    await userEvent.click(first!)
    expect(first!.getAttribute('data-state')).toBe('speaking')
    await userEvent.click(second!)
    expect(adapter.spoken[0]!.cancelled).toBe(true)
    expect(adapter.spoken[1]!.text).toBe('Tomorrow is dry.')
    expect(first!.getAttribute('data-state')).toBe('idle')
    expect(second!.getAttribute('data-state')).toBe('speaking')
    expect(document.querySelectorAll('[data-weft="read-aloud"][data-state="speaking"]')).toHaveLength(1)
    await userEvent.click(second!)
    expect(adapter.spoken[1]!.cancelled).toBe(true)
    expect(second!.getAttribute('data-state')).toBe('idle')
    expect(adapter.spoken).toHaveLength(2)
  })

  it('the chat going away stops the reading: the provider unmounted, or a button without one', async () => {
    const adapter = handReadAloud()
    const { unmount } = renderWith(storeWith(answer), <VoiceSettingsProvider readAloud={adapter}><MessageActions turnId="a2" /></VoiceSettingsProvider>)
    await userEvent.click(screen.getByRole('button', { name: 'Read aloud' }))
    unmount()
    expect(adapter.last().cancelled).toBe(true)
    const alone = handReadAloud()
    const view = renderWith(storeWith([]), <ReadAloudButton adapter={alone} text="Hello." />)
    await userEvent.click(screen.getByRole('button', { name: 'Read aloud' }))
    expect(alone.last().cancelled).toBe(false)
    view.unmount()
    expect(alone.last().cancelled).toBe(true)
  })

  it('a failure is shown and announced beside the action, and axe finds nothing', async () => {
    const adapter = handReadAloud()
    renderWith(storeWith(answer), <VoiceSettingsProvider readAloud={adapter}><MessageActions turnId="a2" /></VoiceSettingsProvider>)
    await userEvent.click(screen.getByRole('button', { name: 'Read aloud' }))
    act(() => {
      adapter.last().handlers.onError?.({ code: 'not-allowed', message: 'not-allowed' })
      adapter.last().handlers.onEnd?.()
    })
    expect(screen.getByRole('status').textContent).toBe('The browser did not allow speech')
    expect(document.querySelector('[data-weft="read-aloud"]')!.getAttribute('data-state')).toBe('error')
    const results = await axe.run(document.body, { rules: { region: { enabled: false } } })
    expect(results.violations).toEqual([])
  })
})

/** A scripted SpeechRecognition: each instance is recorded, and the test fires its events. */
function scriptedRecognition() {
  const made: Array<SpeechRecognitionLike & { started: boolean; stopped: boolean; aborted: boolean }> = []
  class Recognition implements SpeechRecognitionLike {
    lang = ''
    continuous = false
    interimResults = false
    maxAlternatives = 0
    onstart: SpeechRecognitionLike['onstart'] = null
    onresult: SpeechRecognitionLike['onresult'] = null
    onerror: SpeechRecognitionLike['onerror'] = null
    onend: SpeechRecognitionLike['onend'] = null
    started = false
    stopped = false
    aborted = false
    constructor() { made.push(this) }
    start() { this.started = true }
    stop() { this.stopped = true }
    abort() { this.aborted = true }
  }
  return { Recognition, made }
}

const results = (resultIndex: number, ...items: Array<[string, boolean]>): SpeechRecognitionResultEventLike => ({
  resultIndex,
  results: items.map(([transcript, isFinal]) => Object.assign([{ transcript }], { isFinal })),
})

describe('webSpeechDictation', () => {
  it('sets up the recognition (language, continuous, interim results) and reports interim and final words', () => {
    const { Recognition, made } = scriptedRecognition()
    const adapter = webSpeechDictation({ recognition: Recognition, lang: 'en-US' })
    expect(adapter.supported).toBe(true)
    const seen: string[] = []
    adapter.start({ lang: 'fr-FR' }, { onStart: () => seen.push('start'), onInterim: (t) => seen.push(`~${t}`), onFinal: (t) => seen.push(`=${t}`), onEnd: () => seen.push('end') })
    const r = made[0]!
    expect([r.lang, r.continuous, r.interimResults, r.maxAlternatives, r.started]).toEqual(['fr-FR', true, true, 1, true])
    r.onstart!({})
    r.onresult!(results(0, ['bonjour', false]))
    r.onresult!(results(0, ['bonjour', true], [' à', false]))
    r.onresult!(results(1, ['bonjour', true], [' à tous', true]))
    r.onend!({})
    r.onend!({})
    expect(seen).toEqual(['start', '~bonjour', '=bonjour', '~ à', '= à tous', '~', 'end'])
  })

  it('stop() stops the recognition; cancel() aborts it and reports nothing but the end, not even its `aborted`', () => {
    const { Recognition, made } = scriptedRecognition()
    const adapter = webSpeechDictation({ recognition: Recognition })
    const seen: string[] = []
    const handlers = { onFinal: (t: string) => seen.push(t), onError: (e: VoiceError) => seen.push(e.code), onEnd: () => seen.push('end') }
    adapter.start({}, handlers).stop()
    expect(made[0]!.stopped).toBe(true)
    expect(made[0]!.lang).toBe('')
    const session = adapter.start({}, handlers)
    session.cancel()
    expect(made[1]!.aborted).toBe(true)
    made[1]!.onresult!(results(0, ['late', true]))
    made[1]!.onerror!({ error: 'aborted' })
    made[1]!.onend!({})
    expect(seen).toEqual(['end'])
  })

  it('maps the recognition’s errors to typed ones', () => {
    const { Recognition, made } = scriptedRecognition()
    const adapter = webSpeechDictation({ recognition: Recognition })
    const codes: string[] = []
    for (const error of ['not-allowed', 'service-not-allowed', 'no-speech', 'audio-capture', 'network', 'aborted', 'language-not-supported', 'bad-grammar']) {
      adapter.start({}, { onFinal: () => undefined, onError: (e) => codes.push(e.code) })
      made[made.length - 1]!.onerror!({ error, message: '' })
    }
    expect(codes).toEqual(['not-allowed', 'not-allowed', 'no-speech', 'audio-capture', 'network', 'aborted', 'language', 'service'])
  })

  it('without a recognition it is not supported, and a start reports `unsupported` then the end', async () => {
    const adapter = webSpeechDictation({ recognition: undefined })
    const original = Object.getOwnPropertyDescriptors(window)
    const hidden = ['SpeechRecognition', 'webkitSpeechRecognition'].filter((name) => name in original)
    const saved = hidden.map((name) => [name, (window as never)[name]] as const)
    for (const name of hidden) Object.defineProperty(window, name, { configurable: true, writable: true, value: undefined })
    try {
      expect(adapter.supported).toBe(false)
      const seen: string[] = []
      adapter.start({}, { onFinal: () => undefined, onError: (e) => seen.push(e.code), onEnd: () => seen.push('end') })
      await Promise.resolve()
      expect(seen).toEqual(['unsupported', 'end'])
    } finally {
      for (const [name, value] of saved) Object.defineProperty(window, name, { configurable: true, writable: true, value })
    }
  })

  it('Chromium’s own recognition: supported; headless, with no microphone granted, it reports not-allowed, then the end', async () => {
    const adapter = webSpeechDictation()
    expect(adapter.supported).toBe(true)
    const seen: string[] = []
    await new Promise<void>((resolve) => {
      adapter.start({ lang: 'en-US' }, { onFinal: (t) => seen.push(t), onError: (e) => seen.push(e.code), onEnd: () => { seen.push('end'); resolve() } })
    })
    expect(seen).toEqual(['not-allowed', 'end'])
  })
})

/** A scripted speechSynthesis: it records what it is asked, and the test fires the utterances' events. */
function scriptedSynthesis(voices: Array<Pick<SpeechSynthesisVoice, 'name' | 'lang' | 'voiceURI'>> = []) {
  const queue: Array<InstanceType<SpeechUtteranceConstructor> & { text: string }> = []
  const calls: string[] = []
  const synthesis: SpeechSynthesisLike = {
    speak: (u) => { queue.push(u as never); calls.push('speak') },
    cancel: () => calls.push('cancel'),
    pause: () => calls.push('pause'),
    resume: () => calls.push('resume'),
    getVoices: () => voices as SpeechSynthesisVoice[],
  }
  class Utterance {
    lang = ''
    voice: SpeechSynthesisVoice | null = null
    rate = 1
    pitch = 1
    volume = 1
    onstart: SpeechSynthesisUtterance['onstart'] = null
    onend: SpeechSynthesisUtterance['onend'] = null
    onerror: SpeechSynthesisUtterance['onerror'] = null
    constructor(public text: string) {}
  }
  return { synthesis, utterance: Utterance as unknown as SpeechUtteranceConstructor, queue: queue as unknown as Array<Utterance>, calls }
}

const fire = (u: { onstart: unknown; onend: unknown; onerror: unknown }, type: 'onstart' | 'onend' | 'onerror', error?: string) =>
  (u[type] as (e: unknown) => void)({ error })

describe('webSpeechReadAloud', () => {
  it('cuts a long text into sentences and speaks them in order with the voice, language and rate asked; one start, one end', () => {
    const s = scriptedSynthesis([{ name: 'Daniel', lang: 'en-GB', voiceURI: 'daniel' }, { name: 'Amélie', lang: 'fr-CA', voiceURI: 'amelie' }])
    const adapter = webSpeechReadAloud({ synthesis: s.synthesis, utterance: s.utterance, chunkLength: 20, rate: 1.5 })
    expect(adapter.supported).toBe(true)
    const seen: string[] = []
    adapter.speak('Il pleut. Prenez un parapluie, il fait froid.', { lang: 'fr-FR' }, { onStart: () => seen.push('start'), onEnd: () => seen.push('end') })
    expect(s.calls).toEqual(['cancel', 'speak', 'speak', 'speak'])
    expect(s.queue.map((u) => u.text)).toEqual(['Il pleut.', 'Prenez un parapluie,', 'il fait froid.'])
    expect(s.queue.map((u) => [u.lang, u.voice?.name, u.rate])).toEqual(Array(3).fill(['fr-FR', 'Amélie', 1.5]))
    for (const u of s.queue) {
      fire(u, 'onstart')
      fire(u, 'onend')
    }
    expect(seen).toEqual(['start', 'end'])
  })

  it('a voice named in the options wins; pause and resume reach the synthesis; cancel ends at once and silences it', () => {
    const s = scriptedSynthesis([{ name: 'Daniel', lang: 'en-GB', voiceURI: 'daniel' }, { name: 'Samantha', lang: 'en-US', voiceURI: 'samantha' }])
    const adapter = webSpeechReadAloud({ synthesis: s.synthesis, utterance: s.utterance })
    const seen: string[] = []
    const session = adapter.speak('Hello.', { lang: 'en-GB', voice: 'samantha' }, { onEnd: () => seen.push('end'), onError: (e) => seen.push(e.code) })
    expect(s.queue[0]!.voice?.name).toBe('Samantha')
    session.pause?.()
    session.resume?.()
    session.cancel()
    fire(s.queue[0]!, 'onerror', 'interrupted')
    expect(s.calls).toEqual(['cancel', 'speak', 'pause', 'resume', 'cancel'])
    expect(seen).toEqual(['end'])
  })

  it('a failing utterance reports a typed error, then the end, and silences the rest', () => {
    const s = scriptedSynthesis()
    const adapter = webSpeechReadAloud({ synthesis: s.synthesis, utterance: s.utterance, chunkLength: 10 })
    const seen: string[] = []
    adapter.speak('One two. Three four.', {}, { onError: (e) => seen.push(e.code), onEnd: () => seen.push('end') })
    fire(s.queue[0]!, 'onerror', 'not-allowed')
    fire(s.queue[1]!, 'onerror', 'canceled')
    expect(seen).toEqual(['not-allowed', 'end'])
    expect(s.calls.at(-1)).toBe('cancel')
  })

  it('silenced by another speak on the page (interrupted): it ends, with no error to show', () => {
    const s = scriptedSynthesis()
    const adapter = webSpeechReadAloud({ synthesis: s.synthesis, utterance: s.utterance })
    const seen: string[] = []
    adapter.speak('Hello.', {}, { onError: (e) => seen.push(e.code), onEnd: () => seen.push('end') })
    fire(s.queue[0]!, 'onerror', 'interrupted')
    expect(seen).toEqual(['end'])
  })

  it('speechChunks: sentences, then clauses, then words; a word over the limit stays whole', () => {
    expect(speechChunks('One. Two.', 5)).toEqual(['One.', 'Two.'])
    expect(speechChunks('  spaced\n\n out  ', 50)).toEqual(['spaced out'])
    expect(speechChunks('alpha beta gamma', 11)).toEqual(['alpha beta', 'gamma'])
    expect(speechChunks('Supercalifragilistic word', 5)).toEqual(['Supercalifragilistic', 'word'])
    expect(speechChunks('', 5)).toEqual([])
  })

  it('Chromium’s own speechSynthesis: supported; headless it has no voice, so speaking reports a service error (synthesis-failed), then the end', async () => {
    const adapter = webSpeechReadAloud()
    expect(adapter.supported).toBe(true)
    const seen: VoiceError[] = []
    await new Promise<void>((resolve) => {
      adapter.speak('Hello from weft.', { lang: 'en-US' }, { onError: (e) => seen.push(e), onEnd: resolve })
    })
    expect(seen.map((e) => [e.code, e.message])).toEqual([['service', 'synthesis-failed']])
  })
})

describe('the Web Speech adapters in the components', () => {
  it('a scripted recognition through webSpeechDictation: its results reach the text as a person dictates', async () => {
    const { Recognition, made } = scriptedRecognition()
    renderWith(storeWith([]), <VoiceSettingsProvider dictation={webSpeechDictation({ recognition: Recognition })} lang="en-US"><Composer send={() => undefined} /></VoiceSettingsProvider>)
    await userEvent.click(dictateButton())
    const r = made[0]!
    expect(r.lang).toBe('en-US')
    act(() => r.onstart!({}))
    act(() => r.onresult!(results(0, ['remind me', false])))
    expect(field().value).toBe('remind me')
    act(() => r.onresult!(results(0, ['remind me', true], [' to call', false])))
    expect(field().value).toBe('remind me to call')
    await userEvent.click(dictateButton())
    expect(r.stopped).toBe(true)
    act(() => r.onresult!(results(1, ['remind me', true], [' to call Ana', true])))
    act(() => r.onend!({}))
    expect(field().value).toBe('remind me to call Ana')
    expect(dictateButton().getAttribute('data-state')).toBe('idle')
  })

  it('Chromium’s own recognition through the composer: the refused microphone is shown and announced', async () => {
    renderWith(storeWith([]), <VoiceSettingsProvider dictation={webSpeechDictation()}><Composer send={() => undefined} /></VoiceSettingsProvider>)
    await userEvent.click(dictateButton())
    await waitFor(() => expect(dictateButton().getAttribute('data-state')).toBe('error'))
    expect(screen.getByRole('status').textContent).toBe('Microphone access was denied')
  })

  it('Chromium’s own speechSynthesis through the read-aloud action: its failure is shown, and the action is back to Read aloud', async () => {
    renderWith(storeWith(answer), <VoiceSettingsProvider readAloud={webSpeechReadAloud()}><MessageActions turnId="a2" /></VoiceSettingsProvider>)
    await userEvent.click(screen.getByRole('button', { name: 'Read aloud' }))
    await waitFor(() => expect(document.querySelector('[data-weft="read-aloud"]')!.getAttribute('data-state')).toBe('error'))
    expect(screen.getByRole('status').textContent).toBe('Could not read aloud')
    expect(screen.getByRole('button', { name: 'Read aloud' })).toBeTruthy()
  })
})

describe('the whole chat with voice on', () => {
  it('the dictation button sits between the text and Send; axe finds nothing while it listens and while an answer speaks', async () => {
    const dictation = handDictation()
    const readAloud = handReadAloud()
    renderWith(storeWith(answer), (
      <VoiceSettingsProvider dictation={dictation} readAloud={readAloud}>
        <Transcript.Root />
        <Composer send={() => undefined} />
      </VoiceSettingsProvider>
    ))
    const order = [...document.querySelector('[data-weft="composer"]')!.children].map((el) => el.getAttribute('data-weft'))
    expect(order).toEqual(['composer-input', 'composer-dictate', 'voice-status', 'composer-send'])
    await userEvent.click(dictateButton())
    act(() => dictation.last().interim('hello'))
    await userEvent.click(screen.getAllByRole('button', { name: 'Read aloud' })[0]!)
    await waitFor(() => expect(screen.getByRole('button', { name: 'Stop reading' })).toBeTruthy())
    const found = await axe.run(document.body, { rules: { region: { enabled: false } } })
    expect(found.violations).toEqual([])
  })
})
